/* jacobi-2d: time-stepped 5-point stencil between the two arrays of a grid struct passed by
 * reference (members as the arrays' roots); the second sweep is collapsed. */
#include "corpus.h"

#define N 40
#define TSTEPS 12

struct Grid {
  double a[N][N];
  double b[N][N];
};

static Grid grid;

static void kernel_jacobi_2d(int tsteps, int n, Grid &g)
{
  int t, i, j;

  for (t = 0; t < tsteps; t++) {
    /* loop a2b: parallel; omp: private(j) */
    [[cluster::gpu_parallel]]
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        g.b[i][j] = 0.2 * (g.a[i][j] + g.a[i][j - 1] + g.a[i][1 + j] + g.a[1 + i][j] +
                           g.a[i - 1][j]);
    /* loop b2a: parallel */
    [[cluster::gpu_parallel(collapse(2))]]
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        g.a[i][j] = 0.2 * (g.b[i][j] + g.b[i][j - 1] + g.b[i][1 + j] + g.b[1 + i][j] +
                           g.b[i - 1][j]);
  }
}

int main(void)
{
  int i, j;

  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      grid.a[i][j] = ((double)i * (j + 2) + 2) / N;
      grid.b[i][j] = ((double)i * (j + 3) + 3) / N;
    }
  kernel_jacobi_2d(TSTEPS, N, grid);
  print_array("A", &grid.a[0][0], N * N);
  return 0;
}
