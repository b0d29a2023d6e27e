/* atax: y := A'*(A*x) (BLAS-2) on a flat row-major matrix. The two products are parallel
 * over their output; the fused form, where every row adds into all of y, is not. */
#include "corpus.h"

#define M 38
#define N 42

static double A[M * N], x[N], y[N], yfused[N], tmp[M];

static void kernel_atax(int m, int n, const double *A, const double *x,
                        double *y, double *yfused, double *tmp)
{
  int i, j;

  /* loop ax: parallel; omp: private(j) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < m; i++) {
    tmp[i] = 0.0;
    for (j = 0; j < n; j++)
      tmp[i] = tmp[i] + A[i * n + j] * x[j];
  }

  /* loop aty: parallel; omp: private(i) */
  [[cluster::gpu_parallel]]
  for (j = 0; j < n; j++) {
    y[j] = 0.0;
    for (i = 0; i < m; i++)
      y[j] = y[j] + A[i * n + j] * tmp[i];
  }

  for (j = 0; j < n; j++)
    yfused[j] = 0.0;
  /* loop fused: sequential (every row adds into every element of yfused); omp: private(j) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++)
      yfused[j] = yfused[j] + A[i * n + j] * tmp[i];
}

int main(void)
{
  int i, j;
  double fn = (double)N;

  for (i = 0; i < N; i++)
    x[i] = 1 + (i / fn);
  for (i = 0; i < M; i++)
    for (j = 0; j < N; j++)
      A[i * N + j] = (double)((i + j) % N) / (5 * M);
  kernel_atax(M, N, A, x, y, yfused, tmp);
  print_array("y", y, N);
  print_array("yfused", yfused, N);
  return 0;
}
