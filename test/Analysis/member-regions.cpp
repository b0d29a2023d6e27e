// Regions reached through fields of a variable of the loop's function (`SD.p[i]`, `S->p[i]`,
// `o.inner.p[i]`, a global's `g.p[i]`): the kernel takes each chain as a parameter of its own,
// which its text becomes (`SD_p[i]`), since the variable's copy on the device holds the host's
// pointer. The variable's other uses must read scalar fields; a use of the whole, or a chain
// written in a macro, keeps the loop on CPU devices. Golden kernels:
// test/Rewrite/Inputs/golden/analysis-member-regions. Run on GPUs: EndToEnd/member-regions.test.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark|note}}:"
// REQUIRES: compiler
struct Sim {
  double *p;
  int n;
  double k;
};
struct Outer {
  Sim inner;
  double bias;
};
struct Bc {
  double *b_c;
};
struct Cc {
  double *c;
};
Sim g;
#define FIELD(s) s.p

void local(Sim SD, int n) {
  // CHECK: {{.*}}member-regions.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); out: SD.p
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    SD.p[i] = SD.k * i + SD.n;
}

void pointer(Sim *S, int n) {
  // CHECK: {{.*}}member-regions.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: S->p, S; out: S->p
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    S->p[i] = S->p[i] * S->k;
}

void nested(Outer o, int n) {
  // CHECK: {{.*}}member-regions.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: o.inner.p; out: o.inner.p
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    o.inner.p[i] += o.bias;
}

void global(int n) {
  // CHECK: {{.*}}member-regions.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); out: g.p
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    g.p[i] = i;
}

// A pointer taken from the chain is the same region.
void alias(Sim SD, int n) {
  // CHECK: {{.*}}member-regions.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 2); out: SD.p
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
    double *q = SD.p;
    q[i] = SD.k * i;
  }
}

// Two chains whose parameters would have one name: the second gets another.
void clash(Bc a, Cc a_b, int n) {
  // CHECK: {{.*}}member-regions.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: a_b.c; out: a.b_c
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a.b_c[i] = a_b.c[i] + 1;
}

void macro(Sim SD, int n) {
  // CHECK: {{.*}}member-regions.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); out: SD.p
  // CHECK: {{.*}}member-regions.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: region 'SD.p' is written in a macro, where the kernel cannot name it as its parameter
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    FIELD(SD)[i] = i;
}

// The variable's address would carry the host's pointer into the kernel.
void address(Sim SD, int n) {
  // CHECK: {{.*}}member-regions.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 2); out: SD.p; checked against writes through pointers: SD
  // CHECK: {{.*}}member-regions.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: 'SD' is used at {{.*}}member-regions.cpp:[[@LINE+3]]:16 other than by reading a scalar field, and the kernel takes its member 'SD.p' apart, as a region
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
    Sim *ps = &SD;
    SD.p[i] = ps->k;
  }
}

// Lambdas: one with a capture default reaches the parameter; `[]` and `[&SD]` cannot.
void lambdas(Sim SD, int n) {
  // CHECK: {{.*}}member-regions.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 4); out: SD.p
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
    auto set = [&](int j) { SD.p[j] = j + SD.n; };
    set(i);
  }
  // CHECK: {{.*}}member-regions.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 4); out: SD.p
  // CHECK: {{.*}}member-regions.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: a lambda without a capture default uses region 'SD.p', which the kernel passes as a parameter of its own
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
    auto set = [&SD](int j) { SD.p[j] = j; };
    set(i);
  }
  // CHECK: {{.*}}member-regions.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 4); out: g.p
  // CHECK: {{.*}}member-regions.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: a lambda without a capture default uses region 'g.p', which the kernel passes as a parameter of its own
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
    auto set = [](int j) { g.p[j] = j; };
    set(i);
  }
}

// Chains from the object of the member function the loop is in (`g.p[i]`, `this->o.inner.p[i]`,
// `s->p[i]`, a base's field): the first field is the root. `this->p` alone is the parameter `p`
// already; from two fields on, the chain is a parameter of its own (`g_p`), named apart from the
// variables and fields the body names.
struct Part {
  Sim g;
};
struct Obj : Part {
  Outer o;
  Sim *s;
  int n;
  double g_p; // the chain `g.p` becomes `g_p_2`
  void implicitChain() {
    // CHECK: {{.*}}member-regions.cpp:[[@LINE+2]]:5: remark: loop parallelized across devices: schedule default, level 1 (score 1); out: this->g.p; checked against writes through pointers: this->g, this->g_p
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; i++)
      g.p[i] = g.k * i + g.n + g_p;
  }
  void explicitNested() {
    // CHECK: {{.*}}member-regions.cpp:[[@LINE+2]]:5: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: this->o.inner.p; out: this->o.inner.p; checked against writes through pointers: this->o
    [[cluster::gpu_parallel]]
    for (int i = 0; i < this->n; i++)
      this->o.inner.p[i] += this->o.bias + o.inner.k;
  }
  void pointerMember() {
    // CHECK: {{.*}}member-regions.cpp:[[@LINE+2]]:5: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: this->s->p, this->s; out: this->s->p
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; i++)
      s->p[i] = s->p[i] * s->k + 1;
  }
  // The field's copy would carry the host's pointer into the kernel.
  void copied() {
    // CHECK: {{.*}}member-regions.cpp:[[@LINE+3]]:5: remark: loop parallelized across devices: schedule default, level 1 (score 2); out: this->g.p; checked against writes through pointers: this->g
    // CHECK: {{.*}}member-regions.cpp:[[@LINE+2]]:5: note: no GPU form, the loop runs on CPU devices: 'this->g' is used at {{.*}}member-regions.cpp:[[@LINE+3]]:15 other than by reading a scalar field, and the kernel takes its member 'this->g.p' apart, as a region
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; i++) {
      Sim c = g;
      g.p[i] = c.k + i;
    }
  }
  // A variable the body names after the chain keeps its name; the chain's parameter takes
  // another.
  void named(double o_inner_p) {
    // CHECK: {{.*}}member-regions.cpp:[[@LINE+2]]:5: remark: loop parallelized across devices: schedule default, level 1 (score 1); out: this->o.inner.p
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; i++)
      o.inner.p[i] = o_inner_p + i;
  }
  // `[&]` in a member function captures `this`, which a kernel does not have.
  void lambda() {
    // CHECK: {{.*}}member-regions.cpp:[[@LINE+3]]:5: remark: loop parallelized across devices: schedule default, level 1 (score 4); out: this->g.p
    // CHECK: {{.*}}member-regions.cpp:[[@LINE+2]]:5: note: no GPU form, the loop runs on CPU devices: the loop uses a lambda that captures 'this'
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; i++) {
      auto set = [&](int j) { g.p[j] = j; };
      set(i);
    }
  }
};

// Accessors (LULESH's `Real_t &x(Index_t idx) { return m_x[idx]; }`): a call on a variable or a
// chain of its fields is the element of the field's region, which the kernel takes as a parameter
// of its own (`domain_m_x[(int)(i)]`, the argument converted as the call converts it), private
// fields included. A type named only in a cast (`Real_t(0.0)`) is declared in the kernel.
#include <vector>
typedef double Real_t;
typedef int Index_t;
typedef long Wide;   // named in the kernel by `sizeof` only
typedef short Narrow; // and by `T()` only
class Domain {
public:
  Real_t &x(Index_t idx) { return m_x[idx]; }
  const Real_t &xc(Index_t idx) const { return m_x[idx]; }
  Real_t xd(Index_t idx) { return m_xd[idx]; }
  Real_t *raw(Index_t idx) { return &m_x[idx]; }
  float narrowed(Index_t idx) { return m_x[idx]; }
  Real_t &p(Index_t idx) { return m_p[idx]; }
  Index_t numNode() const { return m_numNode; }

private:
  std::vector<Real_t> m_x, m_xd;
  Real_t *m_p;
  Index_t m_numNode;
};
#define XOF(d, i) d.x(i)

void accessors(Domain &domain, Domain *dp, int n, Real_t dt) {
  // CHECK: {{.*}}member-regions.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 7); in: domain.m_x, domain.m_xd; out: domain.m_x
  [[cluster::gpu_parallel]]
  for (Index_t i = 0; i < n; ++i)
    domain.x(i) += domain.xd(i) * dt + Real_t(0.0) + domain.xc(i) + sizeof(Wide) + Narrow();
  // CHECK: {{.*}}member-regions.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 5); in: dp->m_p; out: dp->m_p
  [[cluster::gpu_parallel]]
  for (Index_t i = 0; i < n; ++i)
    dp->p(i) = dp->p(i) * 2;
  // Not accessors: a pointer to the element (which the analysis does not follow), a conversion
  // of it. The kernel would carry the class, which holds vectors.
  // CHECK: {{.*}}member-regions.cpp:[[@LINE+3]]:3: warning: loop not parallelized: writes memory through '*domain.raw(i)', which the analysis cannot follow
  // CHECK: {{.*}}member-regions.cpp:[[@LINE+3]]:5: note: write here
  [[cluster::gpu_parallel]]
  for (Index_t i = 0; i < n; ++i)
    *domain.raw(i) = 1;
  // CHECK: {{.*}}member-regions.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 5); in: domain.m_x; out: domain.m_x
  // CHECK: {{.*}}member-regions.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the loop uses type 'std::vector<Real_t>' from a system header
  [[cluster::gpu_parallel]]
  for (Index_t i = 0; i < n; ++i)
    domain.x(i) = domain.narrowed(i);
  // The object used otherwise: its copy on the device would hold the host's vectors.
  // CHECK: {{.*}}member-regions.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 5); out: domain.m_x
  // CHECK: {{.*}}member-regions.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the loop uses type 'std::vector<Real_t>' from a system header
  [[cluster::gpu_parallel]]
  for (Index_t i = 0; i < n; ++i)
    domain.x(i) = domain.numNode();
  // CHECK: {{.*}}member-regions.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); out: domain.m_x
  // CHECK: {{.*}}member-regions.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: region 'domain.m_x' is reached through an accessor in a macro, where the kernel cannot name it as its parameter
  [[cluster::gpu_parallel]]
  for (Index_t i = 0; i < n; ++i)
    XOF(domain, i) = 0;
}
