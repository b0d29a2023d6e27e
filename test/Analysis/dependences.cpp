// Loops with a cross-iteration dependence through an array are refused, the note at the
// conflicting access. Also writes the analysis cannot follow and reads it cannot bound.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark}}:"
// REQUIRES: compiler
#include <vector>

void distances(int n, double *a) {
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}dependences.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'a' is written in one iteration and read in another (dependence distance 1)
  // CHECK: {{.*}}dependences.cpp:[[@LINE+2]]:12: note: conflicting read here
  for (int i = 1; i < n; ++i) {
    a[i] = a[i - 1] + 1;
  }
  // Strided by 2 but reading two ahead: the next iteration's element.
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}dependences.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'a' is written in one iteration and read in another (dependence distance 1)
  // CHECK: {{.*}}dependences.cpp:[[@LINE+2]]:12: note: conflicting read here
  for (int i = 0; i < n; i += 2) {
    a[i] = a[i + 2];
  }
  // Reversed: i reads what iteration i+1 (the previous one) wrote.
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}dependences.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'a' is written in one iteration and read in another (dependence distance 1)
  // CHECK: {{.*}}dependences.cpp:[[@LINE+2]]:12: note: conflicting read here
  for (int i = n - 2; i >= 0; --i) {
    a[i] = a[i + 1];
  }
  // a[i] against a[n - i]: iterations meet in the middle. The exact test names two of them.
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}dependences.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'a' is written in one iteration and read in another: iterations 1 and 2 (with n = 3) touch the same element
  // CHECK: {{.*}}dependences.cpp:[[@LINE+2]]:12: note: conflicting read here
  for (int i = 0; i < n; ++i) {
    a[i] = a[n - i];
  }
}

// Every iteration writes the same element, conditionally or not.
void sameElement(int n, const double *x, double *y, double *sum) {
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}dependences.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'y' is written in one iteration and written in another: every iteration touches the same element
  // CHECK: {{.*}}dependences.cpp:[[@LINE+3]]:7: note: written here
  for (int i = 0; i < n; ++i) {
    if (x[i] > 0)
      y[0] = x[i];
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}dependences.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'sum' is written in one iteration and written in another: every iteration touches the same element
  // CHECK: {{.*}}dependences.cpp:[[@LINE+2]]:5: note: written here
  for (int i = 0; i < n; ++i) {
    *sum += x[i];
  }
}

// Row i+1 of the matrix is the next iteration's.
void rows(int n, int m, double *a) {
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}dependences.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'a' is written in one iteration and read in another: iterations 1 and 0 (with m = 1, n = 3) touch the same element
  // CHECK: {{.*}}dependences.cpp:[[@LINE+3]]:22: note: conflicting read here
  for (int i = 0; i < n - 1; ++i) {
    for (int j = 0; j < m; ++j)
      a[i * m + j] = a[(i + 1) * m + j];
  }
}

// Interleaved columns whose width is not the trip count: column i and column i + n overlap
// once the loop runs past n.
void columns(int n, int cols, double *a) {
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}dependences.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'a' may be written in one iteration and written in another: the dependence test cannot prove the accesses disjoint
  // CHECK: {{.*}}dependences.cpp:[[@LINE+3]]:7: note: written here
  for (int i = 0; i < cols; ++i) {
    for (int j = 0; j < n; ++j)
      a[j * n + i] = 0;
  }
}

// Non-affine writes: a histogram, a truncated index, a division.
void nonAffine(int n, const int *idx, int *h, double *a) {
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}dependences.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'h' is written through a subscript that is not affine in the loop variables, so iterations may write the same element
  // CHECK: {{.*}}dependences.cpp:[[@LINE+2]]:5: note: written here
  for (int i = 0; i < n; ++i) {
    h[idx[i]] += 1;
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}dependences.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'a' is written through a subscript that is not affine in the loop variables, so iterations may write the same element
  // CHECK: {{.*}}dependences.cpp:[[@LINE+2]]:5: note: written here
  for (int i = 0; i < 512; ++i) {
    a[(unsigned char)i] = i;
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}dependences.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'a' is written through a subscript that is not affine in the loop variables, so iterations may write the same element
  // CHECK: {{.*}}dependences.cpp:[[@LINE+2]]:5: note: written here
  for (int i = 0; i < n; ++i) {
    a[i / 2] = i;
  }
}

// A gather through an index array needs the table's extent: through a pointer, the runtime
// takes the heap block that holds it (or runs the loop serially when it knows none); an array
// of unknown bound has none.
void unbounded(int n, double *out, const double *table, const int *idx) {
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}dependences.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: idx, table; out: out
  for (int i = 0; i < n; ++i) {
    out[i] = table[idx[i]];
  }
}
extern const double unboundedTable[];
void unboundedArray(int n, double *out, const int *idx) {
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}dependences.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'unboundedTable' is read through a subscript that is not affine and its extent is unknown
  // CHECK: {{.*}}dependences.cpp:[[@LINE+3]]:14: note: read here
  // CHECK: {{.*}}dependences.cpp:[[@LINE-3]]:14: note: add 'extent(unboundedTable, <count>)' to the attribute
  for (int i = 0; i < n; ++i) {
    out[i] = unboundedTable[idx[i]];
  }
}

// Arrays of pointers and containers of containers are not contiguous.
void indirect(int n, double **rows, std::vector<std::vector<double>> &vv, std::vector<bool> &vb) {
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}dependences.cpp:[[@LINE+2]]:3: warning: loop not parallelized: writes memory through 'rows[i][0]', which the analysis cannot follow
  // CHECK: {{.*}}dependences.cpp:[[@LINE+2]]:5: note: write here
  for (int i = 0; i < n; ++i) {
    rows[i][0] = 1;
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}dependences.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'vv[i]' is an element of a container of containers, which is not contiguous
  // CHECK: {{.*}}dependences.cpp:[[@LINE+3]]:5: note: access here
  // CHECK: {{.*}}dependences.cpp:[[@LINE+2]]:5: note: also: writes memory through 'vv[i][0]', which the analysis cannot follow
  for (int i = 0; i < n; ++i) {
    vv[i][0] = 1;
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}dependences.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'vb' is a std::vector<bool>, whose elements are bits packed into shared words
  // CHECK: {{.*}}dependences.cpp:[[@LINE+2]]:5: note: access here
  for (int i = 0; i < n; ++i) {
    vb[i] = true;
  }
}

// A pointer derived from the array: p[i] is a[i + 1].
void derived(int n, double *a) {
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}dependences.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'a' is written in one iteration and read in another (dependence distance 1)
  // CHECK: {{.*}}dependences.cpp:[[@LINE+3]]:12: note: conflicting read here
  for (int i = 0; i < n; ++i) {
    double *p = a + 1;
    p[i] = a[i];
  }
}
