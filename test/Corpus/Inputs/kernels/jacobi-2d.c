/* jacobi-2d: time-stepped 5-point stencil between two arrays; the second sweep is collapsed. */
#include "corpus.h"

#define N 40
#define TSTEPS 12

static double A[N][N], B[N][N];

static void kernel_jacobi_2d(int tsteps, int n, double A[N][N], double B[N][N])
{
  int t, i, j;

  for (t = 0; t < tsteps; t++) {
    /* loop a2b: parallel; omp: private(j) */
    [[cluster::gpu_parallel]]
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][1 + j] + A[1 + i][j] + A[i - 1][j]);
    /* loop b2a: parallel */
    [[cluster::gpu_parallel(collapse(2))]]
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][1 + j] + B[1 + i][j] + B[i - 1][j]);
  }
}

int main(void)
{
  int i, j;

  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      A[i][j] = ((double)i * (j + 2) + 2) / N;
      B[i][j] = ((double)i * (j + 3) + 3) / N;
    }
  kernel_jacobi_2d(TSTEPS, N, A, B);
  print_array("A", &A[0][0], N * N);
  return 0;
}
