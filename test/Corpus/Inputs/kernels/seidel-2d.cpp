/* seidel-2d: Gauss-Seidel 9-point sweeps in place. Every point reads neighbours already
 * updated in the same sweep, so both spatial loops are sequential: negative cases. */
#include "corpus.h"

#define N 36
#define TSTEPS 6

static double A[N][N];

static void kernel_seidel_2d(int tsteps, int n, double A[N][N])
{
  int t, i, j;

  for (t = 0; t <= tsteps - 1; t++)
    /* loop rows: sequential (row i reads row i-1 of the same sweep); omp: private(j) */
    [[cluster::gpu_parallel]]
    for (i = 1; i <= n - 2; i++)
      /* loop cols: sequential (A[i][j] reads A[i][j-1] of the same sweep) */
      [[cluster::gpu_parallel]]
      for (j = 1; j <= n - 2; j++)
        A[i][j] = (A[i - 1][j - 1] + A[i - 1][j] + A[i - 1][j + 1] + A[i][j - 1] + A[i][j] +
                   A[i][j + 1] + A[i + 1][j - 1] + A[i + 1][j] + A[i + 1][j + 1]) / 9.0;
}

int main(void)
{
  int i, j;

  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      A[i][j] = ((double)i * (j + 2) + 2) / N;
  kernel_seidel_2d(TSTEPS, N, A);
  print_array("A", &A[0][0], N * N);
  return 0;
}
