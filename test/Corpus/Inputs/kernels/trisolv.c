/* trisolv: solve L*x = b for a lower triangular L, by rows, on a flat matrix. The row loop is
 * the sequential recurrence; each row's dot product is a floating-point sum that an OpenMP
 * programmer would parallelize with a reduction. */
#include "corpus.h"

#define N 60

static double L[N * N], b[N], x[N];

static void kernel_trisolv(int n, const double *L, const double *b, double *x)
{
  int i, j;
  double t;

  /* loop rows: sequential (x[i] needs x[0..i-1]); omp: private(j, t) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++) {
    t = b[i];
    /* loop dot: parallel */
    [[cluster::gpu_parallel(reduce(+: t))]]
    for (j = 0; j < i; j++)
      t -= L[i * n + j] * x[j];
    x[i] = t / L[i * n + i];
  }
}

int main(void)
{
  int i, j;

  for (i = 0; i < N; i++) {
    x[i] = -999.0;
    b[i] = i;
    for (j = 0; j <= i; j++)
      L[i * N + j] = (double)(i + N - j + 1) * 2 / N;
    for (j = i + 1; j < N; j++)
      L[i * N + j] = 0.0;
  }
  kernel_trisolv(N, L, b, x);
  print_array("x", x, N);
  return 0;
}
