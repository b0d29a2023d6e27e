// Reductions that look like dependences are accepted (integer and min/max automatically,
// floating-point + and * only with a reduce clause); dependences that look like reductions are
// refused naming the variable.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark}}:"
// RUN: %clustrix_cxx -fsyntax-only -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s --check-prefix=FIXIT
// REQUIRES: compiler
#include <algorithm>

int looksDependent(int n, const int *x, const double *d) {
  int s = 0, p = 1, m = 0, k = 0, bits = 0, lo = 1 << 30;
  double hi = -1e300, dm = 1e300;
  // s = x[i] + s: the accumulator on the right.
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}reductions.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: x; reduce: s (+)
  for (int i = 0; i < n; ++i) {
    s = x[i] + s;
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}reductions.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: x; reduce: p (*)
  for (int i = 0; i < n; ++i) {
    p *= x[i];
  }
  // m = std::max(m, x[i]) and friends.
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}reductions.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: x; reduce: m (max)
  for (int i = 0; i < n; ++i) {
    m = std::max(m, x[i]);
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}reductions.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: d; reduce: hi (max)
  for (int i = 0; i < n; ++i) {
    hi = std::max(hi, d[i]);
  }
  // if (x[i] > k) k = x[i]: a max written as a branch.
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}reductions.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 5); in: x; reduce: k (max)
  for (int i = 0; i < n; ++i) {
    if (x[i] > k)
      k = x[i];
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}reductions.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: x; reduce: lo (min)
  for (int i = 0; i < n; ++i) {
    lo = x[i] < lo ? x[i] : lo;
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}reductions.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 5); in: d; reduce: dm (min)
  for (int i = 0; i < n; ++i) {
    if (d[i] < dm) {
      dm = d[i];
    }
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}reductions.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 2); in: x; reduce: bits (|)
  for (int i = 0; i < n; ++i) {
    bits |= x[i];
    bits |= 1;
  }
  return s + p + m + k + lo + bits + int(hi + dm);
}

double floats(int n, const double *x) {
  double sum = 0, prod = 1, ok = 0;
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}reductions.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'sum' is a floating-point reduction, whose rounding depends on the order of the iterations
  // CHECK: {{.*}}reductions.cpp:[[@LINE+3]]:5: note: accumulated here
  // CHECK: {{.*}}reductions.cpp:[[@LINE-3]]:14: note: add 'reduce(+: sum)' to the attribute
  for (int i = 0; i < n; ++i) {
    sum += x[i];
  }
  [[cluster::gpu_parallel(schedule(block))]]
  // CHECK: {{.*}}reductions.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'prod' is a floating-point reduction, whose rounding depends on the order of the iterations
  // CHECK: {{.*}}reductions.cpp:[[@LINE+3]]:5: note: accumulated here
  // CHECK: {{.*}}reductions.cpp:[[@LINE-3]]:14: note: add 'reduce(*: prod)' to the attribute
  for (int i = 0; i < n; ++i) {
    prod = prod * x[i];
  }
  // With the clause the order of the partial sums is accepted.
  [[cluster::gpu_parallel(reduce(+: ok))]]
  // CHECK: {{.*}}reductions.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: x; reduce: ok (+)
  for (int i = 0; i < n; ++i) {
    ok += x[i];
  }
  return sum + prod + ok;
}

double looksLikeReduction(int n, const double *x, double *y) {
  double acc = 0;
  int s = 0, t = 0, u = 0, w = 0;
  // acc = acc*0.5 + x[i]: each iteration scales the previous value.
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}reductions.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'acc' carries a value from one iteration to the next
  // CHECK: {{.*}}reductions.cpp:[[@LINE+2]]:5: note: written here and read by a later iteration
  for (int i = 0; i < n; ++i) {
    acc = acc * 0.5 + x[i];
  }
  // s += x[i]; y[i] = s: a prefix sum.
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}reductions.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 's' is accumulated and also read in the loop, so each iteration depends on the previous ones
  // CHECK: {{.*}}reductions.cpp:[[@LINE+3]]:12: note: read here
  for (int i = 0; i < n; ++i) {
    s += x[i];
    y[i] = s;
  }
  // Mixed operators are no single reduction.
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}reductions.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 't' is updated with different operators, so it is not a reduction
  // CHECK: {{.*}}reductions.cpp:[[@LINE+3]]:5: note: update here
  for (int i = 0; i < n; ++i) {
    t += i;
    t *= 2;
  }
  // Written as a plain value every iteration: private to each, and the last one's value is what
  // the variable keeps, as in the serial loop.
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}reductions.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); private: u
  // CHECK: {{.*}}reductions.cpp:[[@LINE+1]]:3: note: no GPU form, the loop runs on CPU devices: 'u' is private to each iteration and keeps the last iteration's value, which only CPU chunks hand back
  for (int i = 0; i < n; ++i) {
    u = i;
  }
  // w = x - w is not associative.
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}reductions.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'w' carries a value from one iteration to the next
  // CHECK: {{.*}}reductions.cpp:[[@LINE+2]]:5: note: written here and read by a later iteration
  for (int i = 0; i < n; ++i) {
    w = i - w;
  }
  return acc + s + t + u + w;
}

// A variable of the enclosing scope that each iteration assigns before reading it carries
// nothing: it is private to each iteration (each chunk has its own).
double scratch(int n, const double *x, double *y) {
  double t = 0;
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}reductions.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 2); in: x; out: y; private: t
  // CHECK: {{.*}}reductions.cpp:[[@LINE+1]]:3: note: no GPU form, the loop runs on CPU devices: 't' is private to each iteration and keeps the last iteration's value, which only CPU chunks hand back
  for (int i = 0; i < n; ++i) {
    t = x[i] * 2;
    y[i] = t * t;
  }
  // Read before the assignment in the same iteration: a real carried value.
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}reductions.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 't' carries a value from one iteration to the next
  // CHECK: {{.*}}reductions.cpp:[[@LINE+3]]:5: note: written here and read by a later iteration
  for (int i = 0; i < n; ++i) {
    y[i] = t;
    t = x[i];
  }
  // Assigned only on some paths: carried too.
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}reductions.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 't' carries a value from one iteration to the next
  // CHECK: {{.*}}reductions.cpp:[[@LINE+3]]:7: note: written here and read by a later iteration
  for (int i = 0; i < n; ++i) {
    if (x[i] > 0)
      t = x[i];
    y[i] = t;
  }
  return t;
}

// A user's own `max` is not std::max: it may compute anything.
int max(int a, int b) { return a - b; }
int userMax(int n, const int *x) {
  int m = 0;
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}reductions.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'm' carries a value from one iteration to the next
  // CHECK: {{.*}}reductions.cpp:[[@LINE+2]]:5: note: written here and read by a later iteration
  for (int i = 0; i < n; ++i) {
    m = max(m, x[i]);
  }
  return m;
}

// A lambda that accumulates into a captured variable carries it across iterations.
double capture(int n, const double *x) {
  double total = 0;
  auto add = [&](double v) { total += v; };
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}reductions.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'total' carries a value from one iteration to the next
  // CHECK: {{.*}}reductions.cpp:[[@LINE-3]]:30: note: written here and read by a later iteration
  for (int i = 0; i < n; ++i) {
    add(x[i]);
  }
  return total;
}

// reduce clauses that do not match the body.
int clauses(int n, const int *x, int &out) {
  int s = 0, r = 0;
  [[cluster::gpu_parallel(reduce(*: s))]]
  // CHECK: {{.*}}reductions.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'reduce(*: s)' does not match the loop, which combines 's' with '+'
  // CHECK: {{.*}}reductions.cpp:[[@LINE+2]]:5: note: updated here; write 'reduce(+: s)'
  for (int i = 0; i < n; ++i) {
    s += x[i];
  }
  [[cluster::gpu_parallel(reduce(+: r))]]
  // CHECK: {{.*}}reductions.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'out' is declared outside the loop and written by every iteration; declare it inside the loop body
  // CHECK: {{.*}}reductions.cpp:[[@LINE+3]]:5: note: written here
  // CHECK: {{.*}}reductions.cpp:[[@LINE-3]]:37: note: also: 'reduce' names 'r', which the loop does not update
  for (int i = 0; i < n; ++i) {
    out = x[i] + r;
  }
  // A reduction into a reference parameter is not a local the runtime can combine into.
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}reductions.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'out' carries a value from one iteration to the next
  // CHECK: {{.*}}reductions.cpp:[[@LINE+2]]:5: note: written here and read by a later iteration
  for (int i = 0; i < n; ++i) {
    out += x[i];
  }
  return s;
}
// FIXIT: fix-it:"{{.*}}reductions.cpp":{64:26-64:26}:"(reduce(+: sum))"
// FIXIT: fix-it:"{{.*}}reductions.cpp":{71:42-71:42}:", reduce(*: prod)"

// Flags: a bool the loop never reads and only sets to one value is an exact '|' (true) or '&'
// (false) reduction, with or without the clause; a clause with the other operator, an int set
// to 1, and a bool set to two values are refused, each with its reason.
bool flagSet(int n, const double *a) {
  bool stop = false;
  // CHECK: {{.*}}reductions.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 4); in: a; reduce: stop (|)
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    if (a[i] < 0)
      stop = true;
  return stop;
}
bool flagCleared(int n, const double *a) {
  bool ok = true;
  // CHECK: {{.*}}reductions.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 4); in: a; reduce: ok (&)
  [[cluster::gpu_parallel(reduce(&: ok))]]
  for (int i = 0; i < n; ++i)
    if (a[i] <= 0)
      ok = false;
  return ok;
}
bool flagWrongClause(int n, const double *a) {
  bool stop = false;
  // CHECK: {{.*}}reductions.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'reduce(&: stop)' does not match the loop, which sets flag 'stop' to true
  [[cluster::gpu_parallel(reduce(&: stop))]]
  for (int i = 0; i < n; ++i)
    if (a[i] < 0)
      stop = true;
  // CHECK: {{.*}}reductions.cpp:[[@LINE-1]]:7: note: set here; write 'reduce(|: stop)'
  return stop;
}
int flagInt(int n, const double *a) {
  int found = 0;
  // CHECK: {{.*}}reductions.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'found' is written by some iterations only, so its value after the loop depends on which of them ran last; make it a 'bool' that every write sets to the same value (a flag), or declare it inside the loop body
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    if (a[i] < 0)
      found = 1;
  // CHECK: {{.*}}reductions.cpp:[[@LINE-1]]:7: note: written here
  return found;
}
bool flagTwoValues(int n, const double *a) {
  bool f = false;
  // CHECK: {{.*}}reductions.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'f' is written by some iterations only, so its value after the loop depends on which of them ran last; make it a 'bool' that every write sets to the same value (a flag), or declare it inside the loop body
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    if (a[i] < 0)
      f = true;
    if (a[i] > 100)
      f = false;
  }
  // CHECK: {{.*}}reductions.cpp:[[@LINE-4]]:7: note: written here
  return f;
}

// A static local of the function (NPB CG's `static double rho;`, shared by the threads of an
// orphaned omp for) is a reduction variable as a local is: only the function names it.
double staticLocal(int n, const double *a) {
  static double rho;
  rho = 0.0;
  // CHECK: {{.*}}reductions.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: a; reduce: rho (+)
  [[cluster::gpu_parallel(reduce(+: rho))]]
  for (int i = 0; i < n; ++i)
    rho += a[i] * a[i];
  return rho;
}

// Its address taken after the loop: the next call's loop may see it through that pointer
// (for a local, a new object each call, that would not matter).
static double *seen;
double staticLocalEscapesAfter(int n, const double *a) {
  static double s;
  s = 0.0;
  // CHECK: {{.*}}reductions.cpp:[[@LINE+2]]:3: warning: loop not parallelized: the address of 's' escapes where the loop can observe it, so it may be read or written other than by the loop's updates; it is not a reduction
  [[cluster::gpu_parallel(reduce(+: s))]]
  for (int i = 0; i < n; ++i)
    s += a[i];
  seen = &s;
  // CHECK: {{.*}}reductions.cpp:[[@LINE-1]]:10: note: address taken here
  return s;
}

// A global: a callee may read it while the loop runs.
double globalSum;
void global(int n, const double *a) {
  // CHECK: {{.*}}reductions.cpp:[[@LINE+3]]:3: warning: loop not parallelized: reduction variable 'globalSum' must be a local variable of the function
  // CHECK: {{.*}}reductions.cpp:[[@LINE+3]]:5: note: accumulated here
  [[cluster::gpu_parallel(reduce(+: globalSum))]]
  for (int i = 0; i < n; ++i)
    globalSum += a[i];
}
