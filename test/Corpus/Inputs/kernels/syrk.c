/* syrk: C := alpha*A*A' + beta*C on the lower triangle (BLAS-3): triangular inner loops. */
#include "corpus.h"

#define N 32
#define M 28

static double A[N][M], C[N][N];

static void kernel_syrk(int n, int m, double alpha, double beta, double C[N][N],
                        double A[N][M])
{
  int i, j, k;

  /* loop rows: parallel; omp: private(j, k) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++) {
    for (j = 0; j <= i; j++)
      C[i][j] *= beta;
    for (k = 0; k < m; k++)
      for (j = 0; j <= i; j++)
        C[i][j] += alpha * A[i][k] * A[j][k];
  }
}

int main(void)
{
  int i, j;

  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++)
      A[i][j] = (double)((i * j + 1) % N) / N;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      C[i][j] = (double)((i * j + 2) % M) / M;
  kernel_syrk(N, M, 1.5, 1.2, C, A);
  print_array("C", &C[0][0], N * N);
  return 0;
}
