// Code that runs without being written in the body (soundness class 4) is walked like written
// code: constructors with their member initializers, default arguments, default member
// initializers and lambda init-captures; destructors of temporaries and exceptions are refused.
// And meaning that changes when the body moves into a function of its own (class 7):
// `__func__`, `__COUNTER__`, constexpr functions.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark}}:"
// REQUIRES: compiler

int counter = 0;
static int next() { return counter++; }

struct Counted {
  int v;
  Counted(int x) : v(x) { ++counter; }
};
struct Plain {
  int v;
  Plain(int x) : v(x * 2) {}
};
void constructors(int *out, int n) {
  // CHECK: {{.*}}soundness-implicit.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'Counted' writes global 'counter'
  // CHECK: {{.*}}soundness-implicit.cpp:[[@LINE-8]]:29: note: written here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    Counted c(i);
    out[i] = c.v;
  }
  // CHECK: {{.*}}soundness-implicit.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); out: out
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    Plain c(i);
    out[i] = c.v;
  }
}

struct WithDtor {
  int v;
  ~WithDtor() { ++counter; }
};
void temporaries(int *out, int n) {
  // CHECK: {{.*}}soundness-implicit.cpp:[[@LINE+3]]:3: warning: loop not parallelized: a temporary of type 'WithDtor' has a destructor, which cannot run on a device
  // CHECK: {{.*}}soundness-implicit.cpp:[[@LINE+3]]:22: note: temporary here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    out[i] = WithDtor{i}.v;
}

static int pick(int a, int b = next()) { return a + b; }
static int pickConst(int a, int b = 3) { return a + b; }
void defaultArguments(int *out, int n) {
  // CHECK: {{.*}}soundness-implicit.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'next' writes global 'counter'
  // CHECK: {{.*}}soundness-implicit.cpp:[[@LINE-42]]:28: note: written here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    out[i] = pick(i);
  // CHECK: {{.*}}soundness-implicit.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); out: out
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    out[i] = pickConst(i);
}

struct WithInit {
  int v = next();
};
struct WithConstInit {
  int v = 7;
};
void memberInitializers(int *out, int n) {
  // CHECK: {{.*}}soundness-implicit.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'next' writes global 'counter'
  // CHECK: {{.*}}soundness-implicit.cpp:[[@LINE-60]]:28: note: written here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    WithInit w;
    out[i] = w.v;
  }
  // CHECK: {{.*}}soundness-implicit.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); out: out
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    WithConstInit w;
    out[i] = w.v + i;
  }
}

void initCaptures(int *out, int n) {
  int seq = 0;
  // CHECK: {{.*}}soundness-implicit.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'seq' carries a value from one iteration to the next
  // CHECK: {{.*}}soundness-implicit.cpp:[[@LINE+3]]:19: note: written here and read by a later iteration
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    auto f = [v = seq++]() { return v; };
    out[i] = f();
  }
  // CHECK: {{.*}}soundness-implicit.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 4); out: out
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    auto f = [v = seq + i]() { return v; };
    out[i] = f();
  }
}

static int checked(int i) {
  if (i < 0)
    throw i;
  return i;
}
void exceptions(int *out, int n) {
  // CHECK: {{.*}}soundness-implicit.cpp:[[@LINE+3]]:3: warning: loop not parallelized: exceptions cannot be used on a device
  // CHECK: {{.*}}soundness-implicit.cpp:[[@LINE-5]]:5: note: 'throw' here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    out[i] = checked(i);
}

// __func__ in the body would name the outlined function; in a callee it names the callee.
static int initial(int i) { return __func__[0] + i; }
void functionName(int *out, int n) {
  // CHECK: {{.*}}soundness-implicit.cpp:[[@LINE+3]]:3: warning: loop not parallelized: the body uses '__func__', which would name the function the body is moved to instead of its own
  // CHECK: {{.*}}soundness-implicit.cpp:[[@LINE+3]]:14: note: used here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    out[i] = __func__[0] + i;
  // CHECK: {{.*}}soundness-implicit.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); out: out
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    out[i] = initial(i);
  // Even unevaluated, its size is its function's name's.
  // CHECK: {{.*}}soundness-implicit.cpp:[[@LINE+3]]:3: warning: loop not parallelized: the body uses '__func__', which would name the function the body is moved to instead of its own
  // CHECK: {{.*}}soundness-implicit.cpp:[[@LINE+3]]:25: note: used here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    out[i] = int(sizeof(__func__)) + i;
}

// __COUNTER__ would count again in every copy of the body, directly or through a macro.
#define TICKET __COUNTER__
void counters(int *out, int n) {
  // CHECK: {{.*}}soundness-implicit.cpp:[[@LINE+2]]:3: warning: loop not parallelized: the loop's text expands __COUNTER__, which would count again in each copy of the body the rewriter writes
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    out[i] = __COUNTER__ + i;
  // CHECK: {{.*}}soundness-implicit.cpp:[[@LINE+2]]:3: warning: loop not parallelized: the loop's text expands __COUNTER__, which would count again in each copy of the body the rewriter writes
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    out[i] = TICKET + i;
}

// A constexpr function stays constant-evaluable only without the runtime call; a lambda that is
// constexpr only implicitly is fine.
constexpr int squares(int n) {
  int a[8] = {};
  // CHECK: {{.*}}soundness-implicit.cpp:[[@LINE+3]]:3: warning: loop not parallelized: the loop is in constexpr function 'squares', and the runtime call that replaces it cannot be evaluated at compile time
  // CHECK: {{.*}}soundness-implicit.cpp:[[@LINE-3]]:15: note: declared here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < 8; ++i)
    a[i] = i * n;
  int s = 0;
  for (int i = 0; i < 8; ++i)
    s += a[i];
  return s;
}
static_assert(squares(2) == 56, "still a constant expression");
void lambdaBody(int *out, int n) {
  auto fill = [](int *o, int m) {
    // CHECK: {{.*}}soundness-implicit.cpp:[[@LINE+2]]:5: remark: loop parallelized across devices: schedule default, level 1 (score 1); out: o
    [[cluster::gpu_parallel]]
    for (int i = 0; i < m; ++i)
      o[i] = i;
  };
  fill(out, n);
}
