/* cg: conjugate gradient iterations on the 5-point Laplacian of a G x G grid, stored in CSR
 * (row pointers, column indices, values). Each iteration is a sparse matrix-vector product,
 * two dot products (floating-point sum reductions) and three vector updates; the iterations
 * themselves are sequential (the residual history records each one). */
#include "corpus.h"

#define G 9
#define N (G * G)
#define NNZ (5 * N)
#define NITER 12

static int rowptr[N + 1], col[NNZ];
static double val[NNZ], b[N], x[N], r[N], p[N], q[N], resid[NITER];

static void kernel_cg(int n, int niter, const int *rowptr, const int *col, const double *val,
                      double *x, double *r, double *p, double *q, double *resid)
{
  int it, i, k;
  double sum, rr, rrnew, pq, alpha, beta;

  rr = 0.0;
  for (i = 0; i < n; i++)
    rr += r[i] * r[i];
  /* loop iter: sequential (each iteration needs the previous direction and residual); omp: private(i, k, sum) */
  [[cluster::gpu_parallel]]
  for (it = 0; it < niter; it++) {
    /* loop spmv: parallel; omp: private(k, sum) */
    [[cluster::gpu_parallel]]
    for (i = 0; i < n; i++) {
      sum = 0.0;
      for (k = rowptr[i]; k < rowptr[i + 1]; k++)
        sum += val[k] * p[col[k]];
      q[i] = sum;
    }
    pq = 0.0;
    /* loop pq: parallel */
    [[cluster::gpu_parallel(reduce(+: pq))]]
    for (i = 0; i < n; i++)
      pq += p[i] * q[i];
    alpha = rr / pq;
    /* loop xr: parallel */
    [[cluster::gpu_parallel]]
    for (i = 0; i < n; i++) {
      x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
    }
    rrnew = 0.0;
    /* loop rr: parallel */
    [[cluster::gpu_parallel(reduce(+: rrnew))]]
    for (i = 0; i < n; i++)
      rrnew += r[i] * r[i];
    beta = rrnew / rr;
    rr = rrnew;
    resid[it] = rr;
    /* loop p: parallel */
    [[cluster::gpu_parallel]]
    for (i = 0; i < n; i++)
      p[i] = r[i] + beta * p[i];
  }
}

int main(void)
{
  int i, j, k, row;

  k = 0;
  for (i = 0; i < G; i++)
    for (j = 0; j < G; j++) {
      row = i * G + j;
      rowptr[row] = k;
      if (i > 0) { col[k] = row - G; val[k] = -1.0; k++; }
      if (j > 0) { col[k] = row - 1; val[k] = -1.0; k++; }
      col[k] = row; val[k] = 4.0 + 0.01 * (row % 5); k++;
      if (j < G - 1) { col[k] = row + 1; val[k] = -1.0; k++; }
      if (i < G - 1) { col[k] = row + G; val[k] = -1.0; k++; }
    }
  rowptr[N] = k;
  for (i = 0; i < N; i++) {
    b[i] = 1.0 + (double)(i % 7) / 3;
    x[i] = 0.0;
    r[i] = b[i];
    p[i] = b[i];
  }
  kernel_cg(N, NITER, rowptr, col, val, x, r, p, q, resid);
  print_array("x", x, N);
  print_array("r", r, N);
  print_array("resid", resid, NITER);
  return 0;
}
