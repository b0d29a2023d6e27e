// An element-wise loop with an integer sum is accepted; the remark lists its regions and
// reduction.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark}}:"
// REQUIRES: compiler

void saxpy(int n, double a, const double *x, double *y, long &count) {
  long sum = 0;
  [[cluster::gpu_parallel]]
  // CHECK: accept-basic.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 2); in: y, x; out: y; reduce: sum (+)
  for (int i = 0; i < n; ++i) {
    y[i] = a * x[i] + y[i];
    sum += i;
  }
  count = sum;
}
