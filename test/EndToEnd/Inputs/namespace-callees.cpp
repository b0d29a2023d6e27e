// Callees of namespaces and function templates on GPUs (namespace-callees.test): every loop has
// a GPU form, and its output equals the serial program's.
#include <cstdio>
#include <cstdlib>

namespace geo {
template <typename T> T abs(T x) { return x < 0 ? -x : x; }
inline double sq(double x) { return x * x; }
inline int sq(int x) { return x * x + 1; } // an overload: each call keeps its own
namespace detail {
static double twice(double x) { return 2 * sq(x); } // its sibling, unqualified
} // namespace detail
double outside(double x);
template <int K, typename T> T times(T x) { return x * K; }
inline namespace v2 {
double shift(double x) { return x + 0.25; }
} // namespace v2
} // namespace geo
double geo::outside(double x) { return detail::twice(x) + 1; } // defined with its qualifier

namespace {
int pick(int i) { return i % 3; }
} // namespace

// A file-scope helper with a namespace helper's name: each call reaches its own.
static double sq(double x) { return -x; }

template <typename T> T clampit(T v, T lo, T hi) { return v < lo ? lo : (v > hi ? hi : v); }

// Explicit specializations, as the Parallel Research Kernels' prk::abs has them (a compiler
// builtin in one), and default arguments, of a function and of a template, which the kernel
// declares once.
namespace prk {
template <typename T> T mag(T x) { return x >= 0 ? x : -x; }
template <> inline double mag(double x) { return __builtin_fabs(x) + 0.5; }
} // namespace prk
template <typename T, int K = 3> T scaled(T x) { return x * K; }
static double lin(double x, double y = 0.25) { return x + y; }

namespace app {
static double bump(double x) { return x + 3; }
// A loop in a namespace's function calls its sibling unqualified.
void run(int n, const double *a, double *b) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    b[i] = bump(a[i]) * geo::times<3>(a[i]);
}
} // namespace app

// A loop in a function template calls a function template with a parameter of the same name.
template <typename T> void halves(int n, const T *a, T *b) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    b[i] = clampit(a[i], T(-2), T(2)) / 2;
}

static double checksum(const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += b[i] * (i % 17 + 1);
  return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 3000;
  double *a = (double *)malloc(sizeof(double) * n), *b = (double *)malloc(sizeof(double) * n);
  float *fa = (float *)malloc(sizeof(float) * n), *fb = (float *)malloc(sizeof(float) * n);
  for (int i = 0; i < n; i++)
    fa[i] = (float)(a[i] = (i % 11) * 0.5 - 2.5);

  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    b[i] = geo::abs(a[i]) + geo::sq(a[i]) + geo::sq(i % 5) + sq(a[i]) + pick(i);
  printf("%.4f\n", checksum(b, n));

  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    b[i] = geo::outside(a[i]) + geo::shift(a[i]) + geo::v2::shift(1.0);
  printf("%.4f\n", checksum(b, n));

  {
    using namespace geo;
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; i++)
      b[i] = abs(a[i] * 2) + detail::twice(a[i]);
    printf("%.4f\n", checksum(b, n));
  }

  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    b[i] = prk::mag(a[i]) + prk::mag(i % 7 - 3) + scaled(a[i]) + scaled(2.0) + lin(a[i]) +
           lin(a[i], 2.0);
  printf("%.4f\n", checksum(b, n));

  app::run(n, a, b);
  printf("%.4f\n", checksum(b, n));

  halves(n, a, b);
  printf("%.4f\n", checksum(b, n));
  halves(n, fa, fb);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += fb[i] * (i % 7);
  printf("%.4f\n", s);
  free(a);
  free(b);
  free(fa);
  free(fb);
  return 0;
}
