// A variable declared before the loop and run by several inner loops of its body (NPB SP's
// compute_rhs: `for (i = 1; i <= nx2; i++) ...` then `for (i = 3; i <= nx2 - 2; i++) ...`).
// Within each loop it is a variable of its own, bounded by that loop's range, for the boxes a
// GPU copies and for the dependence test: the second loop's range alone once made a GPU copy
// rows too short (test/EndToEnd/reused-loop-variable.test) and let a racing loop through, and
// the hull of the ranges that replaced it made boxes wider than the accesses (NPB MG's interp,
// whose hull reached into the next grid level, ran serially). Past its loop the variable holds
// its exit value, which no range bounds: accesses through it are not affine.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark|note}}:"
// REQUIRES: compiler

// Two ranges, one inside the other: the hull is the wider.
void siblings(int n, double (*out)[16], const double (*in)[16]) {
  int i;
  // CHECK: {{.*}}reused-loop-variable.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 2 (score 16); in: out, in; out: out; private: i
  [[cluster::gpu_parallel]]
  for (int k = 0; k < n; ++k) {
    for (i = 1; i < 15; ++i)
      out[k][i] = in[k][i - 1] + in[k][i + 1];
    for (i = 3; i < 12; ++i)
      out[k][i] *= 0.5;
  }
}

// With the first loop's range, iterations k and k + 1 write a[2k + i] apart; with the second's
// alone (i = 0) they would seem to.
void race(double *a, double *b) {
  int i;
  // CHECK: {{.*}}reused-loop-variable.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'a' is written in one iteration and written in another: iterations 0 and 1 touch the same element
  [[cluster::gpu_parallel]]
  for (int k = 0; k < 100; ++k) {
    for (i = 0; i < 10; ++i)
      // CHECK: {{.*}}reused-loop-variable.cpp:[[@LINE+1]]:7: note: written here
      a[2 * k + i] += k + i;
    for (i = 0; i < 1; ++i)
      b[k] = i;
  }
}

// Ends that cannot be ordered (n against m) but name no loop variable: the hull runs from
// min(0, 1) = 0 to max(n - 1, m - 1), a clamp symbol the host evaluates at the loop (PolyBench's
// doitgen: `p < np`, then `p < nr`).
void unordered(int n, int m, double (*out)[64]) {
  int i;
  // CHECK: {{.*}}reused-loop-variable.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 2 (score 16); in: out; out: out; private: i
  [[cluster::gpu_parallel]]
  for (int k = 0; k < 8; ++k) {
    for (i = 0; i < n; ++i)
      out[k][i] = 1.0;
    for (i = 1; i < m; ++i)
      out[k][i] += 2.0;
  }
}

// Ends that name the parallel variable (k against 0): each loop has its own range, so the
// ranges need no order.
void unorderedByLoopVariable(int n, double (*out)[64]) {
  int i;
  // CHECK: {{.*}}reused-loop-variable.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 2 (score 16); in: out; out: out; private: i
  [[cluster::gpu_parallel]]
  for (int k = 0; k < 8; ++k) {
    for (i = k; i < n; ++i)
      out[k][i] = 1.0;
    for (i = 0; i < 3; ++i)
      out[k][i] += 2.0;
  }
}

// A loop reads with the first loop's range what the second writes with its own: the ranges
// are each loop's (iteration k writes out[k + i] for i < 3, and reads out[k + i] for i < 8).
void rangesApart(double *out) {
  int i;
  // CHECK: {{.*}}reused-loop-variable.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'out' is written in one iteration and read in another: iterations 0 and 2 touch the same element
  // CHECK: {{.*}}reused-loop-variable.cpp:[[@LINE+5]]:12: note: conflicting read here
  [[cluster::gpu_parallel]]
  for (int k = 0; k < 100; ++k) {
    double s = 0;
    for (i = 0; i < 8; ++i)
      s += out[k + i];
    for (i = 0; i < 3; ++i)
      out[k + i] = s;
  }
}

// The exit value after the loop (i == 4): not affine.
void after(double *a, const double *b) {
  int i;
  // CHECK: {{.*}}reused-loop-variable.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'a' is written through a subscript that is not affine in the loop variables, so iterations may write the same element
  [[cluster::gpu_parallel]]
  for (int k = 0; k < 100; ++k) {
    for (i = 0; i < 4; ++i)
      a[k * 8 + i] = b[k * 8 + i] + 1;
    // CHECK: {{.*}}reused-loop-variable.cpp:[[@LINE+1]]:5: note: written here
    a[k * 8 + i] = b[k * 8 + i + 1] * 2;
  }
}

// A second loop whose range is not known (i doubles): its accesses through i are not affine.
void unknownRange(double (*out)[64]) {
  int i;
  // CHECK: {{.*}}reused-loop-variable.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'out' is written through a subscript over 'i', the variable of an inner loop whose range is not known ('for (i = 1; i < 64; i = 2 * i)'), so iterations may write the same element
  [[cluster::gpu_parallel]]
  for (int k = 0; k < 8; ++k) {
    for (i = 0; i < 8; ++i)
      out[k][i] = 1.0;
    for (i = 1; i < 64; i = 2 * i)
      // CHECK: {{.*}}reused-loop-variable.cpp:[[@LINE+1]]:7: note: written here
      out[k][i] += 2.0;
  }
}
