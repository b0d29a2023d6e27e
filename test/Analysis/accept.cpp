// Loops the analysis proves parallel: each gets one remark listing its schedule, level and
// regions. The tricky ones: strided and reversed loops, unsigned trip counts that wrap, column
// writes of a row-major matrix, conditional writes, C arrays, containers, methods, lambdas.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark}}:"
// REQUIRES: compiler
#include <array>
#include <vector>

// for (i = 0; i < n; i += 2) a[i] = a[i + 1]: even elements written, odd ones read.
void strided(int n, double *a) {
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}accept.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: a; out: a
  for (int i = 0; i < n; i += 2) {
    a[i] = a[i + 1];
  }
}

// Counting down, each iteration touches only its own element.
void reversed(int n, double *a, const double *b) {
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}accept.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: a, b; out: a
  for (int i = n - 1; i >= 0; --i) {
    a[i] = a[i] * b[i];
  }
}

// n - 1 wraps around when n == 0: the run time computes the trip count, the analysis does not
// assume it.
void unsignedWrap(unsigned n, double *a, const double *b) {
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}accept.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: b; out: a
  for (unsigned i = 0; i < n - 1; ++i) {
    a[i] = b[i + 1];
  }
}

// Writing column i of a row-major n x n matrix: the columns of two iterations never meet.
void columns(int n, double *a) {
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}accept.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 8); out: a
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j)
      a[j * n + i] = i + j;
  }
}

// Row-major rows, an inner loop per row.
void rows(int n, int m, double *a, const double *b) {
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}accept.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 8); in: b; out: a
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < m; ++j)
      a[i * m + j] = 2 * b[i * m + j];
  }
}

// A conditional write is still a write of the iteration's own element.
void conditional(int n, const double *x, double *y) {
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}accept.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 4); in: x; out: y
  for (int i = 0; i < n; ++i) {
    if (x[i] > 0)
      y[i] = x[i];
  }
}

// Two pointer parameters may alias: accepted, and the run time checks their ranges.
void aliasing(int n, double *dst, double *src) {
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}accept.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: src; out: dst
  for (int i = 0; i < n; ++i) {
    dst[i] = src[i] + 1;
  }
}

double grid[64][64];
void cArrays() {
  double local[100];
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}accept.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); out: local
  for (int i = 0; i < 100; ++i) {
    local[i] = i;
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}accept.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 8); in: grid; out: grid
  for (int i = 0; i < 64; ++i) {
    for (int j = 0; j < 63; ++j)
      grid[i][j] = grid[i][j + 1];
  }
}

void containers(std::vector<double> &v, std::array<int, 16> &w, const std::vector<double> &x) {
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}accept.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: x; out: v
  for (std::size_t i = 0; i < v.size(); ++i) {
    v[i] = x[i] * 2;
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}accept.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: w; out: w
  for (int i = 0; i < 16; ++i) {
    w[i] += i;
  }
}

// Range-based for over contiguous containers: the element variable is element i.
void rangeFor(std::vector<double> &v, std::array<int, 8> &w) {
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}accept.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: v; out: v
  for (double &x : v) {
    x *= 2;
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}accept.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: w
  for (int x : w) {
    (void)x;
  }
}

// collapse(2) on a rectangular nest.
void collapsed(int n, int m, double *a) {
  [[cluster::gpu_parallel(collapse(2))]]
  // CHECK: {{.*}}accept.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, collapse 2, level 1 (score 1); out: a
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) {
      a[i * m + j] = 0;
    }
}

// The extent clause bounds a gather through an index array.
void gather(int n, int m, double *out, const double *table, const int *idx) {
  [[cluster::gpu_parallel(extent(table, m))]]
  // CHECK: {{.*}}accept.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: idx, table; out: out
  for (int i = 0; i < n; ++i) {
    out[i] = table[idx[i]];
  }
}

// Called functions are followed: the write is out[i], the reads in[i-1..i+1].
static double smooth(const double *in, int i) { return (in[i - 1] + in[i] + in[i + 1]) / 3; }
void callee(int n, const double *in, double *out) {
  [[cluster::gpu_parallel(schedule(dynamic, 64), devices(2), min_iters(1000))]]
  // CHECK: {{.*}}accept.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule dynamic, level 1 (score 3); in: in; out: out
  for (int i = 1; i < n - 1; ++i) {
    out[i] = smooth(in, i);
  }
}

// Ordered appends, conditional ones too.
void appends(int n, const double *x, std::vector<double> &pos) {
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}accept.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 4); in: x; ordered append: pos
  for (int i = 0; i < n; ++i) {
    if (x[i] > 0)
      pos.push_back(x[i]);
  }
}

// Methods: members through `this`; lambdas: the loop inside a lambda, and a lambda called in a
// loop.
struct Field {
  double *data;
  int n;
  void scale(double f) {
    [[cluster::gpu_parallel]]
    // CHECK: {{.*}}accept.cpp:[[@LINE+1]]:5: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: this->data; out: this->data
    for (int i = 0; i < n; ++i) {
      data[i] *= f;
    }
  }
};
void lambdas(int n, double *a) {
  auto inside = [&]() {
    [[cluster::gpu_parallel]]
    // CHECK: {{.*}}accept.cpp:[[@LINE+1]]:5: remark: loop parallelized across devices: schedule default, level 1 (score 1); out: a
    for (int i = 0; i < n; ++i) {
      a[i] = 1;
    }
  };
  inside();
  auto sq = [](double v) { return v * v; };
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}accept.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 3); in: a; out: a
  for (int i = 0; i < n; ++i) {
    a[i] = sq(a[i]);
  }
}

// A local per iteration, an inequality test and an unsigned induction variable.
void misc(unsigned n, float *a) {
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}accept.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 2); in: a; out: a
  for (unsigned i = 0; i != n; ++i) {
    float t = a[i];
    a[i] = t * t;
  }
}

// A range-for over an array a reference names: the array's bounds are its type's, so no write
// through a pointer can change them, and nothing is checked at run time (the range was
// checked against itself, which always overlaps, and the loop ran serially).
void overReference(double (&m)[64]) {
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}accept.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: m; out: m{{$}}
  for (double &x : m)
    x += 1.0;
}
