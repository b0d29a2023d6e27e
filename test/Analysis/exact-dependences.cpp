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

// Inner loops with a constant step, and starts with a residue (red-black sweeps): a row of one
// colour reads the other colour of the rows beside it. The exact test knows the values the
// inner variable takes, not only its interval.
void redBlack(int n, double (*u)[64], double (*f)[64]) {
  // CHECK: {{.*}}exact-dependences.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 8); in: u, f; out: u
  [[cluster::gpu_parallel]]
  for (int i = 1; i < n - 1; i++)
    for (int j = 1 + (i + 1) % 2; j < n - 1; j += 2)
      u[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1] - f[i][j]);
  // The same colour in the rows beside: (i - 1, j + 1) has the parity of (i, j).
  // CHECK: {{.*}}exact-dependences.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'u' is written in one iteration and read in another: iterations 0 and 1 (with n = 4) touch the same element
  // CHECK: {{.*}}exact-dependences.cpp:[[@LINE+4]]:24: note: conflicting read here
  [[cluster::gpu_parallel]]
  for (int i = 1; i < n - 1; i++)
    for (int j = 1 + i % 2; j < n - 1; j += 2)
      u[i][j] = 0.5 * (u[i - 1][j + 1] + f[i][j]);
}

void strides(int n, double (*a)[64], double *v) {
  // Columns 0, 3, 6, ... of each row, reading column j + 1 of the row above.
  // CHECK: {{.*}}exact-dependences.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 8); in: a; out: a
  [[cluster::gpu_parallel]]
  for (int i = 1; i < n; i++)
    for (int j = 0; j < 62; j += 3)
      a[i][j] = a[i - 1][j + 1] + 1;
  // Column j + 3 of the row above is on the lattice.
  // CHECK: {{.*}}exact-dependences.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'a' is written in one iteration and read in another: iterations 0 and 1 (with n = 3) touch the same element
  // CHECK: {{.*}}exact-dependences.cpp:[[@LINE+4]]:17: note: conflicting read here
  [[cluster::gpu_parallel]]
  for (int i = 1; i < n; i++)
    for (int j = 0; j < 60; j += 3)
      a[i][j] = a[i - 1][j + 3] + 1;
  // Rows of one parity write the same elements of a one-dimensional array.
  // CHECK: {{.*}}exact-dependences.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'v' is written in one iteration and written in another: the subscripts do not depend on the loop variable, so every iteration touches the same elements
  // CHECK: {{.*}}exact-dependences.cpp:[[@LINE+4]]:7: note: written here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    for (int j = i % 2; j < 64; j += 2)
      v[j] = i;
  // A residue that may be negative: C's `%` keeps the sign, (i - 5) % 2 is -1 or 0 below
  // i = 5, so row i starts at column 1 or 2; the rows beside it have the other parity.
  // CHECK: {{.*}}exact-dependences.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 8); in: a; out: a
  [[cluster::gpu_parallel]]
  for (int i = 1; i < n; i++)
    for (int j = 2 + (i - 5) % 2; j < 62; j += 2)
      a[i][j] = a[i - 1][j] + 1;
  // Below i = 4 the residue is negative and row i starts at column 1 or 2, not 4 or 5 (as a
  // residue taken the mathematical way would say): row 2 writes the column 1 that row 3 reads.
  // CHECK: {{.*}}exact-dependences.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'a' is written in one iteration and read in another: iterations 1 and 2 (with n = 4) touch the same element
  // CHECK: {{.*}}exact-dependences.cpp:[[@LINE+4]]:17: note: conflicting read here
  [[cluster::gpu_parallel]]
  for (int i = 1; i < n; i++)
    for (int j = 3 + (i - 4) % 3; j < 62; j += 3)
      a[i][j] = a[i - 1][1] + 1;
  // From i = 4 on, the rows start at columns 3, 4 and 5: none writes column 1.
  // CHECK: {{.*}}exact-dependences.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 8); in: a; out: a
  [[cluster::gpu_parallel]]
  for (int i = 4; i < n; i++)
    for (int j = 3 + (i - 4) % 3; j < 62; j += 3)
      a[i][j] = a[i - 1][1] + 1;
}

// A subscript that leaves its row before its start (j - 1 at j = 0) reaches the last element
// of the row before, which another iteration writes: compared as addresses, refused. From
// j = 1 the rows are kept; a bound past the end of a row is the caller's to keep, as for any
// array (not refused).
void rows(int n, int m) {
  double b[100][100];
  // CHECK: exact-dependences.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'b' is written in one iteration and read in another through a subscript that leaves its row: iterations 97 and 98 touch the same element
  [[cluster::gpu_parallel]]
  for (int i = 1; i < 100; i++)
    for (int j = 0; j < 100; j++)
      // CHECK: exact-dependences.cpp:[[@LINE+1]]:17: note: conflicting read here
      b[i][j] = b[i][j - 1];
  // CHECK: exact-dependences.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 8); in: b; out: b
  [[cluster::gpu_parallel]]
  for (int i = 1; i < 100; i++)
    for (int j = 1; j < 100; j++)
      b[i][j] = b[i][j - 1];
  // CHECK: exact-dependences.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 8); in: b; out: b
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      b[i][j] = b[i][j + 1];
}

// A collapsed level that steps by a constant: its iterations reach span / step, not the span
// (j < 39 by 3 ends at 36), so rows of 39 are kept and rows of 36 are not. With a symbolic end,
// j < m by 3 stays in a row of m, and a row of m - 1 may be reached (3 divides m - 1); a level
// counting down by 2 to j = 1 stays in its row, to j = 0 it leaves it; j <= m by 4 reaches m.
void collapsedSteps(double *O, int a, int m) {
  // CHECK: exact-dependences.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, collapse 2, level 1 (score 1); out: O
  [[cluster::gpu_parallel(collapse(2))]]
  for (int i = 0; i < a; ++i)
    for (int j = 0; j < 39; j += 3)
      O[i * 39 + j] = 1;
  // CHECK: exact-dependences.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'O' is written in one iteration and written in another: iterations (0, 12) and (1, 0) (with a = 2) touch the same element
  [[cluster::gpu_parallel(collapse(2))]]
  for (int i = 0; i < a; ++i)
    for (int j = 0; j < 39; j += 3)
      O[i * 36 + j] = 1;
  // CHECK: exact-dependences.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, collapse 2, level 1 (score 1); out: O
  [[cluster::gpu_parallel(collapse(2))]]
  for (int i = 0; i < a; ++i)
    for (int j = 0; j < m; j += 3)
      O[i * m + j] = 1;
  // CHECK: exact-dependences.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'O' may be written in one iteration and written in another: the dependence test cannot prove the accesses disjoint
  [[cluster::gpu_parallel(collapse(2))]]
  for (int i = 0; i < a; ++i)
    for (int j = 0; j < m; j += 3)
      O[i * (m - 1) + j] = 1;
  // CHECK: exact-dependences.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, collapse 2, level 1 (score 1); out: O
  [[cluster::gpu_parallel(collapse(2))]]
  for (int i = 0; i < a; ++i)
    for (int j = m; j > 0; j -= 2)
      O[i * m + j - 1] = 1;
  // CHECK: exact-dependences.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'O' is written in one iteration and written in another: two iterations (with m = 2) touch the same element
  [[cluster::gpu_parallel(collapse(2))]]
  for (int i = 0; i < a; ++i)
    for (int j = m; j >= 0; j -= 2)
      O[i * m + j - 1] = 1;
  // CHECK: exact-dependences.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'O' is written in one iteration and written in another: two iterations (with m = 4) touch the same element
  [[cluster::gpu_parallel(collapse(2))]]
  for (int i = 0; i < a; ++i)
    for (int j = 0; j <= m; j += 4)
      O[i * m + j] = 1;
}
