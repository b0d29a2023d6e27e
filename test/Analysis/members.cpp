// Members and accessors as a C++ code base writes them (issue 12, items 6 to 8): an accessor
// member function returning a reference (or a value) resolves to the member it returns, with
// that member's extent; struct fields in subscripts are symbols; members of by-value structs
// are region roots; extent() takes a member path; a const member function in a bound is no side
// effect. The nearest unsafe forms are refused.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark}}:"
// REQUIRES: compiler
#include <vector>

struct Domain {
  std::vector<double> m_x, m_y;
  std::vector<int> m_regElemSize;
  int m_count = 0;
  double &x(int i) { return m_x[i]; }
  const double &y(int i) const { return m_y[i]; }
  double yv(int i) const { return m_y[i]; }
  double &next(int i) { return m_x[i + 1]; }
  int regElemSize(int r) const { return m_regElemSize[r]; }
  void count() { ++m_count; }
};

void accessors(Domain &domain, int n) {
  // Accessors on the object are its fields' elements, kernel parameters of their own
  // (member-regions.cpp).
  // CHECK: {{.*}}members.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 5); in: domain.m_y; out: domain.m_x
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    domain.x(i) = domain.y(i) * 2;
  // CHECK: {{.*}}members.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 5); in: domain.m_y; out: domain.m_x
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    domain.x(i) = domain.yv(i) + 1;
  // CHECK: {{.*}}members.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'domain.m_x' is written in one iteration and read in another (dependence distance 1)
  // CHECK: {{.*}}members.cpp:[[@LINE-20]]:29: note: conflicting read here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    domain.next(i) = domain.x(i);
  // CHECK: {{.*}}members.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'domain' carries a value from one iteration to the next
  // CHECK: {{.*}}members.cpp:[[@LINE-20]]:20: note: written here and read by a later iteration
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    domain.x(i) = 0;
    domain.count();
  }
}

void constBound(Domain &domain, int r, double *a) {
  // CHECK: {{.*}}members.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); out: a
  [[cluster::gpu_parallel]]
  for (int i = 0; i < domain.regElemSize(r); ++i)
    a[i] = i;
}

struct SimData {
  int *index_grid;
  double *energy;
};
struct Inputs {
  int n_isotopes;
};
void memberSubscripts(SimData SD, Inputs in, double *out, int e) {
  // CHECK: {{.*}}members.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: SD.index_grid; out: out
  [[cluster::gpu_parallel]]
  for (int i = 0; i < in.n_isotopes; ++i)
    out[i] = SD.index_grid[e * in.n_isotopes + i];
  // CHECK: {{.*}}members.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'SD.index_grid' is written in one iteration and read in another (dependence distance 1)
  // CHECK: {{.*}}members.cpp:[[@LINE+3]]:44: note: conflicting read here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < in.n_isotopes; ++i)
    SD.index_grid[e * in.n_isotopes + i] = SD.index_grid[e * in.n_isotopes + i + 1];
}

void memberExtent(SimData SD, double *out, int n) {
  // CHECK: {{.*}}members.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: SD.energy; out: out
  [[cluster::gpu_parallel(extent(SD.energy, n))]]
  for (int i = 0; i < n; ++i)
    out[i] = SD.energy[(i * 7) % n];
  // Without the clause: the heap block that holds SD.energy, at run time.
  // CHECK: {{.*}}members.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: SD.energy; out: out
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    out[i] = SD.energy[(i * 7) % n];
}

// Member functions called on an element of an array (`p[i].f()`): `this` is that element, and
// the members the function uses are fields of it, so other fields of other elements are no
// dependence. The same field of another element is, through a call or through `this[1]`; a
// union's members share storage.
struct Body {
  double x, fx;
  double arr[4];
  void clear() { fx = 0.0; }
  double getf() const { return fx; }
  void setf(double v) { fx = v; }
  void fromNext() { fx = this[1].fx; }
  void fromNextX() { fx = this[1].x; }
  void chain() {
    clear();
    setf(x);
  }
};
union Cell {
  double a, b;
  void seta(double v) { a = v; }
};
void elementMethods(int n, Body *p, Cell *u) {
  // CHECK: {{.*}}members.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); in: p; out: p
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n - 1; i++)
    p[i].setf(p[i + 1].x);
  // CHECK: {{.*}}members.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); in: p; out: p
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n - 1; i++)
    p[i].fromNextX();
  // CHECK: {{.*}}members.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 8); in: p; out: p
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    p[i].chain();
  // CHECK: {{.*}}members.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'p' is written in one iteration and read in another (dependence distance 1)
  // CHECK: {{.*}}members.cpp:[[@LINE-27]]:32: note: conflicting read here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n - 1; i++)
    p[i].setf(p[i + 1].getf());
  // CHECK: {{.*}}members.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'p' is written in one iteration and read in another (dependence distance 1)
  // CHECK: {{.*}}members.cpp:[[@LINE-30]]:26: note: conflicting read here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n - 1; i++)
    p[i].fromNext();
  // CHECK: {{.*}}members.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'u' is written in one iteration and read in another (dependence distance 1)
  // CHECK: {{.*}}members.cpp:[[@LINE+3]]:15: note: conflicting read here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n - 1; i++)
    u[i].seta(u[i + 1].b);
  // A reference bound to an element, and a member read through `p[0]`: the element's method
  // writes the field that another iteration reads.
  // CHECK: {{.*}}members.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'p' is written in one iteration and read in another: iterations with different strides reach the same element
  // CHECK: {{.*}}members.cpp:[[@LINE-44]]:32: note: conflicting read here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
    Body &b = p[i];
    b.clear();
    b.x = p[0].getf();
  }
}

// An array member of an element, indexed (`x[i].v[k]`, or `v[k]` in a member function called on
// `x[i]`): the whole member of that element, so other fields are no dependence, the same member
// of another element is (whatever the indices), and a union's members share storage.
struct Cellv {
  int v[4];
  int w;
  int get(int k) const { return v[k]; }
};
struct Inner {
  int m, n;
};
struct Outer {
  Inner in[3];
};
union Packed {
  int v[2];
  int w;
};
void elementArrays(int n, Cellv *x, Outer *o, Packed *pk) {
  // CHECK: {{.*}}members.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: x; out: x
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n - 1; i++)
    x[i].w = x[i + 1].v[2];
  // CHECK: {{.*}}members.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); in: x; out: x
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n - 1; i++)
    x[i].w = x[i + 1].get(i % 4);
  // CHECK: {{.*}}members.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: o; out: o
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n - 1; i++)
    o[i].in[1].m = o[i + 1].in[2].n;
  // CHECK: {{.*}}members.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'x' is written in one iteration and read in another (dependence distance 1)
  // CHECK: {{.*}}members.cpp:[[@LINE+3]]:17: note: conflicting read here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n - 1; i++)
    x[i].v[1] = x[i + 1].v[2];
  // CHECK: {{.*}}members.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'o' is written in one iteration and read in another (dependence distance 1)
  // CHECK: {{.*}}members.cpp:[[@LINE+3]]:20: note: conflicting read here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n - 1; i++)
    o[i].in[1].m = o[i + 1].in[2].m;
  // CHECK: {{.*}}members.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'pk' is written in one iteration and read in another (dependence distance 1)
  // CHECK: {{.*}}members.cpp:[[@LINE+3]]:15: note: conflicting read here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n - 1; i++)
    pk[i].w = pk[i + 1].v[1];
}
