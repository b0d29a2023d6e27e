/* redblack: red-black successive over-relaxation for the Poisson equation. Red points (i + j
 * even) read only black neighbours and black points only red ones, so each colour's sweep is
 * parallel over the rows; the inner loop starts at 1 or 2 by the row's parity, with step 2. */
#include "corpus.h"

#define N 34
#define TSTEPS 8

static double u[N][N], f[N][N];

static void kernel_redblack(int tsteps, int n, double omega, double h2, double u[N][N],
                            double f[N][N])
{
  int t, i, j;

  for (t = 0; t < tsteps; t++) {
    /* loop red: parallel; omp: private(j) */
    [[cluster::gpu_parallel]]
    for (i = 1; i < n - 1; i++)
      for (j = 1 + (i + 1) % 2; j < n - 1; j += 2)
        u[i][j] = (1.0 - omega) * u[i][j] +
                  omega * 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1] -
                                  h2 * f[i][j]);
    /* loop black: parallel; omp: private(j) */
    [[cluster::gpu_parallel]]
    for (i = 1; i < n - 1; i++)
      for (j = 1 + i % 2; j < n - 1; j += 2)
        u[i][j] = (1.0 - omega) * u[i][j] +
                  omega * 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1] -
                                  h2 * f[i][j]);
  }
}

int main(void)
{
  int i, j;

  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      u[i][j] = (i == 0 || j == 0) ? 1.0 : 0.0;
      f[i][j] = (double)((i * 5 + j * 3) % 9) / 9;
    }
  kernel_redblack(TSTEPS, N, 1.5, 1.0 / (N * N), u, f);
  print_array("u", &u[0][0], N * N);
  return 0;
}
