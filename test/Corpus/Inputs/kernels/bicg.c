/* bicg: s := A'*r and q := A*p, the two products of BiCGStab (BLAS-2), on a matrix held in a
 * struct (rows, columns, data) whose fields the loops read: members as bounds and as the root
 * of the array. */
#include "corpus.h"

#define M 40
#define N 36

struct matrix {
  int rows;
  int cols;
  double *data;
};

static double Adata[M * N], r[M], p[N], s[N], q[M];

static void kernel_bicg(const struct matrix *A, double *s, double *q, const double *p,
                        const double *r)
{
  int i, j;

  /* loop s: parallel; omp: private(i) */
  [[cluster::gpu_parallel]]
  for (j = 0; j < A->cols; j++) {
    s[j] = 0.0;
    for (i = 0; i < A->rows; i++)
      s[j] = s[j] + r[i] * A->data[i * A->cols + j];
  }

  /* loop q: parallel; omp: private(j) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < A->rows; i++) {
    q[i] = 0.0;
    for (j = 0; j < A->cols; j++)
      q[i] = q[i] + A->data[i * A->cols + j] * p[j];
  }
}

int main(void)
{
  int i, j;
  struct matrix A;

  A.rows = M;
  A.cols = N;
  A.data = Adata;
  for (i = 0; i < N; i++)
    p[i] = (double)(i % N) / N;
  for (i = 0; i < M; i++) {
    r[i] = (double)(i % M) / M;
    for (j = 0; j < N; j++)
      Adata[i * N + j] = (double)(i * (j + 1) % M) / M;
  }
  kernel_bicg(&A, s, q, p, r);
  print_array("s", s, N);
  print_array("q", q, M);
  return 0;
}
