// Dependences the cheap tests cannot decide, decided exactly (isl): triangular nests, symmetric
// updates, a pivot row below which a step of an elimination writes, flattened subscripts under
// collapse; and members of array elements. Each accepted form has a refused neighbour.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark}}:"
// REQUIRES: compiler

// The upper triangle and its mirror: c[i][j] and c[j][i] for j >= i.
void symmetric(int n, double (*c)[64]) {
  // CHECK: {{.*}}exact-dependences.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 8); out: c
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    for (int j = i; j < n; ++j)
      c[i][j] = c[j][i] = i + j;
  // CHECK: {{.*}}exact-dependences.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'c' is written in one iteration and read in another: iterations 0 and 1 (with n = 2) touch the same element
  // CHECK: {{.*}}exact-dependences.cpp:[[@LINE+4]]:17: note: conflicting read here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      c[i][j] = c[j][i] + 1;
}

// One elimination step: rows below the pivot row r are updated from row r, which is not written.
void eliminate(int n, int r, double (*a)[64]) {
  // CHECK: {{.*}}exact-dependences.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 8); in: a; out: a
  [[cluster::gpu_parallel]]
  for (int i = r + 1; i < n; ++i)
    for (int j = r + 1; j < n; ++j)
      a[i][j] -= a[i][r] * a[r][j];
  // CHECK: {{.*}}exact-dependences.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'a' is written in one iteration and read in another: iterations 0 and 1 (with n = 1, r = -1) touch the same element
  // CHECK: {{.*}}exact-dependences.cpp:[[@LINE+4]]:28: note: conflicting read here
  [[cluster::gpu_parallel]]
  for (int i = r; i < n; ++i)
    for (int j = r + 1; j < n; ++j)
      a[i][j] -= a[i][r] * a[r][j];
}

// collapse(2) over rows of 64 written through one flat subscript.
void flat(int n, double *a) {
  // CHECK: {{.*}}exact-dependences.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, collapse 2, level 1 (score 1); in: a; out: a
  [[cluster::gpu_parallel(collapse(2))]]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 64; ++j)
      a[i * 64 + j] = a[i * 64 + j] * 2;
  // CHECK: {{.*}}exact-dependences.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'a' is written in one iteration and written in another: iterations (0, 63) and (1, 0) (with n = 2) touch the same element
  // CHECK: {{.*}}exact-dependences.cpp:[[@LINE+4]]:7: note: written here
  [[cluster::gpu_parallel(collapse(2))]]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 64; ++j)
      a[i * 63 + j] = 1;
}

// Different members of the elements of an array of structs are independent; the same member,
// a union's members and bit-fields (which share storage) are not.
struct Point {
  double x, y;
};
union Word {
  double d;
  long l;
};
struct Bits {
  unsigned lo : 4, hi : 4;
};
void members(Point *pts, Word *w, Bits *b, int n) {
  // CHECK: {{.*}}exact-dependences.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: pts; out: pts
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    pts[i].x = pts[i + 1].y;
  // CHECK: {{.*}}exact-dependences.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'pts' is written in one iteration and read in another (dependence distance 1)
  // CHECK: {{.*}}exact-dependences.cpp:[[@LINE+3]]:16: note: conflicting read here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    pts[i].x = pts[i + 1].x;
  // CHECK: {{.*}}exact-dependences.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'w' is written in one iteration and read in another (dependence distance 1)
  // CHECK: {{.*}}exact-dependences.cpp:[[@LINE+3]]:14: note: conflicting read here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    w[i].d = w[i + 1].l;
  // CHECK: {{.*}}exact-dependences.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'b' is written in one iteration and read in another (dependence distance 1)
  // CHECK: {{.*}}exact-dependences.cpp:[[@LINE+3]]:15: note: conflicting read here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    b[i].lo = b[i + 1].hi;
}
