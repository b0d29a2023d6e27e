/* durbin: Levinson-Durbin recursion for a Toeplitz system (Yule-Walker equations). The order
 * loop is sequential by nature; within an order the dot product is a floating-point sum
 * reduction and the two vector updates are parallel. */
#include "corpus.h"

#define N 64

static double r[N], y[N], z[N];

static void kernel_durbin(int n, double r[N], double y[N], double z[N])
{
  int i, k;
  double alpha, beta, sum;

  y[0] = -r[0];
  beta = 1.0;
  alpha = -r[0];
  /* loop order: sequential (order k extends the solution of order k-1); omp: private(i, sum) */
  [[cluster::gpu_parallel]]
  for (k = 1; k < n; k++) {
    beta = (1 - alpha * alpha) * beta;
    sum = 0.0;
    /* loop dot: parallel */
    [[cluster::gpu_parallel(reduce(+: sum))]]
    for (i = 0; i < k; i++)
      sum += r[k - i - 1] * y[i];
    alpha = -(r[k] + sum) / beta;
    /* loop z: parallel */
    [[cluster::gpu_parallel]]
    for (i = 0; i < k; i++)
      z[i] = y[i] + alpha * y[k - i - 1];
    /* loop copy: parallel */
    [[cluster::gpu_parallel]]
    for (i = 0; i < k; i++)
      y[i] = z[i];
    y[k] = alpha;
  }
}

int main(void)
{
  int i;

  for (i = 0; i < N; i++)
    r[i] = 0.6 / (i + 2) - 0.1 / (i + 3);
  kernel_durbin(N, r, y, z);
  print_array("y", y, N);
  return 0;
}
