/* norms: reductions over a vector and a matrix: the 1-norm and the squared 2-norm
 * (floating-point sums), the max norm (an exact floating-point max, no clause needed), a count
 * (an integer sum) and column sums. A running maximum written out element by element is a
 * negative case. */
#include <cmath>
#include "corpus.h"

#define N 200
#define R 30
#define C 26

static double v[N], A[R][C], colsum[C], runmax[N], result[5];

static void kernel_norms(int n, int r, int c, const double *v, double A[R][C],
                         double *colsum, double *runmax, double *result)
{
  int i, j, count;
  double s1, s2, mx;

  s1 = 0.0;
  /* loop asum: parallel */
  [[cluster::gpu_parallel(reduce(+: s1))]]
  for (i = 0; i < n; i++)
    s1 += fabs(v[i]);

  s2 = 0.0;
  /* loop nrm2: parallel */
  [[cluster::gpu_parallel(reduce(+: s2))]]
  for (i = 0; i < n; i++)
    s2 += v[i] * v[i];

  mx = 0.0;
  /* loop amax: parallel; omp: reduction(max: mx) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++)
    if (fabs(v[i]) > mx)
      mx = fabs(v[i]);

  count = 0;
  /* loop count: parallel; omp: reduction(+: count) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++)
    if (v[i] > 0.5)
      count++;

  /* loop colsum: parallel; omp: private(i) */
  [[cluster::gpu_parallel]]
  for (j = 0; j < c; j++) {
    colsum[j] = 0.0;
    for (i = 0; i < r; i++)
      colsum[j] += fabs(A[i][j]);
  }

  runmax[0] = v[0];
  /* loop runmax: sequential (runmax[i] needs runmax[i-1]) */
  [[cluster::gpu_parallel]]
  for (i = 1; i < n; i++)
    runmax[i] = v[i] > runmax[i - 1] ? v[i] : runmax[i - 1];

  result[0] = s1;
  result[1] = s2;
  result[2] = mx;
  result[3] = count;
  result[4] = sqrt(s2);
}

int main(void)
{
  int i, j;

  for (i = 0; i < N; i++)
    v[i] = (double)((i * 37 + 11) % 97) / 53 - 0.7;
  for (i = 0; i < R; i++)
    for (j = 0; j < C; j++)
      A[i][j] = (double)((i * 13 + j * 7) % 19) / 9 - 1;
  kernel_norms(N, R, C, v, A, colsum, runmax, result);
  print_array("result", result, 5);
  print_array("colsum", colsum, C);
  print_array("runmax", runmax, N);
  return 0;
}
