// Detection of [[cluster::gpu_parallel]]: through macros, with `using cluster:`, before a
// function (automatic mode); errors for a misspelled name (with a fix-it), an attribute before
// anything but a 'for' loop or a function, and a duplicate.
// RUN: not %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark}}:"
// RUN: not %clustrix_cxx -fsyntax-only -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s --check-prefix=FIXIT
// REQUIRES: compiler

#define PARALLEL [[cluster::gpu_parallel]]
#define PARALLEL_WITH(c) [[cluster::gpu_parallel(c)]]

void macros(int n, double *a) {
  PARALLEL
  // CHECK: {{.*}}attribute.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); out: a
  for (int i = 0; i < n; ++i) {
    a[i] = 0;
  }
  PARALLEL_WITH(schedule(cyclic, 4))
  // CHECK: {{.*}}attribute.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule cyclic, level 1 (score 1); out: a
  for (int i = 0; i < n; ++i) {
    a[i] = 1;
  }
  [[using cluster: gpu_parallel]]
  // CHECK: {{.*}}attribute.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); out: a
  for (int i = 0; i < n; ++i) {
    a[i] = 2;
  }
  // An empty argument list is no clause at all.
  [[cluster::gpu_parallel()]]
  // CHECK: {{.*}}attribute.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); out: a
  for (int i = 0; i < n; ++i) {
    a[i] = 3;
  }
}

void misspelled(int n, double *a) {
  // CHECK: {{.*}}attribute.cpp:[[@LINE+1]]:14: error: unknown Clustrix attribute 'cluster::gpu_paralel'; did you mean 'cluster::gpu_parallel'?
  [[cluster::gpu_paralel]]
  for (int i = 0; i < n; ++i) {
    a[i] = 0;
  }
  // CHECK: {{.*}}attribute.cpp:[[@LINE+1]]:14: error: unknown Clustrix attribute 'cluster::offload'; the only one is 'cluster::gpu_parallel'
  [[cluster::offload]]
  for (int i = 0; i < n; ++i) {
    a[i] = 0;
  }
}

void placement(int n, double *a) {
  int x = 0;
  // CHECK: {{.*}}attribute.cpp:[[@LINE+1]]:14: error: 'cluster::gpu_parallel' must be placed before a 'for' loop or a function definition
  [[cluster::gpu_parallel]] x = 1;
  // CHECK: {{.*}}attribute.cpp:[[@LINE+1]]:14: error: 'cluster::gpu_parallel' applies to 'for' loops, not to 'while' loops
  [[cluster::gpu_parallel]]
  while (x < n) {
    ++x;
  }
  // CHECK: {{.*}}attribute.cpp:[[@LINE+1]]:14: error: 'cluster::gpu_parallel' applies to 'for' loops, not to 'do' loops
  [[cluster::gpu_parallel]]
  do {
    --x;
  } while (x > 0);
  // CHECK: {{.*}}attribute.cpp:[[@LINE+1]]:14: error: 'cluster::gpu_parallel' must be placed before a 'for' loop or a function definition
  [[cluster::gpu_parallel]]
  {
    a[0] = x;
  }
  // CHECK: {{.*}}attribute.cpp:[[@LINE+1]]:40: error: duplicate 'cluster::gpu_parallel' attribute on the same statement
  [[cluster::gpu_parallel]] [[cluster::gpu_parallel]]
  // CHECK: {{.*}}attribute.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); out: a
  for (int i = 0; i < n; ++i) {
    a[i] = 0;
  }
}

// CHECK: {{.*}}attribute.cpp:[[@LINE+1]]:12: error: 'cluster::gpu_parallel' must be placed before a 'for' loop or a function definition
[[cluster::gpu_parallel]] int notAFunction;
// FIXIT: fix-it:"{{.*}}attribute.cpp":{37:14-37:25}:"gpu_parallel"
