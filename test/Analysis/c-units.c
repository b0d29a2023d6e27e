// C translation units: the analysis is the same as C++'s, and the body of an accepted loop
// becomes a file-scope C function. What such a function cannot reach is refused, each next to
// its nearest form that is accepted.
// RUN: %clustrix_cc -std=c99 -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark|note}}:"
// RUN: %clustrix_cc -std=c11 -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark|note}}:"
// REQUIRES: compiler
#include <stdlib.h>

struct point {
  double x, y;
};
enum { LIMIT = 8 };
#define SCALE(v) ((v) * factor)
#define AT(k) out[k]

// restrict pointers, a read-only scalar, a reduction.
double dot(int n, const double *restrict x, const double *restrict y, double *restrict z) {
  double s = 0;
  [[cluster::gpu_parallel(reduce(+: s))]]
  // CHECK: c-units.c:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 2); in: z, x, y; out: z; reduce: s (+)
  for (int i = 0; i < n; ++i) {
    z[i] = x[i] * y[i];
    s += z[i];
  }
  return s;
}

// A VLA parameter; the counter is declared at the top of the function. The kernel reaches the
// rows through a flat pointer, `a[((i)) * __clx_rl_a_1 + (j)]`.
void scale(int n, int m, double a[n][m], double f) {
  int i;
  [[cluster::gpu_parallel]]
  // CHECK: c-units.c:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 8); in: a; out: a
  for (i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      a[i][j] *= f;
}

// A row of a VLA parameter named as such (its size): a flat pointer has no rows.
void scaleRows(int n, int m, double a[n][m], double f) {
  [[cluster::gpu_parallel]]
  // CHECK: c-units.c:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 8); in: a; out: a
  // CHECK: c-units.c:[[@LINE+1]]:3: note: no GPU form, the loop runs on CPU devices: region 'a' has rows of variable length, which the kernel reaches element by element only, and here a row is used
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      a[i][j] *= f + (double)(sizeof(a[0]) / sizeof(double));
}

// A struct of file scope, by value; the same struct declared inside the function is refused.
void shift(int n, struct point p, struct point *pts) {
  [[cluster::gpu_parallel]]
  // CHECK: c-units.c:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: pts; out: pts
  for (int i = 0; i < n; ++i)
    pts[i].x += p.x;
}

void shiftLocal(int n, double *v) {
  struct local {
    double d;
  } l = {1.0};
  [[cluster::gpu_parallel]]
  // CHECK: c-units.c:[[@LINE+2]]:3: warning: loop not parallelized: the body uses type 'local', declared inside function 'shiftLocal', which the body's outlined C function cannot name
  // CHECK: c-units.c:[[@LINE-5]]:10: note: declared here
  for (int i = 0; i < n; ++i)
    v[i] += l.d;
}

// An enumerator of file scope (the kernel carries its enum); one declared inside the function
// is refused.
void clampAll(int n, int *v) {
  [[cluster::gpu_parallel]]
  // CHECK: c-units.c:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: v; out: v
  for (int i = 0; i < n; ++i)
    v[i] = v[i] > LIMIT ? LIMIT : v[i];
}

void clampLocal(int n, int *v) {
  enum { CAP = 4 };
  [[cluster::gpu_parallel]]
  // CHECK: c-units.c:[[@LINE+2]]:3: warning: loop not parallelized: the body uses enumerator 'CAP', declared inside function 'clampLocal', which the body's outlined C function cannot name
  // CHECK: c-units.c:[[@LINE-3]]:10: note: declared here
  for (int i = 0; i < n; ++i)
    v[i] = v[i] > CAP ? CAP : v[i];
}

// A macro may name a scalar the body only reads (it is copied under its own name), not a
// variable the outlined function reaches through a pointer.
void scaled(int n, double factor, double *out) {
  [[cluster::gpu_parallel]]
  // CHECK: c-units.c:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: out; out: out
  for (int i = 0; i < n; ++i)
    out[i] = SCALE(out[i]);
}

void scaledArray(int n, double *v) {
  double out[16];
  [[cluster::gpu_parallel]]
  // CHECK: c-units.c:[[@LINE+1]]:3: warning: loop not parallelized: the body names 'out' inside macro 'AT', and the outlined C function reaches it through a pointer, which needs the reference rewritten
  for (int i = 0; i < 16; ++i)
    AT(i) = v[i] * 2;
  // CHECK: c-units.c:[[@LINE-1]]:5: note: named here
  v[0] = out[15];
}

// A static inline function may call the static function the body becomes; an inline function
// with external linkage may not.
static inline void twiceStatic(int n, double *v) {
  [[cluster::gpu_parallel]]
  // CHECK: c-units.c:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: v; out: v
  for (int i = 0; i < n; ++i)
    v[i] *= 2;
}

inline void twiceInline(int n, double *v) {
  [[cluster::gpu_parallel]]
  // CHECK: c-units.c:[[@LINE+2]]:3: warning: loop not parallelized: the loop is in inline function 'twiceInline' with external linkage, which may not call the static function its body becomes; declare it 'static inline'
  // CHECK: c-units.c:[[@LINE-3]]:13: note: declared here
  for (int i = 0; i < n; ++i)
    v[i] *= 2;
}

// A register variable the body only reads is copied; one it needs the address of is refused.
void fromRegister(int n, double *v) {
  register double k = 3;
  [[cluster::gpu_parallel]]
  // CHECK: c-units.c:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: v; out: v
  for (int i = 0; i < n; ++i)
    v[i] *= k;
}

void fromRegisterStruct(int n, double *v) {
  register struct point p = {2, 3};
  [[cluster::gpu_parallel]]
  // CHECK: c-units.c:[[@LINE+2]]:3: warning: loop not parallelized: 'p' is declared 'register', so the outlined C function cannot reach it through its address
  // CHECK: c-units.c:[[@LINE-3]]:25: note: declared here
  for (int i = 0; i < n; ++i)
    v[i] *= p.y;
}

// C converts `void *` implicitly: the CPU form keeps it, the kernel's C++ cannot.
void fromVoid(int n, void *mem, double **rows) {
  [[cluster::gpu_parallel]]
  // CHECK: c-units.c:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); out: rows
  // CHECK: c-units.c:[[@LINE+1]]:3: note: no GPU form, the loop runs on CPU devices: the code converts 'void *' to 'double *' implicitly, which the kernel's C++ does not
  for (int i = 0; i < n; ++i)
    rows[i] = mem;
}

void callsInline(double *v) { twiceStatic(4, v); twiceInline(4, v); }

