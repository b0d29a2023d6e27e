// Loops are nested only within one file: the main file's loop, at byte offsets that fall inside
// the range of a header's loop, is not "inside" it (the two were once compared by offsets alone).
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark|note}}:"
// REQUIRES: compiler
#include "Inputs/header-nesting.h"

// CHECK: header-nesting.h:5:3: remark: loop parallelized across devices: schedule default, level 3 (score 40); in: a, b; out: a
void scale(int n, double *a) {
  // CHECK: header-nesting.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: a; out: a
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    a[i] *= 2;
}
