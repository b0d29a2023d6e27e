// The command line's macros (-DN=4 -DC=2 -DT=int -DOk=1 -DCount=3 -DrunLoop=x ...) keep out of
// the runtime's header and of the names the generated code uses; the loop's own N and C stay.
#include <cstdio>
#include <vector>
int main() {
  std::vector<double> a(1000), b(1000);
  for (int i = 0; i < 1000; i++) b[i] = i % 7;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < 1000; i++)
    a[i] = b[i] * N + C;
  double s = 0;
  for (double x : a) s += x;
  std::printf("%.1f\n", s);
}
