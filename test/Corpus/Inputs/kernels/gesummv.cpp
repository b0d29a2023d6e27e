/* gesummv: y := alpha*A*x + beta*B*x (BLAS-2), netlib style: flat row-major matrices behind
 * pointers, the two dot products in scalars declared at the top. */
#include "corpus.h"

#define N 44

static double A[N * N], B[N * N], x[N], y[N];

static void kernel_gesummv(int n, double alpha, double beta, const double *A,
                           const double *B, const double *x,
                           double *y)
{
  int i, j;
  double t1, t2;

  /* loop rows: parallel; omp: private(j, t1, t2) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++) {
    t1 = 0.0;
    t2 = 0.0;
    for (j = 0; j < n; j++) {
      t1 += A[i * n + j] * x[j];
      t2 += B[i * n + j] * x[j];
    }
    y[i] = alpha * t1 + beta * t2;
  }
}

int main(void)
{
  int i, j;

  for (i = 0; i < N; i++) {
    x[i] = (double)(i % N) / N;
    for (j = 0; j < N; j++) {
      A[i * N + j] = (double)((i * j + 1) % N) / N;
      B[i * N + j] = (double)((i * j + 2) % N) / N;
    }
  }
  kernel_gesummv(N, 1.5, 1.2, A, B, x, y);
  print_array("y", y, N);
  return 0;
}
