// An array member of an element reached through a reference: one the body binds to the element
// (`Node &p = n[i]; p.x[0]`) or a callee's reference parameter bound to it. The access is the
// element's, as `n[i].x[0]` is: independent iterations are accepted, and a reference bound to
// another iteration's element, or to one element for all, is refused with the dependence.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark|note}}:"
// REQUIRES: compiler
struct Node {
  double x[2];
  int kind;
};
static double score(const Node &n, int k) { return k ? n.x[0] : n.x[1] * 2; }

void relax(Node *n, double *o, int m, double f) {
  // CHECK: {{.*}}element-reference-members.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 5); in: n; out: n, o
  [[cluster::gpu_parallel]]
  for (int i = 0; i < m; ++i) {
    Node &p = n[i];
    p.x[0] += f * p.x[1];
    o[i] = score(n[i], p.kind);
  }
}

void previous(Node *n, int m) {
  // CHECK: {{.*}}element-reference-members.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'n' is written in one iteration and read in another (dependence distance 1)
  // CHECK: {{.*}}element-reference-members.cpp:[[@LINE+5]]:14: note: conflicting read here
  [[cluster::gpu_parallel]]
  for (int i = 1; i < m; ++i) {
    Node &p = n[i];
    Node &q = n[i - 1];
    p.x[0] = q.x[1];
  }
}

void oneForAll(Node *n, int m) {
  // CHECK: {{.*}}element-reference-members.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'n' is written in one iteration and written in another: every iteration touches the same element
  // CHECK: {{.*}}element-reference-members.cpp:[[@LINE+4]]:5: note: written here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < m; ++i) {
    Node &p = n[0];
    p.x[0] += i;
  }
}

// A callee that writes through its reference parameter into another element's array.
static void spill(Node &a, Node &b) { b.x[0] = a.x[1]; }
void throughCallee(Node *n, int m) {
  // CHECK: {{.*}}element-reference-members.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'n' is written in one iteration and read in another (dependence distance 1)
  // CHECK: {{.*}}element-reference-members.cpp:[[@LINE-3]]:48: note: conflicting read here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < m - 1; ++i)
    spill(n[i + 1], n[i]);
}
