// An integer element of a shared array at constant subscripts (NPB BT's `grid_points[2] - 2`)
// is a loop-invariant symbol, as an outer integer is: inner loops bounded by it have ranges,
// and subscripts over their variables are affine. Its read is an access of the array like any
// other, so a loop that writes the element is refused (directly) or checked at run time
// (through a pointer: test/EndToEnd/element-symbols.test). Before, such loops were refused
// with "not affine"; a loop whose range is still not known is now named as the cause.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark|note}}:"
// REQUIRES: compiler

static int grid_points[3];
static int dims[2][2];
static double rhs[12][10][8][5], forcing[12][10][8][5];

void bounds() {
  int i, j, k, m;
  // CHECK: {{.*}}element-symbols.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 3 (score 22); in: grid_points, forcing; out: rhs; private: i, j, m
  [[cluster::gpu_parallel]]
  for (k = 0; k <= grid_points[2] - 1; k++)
    for (j = 0; j <= grid_points[1] - 1; j++)
      for (i = 0; i <= grid_points[0] - 1; i++)
        for (m = 0; m < 5; m++)
          rhs[k][j][i][m] = forcing[k][j][i][m];
}

// Two constant subscripts, and the symbol as a row length of a flat array.
void rows(double *a, int n) {
  // CHECK: {{.*}}element-symbols.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 8); in: dims; out: a
  [[cluster::gpu_parallel]]
  for (int r = 0; r < n; r++)
    for (int c = 0; c < dims[1][0]; c++)
      a[r * dims[1][0] + c] = r;
}

// A local array of the function.
void local(double *a, int n, int m) {
  int d[2] = {n, m};
  // CHECK: {{.*}}element-symbols.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 8); in: d, a; out: a
  [[cluster::gpu_parallel]]
  for (int r = 0; r < d[0]; r++)
    for (int c = 0; c < d[1]; c++)
      a[r * d[1] + c] *= 2;
}

// The loop writes the element its inner bound reads.
void writesBound(double *a) {
  // CHECK: {{.*}}element-symbols.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'grid_points' is written in one iteration and read in another: every iteration touches the same element
  [[cluster::gpu_parallel]]
  for (int r = 0; r < 4; r++) {
    // CHECK: {{.*}}element-symbols.cpp:[[@LINE+1]]:25: note: conflicting read here
    for (int c = 0; c < grid_points[1]; c++)
      a[c * 4 + r] += 1;
    if (r == 2)
      grid_points[1] = 1;
  }
}

// Not symbols: a subscript that varies, and a pointer's element (the loop might move it).
void notSymbols(double *a, int *p, int n) {
  // CHECK: {{.*}}element-symbols.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'a' is written through a subscript over 'j', the variable of an inner loop whose range is not known ('for (j = 0; j < grid_points[r % 3]; j++)'), so iterations may write the same element
  [[cluster::gpu_parallel]]
  for (int r = 0; r < n; r++) {
    int j;
    for (j = 0; j < grid_points[r % 3]; j++)
      // CHECK: {{.*}}element-symbols.cpp:[[@LINE+1]]:7: note: written here
      a[j * n + r] = 1;
  }
  // CHECK: {{.*}}element-symbols.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'a' is written through a subscript over 'j', the variable of an inner loop whose range is not known ('for (j = 0; j < p[1]; j++)'), so iterations may write the same element
  [[cluster::gpu_parallel]]
  for (int r = 0; r < n; r++) {
    int j;
    for (j = 0; j < p[1]; j++)
      // CHECK: {{.*}}element-symbols.cpp:[[@LINE+1]]:7: note: written here
      a[j * n + r] = 1;
  }
}
