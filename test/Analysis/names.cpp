// Design rule 7: generated code names only what the body names, where it means the same entity.
// Namespace members and static data members are spelled fully qualified, so a local of the same
// name at the loop cannot capture the run-time checks; private members reached through inlined
// accessors, from a function that may not name them, refuse the loop instead of breaking the
// build; a preprocessor conditional around the attribute stays balanced.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark}}:"
// RUN: %clustrix_cxx -c %s -o /dev/null
// RUN: %clustrix-rewrite --remarks=off %s -o %t.cpp -- -std=c++17
// RUN: %cxx -std=c++17 -fsyntax-only -I%clustrix_rt_include %t.cpp
// REQUIRES: compiler
#include <vector>

namespace cfg {
double limit = 2.0;
double *out;
int n = 100;
} // namespace cfg
struct Config {
  static double scale;
};
double Config::scale = 3.0;
double in[100];

void shadowed() {
  double limit = 5.0, scale = 7.0; // same names as cfg::limit and Config::scale
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}names.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: in; out: ::cfg::out; checked against writes through pointers: ::cfg::limit, ::Config::scale
  for (int i = 0; i < cfg::n; ++i)
    cfg::out[i] = in[i] * cfg::limit * Config::scale;
  (void)limit;
  (void)scale;
}

namespace work {
double in[100]; // hides ::in inside work
void elsewhere() {
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}names.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: ::in; out: ::cfg::out; checked against writes through pointers: ::cfg::limit
  for (int i = 0; i < 100; ++i)
    cfg::out[i] = ::in[i] * cfg::limit;
}
} // namespace work

class Domain {
public:
  explicit Domain(int n) : m_p(n), m_q(n) {}
  double &p(int i) { return m_p[i]; }
  double &q(int i) { return m_q[i]; }
  int size() const { return static_cast<int>(m_p.size()); }
  void step();
  friend void befriended(Domain &d);

private:
  std::vector<double> m_p, m_q;
};

// A free function may not name m_p and m_q: generated code reaches them through pointers to
// members, obtained by an explicit instantiation declared before the function (where access is
// not checked), and shows them as the members.
void freeStep(Domain &d) {
  int n = d.size();
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}names.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 5); in: d.m_q; out: d.m_p
  for (int i = 0; i < n; ++i)
    d.p(i) = d.q(i) * 2.0 + 1.0;
}

// The declarations use reserved names only: the user's macros `M` and `type` do not reach them.
#define M 40
#define type int
void freeStepMacros(Domain &d) {
  int n = d.size();
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}names.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 5); in: d.m_q; out: d.m_p
  for (int i = 0; i < n; ++i)
    d.p(i) = d.q(i) * 2.0 + M;
}
#undef M
#undef type

// Where no such declaration can be written, the loop is refused and the build still succeeds:
// the loop's function is defined inside another class, or the member's type is private.
struct Other {
  void run(Domain &d) {
    int n = d.size();
    [[cluster::gpu_parallel]]
    // CHECK: {{.*}}names.cpp:[[@LINE+1]]:5: warning: loop not parallelized: 'm_p' is a private member of 'Domain', which code generated in function 'run' cannot name, and the function that holds the loop is not at namespace scope
    for (int i = 0; i < n; ++i)
      d.p(i) = d.q(i) * 2.0 + 1.0;
    // CHECK: {{.*}}names.cpp:47:29: note: used here
    // CHECK: {{.*}}names.cpp:48:29: note: also: 'm_q' is a private member of 'Domain', which code generated in function 'run' cannot name, and the function that holds the loop is not at namespace scope
  }
};
class Mesh {
  struct Cell {
    double v;
  };
  Cell *m_cells = nullptr;

public:
  double &v(int i) { return m_cells[i].v; }
};
void scale(Mesh &m, int n) {
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}names.cpp:[[@LINE+1]]:3: warning: loop not parallelized: 'm_cells' is a private member of 'Mesh', which code generated in function 'scale' cannot name, and its type 'Cell' is not public
  for (int i = 0; i < n; ++i)
    m.v(i) *= 2;
  // CHECK: {{.*}}names.cpp:[[@LINE-7]]:29: note: used here
}

// A member function and a friend may: accepted.
void Domain::step() {
  int n = size();
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}names.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 5); in: this->m_q; out: this->m_p
  for (int i = 0; i < n; ++i)
    p(i) = q(i) * 2.0 + 1.0;
}
void befriended(Domain &d) {
  int n = d.size();
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}names.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 5); in: d.m_q; out: d.m_p
  for (int i = 0; i < n; ++i)
    d.p(i) = d.q(i) * 2.0 + 1.0;
}

// A lambda made before a block that hides the variable it reads: generated code at the loop
// would name the inner 'k'.
void hiddenLocal(double *a) {
  int k = 3;
  auto get = [&] { return k; };
  {
    int k = 9;
    [[cluster::gpu_parallel]]
    // CHECK: {{.*}}names.cpp:[[@LINE+1]]:5: warning: loop not parallelized: 'k' is hidden at the loop by another declaration of that name
    for (int i = 0; i < 100; ++i)
      a[i] = get();
    // CHECK: {{.*}}names.cpp:[[@LINE-7]]:27: note: used here
    (void)k;
  }
}

// The attribute inside a conditional, as `#pragma omp parallel for` converted in place.
void conditional(double *a) {
#ifdef _OPENMP
#pragma omp parallel for
#else
  [[cluster::gpu_parallel]]
#endif
  // CHECK: {{.*}}names.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); out: a
  for (int i = 0; i < 100; ++i)
    a[i] = i;
}

// A conditional that the loop's text opens and closes elsewhere: replacing the loop would drop
// its '#else' and '#endif'.
void unbalanced(double *a, double *b) {
  [[cluster::gpu_parallel]]
#ifdef NOT_DEFINED_ANYWHERE
  for (int i = 0; i < 100; ++i) {
    b[i] = i;
#else
  // CHECK: {{.*}}names.cpp:[[@LINE+1]]:3: warning: loop not parallelized: the loop's text holds '#endif' of a conditional opened before the loop, which replacing the loop would leave unbalanced
  for (int i = 0; i < 100; ++i) {
    a[i] = i;
#endif
  // CHECK: {{.*}}names.cpp:[[@LINE-1]]:1: note: directive here
  }
}
