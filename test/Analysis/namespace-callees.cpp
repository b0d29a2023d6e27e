// Callees of namespaces and function templates: the kernel carries them at file scope under
// names of their own (`prk::abs` -> `__clx_N3prk_abs`), and a function template as the template,
// for its one instantiation. The forms that cannot be written keep the loop on CPU devices, each
// with the note that says why.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark|note}}:"
// REQUIRES: compiler
namespace prk {
template <typename T> T abs(T x) { return x < 0 ? -x : x; }
template <> inline float abs<float>(float x) { return x < 0 ? -x : x; }
double gain = 2;
inline double gained(double x) { return x * gain; }
template <typename T> T scaled(T x) { return x * gain; }
inline double sq(double x) { return x * x; }
namespace {
int pick(int i) { return i % 3; }
} // namespace
} // namespace prk
#define SQ(x) prk::sq(x)
template <typename T> T twice(T x) { return x + x; }
struct Vec {
  double x;
  friend double mag(Vec v) { return v.x * 2; }
};

void uses(int n, double *a, float *f, int *k, Vec *v) {
  // CHECK: {{.*}}namespace-callees.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 2 (score 11); in: a, k; out: a
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = prk::abs(a[i]) + prk::sq(a[i]) + prk::pick(i) + twice(a[i]) + twice<double>(1.0) + k[i];
  // CHECK: {{.*}}namespace-callees.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 5); in: a, k; out: a
  // CHECK: {{.*}}namespace-callees.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the loop calls function template 'prk::abs' with two different sets of template arguments
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = prk::abs(a[i]) + prk::abs(k[i]);
  // An explicit specialization is carried after a declaration of its template.
  // CHECK: {{.*}}namespace-callees.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); in: f; out: f
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    f[i] = prk::abs(f[i]);
  // CHECK: {{.*}}namespace-callees.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); in: a; out: a
  // CHECK: {{.*}}namespace-callees.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the loop calls 'prk::sq' of a namespace inside a macro, where its name cannot be spelled
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = SQ(a[i]);
  // A namespace's helper that reads a global takes it as a parameter, as one at file scope does.
  // CHECK: {{.*}}namespace-callees.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); in: a; out: a; checked against writes through pointers: ::prk::gain
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = prk::gained(a[i]);
  // CHECK: {{.*}}namespace-callees.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); in: a; out: a; checked against writes through pointers: ::prk::gain
  // CHECK: {{.*}}namespace-callees.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: 'scaled' uses 'gain', and it is a function template, whose parameters are not extended
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = prk::scaled(a[i]);
  // CHECK: {{.*}}namespace-callees.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: a; out: a
  // CHECK: {{.*}}namespace-callees.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the code names 'prk::sq' other than in a call, and the kernel carries it under another name
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = (&prk::sq == nullptr) ? 0 : a[i] * 2;
  // CHECK: {{.*}}namespace-callees.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); in: v; out: a
  // CHECK: {{.*}}namespace-callees.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the loop calls 'mag', a friend function defined in its class
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = mag(v[i]);
  // The kernel names a namespace's variable by its identifier: a local of the body, or a
  // reduction, of that identifier would hide it there (a wrong result, or no kernel at all).
  // CHECK: {{.*}}namespace-callees.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 2); out: a; checked against writes through pointers: ::prk::gain
  // CHECK: {{.*}}namespace-callees.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the kernel names global 'prk::gain' as 'gain', which a variable the loop declares would hide there
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
    double gain = i % 5;
    a[i] = gain + prk::gain;
  }
  double gain = 0;
  // CHECK: {{.*}}namespace-callees.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: a; reduce: gain (+)
  // CHECK: {{.*}}namespace-callees.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the kernel names global 'prk::gain' as 'gain', which a variable the loop declares would hide there
  [[cluster::gpu_parallel(reduce(+: gain))]]
  for (int i = 0; i < n; i++)
    gain += a[i] * prk::gain;
  f[0] = (float)gain;
  // A range-for's element is declared where the body runs too. (The range is a plain array in
  // a unit that includes nothing: the rewritten code counts it with std::size, which
  // clustrix/Runtime.h declares.)
  double cells[64] = {};
  // CHECK: {{.*}}namespace-callees.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices
  // CHECK: {{.*}}namespace-callees.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the kernel names global 'prk::gain' as 'gain', which a variable the loop declares would hide there
  [[cluster::gpu_parallel]]
  for (double &gain : cells)
    gain = gain * 2 + prk::gain;
  a[0] = cells[n % 64];
}
