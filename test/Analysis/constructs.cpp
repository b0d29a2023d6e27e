// Bodies that cannot run on a device, or whose effects the analysis cannot follow: the refusal
// names the call, the construct or the variable.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark}}:"
// REQUIRES: compiler
#include <cstdio>
#include <cstdlib>
#include <vector>

double external(double);
struct Shape {
  virtual double area() const { return 0; }
};
int fact(int k) { return k <= 1 ? 1 : k * fact(k - 1); }
double vsum(int k, ...) { return k; }

void calls(int n, double *a, Shape *s, double (*fp)(double), std::vector<double> &v) {
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:3: warning: loop not parallelized: calls 'external', whose definition is not visible in this translation unit
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:12: note: call here
  for (int i = 0; i < n; ++i) {
    a[i] = external(a[i]);
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:3: warning: loop not parallelized: calls virtual function 'Shape::area'
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:12: note: virtual call here
  for (int i = 0; i < n; ++i) {
    a[i] = s[i].area();
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:3: warning: loop not parallelized: calls through a function pointer
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:12: note: indirect call here
  for (int i = 0; i < n; ++i) {
    a[i] = fp(a[i]);
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:3: warning: loop not parallelized: calls 'fact' recursively
  // CHECK: {{.*}}constructs.cpp:[[@LINE-24]]:43: note: recursive call here
  for (int i = 0; i < n; ++i) {
    a[i] = fact(i);
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:3: warning: loop not parallelized: calls variadic function 'vsum'
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:12: note: call here
  for (int i = 0; i < n; ++i) {
    a[i] = vsum(1, i);
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'at' may throw, which a device cannot do; use operator[]
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:12: note: call here
  for (int i = 0; i < n; ++i) {
    a[i] = v.at(i);
  }
}

struct Counter {
  mutable int calls = 0;
  int next() const { return calls++; }
};
int global;

void constructs(int n, double *a, const Counter &c, volatile int &vol) {
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}constructs.cpp:[[@LINE+3]]:3: warning: loop not parallelized: dynamic allocation cannot happen on a device
  // CHECK: {{.*}}constructs.cpp:[[@LINE+3]]:17: note: allocation here
  // CHECK: {{.*}}constructs.cpp:[[@LINE+3]]:12: note: also: reads memory through 't[0]', whose extent the analysis cannot determine
  for (int i = 0; i < n; ++i) {
    double *t = new double[4];
    a[i] = t[0];
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:3: warning: loop not parallelized: calls 'printf', which cannot run on a device
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:5: note: call here
  for (int i = 0; i < n; ++i) {
    printf("%d\n", i);
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'seen' has static or thread-local storage, which a device cannot share
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:16: note: declared here
  for (int i = 0; i < n; ++i) {
    static int seen = 0;
    a[i] = seen;
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}constructs.cpp:[[@LINE+1]]:3: warning: loop not parallelized: 'vol' is volatile
  for (int i = 0; i < n; ++i) {
    a[i] = vol;
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:3: warning: loop not parallelized: inline assembly cannot run on a device
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:5: note: assembly here
  for (int i = 0; i < n; ++i) {
    asm("nop");
    a[i] = 0;
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:3: warning: loop not parallelized: const member function 'next' writes mutable member 'calls', which every iteration shares
  // CHECK: {{.*}}constructs.cpp:[[@LINE-40]]:29: note: written here
  for (int i = 0; i < n; ++i) {
    a[i] = c.next();
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:3: warning: loop not parallelized: exceptions cannot be used on a device
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:5: note: 'try' here
  for (int i = 0; i < n; ++i) {
    try {
      a[i] = 0;
    } catch (...) {
    }
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:3: warning: loop not parallelized: exceptions cannot be used on a device
  // CHECK: {{.*}}constructs.cpp:[[@LINE+3]]:7: note: 'throw' here
  for (int i = 0; i < n; ++i) {
    if (a[i] < 0)
      throw i;
  }
}

// A shared scalar reached through its address: read, it is a value like any other; written,
// it carries a value from one iteration to the next. A mutable lambda keeps state between
// calls.
void escapes(int n, double *a) {
  int shared = 0;
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}constructs.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 2); out: a
  for (int i = 0; i < n; ++i) {
    int *p = &shared;
    a[i] = *p;
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'shared' carries a value from one iteration to the next
  // CHECK: {{.*}}constructs.cpp:[[@LINE+3]]:5: note: written here and read by a later iteration
  for (int i = 0; i < n; ++i) {
    int *p = &shared;
    *p = i;
    a[i] = *p;
  }
  int c = 0;
  auto next = [c]() mutable { return c++; };
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}constructs.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'c' carries a value from one iteration to the next
  // CHECK: {{.*}}constructs.cpp:[[@LINE-3]]:38: note: written here and read by a later iteration
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:12: note: also: 'next' carries a value from one iteration to the next
  for (int i = 0; i < n; ++i) {
    a[i] = next();
  }
}

// A vector that is appended to may not be used otherwise.
void appends(int n, const double *x, double *y, std::vector<double> &out) {
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'out' is appended to and also used otherwise in the loop
  // CHECK: {{.*}}constructs.cpp:[[@LINE+3]]:12: note: used here
  for (int i = 0; i < n; ++i) {
    out.push_back(x[i]);
    y[i] = out.size();
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}constructs.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'out' is appended to and also indexed in the loop
  // CHECK: {{.*}}constructs.cpp:[[@LINE+4]]:5: note: indexed here
  // CHECK: {{.*}}constructs.cpp:[[@LINE+3]]:5: note: also: 'out' is written in one iteration and written in another: every iteration touches the same element
  for (int i = 0; i < n; ++i) {
    out.push_back(x[i]);
    out[0] = 1;
  }
}

// Templates (each instantiation on its own: Analysis/templates.cpp), macros, collapse misuse,
// nesting and the disable clause.
template <class T> void tmpl(int n, T *a) {
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}constructs.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); out: a
  for (int i = 0; i < n; ++i) {
    a[i] = 0;
  }
}
// CHECK: {{.*}}constructs.cpp:[[@LINE+1]]:15: note: in instantiation of 'tmpl<float>' requested here
template void tmpl<float>(int, float *);

// CHECK: {{.*}}constructs.cpp:[[@LINE+1]]:25: warning: loop not parallelized: the loop is written inside a macro, which cannot be rewritten
#define ZERO_LOOP(a, n) for (int i = 0; i < n; ++i) { a[i] = 0; }
void macros(int n, double *a) {
  [[cluster::gpu_parallel]]
  ZERO_LOOP(a, n)
}

void collapses(int n, int m, double *a) {
  [[cluster::gpu_parallel(collapse(2))]]
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'collapse(2)' needs 2 perfectly nested 'for' loops
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:5: note: this statement is not a 'for' loop
  for (int i = 0; i < n; ++i) {
    a[i] = 0;
  }
  [[cluster::gpu_parallel(collapse(2))]]
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'collapse' needs perfectly nested loops, but this loop's body has other statements
  // CHECK: {{.*}}constructs.cpp:[[@LINE+1]]:31: note: body here
  for (int i = 0; i < n; ++i) {
    a[i] = 1;
    for (int j = 0; j < m; ++j)
      a[i * m + j] = 0;
  }
  [[cluster::gpu_parallel(collapse(2))]]
  // CHECK: {{.*}}constructs.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'collapse' needs a rectangular nest, but the bound of the loop over 'j' depends on 'i'
  // CHECK: {{.*}}constructs.cpp:[[@LINE+3]]:25: note: bound here
  // CHECK: {{.*}}constructs.cpp:[[@LINE+3]]:7: note: also: 'a' is written in one iteration and written in another: two iterations (with i = 2, n = -1) touch the same element
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j) {
      a[i * n + j] = 0;
    }
  [[cluster::gpu_parallel(collapse(2))]]
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'collapse' needs a rectangular nest, but the step of the loop over 'j' depends on 'i'
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:33: note: step here
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; j += i + 1)
      a[i * m + j] = 0;
}

void nested(int n, double *a) {
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}constructs.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 8); out: a
  for (int i = 0; i < n; ++i) {
    [[cluster::gpu_parallel]]
    // CHECK: {{.*}}constructs.cpp:[[@LINE+1]]:5: warning: loop not parallelized: the loop is inside the loop parallelized at line [[#@LINE-2]], and runs serially within each of its iterations
    for (int j = 0; j < 8; ++j) {
      a[i * 8 + j] = 0;
    }
  }
  // Disabled loops stay serial with a remark.
  [[cluster::gpu_parallel(disable)]]
  // CHECK: {{.*}}constructs.cpp:[[@LINE+1]]:3: remark: loop not parallelized: disabled by 'gpu_parallel(disable)'
  for (int i = 0; i < n; ++i) {
    a[i] = 0;
  }
}
