// Reductions and appends the body could observe (soundness classes 5 and 6). A variable whose
// address escapes where the loop can see it is no reduction; floating-point min and max are
// accepted without a clause only in the forms whose combined result equals the serial one bit
// for bit (NaN and equal values of different sign included), and then on CPU devices only;
// types without a reduction partial are refused; an append target that another name in the loop
// may denote is refused.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark}}:"
// REQUIRES: compiler
#include <algorithm>
#include <cmath>
#include <vector>

double observed(const double *x, double *b, int n) {
  double s = 0;
  double *ps = &s;
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+3]]:3: warning: loop not parallelized: the address of 's' escapes where the loop can observe it, so it may be read or written other than by the loop's updates; it is not a reduction
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE-2]]:16: note: address taken here
  [[cluster::gpu_parallel(reduce(+: s))]]
  for (int i = 0; i < n; ++i) {
    s += x[i];
    b[i] = *ps;
  }
  return s;
}
double observedAfter(const double *x, double *b, int n) {
  double s = 0;
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 2); in: x; out: b; reduce: s (+)
  [[cluster::gpu_parallel(reduce(+: s))]]
  for (int i = 0; i < n; ++i) {
    s += x[i];
    b[i] = x[i];
  }
  double *ps = &s; // after the loop, which runs once: it cannot observe the loop
  return *ps;
}
long referenceBefore(const int *x, int n) {
  long s = 0;
  const long &rs = s;
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+3]]:3: warning: loop not parallelized: the address of 's' escapes where the loop can observe it, so it may be read or written other than by the loop's updates; it is not a reduction
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE-2]]:20: note: address taken here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    s += x[i];
  return rs;
}
long inOuterLoop(const int *x, int n, long *out) {
  long s = 0;
  for (int t = 0; t < 2; ++t) {
    // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+3]]:5: warning: loop not parallelized: the address of 's' escapes where the loop can observe it, so it may be read or written other than by the loop's updates; it is not a reduction
    // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+4]]:15: note: address taken here
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; ++i)
      s += x[i];
    out[t] = *&s; // after the loop, but the loop runs again
  }
  return s;
}

double maxFirst(const double *x, int n) {
  double m = -INFINITY;
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: x; reduce: m (max)
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: floating-point 'max' of 'm' without a reduce clause keeps the first of equal values only when partials combine in iteration order, as CPU chunks do
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    m = std::max(m, x[i]);
  return m;
}
double maxIf(const double *x, int n) {
  double m = -INFINITY;
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 5); in: x; reduce: m (max)
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: floating-point 'max' of 'm' without a reduce clause keeps the first of equal values only when partials combine in iteration order, as CPU chunks do
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    if (x[i] > m)
      m = x[i];
  return m;
}
double maxTakesNaN(const double *x, int n) {
  double m = -INFINITY;
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+4]]:3: warning: loop not parallelized: 'm' is a floating-point max written so that its result with NaN or equal values of different sign depends on the order of the iterations
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+4]]:5: note: updated here
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+1]]:14: note: add 'reduce(max: m)' to the attribute
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    m = m > x[i] ? m : x[i];
  return m;
}
double maxArgumentsSwapped(const double *x, int n) {
  double m = -INFINITY;
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+4]]:3: warning: loop not parallelized: 'm' is a floating-point max written so that its result with NaN or equal values of different sign depends on the order of the iterations
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+4]]:5: note: updated here
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+1]]:14: note: add 'reduce(max: m)' to the attribute
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    m = std::max(x[i], m);
  return m;
}
double maxLastOfEqual(const double *x, int n) {
  double m = -INFINITY;
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+4]]:3: warning: loop not parallelized: 'm' is a floating-point max written so that its result with NaN or equal values of different sign depends on the order of the iterations
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+5]]:7: note: updated here
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+1]]:14: note: add 'reduce(max: m)' to the attribute
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    if (x[i] >= m)
      m = x[i];
  return m;
}
double fmaxForm(const double *x, int n) {
  double m = -INFINITY;
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+4]]:3: warning: loop not parallelized: 'm' is a floating-point max written so that its result with NaN or equal values of different sign depends on the order of the iterations
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+4]]:5: note: updated here
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+1]]:14: note: add 'reduce(max: m)' to the attribute
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    m = std::fmax(m, x[i]);
  return m;
}
double maxWithClause(const double *x, int n) {
  double m = -INFINITY;
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: x; reduce: m (max)
  [[cluster::gpu_parallel(reduce(max: m))]]
  for (int i = 0; i < n; ++i)
    m = m > x[i] ? m : x[i];
  return m;
}
int intMaxAnyForm(const int *x, int n) {
  int m = 0;
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: x; reduce: m (max)
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    m = m > x[i] ? m : x[i];
  return m;
}

long double longDouble(const long double *x, int n) {
  long double s = 0;
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+3]]:3: warning: loop not parallelized: reduction variable 's' has type 'long double', which has no reduction partial (8- to 64-bit integers, float and double do)
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+3]]:5: note: accumulated here
  [[cluster::gpu_parallel(reduce(+: s))]]
  for (int i = 0; i < n; ++i)
    s += x[i];
  return s;
}
__int128 wide(const int *x, int n) {
  __int128 s = 0;
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+3]]:3: warning: loop not parallelized: reduction variable 's' has type '__int128', which has no reduction partial (8- to 64-bit integers, float and double do)
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+3]]:5: note: accumulated here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    s += x[i];
  return s;
}

void twoTargets(const int *x, int n, std::vector<int> &out, std::vector<int> &also) {
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'out' and 'also' are appended to and may be the same container
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+4]]:5: note: appended here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    out.push_back(x[i]);
    also.push_back(-x[i]);
  }
}
void readsWhatItAppends(const int *x, int n, std::vector<int> &out,
                        const std::vector<int> &other) {
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'out' is appended to while the loop also uses 'other', which may be the same container
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+4]]:21: note: used here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    if (x[i] > 0)
      out.push_back(other[i]);
}
void readsOtherType(const int *x, int n, std::vector<int> &out, const std::vector<long> &other) {
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 4); in: x, other; ordered append: out
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: ordered appends run on CPU devices
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    if (x[i] > 0)
      out.push_back(int(other[i]));
}
std::vector<int> aliasBefore(const int *x, int n) {
  std::vector<int> out;
  std::vector<int> *p = &out;
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+3]]:3: warning: loop not parallelized: the address of 'out' escapes where the loop can observe it, so the loop may use it while appending to it
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE-2]]:25: note: address taken here
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    if (x[i] > 0)
      out.push_back(x[i]);
  return *p;
}
std::vector<int> twoLocals(const int *x, int n) {
  std::vector<int> out, mine;
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 2); in: x; ordered append: out, mine
  // CHECK: {{.*}}soundness-reductions.cpp:[[@LINE+2]]:3: note: no GPU form, the loop runs on CPU devices: ordered appends run on CPU devices
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    out.push_back(x[i]);
    mine.push_back(x[i] * 2);
  }
  out.insert(out.end(), mine.begin(), mine.end());
  return out;
}
