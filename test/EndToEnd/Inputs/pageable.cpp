// pageable_access (docs/data-movement.md#pageable-access): loops whose chunks may run on the
// host's memory in place, and loops that may not.
//
//   pageable MODE M STEPS      MODE: jacobi, accumulate, alias, distinct, dot or all
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

// Each sweep reads one array and writes the other: a chunk that ran part way computes the same
// values when it runs again.
void jacobi(int m, int steps, double *a, double *b) {
  for (int t = 0; t < steps; ++t) {
    [[cluster::gpu_parallel]]
    for (int i = 1; i < m - 1; ++i) {
      for (int j = 1; j < m - 1; ++j)
        b[i * m + j] = 0.25 * (a[(i - 1) * m + j] + a[(i + 1) * m + j] + a[i * m + j - 1] +
                               a[i * m + j + 1]);
    }
    double *tmp = a;
    a = b;
    b = tmp;
  }
}

// Reads and writes x: run twice over the same elements, it adds y twice.
void accumulate(int n, double *x, const double *y) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    x[i] += y[i];
  }
}

// Writes dst, reads src: in place when they are two arrays, not when they are one.
void increment(int n, double *dst, const double *src) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    dst[i] = src[i] + 1.0;
  }
}

// A reduction: its cells stay on the device, the arrays are read in place.
long dot(int n, const double *x, const double *y) {
  long sum = 0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    sum += static_cast<long>(x[i] * 4) * static_cast<long>(y[i] * 4);
  }
  return sum;
}

static double checksum(const std::vector<double> &v) {
  double s = 0;
  for (size_t i = 0; i < v.size(); ++i)
    s += v[i] * static_cast<double>(i % 7 + 1);
  return s;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: pageable MODE M STEPS\n");
    return 2;
  }
  const char *mode = argv[1];
  int m = std::atoi(argv[2]), steps = std::atoi(argv[3]);
  bool all = std::strcmp(mode, "all") == 0;
  int n = m * m;
  std::vector<double> a(n), b(n), x(n), y(n);
  for (int i = 0; i < n; ++i) {
    a[i] = b[i] = (i % 13) * 0.5;
    x[i] = i % 5;
    y[i] = 0.25 * (i % 3);
  }
  if (all || !std::strcmp(mode, "jacobi")) {
    jacobi(m, steps, a.data(), b.data());
    std::printf("jacobi %.17g %.17g\n", checksum(a), checksum(b));
  }
  if (all || !std::strcmp(mode, "accumulate")) {
    for (int t = 0; t < steps; ++t)
      accumulate(n, x.data(), y.data());
    std::printf("accumulate %.17g\n", checksum(x));
  }
  if (all || !std::strcmp(mode, "alias")) {
    for (int t = 0; t < steps; ++t)
      increment(n, y.data(), y.data());
    std::printf("alias %.17g\n", checksum(y));
  }
  if (all || !std::strcmp(mode, "distinct")) {
    for (int t = 0; t < steps; ++t)
      increment(n, b.data(), a.data());
    std::printf("distinct %.17g\n", checksum(b));
  }
  if (all || !std::strcmp(mode, "dot"))
    std::printf("dot %ld\n", dot(n, a.data(), x.data()));
  return 0;
}
