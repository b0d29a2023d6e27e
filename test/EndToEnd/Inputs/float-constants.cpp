// The constants behind INFINITY, HUGE_VAL, HUGE_VALF and NAN (compiler builtins, which the
// device compiler lacks) in loops on GPUs: the kernel has them as functions of its own, with the
// host's bits; and numeric_limits' constants, which the kernel writes as their values
// (float-constants.test).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#define BIG (2 * HUGE_VAL)

static unsigned long long bitsOf(double d) {
  unsigned long long u;
  memcpy(&u, &d, sizeof u);
  return u;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 5000;
  double *a = (double *)malloc(sizeof(double) * n), *b = (double *)malloc(sizeof(double) * n);
  float *f = (float *)malloc(sizeof(float) * n);
  for (int i = 0; i < n; i++) {
    a[i] = (i % 17) - 8.0;
    f[i] = (float)(i % 5);
  }

  // Clamps to infinities, a NaN for a hole, and a float infinity.
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    b[i] = a[i] > 6 ? INFINITY : a[i] < -6 ? -HUGE_VAL : a[i] == 0 ? NAN : a[i];
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    f[i] = f[i] == 4 ? HUGE_VALF : -f[i];
  // A user's macro over one, a direct call of the builtin, and numeric_limits.
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = i % 97 == 3 ? BIG : i % 89 == 1 ? __builtin_inf() : a[i];
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = a[i] == 8 ? std::numeric_limits<double>::infinity()
           : a[i] == 7 ? std::numeric_limits<double>::lowest()
           : a[i] == 6 ? std::numeric_limits<float>::max() + std::numeric_limits<double>::epsilon()
           : a[i] == 5 ? std::numeric_limits<double>::quiet_NaN()
           : a[i] == 4 ? (double)std::numeric_limits<int>::min() : a[i];

  // A minimum whose every iteration starts from +infinity.
  double lo = 0;
  [[cluster::gpu_parallel(reduce(+: lo))]]
  for (int i = 0; i < n; i++) {
    double m = INFINITY;
    for (int j = 0; j < 4; j++)
      m = std::fmin(m, a[(i + j) % n] + j);
    lo += std::isinf(m) ? 1.0 : m;
  }

  unsigned long long h = 1469598103934665603ull;
  int nans = 0, infs = 0;
  for (int i = 0; i < n; i++) {
    nans += std::isnan(b[i]);
    infs += std::isinf(b[i]) + std::isinf(f[i]) + std::isinf(a[i]);
    h = (h ^ bitsOf(b[i]) ^ bitsOf(f[i]) ^ bitsOf(a[i])) * 1099511628211ull;
  }
  printf("nans %d, infinities %d, sum of minima %.6f, bits %016llx\n", nans, infs, lo, h);
  free(a);
  free(b);
  free(f);
  return 0;
}
