/* The shape of the C that a C translation unit becomes (test/Rewrite/c-shape.test). */
#include <stdlib.h>

static double twice(double v) { return 2 * v; }

double apply(int n, double a, const double *restrict x, double *restrict y, double scratch[4]) {
  double sum = 0, t;
  int i;
  [[cluster::gpu_parallel(schedule(cyclic, 64), reduce(+: sum), extent(scratch, 4))]]
  for (i = 0; i < n; i++) {
    t = a * twice(x[i]);
    y[i] = t + scratch[i % 4];
    sum += y[i];
  }
  return sum + t + i;
}

void grid(int n, int m, float g[n][m], const float *restrict row) {
  [[cluster::gpu_parallel(collapse(2))]]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      g[i][j] = row[j] * (float)i;
}
