// Residency scopes (docs/data-movement.md#residency), both sides: where the compiler proves that
// no host code between accepted loops touches memory the loops may keep on GPUs, the rewritten
// code opens a scope; every kind of host code that might touch such memory keeps it out.
// RUN: %clustrix-rewrite --remarks=off %s -o %t.cpp -- -std=c++17
// RUN: grep -v "^//" %t.cpp | FileCheck %s
// RUN: %cxx -std=c++17 -fsyntax-only -I%clustrix_rt_include %t.cpp
#include <cstdio>

void use(double);

// CHECK-LABEL: void swapSteps(
// CHECK: { ::clustrix::rt::ResidencyScope __clx_residency; for (int t = 0; t < steps; ++t) {
void swapSteps(int n, int steps, double *a, double *b) {
  for (int t = 0; t < steps; ++t) {
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; ++i) {
      b[i] = a[i] * 0.5;
    }
    double *tmp = a;
    a = b;
    b = tmp;
    if (t > 1000)
      break;
  }
}

// Nested time loops: the outermost one is the scope.
// CHECK-LABEL: void nestedSteps(
// CHECK: { ::clustrix::rt::ResidencyScope __clx_residency; for (int s = 0; s < 3; ++s) {
// CHECK-NOT: ResidencyScope
// CHECK-LABEL: void hostWrite(
void nestedSteps(int n, double *a, double *b) {
  for (int s = 0; s < 3; ++s) {
    int count = 0;
    while (count < 4) {
      [[cluster::gpu_parallel]]
      for (int i = 0; i < n; ++i) {
        b[i] = a[i] + 1.0;
      }
      [[cluster::gpu_parallel]]
      for (int i = 0; i < n; ++i) {
        a[i] = b[i] * 0.5;
      }
      ++count;
    }
  }
}

// A write of one element in the time step: a scope, the element synchronized just before it.
// CHECK: { ::clustrix::rt::ResidencyScope __clx_residency; for (int t = 0; t < steps; ++t) {
// CHECK: ::clustrix::rt::hostWrites(&(a[0]), sizeof(a[0]), "{{[^"]*}}residency-scopes.cpp:59"); a[0] = 1.0;
// CHECK-LABEL: void hostWriteInBranch(
void hostWrite(int n, int steps, double *a, double *b) {
  for (int t = 0; t < steps; ++t) {
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; ++i) {
      b[i] = a[i] * 0.5;
    }
    a[0] = 1.0;
  }
}

// A write inside a branch, and one through a dereference: no scope.
// CHECK-NOT: ResidencyScope
// CHECK-LABEL: void hostCall(
void hostWriteInBranch(int n, int steps, double *a, double *b) {
  for (int t = 0; t < steps; ++t) {
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; ++i) {
      b[i] = a[i] * 0.5;
    }
    if (t == 1)
      a[0] = 1.0;
  }
  for (int t = 0; t < steps; ++t) {
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; ++i) {
      b[i] = a[i] * 0.5;
    }
    *a = 1.0;
  }
}

// A call (which might read the arrays): no scope.
// CHECK-NOT: ResidencyScope
// CHECK-LABEL: void conditionReads(
void hostCall(int n, int steps, double *a, double *b) {
  for (int t = 0; t < steps; ++t) {
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; ++i) {
      b[i] = a[i] * 0.5;
    }
    use(0.0);
  }
}

// The time loop's condition reads an array: no scope.
// CHECK-NOT: ResidencyScope
// CHECK-LABEL: void escapedCounter(
void conditionReads(int n, double *a, double *b) {
  while (b[0] < 100.0) {
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; ++i) {
      b[i] = a[i] + b[i];
    }
  }
}

// A counter whose address escapes (a loop might reach it through the pointer): no scope.
// CHECK-NOT: ResidencyScope
// CHECK-LABEL: void capturedByReference(
void escapedCounter(int n, int steps, double *a, double *b) {
  int k = 0;
  int *pk = &k;
  use(*pk);
  for (int t = 0; t < steps; ++t) {
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; ++i) {
      b[i] = a[i] * 0.5;
    }
    k = k + 1;
  }
}

// A counter captured by reference by a lambda: no scope.
// CHECK-NOT: ResidencyScope
// CHECK-LABEL: void declarationBetween(
void capturedByReference(int n, int steps, double *a, double *b) {
  int k = 0;
  auto bump = [&k] { ++k; };
  bump();
  for (int t = 0; t < steps; ++t) {
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; ++i) {
      b[i] = a[i] * 0.5;
    }
    k = k + 2;
  }
}

// Consecutive loops with a declaration between them (its scope would change): no scope.
// CHECK-NOT: ResidencyScope
// CHECK-LABEL: double consecutive(
void declarationBetween(int n, double *a, double *b) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    b[i] = a[i] * 0.5;
  }
  double f = 2.0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    a[i] = b[i] * f;
  }
}

// Consecutive loops with an assignment between them, and a return after: one scope for both.
// CHECK: { ::clustrix::rt::ResidencyScope __clx_residency; { /* clustrix: loop at line [[@LINE+6]]
// CHECK: runs through libclustrix_rt
// CHECK-NOT: ResidencyScope
// CHECK-LABEL: void refusedBetween(
double consecutive(int n, double *a, double *b, double f) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    b[i] = a[i] * f;
  }
  f = f * 2.0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    a[i] = b[i] + f;
  }
  return f;
}

// A refused annotated loop between two accepted ones runs on the host: no scope.
// CHECK-NOT: ResidencyScope
// CHECK-LABEL: int main(
void refusedBetween(int n, double *a, double *b) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    b[i] = a[i] * 0.5;
  }
  [[cluster::gpu_parallel]]
  for (int i = 1; i < n; ++i) {
    a[i] = a[i - 1] + b[i];
  }
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    b[i] = a[i] * 0.5;
  }
}

int main() { return 0; }
