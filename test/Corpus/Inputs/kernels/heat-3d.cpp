/* heat-3d: time-stepped 7-point heat equation in 3-D, ping-pong between two fixed-size
 * arrays; the second sweep collapses all three dimensions. */
#include "corpus.h"

#define N 14
#define TSTEPS 8

static double A[N][N][N], B[N][N][N];

static void kernel_heat_3d(int tsteps, int n, double A[N][N][N], double B[N][N][N])
{
  int t, i, j, k;

  for (t = 1; t <= tsteps; t++) {
    /* loop a2b: parallel; omp: private(j, k) */
    [[cluster::gpu_parallel]]
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        for (k = 1; k < n - 1; k++)
          B[i][j][k] = 0.125 * (A[i + 1][j][k] - 2.0 * A[i][j][k] + A[i - 1][j][k]) +
                       0.125 * (A[i][j + 1][k] - 2.0 * A[i][j][k] + A[i][j - 1][k]) +
                       0.125 * (A[i][j][k + 1] - 2.0 * A[i][j][k] + A[i][j][k - 1]) +
                       A[i][j][k];
    /* loop b2a: parallel */
    [[cluster::gpu_parallel(collapse(3))]]
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        for (k = 1; k < n - 1; k++)
          A[i][j][k] = 0.125 * (B[i + 1][j][k] - 2.0 * B[i][j][k] + B[i - 1][j][k]) +
                       0.125 * (B[i][j + 1][k] - 2.0 * B[i][j][k] + B[i][j - 1][k]) +
                       0.125 * (B[i][j][k + 1] - 2.0 * B[i][j][k] + B[i][j][k - 1]) +
                       B[i][j][k];
  }
}

int main(void)
{
  int i, j, k;

  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      for (k = 0; k < N; k++)
        A[i][j][k] = B[i][j][k] = (double)(i + j + (N - k)) * 10 / N;
  kernel_heat_3d(TSTEPS, N, A, B);
  print_array("A", &A[0][0][0], N * N * N);
  return 0;
}
