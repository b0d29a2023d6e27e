// Preprocessor directives in a kernel's text: the kernel takes the branches the host's
// preprocessor took, drops the conditional directives and the loop hints other than `#pragma
// unroll`, and keeps a loop off GPUs where a directive would change what the kernel means
// (`#define`, `#pragma STDC FP_CONTRACT`, other pragmas) or where a comment on a directive's line
// goes on past it. Golden kernels: test/Rewrite/Inputs/golden/analysis-gpu-directives.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark|note}}:"
// RUN: %clustrix_cxx -fsyntax-only -DUSE_HALF -DVERBOSE %s 2>&1 | FileCheck %s --check-prefix=HALF
// The kernel of the other configuration takes the other branches:
// RUN: rm -rf %t && %clustrix-rewrite %s --kernels-dir=%t -o %t.cpp -- -std=c++17 -DUSE_HALF -DVERBOSE 2>/dev/null
// RUN: cat %t/*_44_3.cu | FileCheck %s --check-prefix=KERNEL --implicit-check-not="#if" --implicit-check-not="#e" --implicit-check-not=ivdep --implicit-check-not=vectorize --implicit-check-not=skipped
// KERNEL: __device__ static double scaled(double v
// KERNEL-NOT: )
// KERNEL: , int
// KERNEL: return SCALE * v;
// KERNEL-NOT: return v;
// KERNEL: __device__ static inline double offset(double v) {
// KERNEL-NOT: v + 100
// KERNEL: return v + 0.5;
// KERNEL-NOT: v + 1;
// KERNEL: a[i] = scaled(a[i], i);
// KERNEL-NOT: scaled(a[i]);
// KERNEL: #pragma unroll
// REQUIRES: compiler
#include "Inputs/gpu-directives.h"

#define SCALE 3

static double scaled(double v
#ifdef VERBOSE
                     , int
#endif
) {
#if SCALE > 2
  return SCALE * v; /* the host's branch */
#else
  return v;
#endif
}

void kept(int n, double *a) {
  // CHECK: {{.*}}gpu-directives.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 3 (score 30); in: a; out: a
  // HALF: {{.*}}gpu-directives.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 3 (score 30); in: a; out: a
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
#ifdef VERBOSE
    a[i] = scaled(a[i], i);
#elif defined(NEVER_DEFINED)
    skipped text is not lexed for the kernel: it's no C++
#else
    a[i] = scaled(a[i]);
#endif
    a[i] = offset(a[i]);
#pragma unroll
    for (int k = 0; k < 2; k++)
      a[i] += k;
#pragma GCC ivdep
    for (int k = 0; k < 2; k++)
      a[i] -= k;
#pragma clang loop vectorize(enable)
    for (int k = 0; k < 2; k++)
      a[i] += k;
  }
}

void refused(int n, double *a) {
  // CHECK: {{.*}}gpu-directives.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); out: a
  // CHECK: {{.*}}gpu-directives.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the code at {{.*}}gpu-directives.cpp:[[@LINE+3]]:1 holds '#define', which the kernel text cannot carry
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
#define LOCAL 4
    a[i] = LOCAL;
  }
  // CHECK: {{.*}}gpu-directives.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: a; out: a
  // CHECK: {{.*}}gpu-directives.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the code at {{.*}}gpu-directives.cpp:[[@LINE+3]]:1 holds '#pragma STDC', which the kernel text cannot carry
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
#pragma STDC FP_CONTRACT OFF
    a[i] = a[i] * 2 + 1;
  }
  // CHECK: {{.*}}gpu-directives.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: a; out: a
  // CHECK: {{.*}}gpu-directives.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the code at {{.*}}gpu-directives.cpp:[[@LINE+3]]:1 holds a preprocessor directive with a comment that goes on after its line, which the kernel text cannot drop
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
#ifndef NEVER /* a comment
                 over two lines */
    a[i] += 1;
#endif
  }
}
