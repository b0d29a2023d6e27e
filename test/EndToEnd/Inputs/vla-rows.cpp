// Variables of variably modified type (Clang's VLA extension in C++) named by parallel loops:
// pointers to variable-length rows through a `using` alias and a typedef, a constant pointer to
// constant rows, a local two-dimensional VLA the loop writes, and a bound changed after its type
// was declared (the type keeps the old one). Each loop's chunk function and its copy of the loop
// as written are lambdas, which neither Clang (an init-capture) nor GCC (any capture) can give
// such a variable directly.
#include <cstdio>
#include <vector>

static void smooth(double *p, double *q, int n3, int n2, int n1) {
  using grid = double (*)[n2][n1];
  grid u = reinterpret_cast<grid>(p);
  grid r = (grid)q;
  [[cluster::gpu_parallel]]
  for (int i3 = 1; i3 < n3 - 1; i3++)
    for (int i2 = 1; i2 < n2 - 1; i2++)
      for (int i1 = 1; i1 < n1 - 1; i1++)
        r[i3][i2][i1] = u[i3][i2][i1] + 0.5 * (u[i3 - 1][i2][i1] + u[i3 + 1][i2][i1]);
}

static double sumRows(const double *p, int n, int m) {
  typedef const double (*crows)[m];
  const crows c = (crows)p;
  double s = 0;
  [[cluster::gpu_parallel(reduce(+: s))]]
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      s += c[i][j] * (double)(sizeof(*c) / sizeof(double));
  return s;
}

static void local2d(int n, int m, double *out) {
  double a[n][m];
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      a[i][j] = i * 10 + j + sizeof(a[0]) / sizeof(double);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      out[i * m + j] = a[i][j];
}

static void changedBound(double *p, int n, int m) {
  typedef double (*rows)[m];
  rows r = (rows)p;
  m = 1;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    r[i][2] = i + (double)(sizeof(r[0]) / sizeof(double));
}

int main() {
  int n3 = 6, n2 = 5, n1 = 7;
  std::vector<double> p(n3 * n2 * n1), q(n3 * n2 * n1, 0.0);
  for (size_t i = 0; i < p.size(); i++)
    p[i] = i * 0.25;
  smooth(p.data(), q.data(), n3, n2, n1);
  double s = 0;
  for (double v : q)
    s += v;
  printf("smooth %.6f\n", s);
  int n = 9, m = 5;
  printf("rows %.3f\n", sumRows(p.data(), n, m));
  local2d(n, m, p.data());
  printf("local %.3f %.3f\n", p[7], p[n * m - 1]);
  changedBound(p.data(), n, m);
  printf("changed %.3f %.3f\n", p[2], p[(n - 1) * m + 2]);
  return 0;
}
