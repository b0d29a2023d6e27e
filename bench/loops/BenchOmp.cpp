// The OpenMP `parallel for` variants of the loops in BenchLoops.cpp, line for line the same
// bodies. Compiled with clang++-19 -O2 -fopenmp.
#include "BenchLoops.h"

namespace bench {

void saxpyOmp(long n, double a, const double *x, double *y) {
#pragma omp parallel for
  for (long i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}

double dotOmp(long n, const double *x, const double *y) {
  double s = 0.0;
#pragma omp parallel for reduction(+ : s)
  for (long i = 0; i < n; ++i)
    s += x[i] * y[i];
  return s;
}

void jacobiOmp(int m, const double *a, double *b) {
#pragma omp parallel for
  for (int i = 1; i < m - 1; ++i)
    for (int j = 1; j < m - 1; ++j)
      b[i * m + j] = 0.25 * (a[(i - 1) * m + j] + a[(i + 1) * m + j] + a[i * m + j - 1] +
                             a[i * m + j + 1]);
}

void tracesOmp(int count, const double *a, const double *b, double *c, double *tr) {
#pragma omp parallel for
  for (int k = 0; k < count; ++k) {
    for (int i = 0; i < S; ++i)
      for (int j = 0; j < S; ++j) {
        double s = 0.0;
        for (int l = 0; l < S; ++l)
          s += a[k * SS + i * S + l] * b[k * SS + l * S + j];
        c[k * SS + i * S + j] = s;
      }
    double t = 0.0;
    for (int i = 0; i < S; ++i)
      t += c[k * SS + i * S + i];
    tr[k] = t;
  }
}

void pathsOmp(long n, double *out) {
#pragma omp parallel for
  for (long p = 0; p < n; ++p)
    out[p] = pathValue(p);
}

} // namespace bench
