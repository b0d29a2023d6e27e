#include "openmp-kernels.h"
#include <stdio.h>

#define N 100000
static double a[N], b[N], c[N];

int main(void) {
  int i;
  double t, s = 0, m = 0;
  for (i = 0; i < N; i++)
    a[i] = (i % 17) * 0.5;
#pragma omp parallel for private(t)
  for (i = 0; i < N; i++) {
    t = a[i] * 2;
    b[i] = t + 1;
  }
#pragma omp parallel for reduction(+: s) schedule(static, 64)
  for (i = 0; i < N; i++)
    s += b[i];
#pragma omp parallel
  {
#pragma omp for reduction(max: m)
    for (i = 0; i < N; i++)
      if (b[i] > m)
        m = b[i];
  }
  // A race as written: the front door runs it serially.
#pragma omp parallel for
  for (i = 1; i < N; i++)
    c[i] = c[i - 1] + a[i];
  scale(N, 0.5, b);
  printf("%.3f %.3f %.3f %.3f\n", s, m, c[N - 1], b[7]);
  return 0;
}
