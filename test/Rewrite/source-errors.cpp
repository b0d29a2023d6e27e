// Code that does not compile: the compile reports its error, and nothing about the cluster::
// attributes (they are taken out even though nothing is analyzed).
// RUN: not %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|remark|note}}:"
// REQUIRES: compiler

void f(double *a, int n) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    // CHECK: source-errors.cpp:[[@LINE+1]]:12: error: use of undeclared identifier 'undeclared'
    a[i] = undeclared;
}

[[cluster::gpu_parallel]]
void g(int *b, int n) {
  for (int i = 0; i < n; ++i)
    b[i] = i;
}
// CHECK: 1 error generated.
