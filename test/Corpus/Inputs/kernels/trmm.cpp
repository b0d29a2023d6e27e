/* trmm: B := alpha*A'*B with A unit lower triangular (BLAS-3). Row i of the result reads the
 * rows below it before they are overwritten, so the row loop is sequential; the columns are
 * independent. */
#include "corpus.h"

#define M 30
#define N 34

static double A[M][M], B[M][N];

static void kernel_trmm(int m, int n, double alpha, double A[M][M], double B[M][N])
{
  int i, j, k;

  /* loop rows: sequential (row i reads rows k > i before later iterations overwrite them); omp: private(j, k) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < m; i++) {
    /* loop cols: parallel; omp: private(k) */
    [[cluster::gpu_parallel]]
    for (j = 0; j < n; j++) {
      for (k = i + 1; k < m; k++)
        B[i][j] += A[k][i] * B[k][j];
      B[i][j] = alpha * B[i][j];
    }
  }
}

int main(void)
{
  int i, j;

  for (i = 0; i < M; i++) {
    for (j = 0; j < i; j++)
      A[i][j] = (double)((i + j) % M) / M;
    A[i][i] = 1.0;
    for (j = 0; j < N; j++)
      B[i][j] = (double)((N + (i - j)) % N) / N;
  }
  kernel_trmm(M, N, 1.5, A, B);
  print_array("B", &B[0][0], M * N);
  return 0;
}
