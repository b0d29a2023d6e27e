/* ludcmp: solve A*x = b by LU decomposition, then forward and back substitution. The
 * substitutions are the classic sequential recurrences (the back substitution runs
 * downwards). */
#include "corpus.h"

#define N 34

static double A[N][N], b[N], x[N], y[N];

static void kernel_ludcmp(int n, double A[N][N], double b[N], double x[N], double y[N])
{
  int i, j, k;
  double w;

  for (k = 0; k < n; k++) {
    /* loop update: parallel; omp: private(j) */
    [[cluster::gpu_parallel]]
    for (i = k + 1; i < n; i++) {
      A[i][k] = A[i][k] / A[k][k];
      for (j = k + 1; j < n; j++)
        A[i][j] = A[i][j] - A[i][k] * A[k][j];
    }
  }

  /* loop forward: sequential (y[i] needs y[0..i-1]); omp: private(j, w) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++) {
    w = b[i];
    for (j = 0; j < i; j++)
      w -= A[i][j] * y[j];
    y[i] = w;
  }

  /* loop backward: sequential (x[i] needs x[i+1..n-1]); omp: private(j, w) */
  [[cluster::gpu_parallel]]
  for (i = n - 1; i >= 0; i--) {
    w = y[i];
    for (j = i + 1; j < n; j++)
      w -= A[i][j] * x[j];
    x[i] = w / A[i][i];
  }
}

int main(void)
{
  int i, j;
  double fn = (double)N;

  for (i = 0; i < N; i++) {
    x[i] = 0.0;
    y[i] = 0.0;
    b[i] = (i + 1) / fn / 2.0 + 4;
    for (j = 0; j < N; j++)
      A[i][j] = (double)((i * 3 + j * 5) % N) / N;
    A[i][i] += N;
  }
  kernel_ludcmp(N, A, b, x, y);
  print_array("x", x, N);
  print_array("A", &A[0][0], N * N);
  return 0;
}
