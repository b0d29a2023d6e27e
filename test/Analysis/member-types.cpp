// Member types of classes in loop bodies: the kernel declares each in a struct of its own
// (`struct __clx_m4Mesh4Node { struct Node; };`), apart from its class, and spells every written
// name of it and of its enumerators through that struct. The forms it cannot declare keep the
// loop on CPU devices, each with the note that says why.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark|note}}:"
// REQUIRES: compiler
struct Mesh {
  struct Node { double w; };
  enum Kind { Fixed, Free };
  typedef double Real;
  double scale;
};

void accepted(Mesh::Node *r, Mesh::Kind *k, double *out, int n) {
  // CHECK: {{.*}}member-types.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 2); in: r, k; out: out
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    Mesh::Real w = r[i].w;
    out[i] = k[i] == Mesh::Free ? w : 0;
  }
}

// The class itself beside its member type: the class's definition holds a typedef of the
// kernel's own member type in its place (kernels-nvrtc.test compiles it).
void both(Mesh *m, Mesh::Node *r, double *out, int n) {
  // CHECK: {{.*}}member-types.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: r, m; out: out
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    out[i] = r[i].w * m[i].scale;
}

// A class template's member type.
template <typename T> struct Box {
  struct In { T v; };
};
void ofTemplate(Box<double>::In *b, double *out, int n) {
  // CHECK: {{.*}}member-types.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: b; out: out
  // CHECK: {{.*}}member-types.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the loop uses type 'Box<double>::In', a member of an instance of class template 'Box', which the kernel cannot declare
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    out[i] = b[i].v;
}

// A local class's member type.
void ofLocal(double *out, int n) {
  struct Local {
    struct In { double v; };
  };
  Local::In tmp[4] = {{1}, {2}, {3}, {4}};
  // CHECK: {{.*}}member-types.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: tmp; out: out
  // CHECK: {{.*}}member-types.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the loop uses type 'Local::In', which is not declared at file scope
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    out[i] = tmp[i % 4].v;
}

// A member type named inside a macro.
#define NODE Mesh::Node
void inMacro(Mesh::Node *r, double *out, int n) {
  // CHECK: {{.*}}member-types.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 2); in: r; out: out
  // CHECK: {{.*}}member-types.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the code names type 'Mesh::Node' of a class inside a macro, where the kernel cannot spell it
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    NODE q = r[i];
    out[i] = q.w;
  }
}

// A member type whose text names a static member of its class.
struct Table {
  static const int N = 4;
  struct Row { double v[N]; };
};
void staticBound(Table::Row *t, double *out, int n) {
  // CHECK: {{.*}}member-types.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: t; out: out
  // CHECK: {{.*}}member-types.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: a type the loop uses names 'Table::N', a static member of a class, which the kernel does not declare
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    out[i] = t[i].v[0];
}

// A static member of a class the kernel carries is in the class's text.
struct Sized {
  static const int N = 3;
  double v[N];
};
void staticOfCarried(Sized *z, double *out, int n) {
  // CHECK: {{.*}}member-types.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: z; out: out
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    out[i] = z[i].v[Sized::N - 1];
}

// A member typedef that defines an unnamed record.
struct Holder {
  typedef struct { double v; } Item;
};
void unnamedRecord(Holder::Item *h, double *out, int n) {
  // CHECK: {{.*}}member-types.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: h; out: out
  // CHECK: {{.*}}member-types.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the loop uses type 'Holder::Item', a member typedef that defines an unnamed record, which the kernel cannot declare
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    out[i] = h[i].v;
}

// Typedefs written with a system header's member typedef, which the kernel cannot name: declared
// with the scalar they stand for (`typedef unsigned long Index;`), at file scope or in a class;
// one that stands for a system header's class keeps the loop on CPU devices.
#include <cstdlib>
#include <vector>
typedef std::vector<double>::size_type Index;
struct Store {
  typedef std::vector<double>::const_reference Ref;
  typedef std::ldiv_t Quotient;
};
void systemTypedefs(const double *in, double *out, int n) {
  // CHECK: {{.*}}member-types.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); in: in; out: out
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    Index k = i;
    Store::Ref r = in[k];
    out[i] = r;
  }
}
void systemClassTypedef(double *out, int n) {
  // CHECK: {{.*}}member-types.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); out: out
  // CHECK: {{.*}}member-types.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the loop uses type 'std::ldiv_t' from a system header
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    Store::Quotient q;
    q.quot = i;
    out[i] = q.quot;
  }
}
struct Pairs {
  typedef std::vector<std::pair<int, int>>::value_type Entry;
};
void systemMemberClassTypedef(double *out, int n) {
  // CHECK: {{.*}}member-types.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); out: out
  // CHECK: {{.*}}member-types.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the loop uses type 'Pairs::Entry', written with 'std::vector<std::pair<int, int>>::value_type' of a system header, which the kernel cannot name
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    Pairs::Entry e;
    e.first = i;
    out[i] = e.first;
  }
}

// A method defined in its class that takes the class's member type, and one that takes a type
// nothing else uses: the class's text moves after the types its methods need.
struct Codec {
  struct Word { int bits; };
  static int encode(Word w) { return w.bits * 3 + 1; }
};
struct Weight { double w; };
struct Cell {
  double v;
  double scaled(Weight h) const { return v * h.w; }
};
void staticMethod(int *out, int n) {
  // CHECK: {{.*}}member-types.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); out: out
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    out[i] = Codec::encode(Codec::Word{i});
}
void laterType(Cell *c, double *out, int n) {
  // CHECK: {{.*}}member-types.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); in: c; out: out
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    out[i] = c[i].scaled(Weight{2.0});
}

// One that names a type holding its class by value: the class cannot move after it.
struct Later;
struct Early {
  double v;
  double peek(const Later *l) const { return l ? 0.0 : v; }
};
struct Later {
  Early e;
};
void cannotMove(Early *a, double *out, int n) {
  // CHECK: {{.*}}member-types.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); in: a; out: out
  // CHECK: {{.*}}member-types.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: 'Early::peek' uses type 'Later', which the kernel would declare after it
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    out[i] = a[i].peek(nullptr);
}
