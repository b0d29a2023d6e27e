// A subscript term may multiply at most four variables (the box program's term capacity): a
// subscript with a larger term is treated as non-affine rather than given a truncated box, so a
// read through it needs a known extent: a pointer's is the heap block that holds it, at run
// time; an array of unknown bound has none.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark|note}}:"
// REQUIRES: compiler

void fits(double *y, const double *b, int n, long p, long q, long r) {
  [[cluster::gpu_parallel]]
  // CHECK: box-limit.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: b; out: y
  for (int i = 0; i < n; ++i)
    y[i] = b[i * p * q * r];
}

void too_many(double *y, const double *b, int n, long p, long q, long r, long s) {
  [[cluster::gpu_parallel]]
  // CHECK: box-limit.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: b; out: y
  for (int i = 0; i < n; ++i)
    y[i] = b[i * p * q * r * s];
}

extern const double ub[];
void too_many_unbounded(double *y, int n, long p, long q, long r, long s) {
  [[cluster::gpu_parallel]]
  // CHECK: box-limit.cpp:[[@LINE+1]]:3: warning: loop not parallelized: 'ub' is read through a subscript that is not affine and its extent is unknown
  for (int i = 0; i < n; ++i)
    // CHECK: box-limit.cpp:[[@LINE+2]]:12: note: read here
    // CHECK: box-limit.cpp:[[@LINE-4]]:14: note: add 'extent(ub, <count>)' to the attribute
    y[i] = ub[i * p * q * r * s];
}
