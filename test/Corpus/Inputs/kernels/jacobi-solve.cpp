/* jacobi-solve: the Jacobi iterative method for a dense, diagonally dominant system A*x = b.
 * Each sweep is parallel over the unknowns; the largest change is an exact floating-point max
 * (no clause needed); the iterations are sequential. */
#include <cmath>
#include "corpus.h"

#define N 40
#define NITER 10

static double A[N][N], b[N], x[N], xnew[N], change[NITER];

static void kernel_jacobi_solve(int n, int niter, double A[N][N], double b[N], double x[N],
                                double xnew[N], double change[NITER])
{
  int it, i, j;
  double s, d, diff;

  /* loop iter: sequential (each sweep starts from the previous sweep's x); omp: private(i, j, s, d, diff) */
  [[cluster::gpu_parallel]]
  for (it = 0; it < niter; it++) {
    /* loop sweep: parallel; omp: private(j, s) */
    [[cluster::gpu_parallel]]
    for (i = 0; i < n; i++) {
      s = b[i];
      for (j = 0; j < n; j++)
        if (j != i)
          s -= A[i][j] * x[j];
      xnew[i] = s / A[i][i];
    }
    diff = 0.0;
    /* loop diff: parallel; omp: private(d) reduction(max: diff) */
    [[cluster::gpu_parallel]]
    for (i = 0; i < n; i++) {
      d = fabs(xnew[i] - x[i]);
      if (d > diff)
        diff = d;
      x[i] = xnew[i];
    }
    change[it] = diff;
  }
}

int main(void)
{
  int i, j;

  for (i = 0; i < N; i++) {
    b[i] = (double)(i % 5) + 1;
    x[i] = 0.0;
    for (j = 0; j < N; j++)
      A[i][j] = (double)((i * 3 + j * 7) % 11) / 11;
    A[i][i] = 2.0 * N;
  }
  kernel_jacobi_solve(N, NITER, A, b, x, xnew, change);
  print_array("x", x, N);
  print_array("change", change, NITER);
  return 0;
}
