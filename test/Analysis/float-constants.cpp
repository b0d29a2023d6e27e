// The builtins behind INFINITY, HUGE_VAL and NAN are constants: a loop that names them is
// accepted and keeps its GPU form (the kernel defines them: EndToEnd/float-constants.test),
// except a NaN with a payload, whose bits the kernel does not carry. numeric_limits' constants
// of the types a device has are written in the kernel as their values.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark|note}}:"
// REQUIRES: compiler
#include <cmath>
#include <limits>

void constants(int n, double *a, float *f) {
  // CHECK: {{.*}}float-constants.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 2); in: a, f; out: a, f
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
    a[i] = a[i] > 1 ? INFINITY : a[i] < -1 ? -HUGE_VAL : a[i] == 0 ? NAN : __builtin_nan("");
    f[i] = f[i] > 1 ? HUGE_VALF : __builtin_inff();
  }
  // CHECK: {{.*}}float-constants.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: a; out: a
  // CHECK: {{.*}}float-constants.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the loop calls '__builtin_nan' with a payload other than "", which the kernel does not carry
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = a[i] > 1 ? __builtin_nan("0x12") : a[i];
  // CHECK: {{.*}}float-constants.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 5); in: a; out: a
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = a[i] > 1 ? std::numeric_limits<double>::max() : std::numeric_limits<float>::infinity();
  // CHECK: {{.*}}float-constants.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); in: a; out: a
  // CHECK: {{.*}}float-constants.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the loop calls 'std::numeric_limits<long double>::max' of a template
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = (double)(a[i] - std::numeric_limits<long double>::max());
}
