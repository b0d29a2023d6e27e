// Callees that read globals take them as parameters in the kernel (issue 25's GPU reach on NPB:
// BT's exact_solution, LU's exact); the forms that cannot be written keep the loop on CPU
// devices, each with the note that says why. The loops over 'lookup' and the
// lambda that captures by reference have GPU forms. A region that the code uses whole (sizeof, its
// address) has no GPU form either: the kernel holds a pointer to its elements.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark|note}}:"
// REQUIRES: compiler
double table[16];
double gain = 2;
int bins = 4;

static double lookup(int i) { return table[i % 16] * gain; }
static double sized(int i) { return table[i % 16] * (sizeof(table) / sizeof(table[0])); }
static double shadowing(int i) {
  double gain = 3;
  return table[i % 16] * gain * ::gain;
}
static double defaulted(int i, int k = 1) { return table[(i + k) % 16]; }
static double named(int i) { return lookup(i); }
struct Cell {
  double v;
  double looked(int i) const { return v * lookup(i); }
};
struct Tools {
  static double gained(double x) { return x * gain; }
};

void uses(int n, double *a, Cell *c) {
  // CHECK: {{.*}}callee-globals.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); in: table; out: a; checked against writes through pointers: gain
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = lookup(i);
  // CHECK: {{.*}}callee-globals.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: table; out: a
  // CHECK: {{.*}}callee-globals.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: region 'table' is used whole here, and the kernel reaches it through a pointer to its elements
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = table[i % 16] * sizeof(table);
  // CHECK: {{.*}}callee-globals.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); in: table; out: a
  // CHECK: {{.*}}callee-globals.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: region 'table' is used whole here, and the kernel reaches it through a pointer to its elements
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = sized(i);
  // CHECK: {{.*}}callee-globals.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 4); in: table; out: a; checked against writes through pointers: gain
  // CHECK: {{.*}}callee-globals.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: 'shadowing' uses 'gain' and also declares its own 'gain'
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = shadowing(i);
  // A parameter the kernel adds after one with a default argument would need a default too,
  // whether or not a call leaves the argument out.
  // CHECK: {{.*}}callee-globals.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); in: table; out: a
  // CHECK: {{.*}}callee-globals.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: 'defaulted' uses 'table', and it has a default argument, after which no parameter can be added
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = defaulted(i);
  // CHECK: {{.*}}callee-globals.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); in: table; out: a
  // CHECK: {{.*}}callee-globals.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: 'defaulted' uses 'table', and it has a default argument, after which no parameter can be added
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = defaulted(i, 2);
  // CHECK: {{.*}}callee-globals.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 4); in: table; out: a; checked against writes through pointers: gain
  // CHECK: {{.*}}callee-globals.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: 'lookup' uses 'gain', and the loop declares its own 'gain'
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
    double gain = i;
    a[i] = lookup(i) + gain;
  }
  // CHECK: {{.*}}callee-globals.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 6); in: table; out: a; checked against writes through pointers: gain
  // CHECK: {{.*}}callee-globals.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: 'lookup' uses 'table', and a lambda that captures nothing calls it
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
    auto f = [](int k) { return lookup(k); };
    a[i] = f(i);
  }
  // CHECK: {{.*}}callee-globals.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 4); in: table; out: a
  // CHECK: {{.*}}callee-globals.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: a lambda that captures nothing uses 'table', which the kernel passes as a parameter
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
    auto f = [](int k) { return table[k % 16]; };
    a[i] = f(i);
  }
  // CHECK: {{.*}}callee-globals.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 6); in: table; out: a; checked against writes through pointers: gain
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
    auto f = [&](int k) { return lookup(k) + bins; };
    a[i] = f(i);
  }
  // CHECK: {{.*}}callee-globals.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 5); in: c, table; out: a; checked against writes through pointers: gain
  // CHECK: {{.*}}callee-globals.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: 'lookup' uses 'table', and a member function calls it, which cannot pass it
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = c[i].looked(i);
  // CHECK: {{.*}}callee-globals.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); out: a; checked against writes through pointers: gain
  // CHECK: {{.*}}callee-globals.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: 'Tools::gained' uses 'gain', which is not one of its parameters
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = Tools::gained(i);
  // CHECK: {{.*}}callee-globals.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 6); in: table; out: a; checked against writes through pointers: gain
  // CHECK: {{.*}}callee-globals.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: 'named' uses 'table', and the code names 'named' other than in a call
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
    double (*f)(int) = named;
    a[i] = named(i) + (f != nullptr);
  }
}

// A member array used whole in a member function's loop: the same, through `this`.
struct Grid {
  double arr[64];
  double out[64];
  void run() {
    // CHECK: {{.*}}callee-globals.cpp:[[@LINE+3]]:5: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: this->arr; out: this->out
    // CHECK: {{.*}}callee-globals.cpp:[[@LINE+2]]:5: note: no GPU form, the loop runs on CPU devices: region 'arr' is used whole here, and the kernel reaches it through a pointer to its elements
    [[cluster::gpu_parallel]]
    for (int i = 0; i < 64; i++)
      out[i] = arr[i] + (double)(sizeof(arr) / sizeof(arr[0]));
  }
};
