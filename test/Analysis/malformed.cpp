// Malformed input never crashes or hangs the plugin: code with compile errors is left to the
// compiler (no Clustrix diagnostic), and garbage inside or around the attribute is an error at
// the offending token.
// RUN: split-file %s %t
// RUN: not %clustrix_cxx -fsyntax-only %t/broken.cpp 2>&1 | FileCheck %t/broken.cpp --implicit-check-not="remark:"
// RUN: not %clustrix_cxx -fsyntax-only %t/garbage.cpp 2>&1 | FileCheck %t/garbage.cpp --implicit-check-not="{{warning|remark}}:"
// RUN: not %clustrix_cxx -fsyntax-only %t/parse-error.cpp 2>&1 | FileCheck %t/parse-error.cpp --implicit-check-not="remark:"
// RUN: %clustrix_cxx -fsyntax-only %t/unbalanced.cpp 2>&1 | FileCheck %t/unbalanced.cpp --implicit-check-not="{{error|remark}}:"
// RUN: not %clustrix_cxx -fsyntax-only %t/eof.cpp 2>&1 | FileCheck %t/eof.cpp --implicit-check-not="{{warning|remark}}:"
// REQUIRES: compiler

//--- broken.cpp
void broken(int n, double *a) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    // CHECK: broken.cpp:[[@LINE+1]]:12: error: use of undeclared identifier 'undefined_thing'
    a[i] = undefined_thing;
  }
}
// The analysis is skipped and the text compiled as written, so clang also warns about the
// attribute: taking it out could hide an error (see parse-error.cpp).
// CHECK: broken.cpp:[[@LINE-8]]:5: warning: unknown attribute 'gpu_parallel' ignored

//--- garbage.cpp
void g(int n, double *a) {
  // CHECK: garbage.cpp:[[@LINE+1]]:27: error: expected a clause, found '@'
  [[cluster::gpu_parallel(@@ ## ::: 7)]]
  for (int i = 0; i < n; ++i) {
    a[i] = 0;
  }
  // CHECK: garbage.cpp:[[@LINE+1]]:27: error: expected a clause, found '"x"'
  [[cluster::gpu_parallel("x", 'y')]]
  for (int i = 0; i < n; ++i) {
    a[i] = 0;
  }
  // CHECK: garbage.cpp:[[@LINE+1]]:47: error: expected ')' in 'schedule' clause, found 'dynamic'
  [[cluster::gpu_parallel(schedule(dynamic, 4 dynamic))]]
  for (int i = 0; i < n; ++i) {
    a[i] = 0;
  }
}

//--- parse-error.cpp
// A `]]` inside the arguments ends the attribute early: the compiler's parse errors only.
void p(int n, double *a) {
  // CHECK: parse-error.cpp:[[@LINE+1]]:57: error: expected ']'
  [[cluster::gpu_parallel(reduce(+: s t), extent(a, (n)]), devices((2)))]]
  for (int i = 0; i < n; ++i) {
    a[i] = 0;
  }
}

//--- unbalanced.cpp
// Brackets that never balance swallow the rest of the file as the attribute's arguments: the
// compiler ignores the attribute (a known gap: no Clustrix error), and nothing hangs.
void u(int n, double *a) {
  // CHECK: unbalanced.cpp:[[@LINE+1]]:5: warning: unknown attribute 'gpu_parallel' ignored
  [[cluster::gpu_parallel(schedule(block]]
  for (int i = 0; i < n; ++i) {
    a[i] = 0;
  }
}

//--- eof.cpp
// The attribute is the last thing in the file.
int x;
// CHECK: eof.cpp:[[@LINE+1]]:26: error: expected external declaration
[[cluster::gpu_parallel]]
