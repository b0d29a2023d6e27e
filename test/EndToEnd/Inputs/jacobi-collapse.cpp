// A Jacobi written as an OpenMP programmer writes it for a GPU: collapse(2), one GPU thread per
// point, two sweeps a time step (a to b, b to a). Its write boxes are two-dimensional: the
// interior of the grid, without the edge columns, which no one writes.
//
//   jacobi-collapse M STEPS      prints the sum of the grid and three of its elements
#include <cstdio>
#include <cstdlib>
#include <vector>

void jacobi(int m, int steps, double *a, double *b) {
  for (int t = 0; t < steps; ++t) {
    [[cluster::gpu_parallel(collapse(2))]]
    for (int i = 1; i < m - 1; ++i) {
      for (int j = 1; j < m - 1; ++j)
        b[i * m + j] = 0.25 * (a[(i - 1) * m + j] + a[(i + 1) * m + j] + a[i * m + j - 1] +
                               a[i * m + j + 1]);
    }
    [[cluster::gpu_parallel(collapse(2))]]
    for (int i = 1; i < m - 1; ++i) {
      for (int j = 1; j < m - 1; ++j)
        a[i * m + j] = 0.25 * (b[(i - 1) * m + j] + b[(i + 1) * m + j] + b[i * m + j - 1] +
                               b[i * m + j + 1]);
    }
  }
}

int main(int argc, char **argv) {
  int m = argc > 1 ? std::atoi(argv[1]) : 64;
  int steps = argc > 2 ? std::atoi(argv[2]) : 3;
  if (m < 3 || steps < 1)
    return 2;
  std::vector<double> a(size_t(m) * m), b;
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = double(i % 31) + (i % (size_t(m)) == 0 ? 100.0 : 0.0);
  b = a;
  jacobi(m, steps, a.data(), b.data());
  double sa = 0, sb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    sa += a[i];
    sb += b[i];
  }
  std::printf("%.17g %.17g %.17g %.17g %.17g\n", sa, sb, a[size_t(m) + 1], a[a.size() / 2],
              b[a.size() - size_t(m) - 2]);
  return 0;
}
