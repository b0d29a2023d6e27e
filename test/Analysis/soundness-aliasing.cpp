// Whole objects that may alias, and writes through locals that only look private (the
// soundness classes 1 and 2 of docs/diagnostics.md#alias). Roots reached through references,
// pointers, `this` and views may overlap: such loops are accepted with their regions marked
// may-alias, and the runtime compares their address ranges before going wide
// (test/EndToEnd/soundness.test runs them with aliasing arguments). A pointer, reference,
// structured binding or lambda capture declared in the body names shared memory, and its uses
// are that memory's uses.
// RUN: %clustrix_cxx -std=c++20 -fsyntax-only %s -fplugin-arg-clustrix-report=%t.json 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark}}:"
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// REQUIRES: compiler
#include <span>

struct S {
  double arr[64];
};
struct View {
  double *p;
};
struct P2 {
  double x, y;
};

// Two reference parameters that may name the same struct: both regions may alias.
void shift(S &s, const S &t) {
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: t.arr; out: s.arr
  [[cluster::gpu_parallel]]
  for (int i = 0; i < 63; ++i)
    s.arr[i] = t.arr[i + 1];
}

// A member function reading another object of its class: `this` and `other` may be one.
struct G {
  double arr[64];
  void f(const G &other) {
    // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+2]]:5: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: other.arr; out: this->arr
    [[cluster::gpu_parallel]]
    for (int i = 0; i < 63; ++i)
      arr[i] = other.arr[i + 1];
  }
};

// Views passed by value show someone else's elements.
void spans(std::span<double> a, std::span<const double> b, int n) {
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: b; out: a
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    a[i] = b[i] * 2;
}

// A view built in the body: what it shows is not followed.
void localSpan(double *p, int n) {
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+4]]:3: warning: loop not parallelized: writes memory through 'v[i + 1]', which the analysis cannot follow
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+5]]:5: note: write here
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+4]]:16: note: also: reads memory through 'v[i]', whose extent the analysis cannot determine
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    std::span<double> v(p, n + 1);
    v[i + 1] = v[i] + 1;
  }
}

// Row pointers: the rows' length comes from the type, so the runtime compares exact ranges.
void rows(double (*a)[8], double (*b)[8], int n) {
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 8); in: b; out: a
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 8; ++j)
      a[i][j] = b[i][j] + 1;
}

// A struct declared in the body that holds a pointer to shared memory: v.p is a.
void structPointer(double *a, int n) {
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'a' is written in one iteration and read in another (dependence distance 1)
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+4]]:18: note: conflicting read here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    View v{a};
    v.p[i + 1] = v.p[i] * 2;
  }
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 2); in: a; out: a
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    View v{a};
    v.p[i] = v.p[i] * 2;
  }
}

// A struct holding a pointer whose value the walk cannot follow (assigned twice).
void structPointerRewritten(double *a, double *b, int n) {
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+3]]:3: warning: loop not parallelized: writes memory through 'v.p[i]', which the analysis cannot follow
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+6]]:5: note: write here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    View v{a};
    if (i % 2)
      v.p = b;
    v.p[i] = 1;
  }
}

// A reference to a shared struct is the struct.
void referenceInBody(S &s) {
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 's.arr' is written in one iteration and read in another (dependence distance 1)
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+4]]:20: note: conflicting read here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < 63; ++i) {
    S &r = s;
    r.arr[i + 1] = r.arr[i];
  }
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 2); in: s.arr; out: s.arr
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: region 's.arr' is not named in the loop body
  [[cluster::gpu_parallel]]
  for (int i = 0; i < 63; ++i) {
    S &r = s;
    r.arr[i] = r.arr[i] + 1;
  }
}

// Structured bindings to shared elements are parts of those elements.
void bindings(P2 *pts, int n) {
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'pts' is written in one iteration and read in another (dependence distance 1)
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+4]]:9: note: conflicting read here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    auto &[x, y] = pts[i + 1];
    x = pts[i].y;
  }
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 2); in: pts; out: pts
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    auto &[x, y] = pts[i];
    x = y + i;
  }
}

// Structured bindings declared before the loop name the shared object.
void bindingsBefore(P2 &pt, double *out, int n) {
  auto &[x, y] = pt;
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+3]]:3: warning: loop not parallelized: '[x, y]' is declared outside the loop and written by every iteration; declare it inside the loop body
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+3]]:5: note: written here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    x = i;
    out[i] = i;
  }
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); out: out; checked against writes through pointers: x, y
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    out[i] = x + y * i;
}

// Lambdas whose init-captures hold references use what they refer to.
void initCaptures(double *a, int n) {
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'a' is written in one iteration and read in another (dependence distance 1)
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+3]]:45: note: conflicting read here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    auto f = [&arr = a, i]() { arr[i + 1] = arr[i]; };
    f();
  }
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 4); in: a; out: a
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    auto f = [&arr = a, i]() { arr[i] = arr[i] + 1; };
    f();
  }
}

// An init-capture by reference of a lambda created before the loop was bound then.
void initCaptureBefore(int *a, const int *b, int n) {
  auto add = [&r = a[0]](int v) { r = r * 3 + v; };
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+3]]:3: warning: loop not parallelized: reference 'r', captured by a lambda created before the loop, cannot be followed
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE-2]]:35: note: used here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    add(b[i]);
}

// A user's operator[] may return any reference.
struct Vec {
  double *d;
  double &operator[](int i) { return d[i + 1]; }
};
void userSubscript(Vec v, int n) {
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+3]]:3: warning: loop not parallelized: calls 'Vec::operator[]', whose returned reference the analysis cannot follow
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+3]]:5: note: call here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    v[i] = 0;
}

// A scalar read by the loop that a pointer it writes through may reach is checked at run time.
int limit;
void globalBound(int *a) {
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); out: a; checked against writes through pointers: limit
  [[cluster::gpu_parallel]]
  for (int i = 0; i < limit; ++i)
    a[i] = i;
}
void otherType(double *a) {
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); out: a
  [[cluster::gpu_parallel]]
  for (int i = 0; i < limit; ++i)
    a[i] = i;
}

// A function returning a reference hands out an lvalue, used as the call is used.
double table[100];
static double &slot(int i) { return table[i + 1]; }
static const double &entry(int i) { return table[i]; }
void returnedReferences(double *out, int n) {
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'table' is written in one iteration and read in another (dependence distance 1)
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+3]]:15: note: conflicting read here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    slot(i) = table[i];
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'table' is written in one iteration and read in another (dependence distance 1)
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE-8]]:44: note: conflicting read here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    table[i + 1] = 2;
    out[i] = entry(i);
  }
  // A GPU form: 'entry' takes 'table' as a parameter in the kernel (callee-globals.cpp).
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); in: table; out: out
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    out[i] = entry(i);
}

// A private struct with a reference member names what the reference was bound to.
struct Ref {
  double (&arr)[100];
};
void referenceMembers(double (&x)[100], int n) {
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'x' is written in one iteration and read in another (dependence distance 1)
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+4]]:20: note: conflicting read here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    Ref r{x};
    r.arr[i + 1] = r.arr[i];
  }
  // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 2); in: x; out: x
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    Ref r{x};
    r.arr[i] = r.arr[i] + 1;
  }
}

// A method that may change the loop's own object, called on `this`.
struct Counter {
  int n;
  int data[100];
  void inc() { ++n; }
  void fill() {
    // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE+3]]:5: warning: loop not parallelized: member 'n' is written by every iteration and read after it
    // CHECK: {{.*}}soundness-aliasing.cpp:[[@LINE-3]]:18: note: written here
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; ++i) {
      data[i] = i;
      inc();
    }
  }
};

// The guards: the bindings' objects (a reference parameter) and the global bound.
// REPORT: "guard": true,
// REPORT-NEXT: "may_alias": false,
// REPORT-NEXT: "name": "x",
// REPORT: "guard": true,
// REPORT-NEXT: "may_alias": false,
// REPORT-NEXT: "name": "y",
// REPORT: "guard": true,
// REPORT-NEXT: "may_alias": false,
// REPORT-NEXT: "name": "limit",
