/* gramschmidt: QR decomposition by modified Gram-Schmidt, A (m x n) := Q*R, with C99
 * variable-length arrays. The column steps are sequential; within a step the norm is a
 * floating-point sum reduction and the projections of the later columns are independent. */
#include <math.h>
#include "corpus.h"

#define M 30
#define N 24

static double A[M][N], R[N][N], Q[M][N];

static void kernel_gramschmidt(int m, int n, double A[m][n], double R[n][n], double Q[m][n])
{
  int i, j, k;
  double nrm;

  /* loop step: sequential (step k works on the columns that earlier steps updated); omp: private(i, j, nrm) */
  [[cluster::gpu_parallel]]
  for (k = 0; k < n; k++) {
    nrm = 0.0;
    /* loop norm: parallel */
    [[cluster::gpu_parallel(reduce(+: nrm))]]
    for (i = 0; i < m; i++)
      nrm += A[i][k] * A[i][k];
    R[k][k] = sqrt(nrm);
    /* loop q: parallel */
    [[cluster::gpu_parallel]]
    for (i = 0; i < m; i++)
      Q[i][k] = A[i][k] / R[k][k];
    /* loop project: parallel; omp: private(i) */
    [[cluster::gpu_parallel]]
    for (j = k + 1; j < n; j++) {
      R[k][j] = 0.0;
      for (i = 0; i < m; i++)
        R[k][j] += Q[i][k] * A[i][j];
      for (i = 0; i < m; i++)
        A[i][j] = A[i][j] - Q[i][k] * R[k][j];
    }
  }
}

int main(void)
{
  int i, j;

  for (i = 0; i < M; i++)
    for (j = 0; j < N; j++) {
      A[i][j] = (double)((i * 7 + j * 13 + i * j) % 29) / 29 + (i == j ? 3.0 : 0.0);
      Q[i][j] = 0.0;
    }
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      R[i][j] = 0.0;
  kernel_gramschmidt(M, N, A, R, Q);
  print_array("R", &R[0][0], N * N);
  print_array("Q", &Q[0][0], M * N);
  return 0;
}
