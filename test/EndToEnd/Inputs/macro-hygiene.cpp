// The command line's macros (-DN=3 -DOk=1 -DCount=2 -DT=int ...) keep out of the runtime's header
// and of the names the generated code takes from it; the program's own macros (N, NT in a
// clause, REAL for a private's type) still reach the loop and what is generated from it.
#include <cstdio>
#include <vector>
int main() {
  std::vector<double> a(1000), b(1000);
  for (int i = 0; i < 1000; i++) b[i] = i % 7;
  REAL t;
  const double *p = b.data();
  [[cluster::gpu_parallel(extent(p, NT))]]
  for (int i = 0; i < 1000; i++) {
    t = p[(i * 7) % NT] * 2;
    a[i] = t + N;
  }
  double s = 0;
  for (double x : a) s += x;
  std::printf("%.1f\n", s);
}
