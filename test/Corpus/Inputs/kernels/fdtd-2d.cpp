/* fdtd-2d: 2-D finite-difference time-domain (Yee) update of the fields ex, ey and hz, with
 * a source term that depends on the time step. The time loop is sequential; each field update
 * is parallel. */
#include "corpus.h"

#define NX 30
#define NY 34
#define TMAX 10

static double ex[NX][NY], ey[NX][NY], hz[NX][NY], fict[TMAX];

static void kernel_fdtd_2d(int tmax, int nx, int ny, double ex[NX][NY], double ey[NX][NY],
                           double hz[NX][NY], double fict[TMAX])
{
  int t, i, j;

  /* loop time: sequential (each step updates the fields the previous step left); omp: private(i, j) */
  [[cluster::gpu_parallel]]
  for (t = 0; t < tmax; t++) {
    /* loop source: parallel */
    [[cluster::gpu_parallel]]
    for (j = 0; j < ny; j++)
      ey[0][j] = fict[t];
    /* loop ey: parallel */
    [[cluster::gpu_parallel(collapse(2))]]
    for (i = 1; i < nx; i++)
      for (j = 0; j < ny; j++)
        ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j]);
    /* loop ex: parallel; omp: private(j) */
    [[cluster::gpu_parallel]]
    for (i = 0; i < nx; i++)
      for (j = 1; j < ny; j++)
        ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j - 1]);
    /* loop hz: parallel; omp: private(j) */
    [[cluster::gpu_parallel]]
    for (i = 0; i < nx - 1; i++)
      for (j = 0; j < ny - 1; j++)
        hz[i][j] = hz[i][j] - 0.7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
  }
}

int main(void)
{
  int i, j;

  for (i = 0; i < TMAX; i++)
    fict[i] = (double)i;
  for (i = 0; i < NX; i++)
    for (j = 0; j < NY; j++) {
      ex[i][j] = ((double)i * (j + 1)) / NX;
      ey[i][j] = ((double)i * (j + 2)) / NY;
      hz[i][j] = ((double)i * (j + 3)) / NX;
    }
  kernel_fdtd_2d(TMAX, NX, NY, ex, ey, hz, fict);
  print_array("ex", &ex[0][0], NX * NY);
  print_array("ey", &ey[0][0], NX * NY);
  print_array("hz", &hz[0][0], NX * NY);
  return 0;
}
