/* gemver: A := A + u1*v1' + u2*v2'; x := x + beta*A'*y + z; w := w + alpha*A*x (BLAS-2).
 * Row pointers (double (*A)[N]) and plain pointers for the vectors, counters at the top. */
#include "corpus.h"

#define N 40

static double A[N][N], u1[N], v1[N], u2[N], v2[N], w[N], x[N], y[N], z[N];

static void kernel_gemver(int n, double alpha, double beta, double (*A)[N], double *u1,
                          double *v1, double *u2, double *v2, double *w, double *x,
                          double *y, double *z)
{
  int i, j;

  /* loop rank2: parallel; omp: private(j) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] = A[i][j] + u1[i] * v1[j] + u2[i] * v2[j];

  /* loop atx: parallel; omp: private(j) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      x[i] = x[i] + beta * A[j][i] * y[j];

  /* loop addz: parallel */
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++)
    x[i] = x[i] + z[i];

  /* loop ax: parallel; omp: private(j) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      w[i] = w[i] + alpha * A[i][j] * x[j];
}

int main(void)
{
  int i, j;
  double fn = (double)N;

  for (i = 0; i < N; i++) {
    u1[i] = i;
    u2[i] = ((i + 1) / fn) / 2.0;
    v1[i] = ((i + 1) / fn) / 4.0;
    v2[i] = ((i + 1) / fn) / 6.0;
    y[i] = ((i + 1) / fn) / 8.0;
    z[i] = ((i + 1) / fn) / 9.0;
    x[i] = 0.0;
    w[i] = 0.0;
    for (j = 0; j < N; j++)
      A[i][j] = (double)(i * j % N) / N;
  }
  kernel_gemver(N, 1.5, 1.2, A, u1, v1, u2, v2, w, x, y, z);
  print_array("A", &A[0][0], N * N);
  print_array("x", x, N);
  print_array("w", w, N);
  return 0;
}
