/* The C++ twin of clamped-parallel.c, with std::max and std::min in the first wavefront. Parallel loops that start at a max and end at a min (test/EndToEnd/clamped-parallel.test): the
 * hyperplanes of PRK's p2p wavefront, as written in its C1z and Cxx11 kernels (here with the
 * MAX and MIN macros), a boundary-clamped start, and a mirrored update inside a clamped range;
 * each sweep of the wavefront depends on the one before, so a wrong schedule changes the sum. */
#include <algorithm>
#include <cstdio>
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
enum { N = 67 };
static double grid[N * N], a[400], b[400];

static void wavefront(int n) {
  for (int i = 2; i <= 2 * n - 2; i++) {
    [[cluster::gpu_parallel]]
    for (int j = std::max(2, i - n + 2); j <= std::min(i, n); j++) {
      const int x = i - j + 1;
      const int y = j - 1;
      grid[x * n + y] = grid[(x - 1) * n + y] + grid[x * n + (y - 1)] - grid[(x - 1) * n + (y - 1)];
    }
  }
}

static void wavefrontFlat(int n) {
  for (int i = 2; i <= 2 * n - 2; i++) {
    [[cluster::gpu_parallel]]
    for (int j = MAX(2, i - n + 2); j <= MIN(i, n); j++)
      grid[(i - j + 1) * n + j - 1] = grid[(i - j) * n + j - 1] * 0.5 +
                                      grid[(i - j + 1) * n + j - 2] * 0.25 + 1.0;
  }
}

/* PRK C1z's spelling: the stride through a local defined from n. */
static void wavefrontStride(int n) {
  const int nn = 1 - n;
  for (int i = 2; i <= 2 * n - 2; i++) {
    [[cluster::gpu_parallel]]
    for (int j = MAX(2, i - n + 2); j <= MIN(i, n); j++)
      grid[(i + 1) * n - 1 + j * nn] = grid[i * n - 1 + j * nn] + grid[(i + 1) * n - 2 + j * nn] -
                                       grid[i * n - 2 + j * nn] + 0.5;
  }
}

static void clampedStart(int lo, int hi) {
  [[cluster::gpu_parallel]]
  for (int i = MAX(1, lo); i < MIN(hi, 400); i++)
    a[i] = b[i] * 2 + b[i - 1];
}

static void mirrored(int lo, int hi) {
  [[cluster::gpu_parallel]]
  for (int i = MAX(0, lo); i < MIN(hi, 200); i++)
    a[i] = a[399 - i] + i;
}

int main(void) {
  double s = 0;
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      grid[i * N + j] = (i == 0 || j == 0) ? (double)(i + j) : 0.0;
  for (i = 0; i < 400; i++)
    b[i] = i % 13;
  wavefront(N);
  wavefrontFlat(N);
  wavefront(40);
  wavefrontStride(N);
  wavefrontStride(31);
  clampedStart(-5, 1000);
  clampedStart(37, 301);
  mirrored(-3, 150);
  mirrored(120, 500);
  for (i = 0; i < N * N; i++)
    s += grid[i] * (i % 7 + 1);
  for (i = 0; i < 400; i++)
    s += a[i] * (i % 5 + 1);
  printf("%.17g\n", s);
  return 0;
}
