//===- BenchLoops.h - What the benchmark's two translation units share ----===//
//
// The OpenMP variants live in BenchOmp.cpp, compiled by plain clang++-19 -fopenmp: the plugin
// cannot be combined with -fopenmp yet (docs/performance.md). Same compiler, same -O2.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_BENCH_LOOPS_H
#define CLUSTRIX_BENCH_LOOPS_H
#include <cmath>
#include <cstdint>

namespace bench {
constexpr int S = 64;             // matrix size of the traces loop
constexpr long SS = long(S) * S;  // cells per matrix

inline std::uint64_t mix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
inline double pathValue(long p) {
  double x = 0.0;
  for (int t = 0; t < 32; ++t) {
    std::uint64_t r = mix64(std::uint64_t(p) * 64 + t);
    double u1 = (double(r >> 32) + 1.0) * 0x1.0p-32, u2 = double(r & 0xffffffffull) * 0x1.0p-32;
    x += 0.01 * std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }
  return std::exp(x);
}

void saxpyOmp(long n, double a, const double *x, double *y);
double dotOmp(long n, const double *x, const double *y);
void jacobiOmp(int m, const double *a, double *b);
void tracesOmp(int count, const double *a, const double *b, double *c, double *tr);
void pathsOmp(long n, double *out);
} // namespace bench
#endif
