// A math call written in a macro's definition is respelled in the definition the kernel
// carries, so every use of the macro in the kernel calls the checking helper. Where another use
// of the macro calls another function by that name (an overload of the user's), respelling
// would call the wrong one: no GPU form, in either order.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark|note}}:"
// REQUIRES: compiler
extern "C" double log(double);
static float log(float x) { return x * 2; }
#define LOGV(v) log(v)

void uses(int n, double *a, float *g) {
  // CHECK: {{.*}}math-errno-macros.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); in: a, g; out: a
  // CHECK: {{.*}}math-errno-macros.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: a macro's definition calls 'log', which names two functions where the kernel expands it
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = LOGV(a[i]) + LOGV(g[i]);
  // CHECK: {{.*}}math-errno-macros.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); in: a, g; out: a
  // CHECK: {{.*}}math-errno-macros.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: a macro's definition calls 'log', which names two functions where the kernel expands it
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = LOGV(g[i]) + LOGV(a[i]);
  // CHECK: {{.*}}math-errno-macros.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: a; out: a
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = LOGV(a[i]);
}

// A member written in a macro's argument (`SQ(this->x[i])`) cannot be renamed to the kernel's
// parameter there: the kernel would say `this->x`, which the device compiler rejects (found by
// the differential tester's --nvrtc check). No GPU form, with or without a math call.
#define SQ(u) ((u) * (u))
struct Grid {
  double *x;
  int n;
  void square() {
    // CHECK: {{.*}}math-errno-macros.cpp:[[@LINE+3]]:5: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: this->x; out: this->x
    // CHECK: {{.*}}math-errno-macros.cpp:[[@LINE+2]]:5: note: no GPU form, the loop runs on CPU devices: 'this->x' is written in a macro, where the kernel cannot name it as its parameter
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; i++)
      x[i] = SQ(this->x[i]);
  }
  void logs() {
    // CHECK: {{.*}}math-errno-macros.cpp:[[@LINE+3]]:5: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: this->x; out: this->x
    // CHECK: {{.*}}math-errno-macros.cpp:[[@LINE+2]]:5: note: no GPU form, the loop runs on CPU devices: 'this->x' is written in a macro, where the kernel cannot name it as its parameter
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; i++)
      x[i] = LOGV(this->x[i]);
  }
};
