// The race check and `linear` variables: at the start of iteration k, j is j0 + s*k. Accesses
// through j made before the body first changes j are compared with that value; one after it,
// or a linear clause of another form, leaves the verdict unknown.
// RUN: %clustrix_cc -fsyntax-only -fplugin-arg-clustrix-openmp=check %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark}}:"
// REQUIRES: compiler

void linear(double *restrict a, const double *restrict b, int j) {
  int i;
  // CHECK: openmp-check-linear.c:[[@LINE+1]]:1: remark: OpenMP loop is race-free: no two iterations touch one element or variable where either writes it
#pragma omp parallel for linear(j: 2)
  for (i = 0; i < 100; i++) {
    a[j] = b[i];
    a[j + 1] = b[i];
    j += 2;
  }
  // Step 1 and two elements per iteration: the next iteration's first is this one's second.
  // CHECK: openmp-check-linear.c:[[@LINE+1]]:1: warning: data race in OpenMP loop: 'a' is written in one iteration and written in another, its subscript through a linear variable: iterations 99 and 98 (with j = 0) touch the same element
#pragma omp parallel for linear(j)
  for (i = 0; i < 100; i++) {
    // CHECK: openmp-check-linear.c:[[@LINE+2]]:5: note: written here
    // CHECK: openmp-check-linear.c:[[@LINE+2]]:5: note: and written here
    a[j] = b[i];
    a[j + 1] = b[i];
    j++;
  }
  // Under a condition no iteration meets, the second element is never written: no witness.
  // CHECK: openmp-check-linear.c:[[@LINE+1]]:1: remark: OpenMP loop is race-free: no two iterations touch one element or variable where either writes it
#pragma omp parallel for linear(j)
  for (i = 0; i < 100; i++) {
    a[j] = b[i];
    if (i > 200)
      a[j + 1] = b[i];
    j++;
  }
  // An access after the change: unknown.
  // CHECK: openmp-check-linear.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: a subscript names 'j', which the loop changes, so the dependence test does not hold for it
#pragma omp parallel for linear(j)
  for (i = 0; i < 100; i++) {
    j++;
    a[j] = b[i];
  }
  // A step that is not a literal: unknown.
  // CHECK: openmp-check-linear.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: a subscript names 'j', which the loop changes, so the dependence test does not hold for it
#pragma omp parallel for linear(j: i)
  for (i = 0; i < 100; i++) {
    a[j] = b[i];
    j++;
  }
}
// CHECK: remark: OpenMP race check: 5 worksharing loops: 1 with a race, 2 race-free, 2 unknown
