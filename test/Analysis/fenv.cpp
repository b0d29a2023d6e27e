// A translation unit that uses the floating-point environment: its loops run on CPU workers in
// the caller's environment (test/EndToEnd/thread-state.test), and have no GPU form, since a GPU
// keeps neither the rounding mode nor the exception flags.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark}}:"
// REQUIRES: compiler
#include <cfenv>

double upward(double *a, const double *b, int n) {
  std::fesetround(FE_UPWARD);
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}fenv.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: b; out: a
  // CHECK: {{.*}}fenv.cpp:[[@LINE+1]]:3: note: no GPU form, the loop runs on CPU devices: the translation unit uses 'fesetround': a GPU keeps neither the caller's rounding mode nor its floating-point exception flags
  for (int i = 0; i < n; ++i)
    a[i] = b[i] / 3.0;
  std::fesetround(FE_TONEAREST);
  return a[0];
}
