/* floyd-warshall: all-pairs shortest paths on integer weights. For a fixed k, row i reads row
 * k and column k; iteration i == k rewrites row k with its own values (path[k][k] is 0), so
 * the row loop is parallel, as OpenMP codes have it. The k loop is not annotated. */
#include "corpus.h"

#define N 40
#define INF 1000000

static int path[N][N];

static void kernel_floyd_warshall(int n, int (*path)[N])
{
  int i, j, k;

  for (k = 0; k < n; k++)
    /* loop rows: parallel; omp: private(j) */
    [[cluster::gpu_parallel]]
    for (i = 0; i < n; i++)
      for (j = 0; j < n; j++)
        path[i][j] = path[i][j] < path[i][k] + path[k][j] ? path[i][j]
                                                          : path[i][k] + path[k][j];
}

int main(void)
{
  int i, j;

  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      path[i][j] = i * j % 7 + 1;
      if ((i + j) % 13 == 0 || (i + j) % 7 == 0 || (i + j) % 11 == 0)
        path[i][j] = INF;
    }
  for (i = 0; i < N; i++)
    path[i][i] = 0;
  kernel_floyd_warshall(N, path);
  print_int_array("path", &path[0][0], N * N);
  return 0;
}
