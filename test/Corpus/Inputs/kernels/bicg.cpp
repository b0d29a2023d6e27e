/* bicg: s := A'*r and q := A*p, the two products of BiCGStab (BLAS-2), on a small matrix
 * class: the bounds are const member calls (rows(), cols()) and the elements are read through
 * an accessor, at(i, j). */
#include "corpus.h"

#define M 40
#define N 36

class Matrix {
public:
  Matrix(int rows, int cols, double *data) : rows_(rows), cols_(cols), data_(data) {}
  int rows() const { return rows_; }
  int cols() const { return cols_; }
  double at(int i, int j) const { return data_[i * cols_ + j]; }

private:
  int rows_;
  int cols_;
  double *data_;
};

static double Adata[M * N], r[M], p[N], s[N], q[M];

static void kernel_bicg(const Matrix &A, double *s, double *q, const double *p, const double *r)
{
  int i, j;

  /* loop s: parallel; omp: private(i) */
  [[cluster::gpu_parallel]]
  for (j = 0; j < A.cols(); j++) {
    s[j] = 0.0;
    for (i = 0; i < A.rows(); i++)
      s[j] = s[j] + r[i] * A.at(i, j);
  }

  /* loop q: parallel; omp: private(j) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < A.rows(); i++) {
    q[i] = 0.0;
    for (j = 0; j < A.cols(); j++)
      q[i] = q[i] + A.at(i, j) * p[j];
  }
}

int main(void)
{
  int i, j;
  Matrix A(M, N, Adata);

  for (i = 0; i < N; i++)
    p[i] = (double)(i % N) / N;
  for (i = 0; i < M; i++) {
    r[i] = (double)(i % M) / M;
    for (j = 0; j < N; j++)
      Adata[i * N + j] = (double)(i * (j + 1) % M) / M;
  }
  kernel_bicg(A, s, q, p, r);
  print_array("s", s, N);
  print_array("q", q, M);
  return 0;
}
