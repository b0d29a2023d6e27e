// Indices changed where a syntactic analysis does not look (soundness class 3): a variable
// stands for its definition in a subscript only when every later use reads its value. Passing
// it by non-const reference, binding a reference to it, or changing a callee's by-value
// parameter makes the subscript unknown.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark}}:"
// REQUIRES: compiler

static void bump(int &j) { j += 1; }
static int twice(int j) { return 2 * j; }

// An index passed by non-const reference to a callee.
void byReference(double *b, int n) {
  // CHECK: {{.*}}soundness-indices.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'b' is written through a subscript that is not affine in the loop variables, so iterations may write the same element
  // CHECK: {{.*}}soundness-indices.cpp:[[@LINE+5]]:5: note: written here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    int j = i;
    bump(j);
    b[j] = b[i] + 1;
  }
  // CHECK: {{.*}}soundness-indices.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 5); out: b
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    int j = i;
    int k = twice(j);
    b[j] = k;
  }
}

// An index changed through a reference alias.
void throughAlias(double *b, int n) {
  // CHECK: {{.*}}soundness-indices.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'b' is written through a subscript that is not affine in the loop variables, so iterations may write the same element
  // CHECK: {{.*}}soundness-indices.cpp:[[@LINE+6]]:5: note: written here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    int j = i;
    int &r = j;
    r += 1;
    b[j] = b[i] + 1;
  }
  // CHECK: {{.*}}soundness-indices.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); in: b; out: b
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    int j = i;
    int k = j;
    b[k] = b[j] + 1;
  }
}

// An inner loop counter advanced through a reference.
void innerCounter(double *b, int n) {
  // CHECK: {{.*}}soundness-indices.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'b' is written through a subscript that is not affine in the loop variables, so iterations may write the same element
  // CHECK: {{.*}}soundness-indices.cpp:[[@LINE+5]]:7: note: written here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < 4; ++k) {
      int &rk = k;
      b[i * 4 + k] = 1;
      rk += 2;
    }
  // CHECK: {{.*}}soundness-indices.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 8); out: b
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < 4; ++k)
      b[i * 4 + k] = 1;
}

// A by-value parameter that the callee changes is not its argument any more.
static void storeAfter(double *b, int j) {
  j += 1;
  b[j] = 0;
}
static void storeAt(double *b, int j) { b[j] = 0; }
static void storeMoved(double *b, int j) {
  ++b;
  b[j] = 0;
}
void calleeParameter(double *b, int n) {
  // CHECK: {{.*}}soundness-indices.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'b' is written through a subscript that is not affine in the loop variables, so iterations may write the same element
  // CHECK: {{.*}}soundness-indices.cpp:[[@LINE-9]]:3: note: written here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    storeAfter(b, i);
  // CHECK: {{.*}}soundness-indices.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); out: b
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    storeAt(b, i);
  // A by-value pointer parameter the callee moves is not its argument either.
  // CHECK: {{.*}}soundness-indices.cpp:[[@LINE+3]]:3: warning: loop not parallelized: writes memory through 'b[j]', which the analysis cannot follow
  // CHECK: {{.*}}soundness-indices.cpp:[[@LINE-14]]:3: note: write here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    storeMoved(b, i);
}
