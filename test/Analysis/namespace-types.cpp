// Types of namespaces in loop bodies: the kernel declares each inside its namespace and spells
// it with its whole qualifier (`::geo::Cell`), however the source wrote it. The forms the
// kernel cannot spell keep the loop on CPU devices, each with the note that says why.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark|note}}:"
// REQUIRES: compiler
namespace geo {
struct Cell { double v; };
enum Mode { Fast, Slow };
struct Grid {
  struct Row { double w; }; // a class's member type
};
} // namespace geo
namespace {
struct Hidden { double v; };
} // namespace

#define CELL geo::Cell
#define FAST geo::Fast

void accepted(geo::Cell *c, double *out, int n) {
  // CHECK: {{.*}}namespace-types.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 2); in: c; out: out
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    geo::Cell x = c[i];
    out[i] = x.v * (geo::Fast == 0 ? 2 : 1);
  }
}

void inMacro(geo::Cell *c, double *out, int n) {
  // CHECK: {{.*}}namespace-types.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 2); in: c; out: out
  // CHECK: {{.*}}namespace-types.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the code names type 'geo::Cell' of a namespace inside a macro, where the kernel cannot spell it
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    CELL x = c[i];
    out[i] = x.v;
  }
}

void enumeratorInMacro(double *out, int n) {
  // CHECK: {{.*}}namespace-types.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); out: out
  // CHECK: {{.*}}namespace-types.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the code names enumerator 'geo::Fast' of a namespace inside a macro, where the kernel cannot spell it
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    out[i] = FAST == geo::Slow ? 1.0 : 2.0;
}

// A type of an unnamed namespace is declared in one in the kernel and spelled `::Hidden`, which
// finds it; where another `Dup` stands outside the unnamed namespace, `::Dup` would find that
// one, and the loop keeps its note.
void unnamed(Hidden *h, double *out, int n) {
  // CHECK: {{.*}}namespace-types.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: h; out: out
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    out[i] = h[i].v;
}

struct Dup { int x; };
namespace {
struct Dup { double v; };
void twin(Dup *d, double *out, int n) {
  // CHECK: {{.*}}namespace-types.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: d; out: out
  // CHECK: {{.*}}namespace-types.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the loop uses type 'Dup' of an unnamed namespace, and another declaration has its name outside it, which the kernel's qualified name would find instead
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    out[i] = d[i].v;
}
} // namespace

// A namespace's class's member type: declared in a struct of its own in the namespace
// (member-types.cpp).
void member(geo::Grid::Row *r, double *out, int n) {
  // CHECK: {{.*}}namespace-types.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: r; out: out
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    out[i] = r[i].w;
}

// Class templates: an instance is carried as its template, declared once; a specialization
// written by hand, or a template with default arguments, is not.
template <typename T> struct Plain { T v; };
template <typename T = int> struct Defaulted { T v; };
template <typename T> struct Special { T v; };
template <> struct Special<int> { int w; };

void templates(Plain<double> *p, Plain<int> *q, Defaulted<> *d, Special<int> *s, double *out,
               int n) {
  // CHECK: {{.*}}namespace-types.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: p, q; out: out
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    out[i] = p[i].v + q[i].v;
  // CHECK: {{.*}}namespace-types.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: d; out: out
  // CHECK: {{.*}}namespace-types.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the loop uses type 'Defaulted<>', an instance of a class template that is specialized or has default arguments, which the kernel cannot declare
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    out[i] = d[i].v;
  // CHECK: {{.*}}namespace-types.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: s; out: out
  // CHECK: {{.*}}namespace-types.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the loop uses type 'Special<int>', an instance of a class template that is specialized or has default arguments, which the kernel cannot declare
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    out[i] = s[i].w;
}

// An alias template is not declared in the kernel; an alias of one instance is.
template <typename T> using Alias = Plain<T>;
using PlainD = Plain<double>;
void aliases(Plain<double> *p, double *out, int n) {
  // CHECK: {{.*}}namespace-types.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 2); in: p; out: out
  // CHECK: {{.*}}namespace-types.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the code names alias template 'Alias', which the kernel does not declare
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    Alias<double> a = p[i];
    out[i] = a.v;
  }
  // CHECK: {{.*}}namespace-types.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 2); in: p; out: out
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    PlainD a = p[i];
    out[i] = a.v;
  }
}
