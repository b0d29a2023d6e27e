// Domain errors of math calls on GPUs, where math errno is kept (clang's default): the kernel
// checks the arguments of sqrt, sin, cos, tan, asin, acos and fmod as the C library does and
// hands the runtime its last error, which becomes errno after the call (domain-errors.test;
// range errors and both kinds together: math-errno.cpp).
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

// A callee's calls report through a parameter the kernel adds, as does every function on the
// way to them (NPB's compute_speed_of_sound).
static double speed(double p, double r) { return std::sqrt(1.4 * p / r); }
static double twice(double p) { return speed(p, 2.0) * 2; }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 6000;
  double *a = (double *)malloc(sizeof(double) * n), *b = (double *)malloc(sizeof(double) * n);
  float *f = (float *)malloc(sizeof(float) * n);
  for (int i = 0; i < n; i++) {
    a[i] = (i % 13) - 2.0;
    f[i] = (float)(i % 7) - 1.0f;
  }

  // No argument outside the domain: errno stays as the caller left it.
  double s = 0;
  errno = 0;
  [[cluster::gpu_parallel(reduce(+: s))]]
  for (int i = 0; i < n; i++) {
    b[i] = std::sqrt(std::fabs(a[i])) + fmod(a[i], 3.0) + std::cos(a[i]) + std::tan(a[i] / 8);
    s += b[i];
  }
  printf("clean: errno %d, sum %.6f\n", errno, s);
  errno = ERANGE;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    b[i] = std::sqrt(a[i] + 2);
  printf("clean, errno set before: errno %d\n", errno);

  // One iteration out of the domain, in the middle of the second half.
  errno = 0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    b[i] = (i == n - n / 4) ? sqrt(a[i] - 100) : sqrt(sqrt(a[i] + 3));
  printf("one sqrt: errno %d, nan %d\n", errno, std::isnan(b[n - n / 4]) ? 1 : 0);

  // Through two callees, and a lambda that captures by reference.
  errno = 0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
    auto g = [&](double x) { return std::sqrt(x + 1); };
    b[i] = twice(a[i] + 2) + g(a[i] + 1);
  }
  printf("callees, clean: errno %d\n", errno);
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    b[i] = twice(a[i]);
  printf("callees: errno %d\n", errno);
  errno = 0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
    auto g = [&](double x) { return std::sqrt(x + 1); };
    b[i] = g(a[i]);
  }
  printf("lambda: errno %d\n", errno);

  // float overloads and the C names.
  errno = 0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    f[i] = std::sqrt(f[i]) + sqrtf(f[i] + 1) + sinf(f[i]);
  printf("float: errno %d\n", errno);

  errno = 0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    b[i] = acos(a[i] / 4) + asin(a[i] / 16);
  printf("acos: errno %d\n", errno);

  errno = 0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    b[i] = fmod(a[i], (double)(i % 5));
  printf("fmod by zero: errno %d\n", errno);

  const double inf = INFINITY;
  errno = 0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    b[i] = std::sin(i == 1 ? inf : a[i]);
  printf("sin of infinity: errno %d\n", errno);

  // A time step: the arrays stay on the devices, and the flag comes back with every call.
  errno = 0;
  for (int t = 0; t < 4; t++) {
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; i++)
      b[i] = std::sqrt(a[i] + 3 - t) + b[i] * 0.5;
    printf("step %d: errno %d\n", t, errno);
  }
  double c = 0;
  for (int i = 0; i < n; i++)
    c += std::isnan(b[i]) ? 1000 : b[i] * (i % 11);
  printf("checksum %.6f\n", c);
  free(a);
  free(b);
  free(f);
  return 0;
}
