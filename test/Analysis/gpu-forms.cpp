// GPU forms of ordinary code (issue 12, item 9), and the nearest forms that keep a loop on CPU
// devices, each with the note that says why: a built-in macro (the pragma operator is not one), a
// lambda of the function that captures by copy, a type with a user-written destructor.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark|note}}:"
// REQUIRES: compiler
#define TWICE(x) (2 * (x))
#define LIMIT 64

typedef struct {
  double x, y;
} Vec;
struct Later;
struct Early {
  double v;
  double scaled(const Later &l) const;
};
struct Later {
  double k;
  Later &operator=(const Later &o) {
    k = o.k * 2;
    return *this;
  }
};
double Early::scaled(const Later &l) const { return v * l.k; }
struct Owned {
  double v;
  ~Owned() { v = 0; }
};

void forms(int n, double s, double *a, Vec *p, Early *e, Later *l, Owned *o) {
  // CHECK: {{.*}}gpu-forms.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); out: a
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = TWICE(i) + LIMIT;
  // CHECK: {{.*}}gpu-forms.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); out: a
  // CHECK: {{.*}}gpu-forms.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the code uses built-in macro '__LINE__', which the kernel text cannot carry
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = __LINE__;
  // A loop hint the device compiler knows stays in the kernel (gpu-directives.cpp has the rest).
  // CHECK: {{.*}}gpu-forms.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 2 (score 9); in: a; out: a
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
    a[i] = 1;
#pragma unroll
    for (int k = 0; k < 2; k++)
      a[i] += k;
  }
  // CHECK: {{.*}}gpu-forms.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: p; out: p
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    p[i].x = p[i].y * 2;
  // CHECK: {{.*}}gpu-forms.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); in: e, l; out: a
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = e[i].scaled(l[i]);
  auto byRef = [&](double v) { return v * s; };
  auto byCopy = [s](double v) { return v * s; };
  // CHECK: {{.*}}gpu-forms.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); in: a; out: a; checked against writes through pointers: byRef, s
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = byRef(a[i]);
  // CHECK: {{.*}}gpu-forms.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); in: a; out: a; checked against writes through pointers: byCopy, s
  // CHECK: {{.*}}gpu-forms.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the loop calls lambda 'byCopy', which captures 's' by copy where it is defined, before the loop
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = byCopy(a[i]);
  // CHECK: {{.*}}gpu-forms.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: o; out: a
  // CHECK: {{.*}}gpu-forms.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the loop uses type 'Owned', whose destructor the kernel would not run
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = o[i].v;
  // A plain struct's assignment is the device compiler's too; a user-written one is not.
  // CHECK: {{.*}}gpu-forms.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: p; out: p
  [[cluster::gpu_parallel]]
  for (int i = 1; i < n; i += 2)
    p[i] = p[i - 1];
  // CHECK: {{.*}}gpu-forms.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 4); in: l, e; out: l
  // CHECK: {{.*}}gpu-forms.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: the loop uses overloaded operator '='
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    l[i] = Later{e[i].v};
  // The pragma operator is the device compiler's too: a loop hint keeps the GPU form.
#define PRAGMA(x) _Pragma(#x)
  // CHECK: {{.*}}gpu-forms.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 8); in: a; out: a
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
    PRAGMA(clang loop unroll(enable))
    for (int k = 0; k < 2; k++)
      a[i] += k;
  }
}
