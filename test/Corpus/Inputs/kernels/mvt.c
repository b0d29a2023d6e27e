/* mvt: x1 := x1 + A*y1 and x2 := x2 + A'*y2 (BLAS-2). */
#include "corpus.h"

#define N 48

static double A[N][N], x1[N], x2[N], y1[N], y2[N];

static void kernel_mvt(int n, double x1[N], double x2[N], double y1[N], double y2[N],
                       double A[N][N])
{
  int i, j;

  /* loop ax: parallel; omp: private(j) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      x1[i] = x1[i] + A[i][j] * y1[j];

  /* loop atx: parallel; omp: private(j) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      x2[i] = x2[i] + A[j][i] * y2[j];
}

int main(void)
{
  int i, j;

  for (i = 0; i < N; i++) {
    x1[i] = (double)(i % N) / N;
    x2[i] = (double)((i + 1) % N) / N;
    y1[i] = (double)((i + 3) % N) / N;
    y2[i] = (double)((i + 4) % N) / N;
    for (j = 0; j < N; j++)
      A[i][j] = (double)(i * j % N) / N;
  }
  kernel_mvt(N, x1, x2, y1, y2, A);
  print_array("x1", x1, N);
  print_array("x2", x2, N);
  return 0;
}
