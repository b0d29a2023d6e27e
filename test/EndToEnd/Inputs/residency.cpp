// Residency (docs/data-movement.md#residency): an iterative Jacobi, two sweeps a time step, in a
// serial time-step loop whose only host code is the step counter and a pointer swap; the
// compiler opens a residency scope around it. Then two loops in a row with a host scalar update
// between them (the second shape), a host read between two loops, which ends the proof, and a
// loop without regions.
//
//   residency M STEPS
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
    double *tmp = a; // a pointer swap is host code on private scalars
    a = b;
    b = tmp;
  }
}

double consecutive(int n, double *x, double *y) {
  double scale = 0.5;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    y[i] = x[i] * scale;
  }
  scale = scale + 0.25;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    x[i] = y[i] + scale;
  }
  return scale;
}

double hostReadBetween(int n, double *x, double *y) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    y[i] = x[i] + 1.0;
  }
  double first = y[0]; // reads what the loop wrote: no scope around these loops
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    x[i] = y[i] * first;
  }
  return first;
}

// A loop without regions (it touches no array) whose counter is read after it: the GPU runs
// it with no box at all.
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
  int steps = argc > 2 ? std::atoi(argv[2]) : 5;
  std::vector<double> a(size_t(m) * m), b;
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = double(i % 31);
  b = a;
  jacobi(m, steps, a.data(), b.data());
  double s = 0.0;
  for (size_t i = 0; i < a.size(); ++i)
    s += a[i] * double(i % 7 + 1) + b[i];
  std::printf("jacobi %.17g\n", s);
  std::vector<double> x(1000), y(1000);
  for (int i = 0; i < 1000; ++i)
    x[i] = i * 0.5;
  double sc = consecutive(1000, x.data(), y.data());
  double f = hostReadBetween(1000, x.data(), y.data());
  double t = 0.0;
  for (int i = 0; i < 1000; ++i)
    t += x[i] + 2.0 * y[i];
  std::printf("loops %.17g %.17g %.17g %d\n", sc, f, t, lastIndex(m));
  return 0;
}
