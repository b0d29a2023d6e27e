// Loops in templates (docs/attribute.md#templates): each instantiation that the translation unit
// uses is analysed on its own. A safe one runs wide, an unsafe one stays serial with its reason,
// and every decision carries a note naming the instantiation, where it was requested. What
// cannot be told apart in the template's text (a lambda's type, a pack) stays serial, and so does
// a template that nothing instantiates.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark|note}}:"
// Before C++17 there is no 'if constexpr' to choose among instantiations.
// RUN: %clangxx -std=c++14 -fplugin=%clustrix_plugin -I%clustrix_rt_include -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=CXX14
// CXX14: templates.cpp:[[# @LINE+11]]:3: warning: loop not parallelized: a loop in a template needs C++17 or later: 'if constexpr' chooses among its instantiations
// REQUIRES: compiler

#include <cstddef>

// The same text, one instantiation safe and one not: a[i + N] carries a value only for N > 0.
template <int N> void shift(int *a, int n) {
  // CHECK: templates.cpp:[[@LINE+4]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: a; out: a
  // CHECK: templates.cpp:[[@LINE+34]]:3: note: in instantiation of 'shift<0>' requested here
  // CHECK: templates.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'a' is written in one iteration and read in another (dependence distance 1)
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    a[i] = a[i + N];
  // CHECK: templates.cpp:[[@LINE-1]]:12: note: conflicting read here
  // CHECK: templates.cpp:[[@LINE+29]]:3: note: in instantiation of 'shift<1>' requested here
}

// A class template's members, defined in the class and out of it (under another name for the
// parameter), and the kernel's types: T declared as each instantiation binds it.
template <class T> struct Stream {
  T *a, *b, *c;
  int n;
  void copy();
  T dot() {
    T sum = 0;
    // CHECK: templates.cpp:[[@LINE+2]]:5: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: this->a, this->b; reduce: sum (+)
    [[cluster::gpu_parallel(reduce(+: sum))]]
    for (int i = 0; i < n; i++)
      sum += a[i] * b[i];
    // CHECK: templates.cpp:[[@LINE+17]]:12: note: in instantiation of 'Stream<float>::dot' requested here
    return sum;
  }
};
template <class U> void Stream<U>::copy() {
  // CHECK: templates.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: this->a; out: this->c
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    c[i] = a[i];
  // CHECK: templates.cpp:[[@LINE+7]]:5: note: in instantiation of 'Stream<float>::copy' requested here
}

double use(int *p, float *f, int n) {
  shift<0>(p, n);
  shift<1>(p, n);
  Stream<float> s{f, f, f, n};
  s.copy();
  return s.dot();
}

// A partial specialization's parameters, a member template of a member class template.
template <class T> struct Box;
template <class T> struct Box<T *> {
  T *p;
  int n;
  void zero() {
    // CHECK: templates.cpp:[[@LINE+2]]:5: remark: loop parallelized across devices: schedule default, level 1 (score 1); out: this->p
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; ++i)
      p[i] = T();
    // CHECK: templates.cpp:[[@LINE+17]]:5: note: in instantiation of 'Box<double *>::zero' requested here
  }
};
template <class T> struct Outer {
  template <int K> struct Inner {
    template <class V> static void fill(T *a, V v, int n) {
      // CHECK: templates.cpp:[[@LINE+2]]:7: remark: loop parallelized across devices: schedule default, level 1 (score 1); out: a
      [[cluster::gpu_parallel]]
      for (int i = 0; i < n; ++i)
        a[i] = T(v) + K;
      // CHECK: templates.cpp:[[@LINE+8]]:28: note: in instantiation of 'Outer<double>::Inner<3>::fill<int>' requested here
    }
  };
};

void boxes(double *d, int n) {
  Box<double *> b{d, n};
  b.zero();
  Outer<double>::Inner<3>::fill(d, 2, n);
}

// A function template's argument that is a lambda's type has no name to test; a pack is not
// told apart either. Both run as written.
template <class T, class F> void apply(T *a, int n, F f) {
  // CHECK: templates.cpp:[[@LINE+2]]:3: warning: loop not parallelized: this instantiation cannot be told apart in the template: the type of template parameter 'F' in this instantiation is a lambda's, which has no name the template could test
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    a[i] = f(a[i]);
  // CHECK: templates.cpp:[[@LINE+11]]:3: note: in instantiation of 'apply<double, (lambda at {{.*}}templates.cpp:[[@LINE+11]]:15)>' requested here
}
template <class... Ts> void pack(double *a, int n) {
  // CHECK: templates.cpp:[[@LINE+2]]:3: warning: loop not parallelized: this instantiation cannot be told apart in the template: template parameter pack 'Ts' is not supported
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    a[i] += sizeof...(Ts);
  // CHECK: templates.cpp:[[@LINE+5]]:3: note: in instantiation of 'pack<int, char>' requested here
}

void callables(double *d, int n) {
  apply(d, n, [](double x) { return x * 2; });
  pack<int, char>(d, n);
}

// Nothing instantiates this one.
template <class T> void never(T *a, int n) {
  // CHECK: templates.cpp:[[@LINE+2]]:3: warning: loop not parallelized: the template that holds the loop is not instantiated in this translation unit
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    a[i] = 0;
}

// An explicit instantiation, automatic mode, a generic lambda (told apart by decltype of its
// parameters), and a member typedef the kernel cannot carry (the loop then runs on CPU devices).
template <class T> void twice(T *a, int n) {
  // CHECK: templates.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: a; out: a
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    a[i] *= 2;
}
// CHECK: templates.cpp:[[@LINE+1]]:15: note: in instantiation of 'twice<int>' requested here
template void twice<int>(int *, int);

template <class T> [[cluster::gpu_parallel]] void automatic(T *a, int n) {
  // CHECK: templates.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices (automatic mode): schedule default, level 1 (score 1); in: a; out: a
  for (int i = 0; i < n; ++i)
    a[i] += 1;
  // CHECK: templates.cpp:[[@LINE+20]]:3: note: in instantiation of 'automatic<long>' requested here
}

template <class T> struct Named {
  using value_type = T;
  T *p;
  int n;
  void scale() {
    // CHECK: templates.cpp:[[@LINE+3]]:5: remark: loop parallelized across devices: schedule default, level 1 (score 2); in: this->p; out: this->p
    // CHECK: templates.cpp:[[@LINE+2]]:5: note: no GPU form, the loop runs on CPU devices: the loop uses type 'value_type', a member of an instance of class template 'Named', which the kernel cannot declare
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; ++i) {
      value_type v = p[i];
      p[i] = v + 1;
    }
    // CHECK: templates.cpp:[[@LINE+15]]:22: note: in instantiation of 'Named<float>::scale' requested here
  }
};

void more(long *l, float *f, double *d, int *p, int n) {
  automatic(l, n);
  auto g = [](auto *a, int m) {
    // CHECK: templates.cpp:[[@LINE+4]]:5: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: a; out: a
    // CHECK: templates.cpp:[[@LINE+3]]:5: note: in instantiation of 'lambda(double *, int) in more' requested here
    // CHECK: templates.cpp:[[@LINE+2]]:5: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: a; out: a
    [[cluster::gpu_parallel]]
    for (int i = 0; i < m; ++i)
      a[i] = a[i] + 1;
    // CHECK: templates.cpp:[[@LINE-2]]:5: note: in instantiation of 'lambda(int *, int) in more' requested here
  };
  Named<float>{f, n}.scale();
  g(d, n);
  g(p, n);
}

// A carried class template whose own parameter has the name of the loop's (`T`): within its text
// `T` is its own parameter, on the device as on the host. A carried record that names `T` for
// something else would meet the kernel's `typedef float T;`: that loop has no GPU form.
template <typename T> struct Cell {
  T *p;
  T k;
};
struct HasT {
  int T;
};
template <typename T> struct User {
  Cell<T> c;
  int n;
  void run() {
    // CHECK: templates.cpp:[[@LINE+2]]:5: remark: loop parallelized across devices: schedule default, level 1 (score 1); out: this->c.p; checked against writes through pointers: this->c
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; ++i)
      c.p[i] = c.k * i;
    // CHECK: templates.cpp:[[@LINE+15]]:5: note: in instantiation of 'User<float>::run' requested here
  }
  void other(HasT h) {
    // CHECK: templates.cpp:[[@LINE+3]]:5: remark: loop parallelized across devices: schedule default, level 1 (score 1); out: this->c.p
    // CHECK: templates.cpp:[[@LINE+2]]:5: note: no GPU form, the loop runs on CPU devices: template parameter 'T' has the name of a declaration that the kernel carries
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; ++i)
      c.p[i] = h.T;
    // CHECK: templates.cpp:[[@LINE+8]]:5: note: in instantiation of 'User<float>::other' requested here
  }
};

void users(float *f, int n) {
  User<float> u{{f, 2.0f}, n};
  HasT h{1};
  u.run();
  u.other(h);
}
