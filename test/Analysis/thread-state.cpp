// Design rules 8 and 9: state kept per thread, and reductions whose update converts.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark}}:"
// RUN: %clustrix_cxx -fsyntax-only -fno-math-errno %s 2>&1 | FileCheck %s --check-prefix=NOERRNO
// REQUIRES: compiler
#include <algorithm>
#include <cmath>

thread_local double factor = 1.0;
static thread_local int table[16];

void perThread(double *a, const double *b, int n) {
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}thread-state.cpp:[[@LINE+1]]:3: warning: loop not parallelized: 'factor' is thread_local: worker threads would use their own instances of it, not the caller's
  for (int i = 0; i < n; ++i)
    a[i] = b[i] * factor;
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}thread-state.cpp:[[@LINE+1]]:3: warning: loop not parallelized: 'table' is thread_local: worker threads would use their own instances of it, not the caller's
  for (int i = 0; i < n; ++i)
    a[i] = table[i & 15];
  double f = factor; // the safe form: the caller's value, copied before the loop
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}thread-state.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: b; out: a
  for (int i = 0; i < n; ++i)
    a[i] = b[i] * f;
}

// errno: a GPU's math never sets it, so with math errno kept (clang's default) a loop calling a
// function whose errno a kernel cannot tell (cosh; log's it can: domain-errors.cpp) has no GPU
// form; its CPU chunks carry errno back (test/EndToEnd/thread-state.test).
void mathErrno(double *a, const double *b, int n) {
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}thread-state.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: b; out: a
  // NOERRNO: {{.*}}thread-state.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices
  for (int i = 0; i < n; ++i)
    a[i] = std::cosh(b[i]);
  // CHECK: note: no GPU form, the loop runs on CPU devices: the loop calls 'cosh', which sets errno on a domain or range error where math errno is kept (-fmath-errno, clang's default), and a GPU's 'cosh' does not; build with -fno-math-errno to run it on GPUs
  // NOERRNO-NOT: no GPU form
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}thread-state.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: b; out: a
  for (int i = 0; i < n; ++i)
    a[i] = std::fabs(b[i]) + std::floor(b[i]); // neither sets errno: a GPU form
  // CHECK-NOT: note: no GPU form
}

// Conversions inside reductions.
void conversions(const double *d, const long long *l, const short *h, const int *x, int n,
                 int *out, long long *wide) {
  int s = 0, m = 1 << 30, k = 1 << 30, t = 0, u = 0;
  short hs = 0;
  long long w = 0;
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}thread-state.cpp:[[@LINE+1]]:3: warning: loop not parallelized: 's' is not a reduction: its update computes in 'double' and converts each result to 'int', which is not exact in 'int'
  for (int i = 0; i < n; ++i)
    s += d[i];
  // CHECK: {{.*}}thread-state.cpp:[[@LINE-1]]:5: note: updated here
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}thread-state.cpp:[[@LINE+1]]:3: warning: loop not parallelized: 'm' is not a reduction: its update compares in 'long long' and stores the 'long long' value into 'int', which is not exact in 'int'
  for (int i = 0; i < n; ++i)
    if (l[i] < m)
      m = l[i];
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}thread-state.cpp:[[@LINE+1]]:3: warning: loop not parallelized: 'k' is not a reduction: its update compares in 'long long' and stores the 'long long' value into 'int', which is not exact in 'int'
  for (int i = 0; i < n; ++i)
    k = k < l[i] ? k : l[i];
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}thread-state.cpp:[[@LINE+1]]:3: warning: loop not parallelized: 't' is not a reduction: its update computes in 'double' and converts each result to 'int', which is not exact in 'int'
  for (int i = 0; i < n; ++i)
    t = t + d[i] * 2;
  // The exact forms: integer arithmetic wraps the same in any order, and a short compared in
  // its promotion to int stores the value it compared.
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}thread-state.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: x; reduce: w (+)
  for (int i = 0; i < n; ++i)
    w += x[i];
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}thread-state.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: x; reduce: hs (+)
  for (int i = 0; i < n; ++i)
    hs += x[i];
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}thread-state.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 5); in: h; reduce: u (min)
  for (int i = 0; i < n; ++i)
    if (h[i] < u)
      u = h[i];
  *out = s + m + k + t + u + hs;
  *wide = w;
}
