// 2-D Jacobi relaxation with double buffering: each sweep reads grid `a` and writes grid `b`,
// then the two pointers are swapped outside the parallel loop.
//
// The annotated loop runs over the interior rows. Row i writes row i of `b` and reads rows i-1,
// i, i+1 of `a`; since `a` and `b` are different arrays no iteration reads what another writes.
// Both are plain pointers, so the compiler cannot prove they point at different memory: the
// runtime compares their address ranges before each sweep (and would run the sweep serially if
// they overlapped). The largest change of a sweep is a max reduction over doubles, which needs
// the reduce clause; max is exact, so the result is the same however the rows are split.
//
//   clustrix++ -O2 main.cpp -o jacobi && ./jacobi [n] [sweeps]       (default 256 x 256, 1000)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 256;
  const int sweeps = argc > 2 ? std::atoi(argv[2]) : 1000;
  // A square plate: the top edge held at 100, the other edges at 0, the inside starting at 0.
  std::vector<double> gridA(long(n) * n, 0.0), gridB(long(n) * n, 0.0);
  for (int j = 0; j < n; ++j)
    gridA[j] = gridB[j] = 100.0;
  double *a = gridA.data(), *b = gridB.data();

  double change = 0.0;
  for (int s = 0; s < sweeps; ++s) {
    double maxChange = 0.0;
    [[cluster::gpu_parallel(reduce(max: maxChange))]]
    for (int i = 1; i < n - 1; ++i) {
      for (int j = 1; j < n - 1; ++j) {
        double v = 0.25 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] +
                           a[i * n + j + 1]);
        b[i * n + j] = v;
        maxChange = std::fmax(maxChange, std::fabs(v - a[i * n + j]));
      }
    }
    std::swap(a, b); // the new grid becomes the one read by the next sweep
    change = maxChange;
  }

  double sum = 0.0;
  for (long k = 0; k < long(n) * n; ++k)
    sum += a[k];
  std::printf("Jacobi, %d x %d grid, %d sweeps\n", n, n, sweeps);
  std::printf("value at row n/8, column n/2: %.9f\n", a[(n / 8) * n + n / 2]);
  std::printf("value below the hot edge: %.9f\n", a[1 * n + n / 2]);
  std::printf("largest change in the last sweep: %.9e\n", change);
  std::printf("sum over the grid: %.6f\n", sum);
  return 0;
}
