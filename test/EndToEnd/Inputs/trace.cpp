// CLUSTRIX_TRACE (docs/runtime.md#trace): loops that move data every way the runtime moves it.
// A Jacobi in a time-step loop (a residency scope: halo rows between devices, results back at
// the scope's end), a sum (reduction partials copied back), a loop with a host read after it
// (boxes copied in and out each call) and a loop without regions.
//
//   trace M STEPS
#include <cstdio>
#include <cstdlib>
#include <vector>

void jacobi(int m, int steps, double *a, double *b) {
  for (int t = 0; t < steps; ++t) {
    [[cluster::gpu_parallel]]
    for (int i = 1; i < m - 1; ++i) {
      for (int j = 1; j < m - 1; ++j)
        b[i * m + j] = 0.25 * (a[(i - 1) * m + j] + a[(i + 1) * m + j] + a[i * m + j - 1] +
                               a[i * m + j + 1]);
    }
    double *tmp = a;
    a = b;
    b = tmp;
  }
}

double sum(int n, const double *x) {
  double s = 0.0;
  [[cluster::gpu_parallel(reduce(+: s))]]
  for (int i = 0; i < n; ++i) {
    s += x[i] * 0.5;
  }
  return s;
}

double scaled(int n, double *x, double *y) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    y[i] = x[i] * 3.0 + 1.0;
  }
  return y[n / 2]; // a host read: no residency scope around the loop
}

int lastIndex(int n) {
  int i;
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; ++i) {
    double t = i * 0.5;
    (void)t;
  }
  return i;
}

int main(int argc, char **argv) {
  int m = argc > 1 ? std::atoi(argv[1]) : 64;
  int steps = argc > 2 ? std::atoi(argv[2]) : 4;
  std::vector<double> a(size_t(m) * m), b;
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = double(i % 31);
  b = a;
  jacobi(m, steps, a.data(), b.data());
  double s = 0.0;
  for (size_t i = 0; i < a.size(); ++i)
    s += a[i] * double(i % 7 + 1) + b[i];
  std::vector<double> x(5000), y(5000);
  for (int i = 0; i < 5000; ++i)
    x[i] = i * 0.25;
  double r = 0.0;
  for (int k = 0; k < 3; ++k)
    r += sum(5000, x.data()) + scaled(5000, x.data(), y.data());
  std::printf("%.17g %.17g %d\n", s, r, lastIndex(m));
  return 0;
}
