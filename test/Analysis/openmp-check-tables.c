// The race check through lookup tables: a loop of constant bounds whose subscripts go through
// arrays the program never changes is run iteration by iteration at compile time, through
// pointers of fixed value (a fresh block, an array, another such pointer plus a constant): a
// race with the two iterations and the element, or race-free. Anything else is unknown.
// RUN: %clustrix_cc -fsyntax-only -fplugin-arg-clustrix-openmp=check %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark}}:"
// REQUIRES: compiler
#include <stdlib.h>

static int apart[6] = {0, 2, 4, 6, 8, 10};
static int meets[6] = {0, 2, 4, 6, 8, 14};     // 14 = 2 + 12
const int shared_const[4] = {1, 3, 5, 7};      // const: no other unit may change it
int exported[4] = {1, 3, 5, 7};                // another unit could change it
static int changed[4] = {1, 3, 5, 7};
static int partial[8] = {1, 3};                // the rest are zero

void tables(double *param) {
  double *base = malloc(64 * sizeof(double));
  double *lo = base;
  double *hi = lo + 12;
  double arr[64];
  // CHECK: openmp-check-tables.c:[[@LINE+1]]:1: remark: OpenMP loop is race-free: run iteration by iteration through its lookup tables, no two iterations touch one element where either writes it
#pragma omp parallel for
  for (int i = 0; i < 6; i++) {
    int k = apart[i];
    lo[k] += 1.0;
    hi[k] += 3.0;
  }
  // CHECK: openmp-check-tables.c:[[@LINE+1]]:1: warning: data race in OpenMP loop: iterations i = 1 and i = 5 both reach base[14], through 'hi[k]' and 'lo[k]', and both write it
#pragma omp parallel for
  for (int i = 0; i < 6; i++) {
    int k = meets[i];
    // CHECK: openmp-check-tables.c:[[@LINE+3]]:5: note: written here
    // CHECK: openmp-check-tables.c:[[@LINE+1]]:5: note: and written here
    lo[k] += 1.0;
    hi[k] += 3.0;
  }
  // A read of what another iteration writes, in an array: i = 0 reads arr[3], i = 1 writes it.
  // CHECK: openmp-check-tables.c:[[@LINE+1]]:1: warning: data race in OpenMP loop: iterations i = 0 and i = 1 both reach arr[3], through 'arr[shared_const[i] + 2]' and 'arr[shared_const[i]]', and one writes it
#pragma omp parallel for
  for (int i = 0; i < 4; i++)
    // CHECK: openmp-check-tables.c:[[@LINE+2]]:28: note: read here
    // CHECK: openmp-check-tables.c:[[@LINE+1]]:5: note: and written here
    arr[shared_const[i]] = arr[shared_const[i] + 2];
  // An element past the array: no verdict from the run (the program's behaviour is undefined).
  // CHECK: openmp-check-tables.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: 'arr' is written through a subscript that is not affine in the loop variables, so iterations may write the same element
#pragma omp parallel for
  for (int i = 0; i < 4; i++)
    arr[shared_const[i] + 60] = 1;
  // CHECK: openmp-check-tables.c:[[@LINE+1]]:1: remark: OpenMP loop is race-free: run iteration by iteration through its lookup tables, no two iterations touch one element where either writes it
#pragma omp parallel for
  for (int i = 0; i < 8; i++)
    arr[partial[i] + 30 + 4 * i] = 1;
  // Tables another unit, or this one, may change; a pointer of unknown value; an index past
  // the table; a call: unknown.
  // CHECK: openmp-check-tables.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: 'lo' is written through a subscript that is not affine in the loop variables, so iterations may write the same element
#pragma omp parallel for
  for (int i = 0; i < 4; i++)
    lo[exported[i]] = 1;
  // CHECK: openmp-check-tables.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: 'lo' is written through a subscript that is not affine in the loop variables, so iterations may write the same element
#pragma omp parallel for
  for (int i = 0; i < 4; i++)
    lo[changed[i]] = 1;
  // CHECK: openmp-check-tables.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: 'param' is written through a subscript that is not affine in the loop variables, so iterations may write the same element
#pragma omp parallel for
  for (int i = 0; i < 4; i++)
    param[apart[i]] = 1;
  // CHECK: openmp-check-tables.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: 'lo' is written through a subscript that is not affine in the loop variables, so iterations may write the same element
#pragma omp parallel for
  for (int i = 0; i < 7; i++)
    lo[apart[i]] = 1;
  // CHECK: openmp-check-tables.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: 'lo' is written through a subscript that is not affine in the loop variables, so iterations may write the same element
#pragma omp parallel for
  for (int i = 0; i < 6; i++)
    lo[apart[i]] = abs(i);
  changed[0] = 2;
  free(base);
}
// CHECK: remark: OpenMP race check: 10 worksharing loops: 2 with a race, 2 race-free, 6 unknown
