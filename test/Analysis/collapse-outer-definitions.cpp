// A `const` local that a collapsed nest's bound names (`c < cols`) stays a symbol in the
// subscripts too: were `cols` replaced there by its definition (`n / 60`), the dependence test
// would relate `r * (n / 60) + c` to a `c` bounded by an unrelated `cols`, and refuse a loop
// whose rows are disjoint. Rows that overlap are still refused.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark|note}}:"
// REQUIRES: compiler

void rows(int n, double *b, const double *a) {
  const int cols = n / 60;
  // CHECK: {{.*}}collapse-outer-definitions.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, collapse 2, level 1 (score 1); in: a; out: b
  [[cluster::gpu_parallel(collapse(2))]]
  for (int r = 0; r < 60; r++)
    for (int c = 0; c < cols; c++)
      b[r * cols + c] = a[r * cols + c];
}

void shifted(int n, double *b) {
  const int cols = n + 1;
  // CHECK: {{.*}}collapse-outer-definitions.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, collapse 2, level 1 (score 1); out: b
  [[cluster::gpu_parallel(collapse(2))]]
  for (int r = 0; r < 60; r++)
    for (int c = 0; c < cols; c++)
      b[r * cols + c] = r;
}

void overlapping(int n, double *b) {
  const int cols = n / 60;
  // CHECK: {{.*}}collapse-outer-definitions.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'b' is written in one iteration and written in another: two iterations (with cols = 1) touch the same element
  // CHECK: {{.*}}collapse-outer-definitions.cpp:[[@LINE+4]]:7: note: written here
  [[cluster::gpu_parallel(collapse(2))]]
  for (int r = 0; r < 60; r++)
    for (int c = 0; c < cols + 1; c++)
      b[r * cols + c] = r;
}
