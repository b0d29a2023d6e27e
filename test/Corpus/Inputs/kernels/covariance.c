/* covariance: the covariance matrix of n samples of m variables. The last loop fills the
 * symmetric matrix from its upper triangle: iteration i writes cov[i][j] and cov[j][i] for
 * j >= i only, so no two iterations write the same element. */
#include "corpus.h"

#define M 26
#define N 32

static double data[N][M], cov[M][M], mean[M];

static void kernel_covariance(int m, int n, double float_n, double data[N][M],
                              double cov[M][M], double mean[M])
{
  int i, j, k;

  /* loop mean: parallel; omp: private(i) */
  [[cluster::gpu_parallel]]
  for (j = 0; j < m; j++) {
    mean[j] = 0.0;
    for (i = 0; i < n; i++)
      mean[j] += data[i][j];
    mean[j] /= float_n;
  }

  /* loop center: parallel; omp: private(j) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      data[i][j] -= mean[j];

  /* loop cov: parallel (symmetric update of cov[i][j] and cov[j][i], j >= i); omp: private(j, k) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < m; i++)
    for (j = i; j < m; j++) {
      cov[i][j] = 0.0;
      for (k = 0; k < n; k++)
        cov[i][j] += data[k][i] * data[k][j];
      cov[i][j] /= (float_n - 1.0);
      cov[j][i] = cov[i][j];
    }
}

int main(void)
{
  int i, j;

  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++)
      data[i][j] = ((double)i * j) / M + (double)((i * 7 + j) % 5) / 3;
  kernel_covariance(M, N, (double)N, data, cov, mean);
  print_array("cov", &cov[0][0], M * M);
  return 0;
}
