// Tiled and blocked loops with clamped inner bounds (test/EndToEnd/clamped-bounds.test). Each
// array ends where a page that may not be touched begins: a box that ran past the clamp (the
// last tile's 64 elements from 960, not 40) would copy from it, and the program would fault.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>
#define MIN(a, b) ((a) < (b) ? (a) : (b))

/// N doubles that end exactly at an inaccessible page.
static double *guarded(size_t N) {
  size_t Page = size_t(sysconf(_SC_PAGESIZE));
  size_t Bytes = (N * sizeof(double) + Page - 1) / Page * Page;
  char *Base = static_cast<char *>(
      mmap(nullptr, Bytes + Page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  if (Base == MAP_FAILED || mprotect(Base + Bytes, Page, PROT_NONE) != 0) {
    std::perror("mmap");
    std::exit(2);
  }
  return reinterpret_cast<double *>(Base + Bytes) - N;
}

void tiles(int n, double *a, const double *b) {
  [[cluster::gpu_parallel]]
  for (int ii = 0; ii < n; ii += 64)
    for (int i = ii; i < std::min(ii + 64, n); ++i)
      a[i] = b[i] * 2 + i;
}

void tilesMacro(int n, double *a, const double *b) {
  [[cluster::gpu_parallel]]
  for (int ii = 0; ii < n; ii += 32)
    for (int i = std::max(ii, 1); i < MIN(ii + 32, n); ++i)
      a[i] = a[i] + b[i - 1];
}

void runtimeTiles(int n, int t, double *a, const double *b) {
  [[cluster::gpu_parallel]]
  for (int it = 0; it < n; it += t)
    for (int i = it; i < std::min(n, it + t); ++i)
      a[i] = a[i] * 0.5 + b[i] + t;
}

// PRK's star stencil: two tile levels of a run-time size, collapsed, over flattened arrays.
void star(int n, int t, const double *in, double *out) {
  [[cluster::gpu_parallel(collapse(2))]]
  for (int it = 1; it < n - 1; it += t)
    for (int jt = 1; jt < n - 1; jt += t)
      for (int i = it; i < std::min(n - 1, it + t); ++i)
        for (int j = jt; j < std::min(n - 1, jt + t); ++j)
          out[i * n + j] += in[i * n + j - 1] * -0.5 + in[(i - 1) * n + j] * -0.5 +
                            in[(i + 1) * n + j] * 0.5 + in[i * n + j + 1] * 0.5;
}

void transpose(int n, double *out, const double *in) {
  [[cluster::gpu_parallel]]
  for (int it = 0; it < n; it += 16)
    for (int jt = 0; jt < n; jt += 16)
      for (int i = it; i < std::min(n, it + 16); ++i)
        for (int j = jt; j < std::min(n, jt + 16); ++j)
          out[i * n + j] = in[j * n + i];
}

int main() {
  double *a = guarded(1000), *b = guarded(1000);
  for (int i = 0; i < 1000; ++i)
    a[i] = i % 13, b[i] = i % 7;
  tiles(1000, a, b);
  tilesMacro(1000, a, b);
  double *c = guarded(999);
  tiles(999, c, a);
  runtimeTiles(999, 7, c, b);
  runtimeTiles(1000, 64, a, b);
  const int n = 243; // not a multiple of the tile
  std::vector<double> in(n * n), out(n * n);
  for (int i = 0; i < n * n; ++i)
    in[i] = i % 31;
  transpose(n, out.data(), in.data());
  const int m = 37;
  double *sin = guarded(m * m), *sout = guarded(m * m);
  for (int i = 0; i < m * m; ++i)
    sin[i] = i % 11, sout[i] = 0;
  star(m, 5, sin, sout);
  star(m, 64, sin, sout);
  double s = 0;
  for (int i = 0; i < m * m; ++i)
    s += sout[i] * (i % 4 + 1);
  for (int i = 0; i < 1000; ++i)
    s += a[i] * (i % 5 + 1) + b[i] * (i % 3 + 1) + (i < 999 ? c[i] : 0);
  for (int i = 0; i < n * n; ++i)
    s += out[i] * (i % 7);
  std::printf("%.1f\n", s);
  return 0;
}
