/* spmv: sparse matrix-vector products. y = A*x in CSR (the rows are independent) and in ELL
 * (a fixed number of entries per row); z = A'*x by scattering each row into z, which adds
 * into shared elements through the column indices: a negative case. */
#include "corpus.h"

#define N 90
#define K 5

static int rowptr[N + 1], col[N * K], ellcol[N * K];
static double val[N * K], ellval[N * K], x[N], y[N], yell[N], z[N];

static void kernel_spmv(int n, int kmax, const int *rowptr, const int *col, const double *val,
                        const int *ellcol, const double *ellval, const double *x, double *y,
                        double *yell, double *z)
{
  int i, k;
  double s;

  /* loop csr: parallel; omp: private(k, s) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++) {
    s = 0.0;
    for (k = rowptr[i]; k < rowptr[i + 1]; k++)
      s += val[k] * x[col[k]];
    y[i] = s;
  }

  /* loop ell: parallel; omp: private(k) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++) {
    yell[i] = 0.0;
    for (k = 0; k < kmax; k++)
      yell[i] += ellval[i * kmax + k] * x[ellcol[i * kmax + k]];
  }

  for (i = 0; i < n; i++)
    z[i] = 0.0;
  /* loop transpose: sequential (rows add into shared elements of z through col); omp: private(k) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++)
    for (k = rowptr[i]; k < rowptr[i + 1]; k++)
      z[col[k]] += val[k] * x[i];
}

int main(void)
{
  int i, k, nnz;

  nnz = 0;
  for (i = 0; i < N; i++) {
    rowptr[i] = nnz;
    for (k = 0; k < 1 + i % K; k++) {
      col[nnz] = (i * 7 + k * 13) % N;
      val[nnz] = 1.0 / (1 + i + k);
      nnz++;
    }
    for (k = 0; k < K; k++) {
      ellcol[i * K + k] = (i * 3 + k * 11) % N;
      ellval[i * K + k] = (double)(k + 1) / (i + 3);
    }
    x[i] = (double)(i % 9) / 7;
  }
  rowptr[N] = nnz;
  kernel_spmv(N, K, rowptr, col, val, ellcol, ellval, x, y, yell, z);
  print_array("y", y, N);
  print_array("yell", yell, N);
  print_array("z", z, N);
  return 0;
}
