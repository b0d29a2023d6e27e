// The race check and output to stdio streams: stdio locks each stream, so threads may print at
// once (the order of the lines is the schedule's). A call that writes through an argument
// (`%n`), or reads memory through one (`%s` of an array), is no such call.
// RUN: %clustrix_cc -fsyntax-only -fplugin-arg-clustrix-openmp=check %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark}}:"
// REQUIRES: compiler
#include <stdio.h>

void print(FILE *f, int n, int *a, char *s) {
  int pos;
  // CHECK: openmp-check-stdio.c:[[@LINE+1]]:1: remark: OpenMP loop is race-free: no two iterations touch one element or variable where either writes it
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    fprintf(f, "%d %5.2f\n", a[i], a[i] * 0.5);
    printf("%d\n", i);
    putchar('.');
    fputs("line\n", f);
  }
  // The values printed are still read under OpenMP's rules: a[i + 1] is written by another.
  // CHECK: openmp-check-stdio.c:[[@LINE+1]]:1: warning: data race in OpenMP loop: 'a' is written in one iteration and read in another (dependence distance 1): iterations 1 and 0 (with n = 3) touch the same element
#pragma omp parallel for
  for (int i = 0; i < n - 1; i++) {
    // CHECK: openmp-check-stdio.c:[[@LINE+1]]:5: note: written here
    a[i] = i;
    // CHECK: openmp-check-stdio.c:[[@LINE+1]]:22: note: and read here
    fprintf(f, "%d", a[i + 1]);
  }
  // CHECK: openmp-check-stdio.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: calls 'printf', which cannot run on a device
#pragma omp parallel for private(pos)
  for (int i = 0; i < n; i++)
    printf("%d%n", a[i], &pos);
  // CHECK: openmp-check-stdio.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: calls 'printf', which cannot run on a device
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    printf("%s\n", s);
  // CHECK: openmp-check-stdio.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: calls 'sprintf', which cannot run on a device
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    sprintf(s, "%d", i);
}
// CHECK: remark: OpenMP race check: 5 worksharing loops: 1 with a race, 1 race-free, 3 unknown
