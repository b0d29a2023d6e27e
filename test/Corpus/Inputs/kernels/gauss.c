/* gauss: Gaussian elimination with partial pivoting on an augmented C99 variable-length
 * matrix, then back substitution. The row swap touches rows k and piv in column j only; the
 * elimination updates the rows below the pivot; the back substitution is a recurrence. */
#include <math.h>
#include "corpus.h"

#define N 30

static double A[N][N + 1], x[N];

static void kernel_gauss(int n, double A[n][n + 1], double x[n])
{
  int i, j, k, piv;
  double big, t, f, s;

  for (k = 0; k < n; k++) {
    piv = k;
    big = fabs(A[k][k]);
    for (i = k + 1; i < n; i++)
      if (fabs(A[i][k]) > big) {
        big = fabs(A[i][k]);
        piv = i;
      }
    /* loop swap: parallel (column j of rows k and piv only); omp: private(t) */
    [[cluster::gpu_parallel]]
    for (j = 0; j <= n; j++) {
      t = A[k][j];
      A[k][j] = A[piv][j];
      A[piv][j] = t;
    }
    /* loop eliminate: parallel; omp: private(j, f) */
    [[cluster::gpu_parallel]]
    for (i = k + 1; i < n; i++) {
      f = A[i][k] / A[k][k];
      for (j = k; j <= n; j++)
        A[i][j] -= f * A[k][j];
    }
  }

  /* loop back: sequential (x[i] needs x[i+1..n-1]); omp: private(j, s) */
  [[cluster::gpu_parallel]]
  for (i = n - 1; i >= 0; i--) {
    s = A[i][n];
    for (j = i + 1; j < n; j++)
      s -= A[i][j] * x[j];
    x[i] = s / A[i][i];
  }
}

int main(void)
{
  int i, j;

  for (i = 0; i < N; i++) {
    for (j = 0; j < N; j++)
      A[i][j] = (double)((i * 11 + j * 7 + i * j) % 17) / 4 - 2;
    A[i][N - 1 - i] += 12.0; /* dominant anti-diagonal: the pivots need row swaps */
    A[i][N] = (double)(i % 6) + 1;
    x[i] = 0.0;
  }
  kernel_gauss(N, A, x);
  print_array("x", x, N);
  print_array("A", &A[0][0], N * (N + 1));
  return 0;
}
