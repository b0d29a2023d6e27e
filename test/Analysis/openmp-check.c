// The OpenMP front door's race check (openmp=check): each worksharing loop is a race with a
// witness, race-free, or unknown with its reason, under OpenMP's data-sharing rules; the file
// compiles as written.
// RUN: %clustrix_cc -fsyntax-only -fplugin-arg-clustrix-openmp=check -fplugin-arg-clustrix-report=%t.json %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark}}:"
// RUN: %python -c "import json; d = json.load(open('%t.json')); print(sorted((l['line'], l['openmp']['verdict']) for l in d['loops']))" | FileCheck %s --check-prefix=JSON
// REQUIRES: compiler

int g;
#pragma omp threadprivate(g)

void f(int n, int *idx, double *x, double *y) {
  int i, j, t;
  double a[100], b[100][100], s = 0;
  // CHECK: openmp-check.c:[[@LINE+1]]:1: warning: data race in OpenMP loop: 'a' is written in one iteration and read in another (dependence distance 1): iterations 0 and 1 (with n = 3) touch the same element
#pragma omp parallel for
  for (i = 0; i < n - 1; i++)
    // CHECK: openmp-check.c:[[@LINE+2]]:5: note: written here
    // CHECK: openmp-check.c:[[@LINE+1]]:16: note: and read here
    a[i + 1] = a[i] + 1;

  // A temporary declared outside the loop is shared: every iteration writes it.
  // CHECK: openmp-check.c:[[@LINE+1]]:1: warning: data race in OpenMP loop: 't' is shared (declared outside the loop, in no private or reduction clause) and every iteration writes it: iterations i = 0 and i = 1 both write it
#pragma omp parallel for
  for (i = 0; i < 100; i++) {
    // CHECK: openmp-check.c:[[@LINE+1]]:7: note: written here by every iteration
    t = i * 2;
    a[i] = t;
  }
  // CHECK: openmp-check.c:[[@LINE+1]]:1: remark: OpenMP loop is race-free: no two iterations touch one element or variable where either writes it
#pragma omp parallel for private(t)
  for (i = 0; i < 100; i++) {
    t = i * 2;
    a[i] = t;
  }
  // An inner loop's counter declared outside the loop is shared in C.
  // CHECK: openmp-check.c:[[@LINE+1]]:1: warning: data race in OpenMP loop: 'j' is shared (declared outside the loop, in no private or reduction clause) and every iteration writes it: iterations i = 0 and i = 1 both write it
#pragma omp parallel for
  for (i = 0; i < 100; i++)
    // CHECK: openmp-check.c:[[@LINE+1]]:12: note: written here by every iteration
    for (j = 0; j < 100; j++)
      b[i][j] = 0;
  // CHECK: openmp-check.c:[[@LINE+1]]:1: remark: OpenMP loop is race-free: no two iterations touch one element or variable where either writes it
#pragma omp parallel for private(j)
  for (i = 0; i < 100; i++)
    for (j = 0; j < 100; j++)
      b[i][j] = 0;
  // A sum without a reduction clause races; with one it does not.
  // CHECK: openmp-check.c:[[@LINE+1]]:1: warning: data race in OpenMP loop: 's' is shared (declared outside the loop, in no private or reduction clause) and every iteration writes it: iterations i = 0 and i = 1 both write it, where the loop runs at least two iterations
#pragma omp parallel for
  for (i = 0; i < n; i++)
    // CHECK: openmp-check.c:[[@LINE+1]]:7: note: written here by every iteration
    s += x[i];
  // CHECK: openmp-check.c:[[@LINE+1]]:1: remark: OpenMP loop is race-free: no two iterations touch one element or variable where either writes it
#pragma omp parallel for reduction(+: s)
  for (i = 0; i < n; i++)
    s += x[i];
  // Written only in some iterations: no witness, so no race is reported.
  // CHECK: openmp-check.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: 't' is shared (declared outside the loop, in no private or reduction clause) and written in some iterations only, so no two iterations are known to write it
#pragma omp parallel for
  for (i = 0; i < 100; i++)
    if (a[i] > 5)
      t = i;
  // A subscript that leaves its row (out of bounds at j = 0): as addresses, b[i][-1] is the
  // element that iteration i - 1 writes last (openmp-check-rows.c has more).
  // CHECK: openmp-check.c:[[@LINE+1]]:1: warning: data race in OpenMP loop: 'b' is written in one iteration and read in another through a subscript that leaves its row: iterations 97 and 98 touch the same element
#pragma omp parallel for private(j)
  for (i = 1; i < 100; i++)
    for (j = 0; j < 100; j++)
      // CHECK: openmp-check.c:[[@LINE+2]]:7: note: written here
      // CHECK: openmp-check.c:[[@LINE+1]]:17: note: and read here
      b[i][j] = b[i][j - 1];
  // A linear counter is j0 + k at the start of iteration k (openmp-check-linear.c has more).
  // CHECK: openmp-check.c:[[@LINE+1]]:1: remark: OpenMP loop is race-free: no two iterations touch one element or variable where either writes it
#pragma omp parallel for linear(j)
  for (i = 0; i < 100; i++) {
    a[j] = i;
    j++;
  }
  // CHECK: openmp-check.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: 'y' is written through a subscript that is not affine in the loop variables, so iterations may write the same element
#pragma omp parallel for
  for (i = 0; i < n; i++)
    y[idx[i]] = x[i];
  // Pointers that may overlap: the proof would need them apart.
  // CHECK: openmp-check.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: 'y' is written through a pointer that may overlap another array the loop touches; the proof holds where they do not overlap
#pragma omp parallel for
  for (i = 0; i < n; i++)
    y[i] = x[i];
  // Each thread's own copy of a threadprivate variable.
  // CHECK: openmp-check.c:[[@LINE+1]]:1: remark: OpenMP loop is race-free: no two iterations touch one element or variable where either writes it
#pragma omp parallel for
  for (i = 0; i < 100; i++)
    g = i;
  // A region with the loop alone is the loop; a loop that holds another directive is not taken.
  // CHECK: openmp-check.c:[[@LINE+3]]:1: remark: OpenMP loop is race-free: no two iterations touch one element or variable where either writes it
#pragma omp parallel
  {
#pragma omp for
    for (i = 0; i < 100; i++)
      a[i] = i;
  }
  // CHECK: openmp-check.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: the loop holds '#pragma omp critical', which the front door does not take
#pragma omp parallel for
  for (i = 0; i < 100; i++) {
#pragma omp critical
    s += a[i];
  }
}
// JSON: [(16, 'race'), (24, 'race'), (31, 'race-free'), (38, 'race'), (44, 'race-free'), (50, 'race'), (55, 'race-free'), (60, 'unknown'), (67, 'race'), (75, 'race-free'), (81, 'unknown'), (86, 'unknown'), (91, 'race-free'), (98, 'race-free'), (102, 'unknown'), (119, 'race'), (125, 'race'), (132, 'unknown'), (138, 'race-free'), (143, 'race-free'), (148, 'race-free'), (154, 'race'), (175, 'race-free'), (182, 'unknown'), (187, 'unknown'), (192, 'unknown')]

double c2[100][100], d2[100][100];

void h(int n, int m, int *out, const double *x, double *restrict y) {
  int i, j, len = 0;
  float fs = 0;
  double s2 = 0;
  // A write inside a subscript is a write of every iteration.
  // CHECK: openmp-check.c:[[@LINE+1]]:1: warning: data race in OpenMP loop: 'len' is shared (declared outside the loop, in no private or reduction clause) and every iteration writes it: iterations i = 0 and i = 1 both write it, where the loop runs at least two iterations
#pragma omp parallel for
  for (i = 0; i < n; i++)
    // CHECK: openmp-check.c:[[@LINE+1]]:12: note: written here by every iteration
    out[len++] = i;
  // An inner loop over the same range runs whenever the loop runs twice.
  // CHECK: openmp-check.c:[[@LINE+1]]:1: warning: data race in OpenMP loop: 's2' is shared (declared outside the loop, in no private or reduction clause) and every iteration writes it: iterations i = 0 and i = 1 both write it, where the loop runs at least two iterations
#pragma omp parallel for private(j)
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      // CHECK: openmp-check.c:[[@LINE+1]]:10: note: written here by every iteration
      s2 += x[j];
  // Another range may be empty: no witness.
  // CHECK: openmp-check.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: 's2' is shared (declared outside the loop, in no private or reduction clause) and written in some iterations only, so no two iterations are known to write it
#pragma omp parallel for private(j)
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      s2 += x[j];
  // A reduction Clustrix refuses (float += double) is still each thread's own under OpenMP.
  // CHECK: openmp-check.c:[[@LINE+1]]:1: remark: OpenMP loop is race-free: no two iterations touch one element or variable where either writes it
#pragma omp parallel for reduction(+: fs)
  for (i = 0; i < 100; i++)
    fs += x[i];
  // A restrict pointer reaches what it modifies alone.
  // CHECK: openmp-check.c:[[@LINE+1]]:1: remark: OpenMP loop is race-free: no two iterations touch one element or variable where either writes it
#pragma omp parallel for
  for (i = 0; i < n; i++)
    y[i] = x[i];
  // j - 1 from j = 1 stays in its row.
  // CHECK: openmp-check.c:[[@LINE+1]]:1: remark: OpenMP loop is race-free: no two iterations touch one element or variable where either writes it
#pragma omp parallel for private(j)
  for (i = 0; i < 100; i++)
    for (j = 1; j < 100; j++)
      c2[i][j] = d2[i][j - 1];
  // Adversary: with j counting down as i counts up, a[i + j] is one element: a race.
  // CHECK: openmp-check.c:[[@LINE+1]]:1: warning: data race in OpenMP loop: 'y' is written in one iteration and written in another, its subscript through a linear variable: iterations 0 and 1 (with j = 0) touch the same element
#pragma omp parallel for linear(j: -1)
  for (i = 0; i < 100; i++) {
    // CHECK: openmp-check.c:[[@LINE+1]]:5: note: written here
    y[i + j] = i;
    j--;
  }
}

void *malloc(unsigned long);
void take(double **);

void k(int n, double *param) {
  double *p = (double *)malloc(sizeof(double) * n);
  double *q = (double *)malloc(sizeof(double) * n);
  double *r = (double *)malloc(sizeof(double) * n);
  double *alias = r;
  double *moved = (double *)malloc(sizeof(double) * n);
  double *escaped = (double *)malloc(sizeof(double) * n);
  int i;
  // Two fresh blocks, and a parameter fixed before them: apart.
  // CHECK: openmp-check.c:[[@LINE+1]]:1: remark: OpenMP loop is race-free: no two iterations touch one element or variable where either writes it
#pragma omp parallel for
  for (i = 0; i < n; i++) {
    p[i] = param[i];
    q[i] = 2 * i;
  }
  // Adversaries: a pointer copied from a fresh one; a pointer assigned again; an address taken.
  // CHECK: openmp-check.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: 'r' is written through a pointer that may overlap another array the loop touches; the proof holds where they do not overlap
#pragma omp parallel for
  for (i = 0; i < n - 1; i++)
    r[i] = alias[i + 1];
  moved = p;
  // CHECK: openmp-check.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: 'moved' is written through a pointer that may overlap another array the loop touches; the proof holds where they do not overlap
#pragma omp parallel for
  for (i = 0; i < n - 1; i++)
    moved[i] = q[i];
  take(&escaped);
  // CHECK: openmp-check.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: 'escaped' is written through a pointer that may overlap another array the loop touches; the proof holds where they do not overlap
#pragma omp parallel for
  for (i = 0; i < n - 1; i++)
    escaped[i] = q[i];
}
// The unit's summary, last.
// CHECK: remark: OpenMP race check: 26 worksharing loops: 8 with a race, 10 race-free, 8 unknown
// A CI gate: refusals=error makes each race an error, and the compile fails.
// RUN: not %clustrix_cc -fsyntax-only -fplugin-arg-clustrix-openmp=check -fplugin-arg-clustrix-refusals=error %s 2>&1 | FileCheck %s --check-prefix=GATE
// GATE: openmp-check.c:15:1: error: data race in OpenMP loop: 'a' is written in one iteration and read in another
// GATE: error: data race in OpenMP loop: 't' is shared
