/* correlation: the correlation matrix of n samples of m variables: means, standard
 * deviations, normalization, then the symmetric product filled from its upper triangle. */
#include <cmath>
#include "corpus.h"

#define M 24
#define N 30

static double data[N][M], corr[M][M], mean[M], stddev[M];

static void kernel_correlation(int m, int n, double float_n, double data[N][M],
                               double corr[M][M], double mean[M], double stddev[M])
{
  int i, j, k;
  double eps = 0.1;

  /* loop mean: parallel; omp: private(i) */
  [[cluster::gpu_parallel]]
  for (j = 0; j < m; j++) {
    mean[j] = 0.0;
    for (i = 0; i < n; i++)
      mean[j] += data[i][j];
    mean[j] /= float_n;
  }

  /* loop stddev: parallel; omp: private(i) */
  [[cluster::gpu_parallel]]
  for (j = 0; j < m; j++) {
    stddev[j] = 0.0;
    for (i = 0; i < n; i++)
      stddev[j] += (data[i][j] - mean[j]) * (data[i][j] - mean[j]);
    stddev[j] /= float_n;
    stddev[j] = sqrt(stddev[j]);
    stddev[j] = stddev[j] <= eps ? 1.0 : stddev[j];
  }

  /* loop normalize: parallel; omp: private(j) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++) {
      data[i][j] -= mean[j];
      data[i][j] /= sqrt(float_n) * stddev[j];
    }

  /* loop corr: parallel (symmetric update, j > i); omp: private(j, k) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < m - 1; i++) {
    corr[i][i] = 1.0;
    for (j = i + 1; j < m; j++) {
      corr[i][j] = 0.0;
      for (k = 0; k < n; k++)
        corr[i][j] += data[k][i] * data[k][j];
      corr[j][i] = corr[i][j];
    }
  }
  corr[m - 1][m - 1] = 1.0;
}

int main(void)
{
  int i, j;

  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++)
      data[i][j] = (double)(i * j) / M + i + (double)((i + 3 * j) % 7) / 4;
  kernel_correlation(M, N, (double)N, data, corr, mean, stddev);
  print_array("corr", &corr[0][0], M * M);
  return 0;
}
