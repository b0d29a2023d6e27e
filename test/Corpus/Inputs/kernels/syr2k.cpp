/* syr2k: C := alpha*A*B' + alpha*B*A' + beta*C on the lower triangle (BLAS-3), with row
 * pointers (double (*C)[N]) as parameters. */
#include "corpus.h"

#define N 30
#define M 26

static double A[N][M], B[N][M], C[N][N];

static void kernel_syr2k(int n, int m, double alpha, double beta, double (*C)[N],
                         double (*A)[M], double (*B)[M])
{
  int i, j, k;

  /* loop rows: parallel; omp: private(j, k) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++) {
    for (j = 0; j <= i; j++)
      C[i][j] *= beta;
    for (k = 0; k < m; k++)
      for (j = 0; j <= i; j++)
        C[i][j] += A[j][k] * alpha * B[i][k] + B[j][k] * alpha * A[i][k];
  }
}

int main(void)
{
  int i, j;

  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++) {
      A[i][j] = (double)((i * j + 1) % N) / N;
      B[i][j] = (double)((i * j + 2) % M) / M;
    }
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      C[i][j] = (double)((i * j + 3) % N) / M;
  kernel_syr2k(N, M, 1.5, 1.2, C, A, B);
  print_array("C", &C[0][0], N * N);
  return 0;
}
