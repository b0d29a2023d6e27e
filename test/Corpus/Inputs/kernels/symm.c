/* symm: C := alpha*A*B + beta*C with A symmetric, only its lower triangle stored (BLAS-3).
 * Iteration i adds into the rows above it, so the row loop is sequential; the column loop is
 * parallel, with the dot product kept in a scalar declared at the top. */
#include "corpus.h"

#define M 28
#define N 32

static double A[M][M], B[M][N], C[M][N];

static void kernel_symm(int m, int n, double alpha, double beta, double C[M][N],
                        double A[M][M], double B[M][N])
{
  int i, j, k;
  double temp2;

  /* loop rows: sequential (iteration i adds into rows k < i, which iteration k has scaled); omp: private(j, k, temp2) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < m; i++) {
    /* loop cols: parallel; omp: private(k, temp2) */
    [[cluster::gpu_parallel]]
    for (j = 0; j < n; j++) {
      temp2 = 0.0;
      for (k = 0; k < i; k++) {
        C[k][j] += alpha * B[i][j] * A[i][k];
        temp2 += B[k][j] * A[i][k];
      }
      C[i][j] = beta * C[i][j] + alpha * B[i][j] * A[i][i] + alpha * temp2;
    }
  }
}

int main(void)
{
  int i, j;

  for (i = 0; i < M; i++) {
    for (j = 0; j < N; j++) {
      C[i][j] = (double)((i + j) % 100) / M;
      B[i][j] = (double)((N + i - j) % 100) / M;
    }
    for (j = 0; j <= i; j++)
      A[i][j] = (double)((i + j) % 100) / M;
    for (j = i + 1; j < M; j++)
      A[i][j] = -999.0; /* never read */
  }
  kernel_symm(M, N, 1.5, 1.2, C, A, B);
  print_array("C", &C[0][0], M * N);
  return 0;
}
