/* adi: alternating direction implicit solver for 2-D heat conduction. Each half step solves
 * one tridiagonal system per column (then per row) with the Thomas algorithm: the systems are
 * independent, the sweeps inside one system are recurrences. */
#include "corpus.h"

#define N 30
#define TSTEPS 6

static double u[N][N], v[N][N], p[N][N], q[N][N];

static void kernel_adi(int tsteps, int n, double u[N][N], double v[N][N], double p[N][N],
                       double q[N][N])
{
  int t, i, j;
  double DX, DY, DT, B1, B2, mul1, mul2, a, b, c, d, e, f;

  DX = 1.0 / (double)n;
  DY = 1.0 / (double)n;
  DT = 1.0 / (double)tsteps;
  B1 = 2.0;
  B2 = 1.0;
  mul1 = B1 * DT / (DX * DX);
  mul2 = B2 * DT / (DY * DY);
  a = -mul1 / 2.0;
  b = 1.0 + mul1;
  c = a;
  d = -mul2 / 2.0;
  e = 1.0 + mul2;
  f = d;

  for (t = 1; t <= tsteps; t++) {
    /* loop columns: parallel; omp: private(j) */
    [[cluster::gpu_parallel]]
    for (i = 1; i < n - 1; i++) {
      v[0][i] = 1.0;
      p[i][0] = 0.0;
      q[i][0] = v[0][i];
      /* loop colsweep: sequential (p[i][j] and q[i][j] need p[i][j-1] and q[i][j-1]) */
      [[cluster::gpu_parallel]]
      for (j = 1; j < n - 1; j++) {
        p[i][j] = -c / (a * p[i][j - 1] + b);
        q[i][j] = (-d * u[j][i - 1] + (1.0 + 2.0 * d) * u[j][i] - f * u[j][i + 1] -
                   a * q[i][j - 1]) / (a * p[i][j - 1] + b);
      }
      v[n - 1][i] = 1.0;
      for (j = n - 2; j >= 1; j--)
        v[j][i] = p[i][j] * v[j + 1][i] + q[i][j];
    }
    /* loop rows: parallel; omp: private(j) */
    [[cluster::gpu_parallel]]
    for (i = 1; i < n - 1; i++) {
      u[i][0] = 1.0;
      p[i][0] = 0.0;
      q[i][0] = u[i][0];
      for (j = 1; j < n - 1; j++) {
        p[i][j] = -f / (d * p[i][j - 1] + e);
        q[i][j] = (-a * v[i - 1][j] + (1.0 + 2.0 * a) * v[i][j] - c * v[i + 1][j] -
                   d * q[i][j - 1]) / (d * p[i][j - 1] + e);
      }
      u[i][n - 1] = 1.0;
      /* loop rowback: sequential (u[i][j] needs u[i][j+1], the loop runs downwards) */
      [[cluster::gpu_parallel]]
      for (j = n - 2; j >= 1; j--)
        u[i][j] = p[i][j] * u[i][j + 1] + q[i][j];
    }
  }
}

int main(void)
{
  int i, j;

  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      u[i][j] = (double)(i + N - j) / N;
      v[i][j] = p[i][j] = q[i][j] = 0.0;
    }
  kernel_adi(TSTEPS, N, u, v, p, q);
  print_array("u", &u[0][0], N * N);
  return 0;
}
