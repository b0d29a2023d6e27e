// The race check on accesses under a branch: a comparison of exact signed values (`i == 1`,
// `n > 1000`, or the else branch of `i < 5`) is a condition the witness meets; any other
// branch leaves no witness.
// RUN: %clustrix_cc -fsyntax-only -fplugin-arg-clustrix-openmp=check %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark}}:"
// REQUIRES: compiler

void guards(int n, unsigned u, int *restrict a, const int *restrict b) {
  // CHECK: openmp-check-guards.c:[[@LINE+1]]:1: warning: data race in OpenMP loop: 'a' is written in one iteration and written in another: iterations with different strides reach the same element: iterations 0 and 1 (with n = 2) touch the same element
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    // CHECK: openmp-check-guards.c:[[@LINE+1]]:5: note: written here
    a[i] = i;
    if (i == 1)
      // CHECK: openmp-check-guards.c:[[@LINE+1]]:7: note: and written here
      a[0] = 1;
  }
  // The same element in the same iteration only: no race, and no proof from the refusal.
  // CHECK: openmp-check-guards.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: 'a' is written in one iteration and written in another: iterations with different strides reach the same element
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    a[i] = i;
    if (i == 0)
      a[0] = 1;
  }
  // An input that decides: a race where n > 1000.
  // CHECK: openmp-check-guards.c:[[@LINE+1]]:1: warning: data race in OpenMP loop: 'a' is written in one iteration and written in another: iterations with different strides reach the same element: iterations 0 and 1000 (with n = 1001) touch the same element
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    // CHECK: openmp-check-guards.c:[[@LINE+1]]:5: note: written here
    a[i] = i;
    if (n > 1000)
      // CHECK: openmp-check-guards.c:[[@LINE+1]]:7: note: and written here
      a[0] = 1;
  }
  // The else branch of `i < 5`: i >= 5.
  // CHECK: openmp-check-guards.c:[[@LINE+1]]:1: warning: data race in OpenMP loop: 'a' is written in one iteration and read in another: iterations with different strides reach the same element: iterations 0 and 5 (with n = 6) touch the same element
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    // CHECK: openmp-check-guards.c:[[@LINE+1]]:5: note: written here
    a[i] = i;
    if (i < 5)
      a[i] = 0;
    else
      // CHECK: openmp-check-guards.c:[[@LINE+1]]:14: note: and read here
      a[i] = a[0];
  }
  // A condition on an unsigned value, on data, or with && is no affine condition.
  // CHECK: openmp-check-guards.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: 'a' is written in one iteration and written in another: iterations with different strides reach the same element
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    a[i] = i;
    if (u == 1)
      a[0] = 1;
  }
  // CHECK: openmp-check-guards.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: 'a' is written in one iteration and written in another: iterations with different strides reach the same element
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    a[i] = i;
    if (b[i] == 1)
      a[0] = 1;
  }
  // CHECK: openmp-check-guards.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: 'a' is written in one iteration and written in another: iterations with different strides reach the same element
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    a[i] = i;
    if (i >= 1 && i <= 1)
      a[0] = 1;
  }
}
// CHECK: remark: OpenMP race check: 7 worksharing loops: 3 with a race, 0 race-free, 4 unknown
