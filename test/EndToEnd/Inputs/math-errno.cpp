// Range errors, and errors of both kinds, of math calls on GPUs where math errno is kept
// (clang's default): the kernel notes each call's error (log, log2, log10, log1p, pow: EDOM or
// ERANGE; exp, exp2, expm1, expf: ERANGE), each thread keeps its last one in iteration order,
// and the runtime leaves errno as the serial loop's last error, whichever chunk, device or CPU
// worker ran it (math-errno.test).
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

static double safeLog(double x) { return std::log(x) * 0.5; }

// Calls written in macros' definitions (PolyBench's sqrt_of_array_cell): the kernel carries
// the definitions respelled, in the body and in a callee.
#define LOG_OF_CELL(x, j) std::log(x[j])
#define ROOT_PLUS(v) sqrt (v) + 1
static double cellLog(const double *x, int j) { return LOG_OF_CELL(x, j); }

static void collapsed(double *b, const double *a, int rows, int cols) {
  [[cluster::gpu_parallel(collapse(2))]]
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++)
      b[r * cols + c] = std::log(r == 40 && c == 3 ? 0.0 : r == 7 && c == 9 ? -1.0 : a[r * cols + c]);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 6000;
  double *a = (double *)malloc(sizeof(double) * n), *b = (double *)malloc(sizeof(double) * n);
  float *f = (float *)malloc(sizeof(float) * n);
  for (int i = 0; i < n; i++) {
    a[i] = (i % 13) + 1.0;
    f[i] = (float)(i % 7) + 0.5f;
  }
  const int early = n / 5, late = n - n / 7;

  // A pole (ERANGE) early and a domain error (EDOM) late: EDOM is the last; then the reverse.
  errno = 0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    b[i] = std::log(i == early ? 0.0 : i == late ? -a[i] : a[i]);
  printf("log, pole then domain: errno %d\n", errno);
  errno = 0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    b[i] = std::log(i == early ? -a[i] : i == late ? 0.0 : a[i]);
  printf("log, domain then pole: errno %d\n", errno);

  // Both kinds within one iteration, sequenced: the later call's error is the iteration's.
  errno = 0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
    double u = std::log2(i == late ? -1.0 : a[i]);
    double v = std::exp(i == late ? 800.0 : a[i] / 8);
    b[i] = u + v;
  }
  printf("log2 then exp in one iteration: errno %d\n", errno);
  errno = 0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
    double v = std::exp(i == late ? 800.0 : a[i] / 8);
    double u = std::log10(i == late ? -1.0 : a[i]);
    b[i] = u + v;
  }
  printf("exp then log10 in one iteration: errno %d\n", errno);

  // Errors in many iterations: every thread has several, in both kinds.
  errno = 0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    b[i] = std::log1p(i % 97 == 5 ? -1.0 : i % 89 == 7 ? -3.0 : a[i]);
  printf("log1p, many: errno %d\n", errno);
  errno = 0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    b[i] = std::log1p(i % 89 == 7 ? -1.0 : i % 97 == 5 ? -3.0 : a[i]);
  printf("log1p, many, other order: errno %d\n", errno);

  // pow: domain (a negative base, a fraction), pole, overflow, underflow to zero, and clean.
  errno = 0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    b[i] = std::pow(i == early ? -2.0 : a[i], i == early ? 0.5 : 2.0);
  printf("pow, domain: errno %d\n", errno);
  errno = 0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    b[i] = std::pow(i == early ? -2.0 : i == late ? 0.0 : a[i], i == early ? 0.5 : i == late ? -1.0 : 2.0);
  printf("pow, domain then pole: errno %d\n", errno);
  errno = 0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    b[i] = std::pow(10.0, i == early ? -400.0 : i == late ? 0.5 : a[i] * 20);
  printf("pow, underflow: errno %d\n", errno);
  errno = 0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    b[i] = std::pow(a[i], a[i] * 60) + std::pow(-a[i], 3.0);
  printf("pow, overflow: errno %d\n", errno);
  errno = 0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    b[i] = std::pow(a[i], 0.5) + std::pow(-a[i], 2.0) + std::pow(0.0, 0.0);
  printf("pow, clean: errno %d\n", errno);
  // The standard library's promoting overloads: integer arguments become doubles.
  errno = 0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    b[i] = std::pow(a[i], 2) + std::log(i - early) + std::pow(2, i % 3 == 0 ? 1100 : 3);
  printf("integer arguments: errno %d\n", errno);

  // exp's edges, exp2, expm1 and the float forms.
  errno = 0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    b[i] = std::exp(i == late ? -746.0 : -a[i]) + std::exp2(a[i] * 70) + std::expm1(a[i]);
  printf("exp2 overflow, exp underflow: errno %d\n", errno);
  const double inf = INFINITY;
  errno = 0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    b[i] = std::exp(a[i] - (i == n - 1 ? 1e300 : 0.0)) + std::exp(i == 0 ? inf : -inf);
  printf("exp of infinities, underflow last: errno %d\n", errno);
  errno = 0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    f[i] = expf(f[i] * (i == late ? 100 : 1)) + logf(f[i]);
  printf("expf: errno %d\n", errno);

  // A callee, a skipped rest of an iteration, a reduction and a collapsed nest.
  errno = 0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    b[i] = safeLog(i == late ? 0.0 : a[i]);
  printf("callee: errno %d\n", errno);
  for (int i = 0; i < n; i++)
    b[i] = i == early ? -1.0 : i == late ? 0.0 : a[i];
  errno = 0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = LOG_OF_CELL(b, i) + cellLog(b, n - 1 - i) + ROOT_PLUS(b[i] + 1);
  printf("macros: errno %d\n", errno);
  for (int i = 0; i < n; i++)
    a[i] = (i % 13) + 1.0;
  errno = 0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
    b[i] = std::log(i == early ? -1.0 : i == late ? 0.0 : a[i]);
    if (i >= early)
      continue;
    b[i] += 1;
  }
  printf("continue: errno %d\n", errno);
  double s = 0;
  errno = 0;
  [[cluster::gpu_parallel(reduce(+: s))]]
  for (int i = 0; i < n; i++) {
    double v = std::log(i == early ? 0.0 : a[i]);
    s += std::isinf(v) ? 1.0 : v;
  }
  printf("reduction: errno %d, sum %.6f\n", errno, s);
  errno = 0;
  collapsed(b, a, 60, n / 60);
  printf("collapsed: errno %d\n", errno);

  // A time step: the arrays stay on the devices; each call leaves its own last error.
  errno = 0;
  for (int t = 0; t < 4; t++) {
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; i++)
      b[i] = std::log(a[i] - (i != late ? 0.0 : t == 2 ? 20.0 : t == 3 ? a[i] : 0.0)) + b[i] * 0.5;
    printf("step %d: errno %d\n", t, errno);
  }
  double c = 0;
  for (int i = 0; i < n; i++)
    c += std::isnan(b[i]) ? 1000 : std::isinf(b[i]) ? 7 : b[i] * (i % 11);
  printf("checksum %.6f\n", c);
  free(a);
  free(b);
  free(f);
  return 0;
}
