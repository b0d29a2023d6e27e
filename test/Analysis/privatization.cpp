// Scalars and loops of C-style code: inner loop counters and temporaries declared at the top of
// the function, dead or live after the loop; triangular steps of an elimination (rows below the
// pivot written, the pivot row read); scratch rows filled whole or in part; swaps of a[i] with
// a[n-1-i] for i < n/2. Each accepted form has a refused neighbour.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark|note}}:"
// REQUIRES: compiler

// An inner loop's counter under a loop that may not run: no iteration reads another's value,
// and nothing reads it after the loop, so each thread owns it (the GPU form too).
void gemm(int ni, int nj, int nk, double (*c)[48], double (*a)[32], double (*b)[48]) {
  int i, j, k;
  // CHECK: {{.*}}privatization.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 2 (score 16); in: c, a, b; out: c; private: j, k
  [[cluster::gpu_parallel]]
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
      c[i][j] *= 0.5;
      for (k = 0; k < nk; k++)
        c[i][j] += a[i][k] * b[k][j];
    }
}

// The same counter read after the loop: the serial loop leaves the value of the last iteration
// that ran the inner loop, which a chunk cannot know.
int gemmLive(int ni, int nj, int nk, double (*c)[48], double (*a)[32], double (*b)[48]) {
  int i, j, k;
  // CHECK: {{.*}}privatization.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'k' carries a value from one iteration to the next
  // CHECK: {{.*}}privatization.cpp:[[@LINE+5]]:12: note: written here and read by a later iteration
  [[cluster::gpu_parallel]]
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
      c[i][j] *= 0.5;
      for (k = 0; k < nk; k++)
        c[i][j] += a[i][k] * b[k][j];
    }
  return k;
}

// Live after the loop, and written by every iteration: the last iteration's value is handed
// back, which only CPU chunks do.
int tempLive(int n, const double *x, double *y) {
  int i, t;
  // CHECK: {{.*}}privatization.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 2); in: x; out: y; private: t
  // CHECK: {{.*}}privatization.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: 't' is private to each iteration and keeps the last iteration's value, which only CPU chunks hand back
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++) {
    t = (int)x[i];
    y[i] = t * 2;
  }
  return t;
}

// Dead after the loop (written again before the next read): a GPU thread owns it.
int tempDead(int n, const double *x, double *y) {
  int i, t;
  // CHECK: {{.*}}privatization.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 2); in: x; out: y; private: t
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++) {
    t = (int)x[i];
    y[i] = t * 2;
  }
  t = 0;
  return t;
}

// A `continue` before the write: fine while the variable is dead after the loop.
void skipDead(int n, const double *x, double *y) {
  int i;
  double t;
  // CHECK: {{.*}}privatization.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 6); in: x; out: y; private: t
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++) {
    if (x[i] < 0)
      continue;
    t = x[i] * 3;
    y[i] = t;
  }
}

// ... and refused when it is read after the loop: an iteration that skips leaves nothing.
double skipLive(int n, const double *x, double *y) {
  int i;
  double t = 0;
  // CHECK: {{.*}}privatization.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 't' is declared outside the loop, and each iteration assigns it before reading it; declare it inside the loop body, so that each iteration has its own
  // CHECK: {{.*}}privatization.cpp:[[@LINE+5]]:5: note: assigned here
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++) {
    if (x[i] < 0)
      continue;
    t = x[i] * 3;
    y[i] = t;
  }
  return t;
}

// A handler may read what the iteration that threw left: liveness is not trusted in a function
// with a try block, so the counter must be written by every iteration, and here it may not be.
int underTry(int ni, int nj, double (*c)[48]) {
  int i, j, k = 0;
  try {
    // CHECK: {{.*}}privatization.cpp:[[@LINE+3]]:5: warning: loop not parallelized: 'k' carries a value from one iteration to the next
    // CHECK: {{.*}}privatization.cpp:[[@LINE+4]]:14: note: written here and read by a later iteration
    [[cluster::gpu_parallel]]
    for (i = 0; i < ni; i++)
      for (j = 0; j < nj; j++)
        for (k = 0; k < 4; k++)
          c[i][j] += k;
  } catch (...) {
    return k;
  }
  return 0;
}

// One step of an LU elimination: rows below the pivot are written, the pivot row is read. The
// cheap tests find solutions of different strides; the exact test shows none lies in the
// iteration space.
void luStep(int n, double (*a)[64]) {
  int i, j, k;
  for (k = 0; k < n; k++) {
    // CHECK: {{.*}}privatization.cpp:[[@LINE+2]]:5: remark: loop parallelized across devices: schedule default, level 2 (score 9); in: a; out: a; private: j
    [[cluster::gpu_parallel]]
    for (i = k + 1; i < n; i++) {
      a[i][k] /= a[k][k];
      for (j = k + 1; j < n; j++)
        a[i][j] -= a[i][k] * a[k][j];
    }
  }
}

// Starting at the pivot row itself: iteration k writes row k, which every other reads.
void luStepFromPivot(int n, double (*a)[64]) {
  int i, j, k;
  for (k = 0; k < n; k++) {
    // CHECK: {{.*}}privatization.cpp:[[@LINE+3]]:5: warning: loop not parallelized: 'a' is written in one iteration and read in another: iterations with different strides reach the same element
    // CHECK: {{.*}}privatization.cpp:[[@LINE+3]]:18: note: conflicting read here
    [[cluster::gpu_parallel]]
    for (i = k; i < n; i++) {
      a[i][k] /= a[k][k];
      for (j = k + 1; j < n; j++)
        a[i][j] -= a[i][k] * a[k][j];
    }
  }
}

// Reversing in place: iteration i swaps a[i] and a[n-1-i], for i < n/2; no two iterations meet.
void reverse(int n, double *a) {
  // CHECK: {{.*}}privatization.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); in: a; out: a
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n / 2; i++) {
    double t = a[i];
    a[i] = a[n - 1 - i];
    a[n - 1 - i] = t;
  }
}

// One iteration too many ((n + 1) / 2 for odd n reaches the middle from both sides, harmlessly,
// but n/2 + 1 lets iteration i meet iteration n-1-i).
void reverseTooFar(int n, double *a) {
  // CHECK: {{.*}}privatization.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'a' is written in one iteration and read in another: iterations 0 and 1 (with n = 2) touch the same element
  // CHECK: {{.*}}privatization.cpp:[[@LINE+4]]:12: note: conflicting read here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n / 2 + 1; i++) {
    double t = a[i];
    a[i] = a[n - 1 - i];
    a[n - 1 - i] = t;
  }
}

// A scratch row filled whole before it is read, in every iteration: each chunk (and each GPU
// thread) has its own.
void scratchRow(int n, double (*out)[8], const double *in) {
  double tmp[8];
  int i, j;
  // CHECK: {{.*}}privatization.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 2 (score 16); in: in; out: out; private: tmp, j
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++) {
    for (j = 0; j < 8; j++)
      tmp[j] = in[i] * j;
    for (j = 0; j < 8; j++)
      out[i][j] = tmp[7 - j];
  }
}

// Filled only in part (j < 7): the last element is the previous iteration's.
void scratchPart(int n, double (*out)[8], const double *in) {
  double tmp[8] = {0};
  int i, j;
  // CHECK: {{.*}}privatization.cpp:[[@LINE+4]]:3: warning: loop not parallelized: 'tmp' is written in one iteration and written in another: the subscripts do not depend on the loop variable, so every iteration touches the same elements
  // CHECK: {{.*}}privatization.cpp:[[@LINE+5]]:7: note: written here
  // CHECK: {{.*}}privatization.cpp:[[@LINE+6]]:19: note: 'tmp' is not private to each iteration: 'tmp[7 - j]' may lie outside the elements that the loop at line [[@LINE+3]] ('for (j = 0; j < 7; j++)') fills
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++) {
    for (j = 0; j < 7; j++)
      tmp[j] = in[i] * j;
    for (j = 0; j < 8; j++)
      out[i][j] = tmp[7 - j];
  }
}

// Read before the fill: the value comes from the previous iteration.
void scratchReadFirst(int n, double (*out)[8], const double *in) {
  double tmp[8] = {0};
  int i, j;
  // CHECK: {{.*}}privatization.cpp:[[@LINE+4]]:3: warning: loop not parallelized: 'tmp' is written in one iteration and read in another: the subscripts do not depend on the loop variable, so every iteration touches the same elements
  // CHECK: {{.*}}privatization.cpp:[[@LINE+4]]:17: note: conflicting read here
  // CHECK: {{.*}}privatization.cpp:[[@LINE+3]]:17: note: 'tmp' is not private to each iteration: it is read here before the iteration has filled it on every path
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++) {
    out[i][0] = tmp[3];
    for (j = 0; j < 8; j++)
      tmp[j] = in[i] * j;
    for (j = 1; j < 8; j++)
      out[i][j] = tmp[7 - j];
  }
}

// The fill reads the array itself (a running sum): element j - 1 of this iteration, fine
// serially, but the fill is then no plain write.
void scratchSelf(int n, double (*out)[8], const double *in) {
  double tmp[8] = {0};
  int i, j;
  // CHECK: {{.*}}privatization.cpp:[[@LINE+4]]:3: warning: loop not parallelized: 'tmp' is written in one iteration and written in another: the subscripts do not depend on the loop variable, so every iteration touches the same elements
  // CHECK: {{.*}}privatization.cpp:[[@LINE+5]]:7: note: written here
  // CHECK: {{.*}}privatization.cpp:[[@LINE+4]]:7: note: 'tmp' is not private to each iteration: it is written here, but not by a loop that fills a range of it ('for (j = lo; j < hi; j++) tmp[j] = e;', e not reading 'tmp'), the only stores privatization follows
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++) {
    for (j = 0; j < 8; j++)
      tmp[j] = in[i] + (j ? tmp[j - 1] : 0);
    for (j = 0; j < 8; j++)
      out[i][j] = tmp[j];
  }
}

// Live after the loop: the last iteration's row is handed back (CPU chunks only).
double scratchLive(int n, double (*out)[8], const double *in) {
  double tmp[8];
  int i, j;
  // CHECK: {{.*}}privatization.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 2 (score 16); in: in; out: out; private: tmp, j
  // CHECK: {{.*}}privatization.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: 'tmp' is private to each iteration and keeps the last iteration's value, which only CPU chunks hand back
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++) {
    for (j = 0; j < 8; j++)
      tmp[j] = in[i] * j;
    for (j = 0; j < 8; j++)
      out[i][j] = tmp[7 - j];
  }
  return tmp[3];
}

// Too large for a GPU thread: CPU devices only, with the reason.
void scratchLarge(int n, double (*out)[512], const double *in) {
  double tmp[512];
  int i, j;
  // CHECK: {{.*}}privatization.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 2 (score 16); in: in; out: out; private: tmp, j
  // CHECK: {{.*}}privatization.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the private array 'tmp' (4096 bytes) is larger than a GPU thread holds (1024 bytes)
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++) {
    for (j = 0; j < 512; j++)
      tmp[j] = in[i] * j;
    for (j = 0; j < 512; j++)
      out[i][j] = tmp[511 - j];
  }
}

// An index kept in a private declared before the loop (OpenMP's private(k)): its one top-level
// assignment gives it a value for the rest of the iteration, so subscripts through it are
// affine. A second write, a write inside an inner loop or an increment leaves it unknown.
void indexPrivate(int n, double *a, const double *b) {
  int k;
  // CHECK: {{.*}}privatization.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 2); in: b; out: a; private: k
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    k = i * 4 + 1;
    a[k] = b[k] + 1;
  }
}
void indexTwoWrites(int n, double *a, const double *b) {
  int k;
  // CHECK: {{.*}}privatization.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'a' is written through a subscript that is not affine in the loop variables, so iterations may write the same element
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    k = i * 4;
    if (b[i] > 0)
      k = 0;
    a[k] = b[i];
    // CHECK: {{.*}}privatization.cpp:[[@LINE-1]]:5: note: written here
  }
}
// Defined at the top of an inner loop's body (Rodinia srad's `k = i + Nr*j`): the value holds
// to the end of that body, and not after it, where k is the last inner iteration's.
void indexInInnerLoop(int n, double *a, const double *b) {
  int k;
  // CHECK: {{.*}}privatization.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 2 (score 9); in: b; out: a; private: k
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 4; ++j) {
      k = i * 4 + j;
      a[k] = b[i];
    }
}
void indexAfterInnerLoop(int n, double *a, const double *b) {
  int k;
  // CHECK: {{.*}}privatization.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'k' carries a value from one iteration to the next
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < 4; ++j) {
      k = i * 4 + j;
      // CHECK: {{.*}}privatization.cpp:[[@LINE-1]]:7: note: written here and read by a later iteration
      a[k] = b[i];
      // CHECK: {{.*}}privatization.cpp:[[@LINE-1]]:7: note: also: 'a' is written in one iteration and written in another: every iteration touches the same element
    }
    a[k] = 0;
  }
}
// A case label in the compound: a jump to it skips the definition.
void indexInSwitch(int n, double *a, const int *sel) {
  int k;
  // CHECK: {{.*}}privatization.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'a' is written through a subscript that is not affine in the loop variables, so iterations may write the same element
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    k = 0;
    switch (sel[i]) {
    case 0:
      k = 3 * i;
    case 1:
      a[k] = 1;
      // CHECK: {{.*}}privatization.cpp:[[@LINE-1]]:7: note: written here
      break;
    }
  }
}
void indexIncremented(int n, double *a) {
  int k;
  // CHECK: {{.*}}privatization.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'a' is written through a subscript that is not affine in the loop variables, so iterations may write the same element
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    k = 2 * i;
    k++;
    a[k] = 1;
    // CHECK: {{.*}}privatization.cpp:[[@LINE-1]]:5: note: written here
  }
}

// A temporary whose type is spelled through a macro is declared where the macro is used.
#define fp float
void macroSpelledType(int n, float *a) {
  fp t;
  // CHECK: {{.*}}privatization.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 2); in: a; out: a; private: t
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    t = a[i] * 2;
    a[i] = t;
  }
}

// A scratch array filled by a call (NPB BT's `exact_solution(xi, eta, zeta, temp)`): the
// callee's definition fills its parameter whole before any other use and keeps no pointer to
// it, so the array passed is private as if the loop filled it.
static void fill5(double x, double dtemp[5]) {
  int m;
  for (m = 0; m < 5; m++)
    dtemp[m] = x * m;
}
void filledByCall(int n, double (*out)[5]) {
  double temp[5];
  int m;
  // CHECK: {{.*}}privatization.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 2 (score 19); out: out; private: temp, m
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
    fill5(i * 0.5, temp);
    for (m = 0; m < 5; m++)
      out[i][m] = temp[4 - m];
  }
}

// The callee fills only four elements: the fifth is the previous iteration's.
static void fill4(double x, double dtemp[5]) {
  for (int m = 0; m < 4; m++)
    dtemp[m] = x * m;
}
void filledInPart(int n, double (*out)[5]) {
  double temp[5] = {0};
  int m;
  // CHECK: {{.*}}privatization.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'temp' is written in one iteration and written in another: the subscripts do not depend on the loop variable, so every iteration touches the same elements
  // CHECK: {{.*}}privatization.cpp:{{[0-9]+}}:5: note: written here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
    fill4(i * 0.5, temp);
    for (m = 0; m < 5; m++)
      out[i][m] = temp[4 - m];
  }
}

// The callee keeps the pointer: another call may read the array through it.
static double *kept;
static void fillKeep(double x, double dtemp[5]) {
  kept = dtemp;
  for (int m = 0; m < 5; m++)
    dtemp[m] = x * m;
}
void filledAndKept(int n, double *out) {
  double temp[5];
  // CHECK: {{.*}}privatization.cpp:[[@LINE+4]]:3: warning: loop not parallelized: 'fillKeep' writes global 'kept'
  // CHECK: {{.*}}privatization.cpp:{{[0-9]+}}:3: note: written here
  // CHECK: {{.*}}privatization.cpp:{{[0-9]+}}:5: note: also: 'temp' is written in one iteration and written in another: the subscripts do not depend on the loop variable, so every iteration touches the same elements
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
    fillKeep(i * 0.5, temp);
    out[i] = temp[2];
  }
}

// The callee reads its parameter before filling it.
static void accumulate(double x, double dtemp[5]) {
  double first = dtemp[0];
  for (int m = 0; m < 5; m++)
    dtemp[m] = x * m + first;
}
void readByCallee(int n, double *out) {
  double temp[5] = {0};
  // CHECK: {{.*}}privatization.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'temp' is written in one iteration and read in another: the subscripts do not depend on the loop variable, so every iteration touches the same elements
  // CHECK: {{.*}}privatization.cpp:{{[0-9]+}}:18: note: conflicting read here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
    accumulate(i * 0.5, temp);
    out[i] = temp[2];
  }
}

// The array's address escapes before the loop: the copy a chunk fills would not be the one
// the pointer reaches.
void escapesFirst(int n, double *out, double **where) {
  double temp[5];
  *where = temp;
  // CHECK: {{.*}}privatization.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'temp' is written in one iteration and written in another: the subscripts do not depend on the loop variable, so every iteration touches the same elements
  // CHECK: {{.*}}privatization.cpp:{{[0-9]+}}:5: note: written here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
    fill5(i * 0.5, temp);
    out[i] = temp[2];
  }
}

// Liveness after the loop, for an array: a call that fills it kills it, a store to one element
// neither reads nor kills it. Each function has a loop whose fill may not run (inner loop), so
// the array is private only where nothing after the loop reads what an iteration left.
// Filled again by the next loop before any read: dead, private in both loops.
void refilledLater(int n, int m, double (*out)[5]) {
  double temp[5];
  int j, k;
  // CHECK: {{.*}}privatization.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 3 (score 26); in: out; out: out; private: temp, j, k
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    for (j = 0; j < m; j++) {
      fill5(i + j, temp);
      for (k = 0; k < 5; k++)
        out[i][k] += temp[k];
    }
  temp[0] = 1; // one element: the rest is still what the loop left, but the next fill kills all
  // CHECK: {{.*}}privatization.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 3 (score 26); in: out; out: out; private: temp, j, k
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    for (j = 0; j < m; j++) {
      fill5(i - j, temp);
      for (k = 0; k < 5; k++)
        out[i][k] -= temp[k];
    }
}

// Read after the loop before any fill: live, and an iteration may leave it unwritten (m = 0).
double readAfter(int n, int m, double (*out)[5]) {
  double temp[5] = {0};
  int j, k;
  // CHECK: {{.*}}privatization.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'temp' is written in one iteration and written in another: the subscripts do not depend on the loop variable, so every iteration touches the same elements
  // CHECK: {{.*}}privatization.cpp:{{[0-9]+}}:5: note: written here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    for (j = 0; j < m; j++) {
      fill5(i + j, temp);
      for (k = 0; k < 5; k++)
        out[i][k] += temp[k];
    }
  double s = temp[1]; // a store to temp[0] first would not hide this read of temp[1]
  return s;
}

// Filled after the loop on one path only, then read: live.
double fillOnOnePath(int n, int m, bool again, double (*out)[5]) {
  double temp[5] = {0};
  int j, k;
  // CHECK: {{.*}}privatization.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'temp' is written in one iteration and written in another: the subscripts do not depend on the loop variable, so every iteration touches the same elements
  // CHECK: {{.*}}privatization.cpp:{{[0-9]+}}:5: note: written here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    for (j = 0; j < m; j++) {
      fill5(i + j, temp);
      for (k = 0; k < 5; k++)
        out[i][k] += temp[k];
    }
  if (again)
    fill5(1.0, temp);
  return temp[2];
}

// Inside an outer loop that reads the array before the parallel loop fills it again: live
// around the back edge.
double readAroundBackEdge(int t, int n, int m, double (*out)[5]) {
  double temp[5] = {0};
  double s = 0;
  int j, k;
  for (int step = 0; step < t; step++) {
    s += temp[3];
    // CHECK: {{.*}}privatization.cpp:[[@LINE+3]]:5: warning: loop not parallelized: 'temp' is written in one iteration and written in another: the subscripts do not depend on the loop variable, so every iteration touches the same elements
    // CHECK: {{.*}}privatization.cpp:{{[0-9]+}}:5: note: written here
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; i++)
      for (j = 0; j < m; j++) {
        fill5(i + j, temp);
        for (k = 0; k < 5; k++)
          out[i][k] += temp[k];
      }
  }
  return s;
}

// A scratch row filled in part, over a range the function's parameters bound, and read only
// within that range (NPB MG's psinv: r1[i1 - 1] and r1[i1 + 1] for 1 <= i1 < n1 - 1 after the
// fill of i1 < n1): each iteration owns it. Dead after the loop.
void partRows(int n1, int n3, double (*u)[64], double (*r)[64]) {
  int i3, i1;
  double r1[64];
  // CHECK: {{.*}}privatization.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 2 (score 16); in: r; out: u; private: i1, r1
  [[cluster::gpu_parallel]]
  for (i3 = 1; i3 < n3 - 1; i3++) {
    for (i1 = 0; i1 < n1; i1++)
      r1[i1] = r[i3][i1] * 2;
    for (i1 = 1; i1 < n1 - 1; i1++)
      u[i3][i1] = r1[i1 - 1] + r1[i1 + 1];
  }
}

// A range bounded by a loop of the body (i1 <= i2), read by a descending loop within it.
void partTriangle(int n3, double (*u)[64], double (*r)[64]) {
  int i3, i2, i1;
  double r1[64];
  // CHECK: {{.*}}privatization.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 3 (score 23); in: r, u; out: u; private: i2, i1, r1
  [[cluster::gpu_parallel]]
  for (i3 = 0; i3 < n3; i3++)
    for (i2 = 1; i2 < 60; i2++) {
      for (i1 = 0; i1 <= i2; i1++)
        r1[i1] = r[i3][i1];
      for (i1 = i2; i1 > 0; i1--)
        u[i3][i1] += r1[i1] - r1[i1 - 1];
    }
}

// One element past the range (r1[n1] when i1 = n1 - 1): the previous iteration's value.
void partPast(int n1, int n3, double (*u)[64], double (*r)[64]) {
  int i3, i1;
  double r1[64];
  // CHECK: {{.*}}privatization.cpp:[[@LINE+4]]:3: warning: loop not parallelized: 'r1' is written in one iteration and written in another: the subscripts do not depend on the loop variable, so every iteration touches the same elements
  // CHECK: {{.*}}privatization.cpp:[[@LINE+5]]:7: note: written here
  // CHECK: {{.*}}privatization.cpp:[[@LINE+6]]:32: note: 'r1' is not private to each iteration: 'r1[i1 + 1]' may lie outside the elements that the loop at line [[@LINE+3]] ('for (i1 = 0; i1 < n1; i1++)') fills
  [[cluster::gpu_parallel]]
  for (i3 = 1; i3 < n3 - 1; i3++) {
    for (i1 = 0; i1 < n1; i1++)
      r1[i1] = r[i3][i1];
    for (i1 = 1; i1 < n1; i1++)
      u[i3][i1] = r1[i1 - 1] + r1[i1 + 1];
  }
}

// Filled on one path only.
void partOnePath(int n1, int n3, double (*u)[64], double (*r)[64]) {
  int i3, i1;
  double r1[64];
  // CHECK: {{.*}}privatization.cpp:[[@LINE+4]]:3: warning: loop not parallelized: 'r1' is written in one iteration and written in another: the subscripts do not depend on the loop variable, so every iteration touches the same elements
  // CHECK: {{.*}}privatization.cpp:[[@LINE+6]]:9: note: written here
  // CHECK: {{.*}}privatization.cpp:[[@LINE+7]]:19: note: 'r1' is not private to each iteration: it is read here before the iteration has filled it on every path
  [[cluster::gpu_parallel]]
  for (i3 = 1; i3 < n3 - 1; i3++) {
    if (i3 % 2)
      for (i1 = 0; i1 < n1; i1++)
        r1[i1] = r[i3][i1];
    for (i1 = 0; i1 < n1; i1++)
      u[i3][i1] = r1[i1];
  }
}

// A bound of global storage: a call may change it between the fill and the read.
int Extent;
void partGlobalBound(int n3, double (*u)[64], double (*r)[64]) {
  int i3, i1;
  double r1[64];
  // CHECK: {{.*}}privatization.cpp:[[@LINE+4]]:3: warning: loop not parallelized: 'r1' is written in one iteration and written in another: the subscripts do not depend on the loop variable, so every iteration touches the same elements
  // CHECK: {{.*}}privatization.cpp:[[@LINE+5]]:7: note: written here
  // CHECK: {{.*}}privatization.cpp:[[@LINE+6]]:19: note: 'r1' is not private to each iteration: 'r1[i1]' may lie outside the elements that the loop at line [[@LINE+3]] ('for (i1 = 0; i1 < Extent; i1++)') fills: the iteration may change 'Extent'
  [[cluster::gpu_parallel]]
  for (i3 = 1; i3 < n3 - 1; i3++) {
    for (i1 = 0; i1 < Extent; i1++)
      r1[i1] = r[i3][i1];
    for (i1 = 0; i1 < Extent; i1++)
      u[i3][i1] = r1[i1];
  }
}

// A bound through a local the body sets: the flow knows m is n1 at the fill, so the fill
// covers [0, n1) whatever m becomes later.
void partBoundFollowed(int n1, int n3, double (*u)[64], double (*r)[64]) {
  int i3, i1, m;
  double r1[64];
  // CHECK: {{.*}}privatization.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 2 (score 18); in: r; out: u; private: i1, m, r1
  [[cluster::gpu_parallel]]
  for (i3 = 1; i3 < n3 - 1; i3++) {
    m = n1;
    for (i1 = 0; i1 < m; i1++)
      r1[i1] = r[i3][i1];
    m = m + 1;
    for (i1 = 0; i1 < n1; i1++)
      u[i3][i1] = r1[i1] + m;
  }
}

// ... and refused when the read runs to the changed bound, one element past the fill.
void partBoundChanged(int n1, int n3, double (*u)[64], double (*r)[64]) {
  int i3, i1, m;
  double r1[64];
  // CHECK: {{.*}}privatization.cpp:[[@LINE+4]]:3: warning: loop not parallelized: 'r1' is written in one iteration and written in another: the subscripts do not depend on the loop variable, so every iteration touches the same elements
  // CHECK: {{.*}}privatization.cpp:[[@LINE+6]]:7: note: written here
  // CHECK: {{.*}}privatization.cpp:[[@LINE+8]]:19: note: 'r1' is not private to each iteration: 'r1[i1]' may lie outside the elements that the loop at line [[@LINE+4]] ('for (i1 = 0; i1 < m; i1++)') fills
  [[cluster::gpu_parallel]]
  for (i3 = 1; i3 < n3 - 1; i3++) {
    m = n1;
    for (i1 = 0; i1 < m; i1++)
      r1[i1] = r[i3][i1];
    m = m + 1;
    for (i1 = 0; i1 < m; i1++)
      u[i3][i1] = r1[i1];
  }
}

// A bound set on one path only: its value at the read is not known, and the iteration
// changes it.
void partBoundUnknown(int n1, int n3, double (*u)[64], double (*r)[64]) {
  int i3, i1, m;
  double r1[64];
  // CHECK: {{.*}}privatization.cpp:[[@LINE+4]]:3: warning: loop not parallelized: 'r1' is written through a subscript over 'i1', the variable of an inner loop whose range is not known ('for (i1 = 0; i1 < m; i1++)'), so iterations may write the same element
  // CHECK: {{.*}}privatization.cpp:[[@LINE+8]]:7: note: written here
  // CHECK: {{.*}}privatization.cpp:[[@LINE+9]]:19: note: 'r1' is not private to each iteration: 'r1[i1]' may lie outside the elements that the loop at line [[@LINE+6]] ('for (i1 = 0; i1 < m; i1++)') fills: the iteration may change 'm'
  [[cluster::gpu_parallel]]
  for (i3 = 1; i3 < n3 - 1; i3++) {
    m = n1;
    if (r[i3][0] > 0)
      m = n1 - 1;
    for (i1 = 0; i1 < m; i1++)
      r1[i1] = r[i3][i1];
    for (i1 = 0; i1 < m; i1++)
      u[i3][i1] = r1[i1];
    // CHECK: {{.*}}privatization.cpp:[[@LINE-1]]:7: note: also: 'u' is written through a subscript over 'i1', the variable of an inner loop whose range is not known ('for (i1 = 0; i1 < m; i1++)'), so iterations may write the same element
  }
}

// Read after the loop: a chunk cannot hand back the elements the last iteration left alone.
double partLive(int n1, int n3, double (*u)[64], double (*r)[64]) {
  int i3, i1;
  double r1[64];
  // CHECK: {{.*}}privatization.cpp:[[@LINE+4]]:3: warning: loop not parallelized: 'r1' is written in one iteration and written in another: the subscripts do not depend on the loop variable, so every iteration touches the same elements
  // CHECK: {{.*}}privatization.cpp:[[@LINE+5]]:7: note: written here
  // CHECK: {{.*}}privatization.cpp:[[@LINE-3]]:10: note: 'r1' is not private to each iteration: an iteration fills only part of it, and the code after the loop may read it
  [[cluster::gpu_parallel]]
  for (i3 = 1; i3 < n3 - 1; i3++) {
    for (i1 = 0; i1 < n1; i1++)
      r1[i1] = r[i3][i1];
    for (i1 = 0; i1 < n1; i1++)
      u[i3][i1] = r1[i1];
  }
  return r1[2];
}

// The reading loop changes its own variable: its range is not its bounds.
void partJumps(int n1, int n3, double (*u)[64], double (*r)[64]) {
  int i3, i1;
  double r1[64];
  // CHECK: {{.*}}privatization.cpp:[[@LINE+5]]:3: warning: loop not parallelized: 'r1' is written by the loop and read through a subscript that is not affine, so an iteration may read what another writes
  // CHECK: {{.*}}privatization.cpp:[[@LINE+8]]:19: note: read here
  // CHECK: {{.*}}privatization.cpp:[[@LINE+7]]:19: note: 'r1' is not private to each iteration: 'r1[i1 + 1]' may lie outside the elements that the loop at line [[@LINE+4]] ('for (i1 = 0; i1 < n1; i1++)') fills: the loop of 'i1' around it has no range privatization can follow
  // CHECK: {{.*}}privatization.cpp:[[@LINE+6]]:7: note: also: 'u' is written through a subscript that is not affine in the loop variables, so iterations may write the same element
  [[cluster::gpu_parallel]]
  for (i3 = 1; i3 < n3 - 1; i3++) {
    for (i1 = 0; i1 < n1; i1++)
      r1[i1] = r[i3][i1];
    for (i1 = 0; i1 < n1; i1++) {
      u[i3][i1] = r1[i1 + 1];
      i1 += 1;
    }
  }
}

// Unsigned bounds may wrap (n1 - 1 when n1 is 0).
void partUnsigned(unsigned n1, int n3, double (*u)[64], double (*r)[64]) {
  int i3;
  double r1[64];
  // CHECK: {{.*}}privatization.cpp:[[@LINE+5]]:3: warning: loop not parallelized: 'r1' is written by the loop and read through a subscript over 'k', the variable of an inner loop whose range is not known ('for (int k = 0; k < n1 - 1; k++)'), so an iteration may read what another writes
  // CHECK: {{.*}}privatization.cpp:[[@LINE+8]]:18: note: read here
  // CHECK: {{.*}}privatization.cpp:[[@LINE+4]]:5: note: 'r1' is not private to each iteration: the loop at line [[@LINE+4]] ('for (int i1 = 0; i1 < n1; i1++)') fills it over bounds privatization cannot follow (signed integers, linear in variables the iteration does not change)
  // CHECK: {{.*}}privatization.cpp:[[@LINE+6]]:7: note: also: 'u' is written through a subscript over 'k', the variable of an inner loop whose range is not known ('for (int k = 0; k < n1 - 1; k++)'), so iterations may write the same element
  [[cluster::gpu_parallel]]
  for (i3 = 1; i3 < n3 - 1; i3++) {
    for (int i1 = 0; i1 < n1; i1++)
      r1[i1] = r[i3][i1];
    for (int k = 0; k < n1 - 1; k++)
      u[i3][k] = r1[k];
  }
}


// A fill that reads back the element just written of another row (NPB MG's interp: z3[i1] = b
// + z1[i1] after z1[i1] = a): both rows are filled.
void partReuse(int mm1, int mm3, double (*u)[64], double (*z)[64]) {
  int i3, i1;
  double z1[64], z3[64];
  // CHECK: {{.*}}privatization.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 2 (score 17); in: z, u; out: u; private: i1, z1, z3
  [[cluster::gpu_parallel]]
  for (i3 = 0; i3 < mm3 - 1; i3++) {
    for (i1 = 0; i1 < mm1; i1++) {
      z1[i1] = z[i3][i1] + z[i3 + 1][i1];
      z3[i1] = z[i3 + 1][i1] + z1[i1];
    }
    for (i1 = 0; i1 < mm1 - 1; i1++)
      u[2 * i3][i1] += 0.25 * (z1[i1] + z1[i1 + 1]) + z3[i1];
  }
}

// The same reading the next element, which this iteration has not written yet.
void partReuseAhead(int mm1, int mm3, double (*u)[64], double (*z)[64]) {
  int i3, i1;
  double z1[64], z3[64];
  // CHECK: {{.*}}privatization.cpp:[[@LINE+4]]:3: warning: loop not parallelized: 'z1' is written in one iteration and written in another: the subscripts do not depend on the loop variable, so every iteration touches the same elements
  // CHECK: {{.*}}privatization.cpp:[[@LINE+5]]:7: note: written here
  // CHECK: {{.*}}privatization.cpp:[[@LINE+4]]:7: note: 'z1' is not private to each iteration: it is written here, but not by a loop that fills a range of it ('for (j = lo; j < hi; j++) z1[j] = e;', e not reading 'z1'), the only stores privatization follows
  [[cluster::gpu_parallel]]
  for (i3 = 0; i3 < mm3 - 1; i3++) {
    for (i1 = 0; i1 < mm1; i1++) {
      z1[i1] = z[i3][i1] + z[i3 + 1][i1];
      z3[i1] = z[i3 + 1][i1] + z1[i1 + 1];
    }
    for (i1 = 0; i1 < mm1 - 1; i1++)
      u[2 * i3][i1] += 0.25 * (z1[i1] + z1[i1 + 1]) + z3[i1];
  }
}


// A case label is reached from the switch as well as from the case before it: a value written
// before a fall-through is not written when the switch jumps to the label.
void switchFallsInto(int n, const int *sel, double *out) {
  double t = -1;
  // CHECK: {{.*}}privatization.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 't' carries a value from one iteration to the next
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    switch (sel[i]) {
    case 0:
      t = i;
      // CHECK: {{.*}}privatization.cpp:[[@LINE-1]]:7: note: written here and read by a later iteration
    case 1:
      out[i] = t;
      break;
    }
  }
}
// ... and private where every case writes it before reading it.
void switchEachCase(int n, const int *sel, double *out) {
  double t = -1;
  // CHECK: {{.*}}privatization.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 2 (score 11); in: sel; out: out; private: t
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    switch (sel[i]) {
    case 0:
      t = i;
      out[i] = t;
      break;
    case 1:
      t = 2 * i;
      out[i] = t;
      break;
    default:
      t = 0;
      out[i] = t;
    }
  }
}
// A scratch row filled in one case and read after falling into the next.
void switchFillFallsInto(int n, const int *sel, const double *x, double *out) {
  double r[8];
  int j;
  // CHECK: {{.*}}privatization.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'r' is written in one iteration and written in another: the subscripts do not depend on the loop variable, so every iteration touches the same elements
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    switch (sel[i]) {
    case 0:
      for (j = 0; j < 8; j++)
        r[j] = x[i] + j;
      // CHECK: {{.*}}privatization.cpp:[[@LINE-1]]:9: note: written here
    case 1:
      out[i] = r[3];
      // CHECK: {{.*}}privatization.cpp:[[@LINE-1]]:16: note: 'r' is not private to each iteration: it is read here before the iteration has filled it on every path
      break;
    }
  }
}

// NPB MG's rprj3: a scratch row filled at every other element through a private index,
// `i1 = 2 * j1 - d1; x1[i1] = ...`, then read at i1 and i1 + 2 for j1 one short of the fill.
// The index has a definition in each loop of its own (one per loop over j1).
void partStrided(int m1j, int m3j, int d1, double (*s)[64], double (*r)[120]) {
  int j3, j1, i1;
  double x1[120];
  // CHECK: {{.*}}privatization.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 2 (score 18); in: r; out: s; private: j1, i1, x1
  [[cluster::gpu_parallel]]
  for (j3 = 1; j3 < m3j - 1; j3++) {
    for (j1 = 1; j1 < m1j; j1++) {
      i1 = 2 * j1 - d1;
      x1[i1] = r[j3][i1] + r[j3 + 1][i1];
    }
    for (j1 = 1; j1 < m1j - 1; j1++) {
      i1 = 2 * j1 - d1;
      s[j3][j1] = x1[i1] + x1[i1 + 2];
    }
  }
}
// ... refused where the read falls between the filled elements ...
void partStridedOdd(int m1j, int m3j, int d1, double (*s)[64], double (*r)[120]) {
  int j3, j1, i1;
  double x1[120];
  // CHECK: {{.*}}privatization.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'x1' is written in one iteration and written in another: the subscripts do not depend on the loop variable, so every iteration touches the same elements
  [[cluster::gpu_parallel]]
  for (j3 = 1; j3 < m3j - 1; j3++) {
    for (j1 = 1; j1 < m1j; j1++) {
      i1 = 2 * j1 - d1;
      x1[i1] = r[j3][i1] + r[j3 + 1][i1];
      // CHECK: {{.*}}privatization.cpp:[[@LINE-1]]:7: note: written here
    }
    for (j1 = 1; j1 < m1j - 1; j1++) {
      i1 = 2 * j1 - d1;
      s[j3][j1] = x1[i1] + x1[i1 + 1];
      // CHECK: {{.*}}privatization.cpp:[[@LINE-1]]:28: note: 'x1' is not private to each iteration: 'x1[i1 + 1]' may lie outside the elements that the loop at line [[@LINE-8]] ('for (j1 = 1; j1 < m1j; j1++)') fills (one in every 2)
    }
  }
}
// ... or past the last one.
void partStridedPast(int m1j, int m3j, int d1, double (*s)[64], double (*r)[120]) {
  int j3, j1, i1;
  double x1[120];
  // CHECK: {{.*}}privatization.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'x1' is written in one iteration and written in another: the subscripts do not depend on the loop variable, so every iteration touches the same elements
  [[cluster::gpu_parallel]]
  for (j3 = 1; j3 < m3j - 1; j3++) {
    for (j1 = 1; j1 < m1j; j1++) {
      i1 = 2 * j1 - d1;
      x1[i1] = r[j3][i1] + r[j3 + 1][i1];
      // CHECK: {{.*}}privatization.cpp:[[@LINE-1]]:7: note: written here
    }
    for (j1 = 1; j1 < m1j; j1++) {
      i1 = 2 * j1 - d1;
      s[j3][j1] = x1[i1] + x1[i1 + 2];
      // CHECK: {{.*}}privatization.cpp:[[@LINE-1]]:28: note: 'x1' is not private to each iteration: 'x1[i1 + 2]' may lie outside the elements that the loop at line [[@LINE-8]] ('for (j1 = 1; j1 < m1j; j1++)') fills (one in every 2)
    }
  }
}

// A private index defined again inside an inner loop, after a use: from the second iteration
// of the inner loop on, the use sees what the iteration before left (4 * i + j), not 4 * i.
void indexRedefinedInLoop(int n, double *a, const double *b) {
  int k;
  // CHECK: {{.*}}privatization.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'a' is written through a subscript that is not affine in the loop variables, so iterations may write the same element
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    k = 4 * i;
    for (int j = 0; j < 4; ++j) {
      a[k] = b[i];
      // CHECK: {{.*}}privatization.cpp:[[@LINE-1]]:7: note: written here
      k = 4 * i + j + 1;
    }
  }
}
// Defined at the top of each of two loops: each loop's accesses see their own definition.
void indexPerLoop(int n, double *a, const double *b) {
  int k;
  // CHECK: {{.*}}privatization.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 2 (score 18); in: b; out: a; private: k
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < 4; ++j) {
      k = 8 * i + j;
      a[k] = b[i];
    }
    for (int j = 0; j < 4; ++j) {
      k = 8 * i + 4 + j;
      a[k] = -b[i];
    }
  }
}
// A descending stride: filled at 200 - 3 * j - i, read three elements to either side.
void partStridedDown(int n, int (*out)[8]) {
  int j, q;
  int s[240];
  // CHECK: {{.*}}privatization.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 2 (score 20); out: out; private: j, q, s
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    for (j = 0; j < 5; j++) {
      q = 200 - 3 * j - i;
      s[q] = i * 11 + j;
    }
    int acc = 0;
    for (j = 1; j < 4; j++) {
      q = 200 - 3 * j - i;
      acc = acc * 3 + s[q - 3] + s[q + 3];
    }
    out[i][4] = acc;
  }
}
// A bound whose address is held: a store through the pointer may change it, so its value is
// not followed.
void partBoundThroughPointer(int n, int (*out)[8]) {
  int j, m;
  int *pm = &m;
  int s[64];
  // CHECK: {{.*}}privatization.cpp:[[@LINE+6]]:3: warning: loop not parallelized: 'm' is declared outside the loop, and each iteration assigns it before reading it; declare it inside the loop body, so that each iteration has its own
  // CHECK: {{.*}}privatization.cpp:[[@LINE+6]]:5: note: assigned here
  // CHECK: {{.*}}privatization.cpp:[[@LINE+7]]:7: note: also: 's' is written in one iteration and written in another: the subscripts do not depend on the loop variable, so every iteration touches the same elements
  // CHECK: {{.*}}privatization.cpp:[[@LINE+10]]:14: note: 's' is not private to each iteration: 's[j]' may lie outside the elements that the loop at line [[@LINE+5]] ('for (j = 0; j < m; j++)') fills: the iteration may change 'm'
  // CHECK: {{.*}}privatization.cpp:[[@LINE+6]]:5: note: also: 'pm' is written in one iteration and written in another: every iteration touches the same element
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    m = 3;
    for (j = 0; j < m; j++)
      s[j] = i + j;
    *pm = 6;
    int acc = 0;
    for (j = 0; j < m; j++)
      acc += s[j];
    out[i][3] = acc;
  }
}

// NPB SP's dissipation: a column index set to constants between the loops that run it. Each
// `c = k;` holds up to the next write; within `for (c = 2; ...)` c has the loop's range.
void edgeColumns(int n, double (*g)[8]) {
  int c;
  // CHECK: {{.*}}privatization.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 2 (score 12); in: g; out: g; private: c
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    c = 1;
    g[i][c] = g[i][c] * 3 + 1;
    for (c = 2; c < 6; c++)
      g[i][c] += c;
    c = 6;
    g[i][c] -= 2;
  }
}
// ... and refused where the index is used after a loop over it with no new definition: it
// holds the loop's exit value (6), not the 1 set before the loop.
void edgeAfterLoop(int n, double (*g)[8]) {
  int c;
  // CHECK: {{.*}}privatization.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'g' is written through a subscript that is not affine in the loop variables, so iterations may write the same element
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    c = 1;
    g[i][c] = g[i][c] * 3 + 1;
    for (c = 2; c < 6; c++)
      g[i][c] += c;
    g[i][c] -= 2;
    // CHECK: {{.*}}privatization.cpp:[[@LINE-1]]:5: note: written here
  }
}
