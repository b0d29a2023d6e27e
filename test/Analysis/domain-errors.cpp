// Where math errno is kept (clang's default), a loop whose math calls may set errno keeps its
// GPU form when those calls are of functions whose errno a kernel can tell (sqrt, sin, cos,
// tan, asin, acos, fmod: EDOM; log, log2, log10, log1p, pow: EDOM or ERANGE; exp, exp2, expm1:
// ERANGE), in the body, a callee or a lambda that captures by reference: the kernel checks
// their arguments and results and hands the runtime its last error. Every other case keeps the
// loop on CPU devices, with the note that says why.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark|note}}:"
// REQUIRES: compiler
#include <cmath>
#define ROOT(x) std::sqrt(x)
#define CALL(f) f
static double norm(double x) { return std::sqrt(x * x + 1); }
struct Point {
  double x, y;
  double length() const { return std::sqrt(x * x + y * y); }
};

void uses(int n, double *a, float *f, const Point *p) {
  // CHECK: {{.*}}domain-errors.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: a, f; out: a
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = std::sqrt(a[i]) + sqrtf(f[i]) + std::fmod(a[i], 2.0) + std::acos(a[i]) + std::sin(f[i]);
  // A callee takes the flag as a parameter; a lambda that captures by reference sees it.
  // CHECK: {{.*}}domain-errors.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 6); in: a; out: a
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
    auto r = [&](double x) { return std::sqrt(x); };
    a[i] = norm(a[i]) + r(a[i]);
  }
  // CHECK: {{.*}}domain-errors.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 4); in: a; out: a
  // CHECK: {{.*}}domain-errors.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the loop calls 'sqrt', which sets errno on a domain or range error where math errno is kept (-fmath-errno, clang's default), and a GPU reports it from a lambda only where the lambda captures by reference ('[&]'); or build with -fno-math-errno
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
    auto r = [](double x) { return std::sqrt(x); };
    a[i] = r(a[i]);
  }
  // CHECK: {{.*}}domain-errors.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); in: p; out: a
  // CHECK: {{.*}}domain-errors.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the loop calls 'sqrt', which sets errno on a domain or range error where math errno is kept (-fmath-errno, clang's default), and a GPU cannot report it from member function 'Point::length'; call it elsewhere, or build with -fno-math-errno
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = p[i].length();
  // A call written in a macro's definition: the kernel carries the definition respelled. One
  // whose name comes from a macro's argument cannot be.
  // CHECK: {{.*}}domain-errors.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: a; out: a
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = ROOT(a[i]);
  // CHECK: {{.*}}domain-errors.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: a; out: a
  // CHECK: {{.*}}domain-errors.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the loop calls 'sqrt', which sets errno on a domain or range error where math errno is kept (-fmath-errno, clang's default), and the call is written in a macro, where the kernel cannot check its arguments
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = CALL(std::sqrt)(a[i]);
  // The standard library's promoting overloads convert to double, as the helper does; to long
  // double, which a GPU does not have, they keep the note.
  // CHECK: {{.*}}domain-errors.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: a, f; out: a
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = std::fmod(f[i], a[i]) + std::pow(a[i], 2) + std::log(i + 1);
  // CHECK: {{.*}}domain-errors.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: a; out: a
  // CHECK: {{.*}}domain-errors.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the loop calls 'fmod', which sets errno on a domain or range error where math errno is kept (-fmath-errno, clang's default), and this call's types are not the ones a GPU checks
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = (double)std::fmod(a[i], 2.0L);
  // Errors of both kinds, in the body and in a callee.
  // CHECK: {{.*}}domain-errors.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); in: a, f; out: a
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = std::log(a[i]) + std::exp(a[i]) + std::pow(a[i], 0.5) + logf(f[i]) + expf(f[i]) +
           std::log1p(a[i]) + std::exp2(a[i]) + std::expm1(a[i]) + std::log10(a[i]) + norm(a[i]);
  // Functions whose errno a kernel cannot tell exactly keep the note they had.
  // CHECK: {{.*}}domain-errors.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: f; out: f
  // CHECK: {{.*}}domain-errors.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the loop calls 'powf', which sets errno on a domain or range error where math errno is kept (-fmath-errno, clang's default), and a GPU's 'powf' does not; build with -fno-math-errno to run it on GPUs
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    f[i] = powf(f[i], 1.5f);
  // CHECK: {{.*}}domain-errors.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: a; out: a
  // CHECK: {{.*}}domain-errors.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the loop calls 'cosh', which sets errno on a domain or range error where math errno is kept (-fmath-errno, clang's default), and a GPU's 'cosh' does not; build with -fno-math-errno to run it on GPUs
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = std::cosh(a[i]);
}
