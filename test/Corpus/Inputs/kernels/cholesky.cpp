/* cholesky: A = L*L' for a symmetric positive definite A, left-looking by columns, L written
 * over the lower triangle of a flat
 * row-major matrix. The column loop is sequential; the rows below the diagonal are
 * independent, with the running dot product in a scalar declared at the top. */
#include <cmath>
#include "corpus.h"

#define N 32

static double A[N * N];

static void kernel_cholesky(int n, double *A)
{
  int i, j, k;
  double s;

  /* loop column: sequential (column j needs columns 0..j-1); omp: private(i, k, s) */
  [[cluster::gpu_parallel]]
  for (j = 0; j < n; j++) {
    s = A[j * n + j];
    for (k = 0; k < j; k++)
      s -= A[j * n + k] * A[j * n + k];
    A[j * n + j] = sqrt(s);
    /* loop below: parallel; omp: private(k, s) */
    [[cluster::gpu_parallel]]
    for (i = j + 1; i < n; i++) {
      s = A[i * n + j];
      for (k = 0; k < j; k++)
        s -= A[i * n + k] * A[j * n + k];
      A[i * n + j] = s / A[j * n + j];
    }
  }
}

int main(void)
{
  int i, j, k;
  static double M[N][N];

  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      M[i][j] = (double)((i * 5 + j * 3 + 1) % N) / N;
  /* A = M*M' + N*I is symmetric positive definite */
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      A[i * N + j] = i == j ? N : 0.0;
      for (k = 0; k < N; k++)
        A[i * N + j] += M[i][k] * M[j][k];
    }
  kernel_cholesky(N, A);
  print_array("A", A, N * N);
  return 0;
}
