// The race check on rows: a subscript after the first that may leave its row is compared again
// as an address. Extents come from the type (constant, or a variable length whose variable the
// function never changes); bounds from constants, locals that keep their initializer, and
// globals that do (internal linkage always; external only with whole-program=on).
// RUN: %clustrix_cc -fsyntax-only -fplugin-arg-clustrix-openmp=check %s 2>&1 | FileCheck %s --check-prefixes=CHECK,PART --implicit-check-not="{{warning|error|remark}}:"
// RUN: %clustrix_cc -fsyntax-only -fplugin-arg-clustrix-openmp=check -fplugin-arg-clustrix-whole-program=on %s 2>&1 | FileCheck %s --check-prefixes=CHECK,WHOLE --implicit-check-not="{{warning|error|remark}}:"
// REQUIRES: compiler

int n = 100, m = 100;            // never changed: constants of the whole program
static int sm = 100;             // internal linkage: a constant of this unit
int moved = 100;                 // written below
int escaped = 100;               // its address is taken below
int *keep = &escaped;
double g[100][100];

void globals(void) {
  int i, j;
  // PART: openmp-check-rows.c:[[@LINE+2]]:1: remark: OpenMP race check: unknown: a subscript of 'g' may leave its dimension (into the next row), which the proof does not cover
  // WHOLE: openmp-check-rows.c:[[@LINE+1]]:1: remark: OpenMP loop is race-free: no two iterations touch one element or variable where either writes it
#pragma omp parallel for private(j)
  for (i = 0; i < n; i++)
    for (j = 0; j < m - 1; j++)
      g[i][j] = g[i][j + 1];
  // CHECK: openmp-check-rows.c:[[@LINE+1]]:1: remark: OpenMP loop is race-free: no two iterations touch one element or variable where either writes it
#pragma omp parallel for private(j)
  for (i = 0; i < 100; i++)
    for (j = 1; j < sm; j++)
      g[i][j] = g[i][j - 1];
  // CHECK: openmp-check-rows.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: a subscript of 'g' may leave its dimension (into the next row), which the proof does not cover
#pragma omp parallel for private(j)
  for (i = 0; i < 100; i++)
    for (j = 1; j < moved; j++)
      g[i][j] = g[i][j - 1];
  // CHECK: openmp-check-rows.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: a subscript of 'g' may leave its dimension (into the next row), which the proof does not cover
#pragma omp parallel for private(j)
  for (i = 0; i < 100; i++)
    for (j = 1; j < escaped; j++)
      g[i][j] = g[i][j - 1];
}

void change(void) { moved = 200; }

void vla(int len) {
  int i, j;
  int rows = len, cols = len;
  double b[rows][cols];
  // The row is b's own extent: j - 1 at j = 0 is the last element of the row before.
  // CHECK: openmp-check-rows.c:[[@LINE+1]]:1: warning: data race in OpenMP loop: 'b' is written in one iteration and read in another through a subscript that leaves its row: two iterations (with cols = 1) touch the same element
#pragma omp parallel for private(j)
  for (i = 1; i < rows; i++)
    for (j = 0; j < cols; j++)
      // CHECK: openmp-check-rows.c:[[@LINE+2]]:7: note: written here
      // CHECK: openmp-check-rows.c:[[@LINE+1]]:17: note: and read here
      b[i][j] = b[i][j - 1];
  // From j = 1 the rows are kept: race-free.
  // CHECK: openmp-check-rows.c:[[@LINE+1]]:1: remark: OpenMP loop is race-free: no two iterations touch one element or variable where either writes it
#pragma omp parallel for private(j)
  for (i = 1; i < rows; i++)
    for (j = 1; j < cols; j++)
      b[i][j] = b[i][j - 1];
}

void vla_changed(int len) {
  int i, j;
  int cols = len;
  double b[len][cols];
  cols = cols + 1; // the rows keep the old length: a bound of `cols` passes their end
  // CHECK: openmp-check-rows.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: a subscript of 'b' may leave its dimension (into the next row), which the proof does not cover
#pragma omp parallel for private(j)
  for (i = 0; i < len; i++)
    for (j = 0; j < cols; j++)
      b[i][j] = 1;
}

void constants(void) {
  int i, j;
  int k = 100, w = 100;
  double c[k][w];
  // Constant locals: the witness is an element, the last of a row.
  // CHECK: openmp-check-rows.c:[[@LINE+1]]:1: warning: data race in OpenMP loop: 'c' is written in one iteration and read in another through a subscript that leaves its row: iterations 97 and 98 touch the same element
#pragma omp parallel for private(j)
  for (i = 1; i < k; i++)
    for (j = 0; j < w; j++)
      // CHECK: openmp-check-rows.c:[[@LINE+2]]:7: note: written here
      // CHECK: openmp-check-rows.c:[[@LINE+1]]:17: note: and read here
      c[i][j] = c[i][j - 1];
}

// A parameter bound over rows of 500 passes their end only where a caller passes more than
// 500: no witness of a race, and no proof.
static void param(int len, double a[500][500]) {
  int i, j;
  // CHECK: openmp-check-rows.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: a subscript of 'a' may leave its dimension (into the next row), which the proof does not cover
#pragma omp parallel for private(j)
  for (i = 0; i < len; i++)
    for (j = 0; j < len; j++)
      a[i][j] = 0;
}

void use(double (*a)[500]) { param(500, a); }
// PART: remark: OpenMP race check: 9 worksharing loops: 2 with a race, 2 race-free, 5 unknown
// WHOLE: remark: OpenMP race check: 9 worksharing loops: 2 with a race, 3 race-free, 4 unknown
