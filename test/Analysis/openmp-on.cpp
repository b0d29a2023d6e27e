// The OpenMP front door (openmp=on) in C++: a loop in a class template is analysed per
// instantiation, as an annotated one is; the directives the door does not take are named with
// their reasons and left as written.
// RUN: %clustrix_cxx -fsyntax-only -fplugin-arg-clustrix-openmp=on %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark}}:"
// REQUIRES: compiler

template <typename T> struct Stream {
  T *a, *b;
  int n;
  void scale(T f) {
    // CHECK: openmp-on.cpp:[[@LINE+3]]:5: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: this->b; out: this->a
    // CHECK: openmp-on.cpp:[[@LINE+2]]:5: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: this->b; out: this->a
#pragma omp parallel for
    for (int i = 0; i < n; i++)
      a[i] = f * b[i];
  }
};

void use(Stream<float> &s, Stream<double> &d) {
  s.scale(2.0f);
  d.scale(2.0);
}

void left(int n, int *a, int *s) {
  // CHECK: openmp-on.cpp:[[@LINE+1]]:1: warning: '#pragma omp parallel for' left as written: the front door does not take clause 'ordered'
#pragma omp parallel for ordered
  for (int i = 0; i < n; i++)
    a[i] = i;
  // CHECK: openmp-on.cpp:[[@LINE+1]]:1: warning: '#pragma omp parallel for' left as written: the loop holds '#pragma omp atomic', which the front door does not take
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    *s += a[i];
  }
  // CHECK: openmp-on.cpp:[[@LINE+1]]:1: warning: '#pragma omp parallel for' left as written: the directive is not followed by a 'for' loop
#pragma omp parallel for
  {
  }
#pragma omp parallel
  {
    // CHECK: openmp-on.cpp:[[@LINE+1]]:1: warning: '#pragma omp for' left as written: '#pragma omp for' is in a 'parallel' region that holds more than worksharing loops each ended by a barrier, or in none in this function
#pragma omp for
    for (int i = 0; i < n; i++)
      a[i] = 0;
#pragma omp single
    a[0] = 1;
  }
}
