// The same translation unit as plain.cpp with its six loops annotated, for the compile-time
// benchmark: the plugin analyses it, rewrites it and compiles the result (in the compile's own
// parse, or with parse=twice in a parse of its own first).
#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <string>
#include <vector>

struct Stats {
  double mean = 0, stddev = 0, lo = 0, hi = 0;
};

Stats describe(const std::vector<double> &v) {
  Stats s;
  if (v.empty())
    return s;
  s.mean = std::accumulate(v.begin(), v.end(), 0.0) / v.size();
  double q = 0;
  [[cluster::gpu_parallel(reduce(+: q))]]
  for (double x : v) {
    q += (x - s.mean) * (x - s.mean);
  }
  s.stddev = std::sqrt(q / v.size());
  auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  s.lo = *lo;
  s.hi = *hi;
  return s;
}

std::map<std::string, Stats> byName(const std::map<std::string, std::vector<double>> &m) {
  std::map<std::string, Stats> out;
  for (const auto &[k, v] : m)
    out[k] = describe(v);
  return out;
}

void saxpy(long n, double a, const double *x, double *y) {
  [[cluster::gpu_parallel]]
  for (long i = 0; i < n; ++i) {
    y[i] = a * x[i] + y[i];
  }
}

void jacobi(int m, const double *a, double *b) {
  [[cluster::gpu_parallel]]
  for (int i = 1; i < m - 1; ++i) {
    for (int j = 1; j < m - 1; ++j)
      b[i * m + j] = 0.25 * (a[(i - 1) * m + j] + a[(i + 1) * m + j] + a[i * m + j - 1] +
                             a[i * m + j + 1]);
  }
}

double dot(long n, const double *x, const double *y) {
  double s = 0;
  [[cluster::gpu_parallel(reduce(+: s))]]
  for (long i = 0; i < n; ++i) {
    s += x[i] * y[i];
  }
  return s;
}

std::vector<int> histogram(const std::vector<double> &v, int bins, double lo, double hi) {
  std::vector<int> h(bins, 0);
  for (double x : v) {
    int b = int((x - lo) / (hi - lo) * bins);
    h[std::clamp(b, 0, bins - 1)]++;
  }
  return h;
}

std::vector<std::string> labels(int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i)
    out.push_back("bin " + std::to_string(i));
  std::sort(out.begin(), out.end());
  return out;
}

void scale(int rows, int cols, double f, double *m) {
  [[cluster::gpu_parallel]]
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      m[r * cols + c] *= f;
    }
}

long countAbove(long n, const double *x, double t) {
  long k = 0;
  [[cluster::gpu_parallel]]
  for (long i = 0; i < n; ++i) {
    if (x[i] > t)
      ++k;
  }
  return k;
}
