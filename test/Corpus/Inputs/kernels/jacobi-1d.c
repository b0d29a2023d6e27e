/* jacobi-1d: time-stepped 3-point stencil, ping-pong between two arrays behind restrict
 * pointers, with a boundary value that changes with the time step. */
#include "corpus.h"

#define N 120
#define TSTEPS 20

static double A[N], B[N];

static void kernel_jacobi_1d(int tsteps, int n, double *restrict A, double *restrict B)
{
  int t, i;

  /* loop time: sequential (each step reads what the previous one wrote); omp: private(i) */
  [[cluster::gpu_parallel]]
  for (t = 0; t < tsteps; t++) {
    A[0] = 1.0 + 0.05 * t;
    /* loop a2b: parallel */
    [[cluster::gpu_parallel]]
    for (i = 1; i < n - 1; i++)
      B[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1]);
    /* loop b2a: parallel */
    [[cluster::gpu_parallel]]
    for (i = 1; i < n - 1; i++)
      A[i] = 0.33333 * (B[i - 1] + B[i] + B[i + 1]);
  }
}

int main(void)
{
  int i;

  for (i = 0; i < N; i++) {
    A[i] = ((double)i + 2) / N;
    B[i] = ((double)i + 3) / N;
  }
  kernel_jacobi_1d(TSTEPS, N, A, B);
  print_array("A", A, N);
  print_array("B", B, N);
  return 0;
}
