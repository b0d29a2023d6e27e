/* nussinov: RNA secondary structure by dynamic programming. Each cell reads the cell to its
 * left and the one below it, so both loops are sequential: negative cases. */
#include "corpus.h"

#define N 48

static int seq[N], table[N][N];

static void kernel_nussinov(int n, int seq[N], int table[N][N])
{
  int i, j, k, best, m;

  /* loop rows: sequential (row i reads row i+1, the loop runs downwards); omp: private(j, k, best, m) */
  [[cluster::gpu_parallel]]
  for (i = n - 1; i >= 0; i--)
    /* loop cols: sequential (table[i][j] reads table[i][j-1]); omp: private(k, best, m) */
    [[cluster::gpu_parallel]]
    for (j = i + 1; j < n; j++) {
      best = table[i][j];
      if (table[i][j - 1] > best)
        best = table[i][j - 1];
      if (i + 1 < n) {
        if (table[i + 1][j] > best)
          best = table[i + 1][j];
        m = i < j - 1 && seq[i] + seq[j] == 3 ? 1 : 0;
        if (table[i + 1][j - 1] + m > best)
          best = table[i + 1][j - 1] + m;
      }
      for (k = i + 1; k < j; k++)
        if (table[i][k] + table[k + 1][j] > best)
          best = table[i][k] + table[k + 1][j];
      table[i][j] = best;
    }
}

int main(void)
{
  int i, j;

  for (i = 0; i < N; i++) {
    seq[i] = (i * 7 + i / 3) % 4;
    for (j = 0; j < N; j++)
      table[i][j] = 0;
  }
  kernel_nussinov(N, seq, table);
  print_int_array("table", &table[0][0], N * N);
  return 0;
}
