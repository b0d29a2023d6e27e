// Automatic mode: [[cluster::gpu_parallel]] on a function treats every outermost loop the
// analysis proves parallel as annotated; the others get a remark, never a warning. Clauses on
// the function apply to each loop; an explicitly annotated loop keeps its own attribute.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark}}:"
// RUN: %clustrix_cxx -fsyntax-only -fplugin-arg-clustrix-remarks=off %s 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// QUIET-NOT: {{remark|warning|error}}:
// REQUIRES: compiler

[[cluster::gpu_parallel]] void automatic(int n, double *a, const double *b) {
  // CHECK: {{.*}}automatic.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices (automatic mode): schedule default, level 1 (score 1); in: b; out: a
  for (int i = 0; i < n; ++i) {
    a[i] = b[i];
  }
  // CHECK: {{.*}}automatic.cpp:[[@LINE+2]]:3: remark: loop not parallelized: 'a' is written in one iteration and read in another (dependence distance 1)
  // CHECK: {{.*}}automatic.cpp:[[@LINE+2]]:12: note: conflicting read here
  for (int i = 1; i < n; ++i) {
    a[i] = a[i - 1];
  }
  // Only outermost loops: the inner one runs inside each iteration.
  // CHECK: {{.*}}automatic.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices (automatic mode): schedule default, level 1 (score 8); in: a; out: a
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < 4; ++j)
      a[i] += j;
  }
}

[[cluster::gpu_parallel(schedule(cyclic, 8))]]
void withClauses(int n, double *a) {
  // CHECK: {{.*}}automatic.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices (automatic mode): schedule cyclic, level 1 (score 1); out: a
  for (int i = 0; i < n; ++i) {
    a[i] = i;
  }
  [[cluster::gpu_parallel(schedule(block))]]
  // CHECK: {{.*}}automatic.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule block, level 1 (score 1); out: a
  for (int i = 0; i < n; ++i) {
    a[i] = 2 * i;
  }
}

struct Grid {
  double *cells;
  int size;
  [[cluster::gpu_parallel]] void clear() {
    // CHECK: {{.*}}automatic.cpp:[[@LINE+1]]:5: remark: loop parallelized across devices (automatic mode): schedule default, level 1 (score 1); out: this->cells
    for (int i = 0; i < size; ++i) {
      cells[i] = 0;
    }
  }
};
