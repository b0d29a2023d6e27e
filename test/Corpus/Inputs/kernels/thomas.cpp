/* thomas: many independent tridiagonal systems solved by the Thomas algorithm, one per
 * iteration. The modified coefficients live in two scratch arrays declared at the top and
 * filled before they are read; the forward sweep inside one system is a recurrence. */
#include "corpus.h"

#define NS 24
#define N 30

static double a[NS][N], b[NS][N], c[NS][N], d[NS][N], x[NS][N];

static void kernel_thomas(int ns, int n, double a[NS][N], double b[NS][N], double c[NS][N],
                          double d[NS][N], double x[NS][N])
{
  int s, k;
  double m;
  double cp[N], dp[N];

  /* loop systems: parallel (cp and dp are scratch, filled before they are read); omp: private(k, m, cp, dp) */
  [[cluster::gpu_parallel]]
  for (s = 0; s < ns; s++) {
    cp[0] = c[s][0] / b[s][0];
    dp[0] = d[s][0] / b[s][0];
    /* loop forward: sequential (cp[k] and dp[k] need cp[k-1] and dp[k-1]) */
    [[cluster::gpu_parallel]]
    for (k = 1; k < n; k++) {
      m = b[s][k] - a[s][k] * cp[k - 1];
      cp[k] = c[s][k] / m;
      dp[k] = (d[s][k] - a[s][k] * dp[k - 1]) / m;
    }
    x[s][n - 1] = dp[n - 1];
    for (k = n - 2; k >= 0; k--)
      x[s][k] = dp[k] - cp[k] * x[s][k + 1];
  }
}

int main(void)
{
  int s, k;

  for (s = 0; s < NS; s++)
    for (k = 0; k < N; k++) {
      a[s][k] = k == 0 ? 0.0 : -1.0 - (double)(s % 3) / 10;
      c[s][k] = k == N - 1 ? 0.0 : -1.0 + (double)(k % 4) / 10;
      b[s][k] = 4.0 + (double)((s + k) % 5) / 7;
      d[s][k] = (double)((s * 7 + k * 3) % 11) / 3;
    }
  kernel_thomas(NS, N, a, b, c, d, x);
  print_array("x", &x[0][0], NS * N);
  return 0;
}
