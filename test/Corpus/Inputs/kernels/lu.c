/* lu: in-place LU decomposition without pivoting (Doolittle, right-looking), on a C99
 * variable-length array. The elimination steps are sequential; within a step the rows below
 * the pivot are independent (a triangular loop: its start depends on the step). */
#include "corpus.h"

#define N 36

static double A[N][N];

static void kernel_lu(int n, double A[n][n])
{
  int i, j, k;

  /* loop step: sequential (step k reads the rows that step k-1 updated); omp: private(i, j) */
  [[cluster::gpu_parallel]]
  for (k = 0; k < n; k++) {
    /* loop update: parallel; omp: private(j) */
    [[cluster::gpu_parallel]]
    for (i = k + 1; i < n; i++) {
      A[i][k] = A[i][k] / A[k][k];
      for (j = k + 1; j < n; j++)
        A[i][j] = A[i][j] - A[i][k] * A[k][j];
    }
  }
}

int main(void)
{
  int i, j;

  for (i = 0; i < N; i++) {
    for (j = 0; j < N; j++)
      A[i][j] = (double)((i * 7 + j * 3) % N) / N;
    A[i][i] += N;
  }
  kernel_lu(N, A);
  print_array("A", &A[0][0], N * N);
  return 0;
}
