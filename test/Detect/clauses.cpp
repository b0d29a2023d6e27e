// Clause parsing: every clause accepted, and every syntax error reported at the offending token.
// The loop of an attribute with a bad clause is neither analyzed nor rewritten.
// RUN: not %clustrix_cxx -fsyntax-only -ferror-limit=0 %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark}}:"
// RUN: not %clustrix_cxx -fsyntax-only -ferror-limit=0 -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s --check-prefix=FIXIT
// REQUIRES: compiler

void good(int n, double *a, double *p, int m) {
  [[cluster::gpu_parallel(enable, devices(4), schedule(block), min_iters(100))]]
  // CHECK: {{.*}}clauses.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule block, level 1 (score 1); out: a
  for (int i = 0; i < n; ++i) {
    a[i] = 0;
  }
  [[cluster::gpu_parallel(schedule(cyclic), extent(p, m * 2), extent(a, n))]]
  // CHECK: {{.*}}clauses.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule cyclic, level 1 (score 1); in: p; out: a
  for (int i = 0; i < n; ++i) {
    a[i] = p[i % m];
  }
}

void bad(int n, double *a) {
  // CHECK: {{.*}}clauses.cpp:[[@LINE+1]]:27: error: unknown clause 'shedule'; did you mean 'schedule'?
  [[cluster::gpu_parallel(shedule(block))]]
  for (int i = 0; i < n; ++i) { a[i] = 0; }
  // CHECK: {{.*}}clauses.cpp:[[@LINE+1]]:27: error: unknown clause 'frobnicate'; expected enable, disable, devices, schedule, min_iters, collapse, reduce or extent
  [[cluster::gpu_parallel(frobnicate)]]
  for (int i = 0; i < n; ++i) { a[i] = 0; }
  // CHECK: {{.*}}clauses.cpp:[[@LINE+1]]:36: error: unknown schedule 'blok'; did you mean 'block'?
  [[cluster::gpu_parallel(schedule(blok))]]
  for (int i = 0; i < n; ++i) { a[i] = 0; }
  // CHECK: {{.*}}clauses.cpp:[[@LINE+1]]:36: error: unknown schedule 'static'; expected 'block', 'cyclic' or 'dynamic'
  [[cluster::gpu_parallel(schedule(static))]]
  for (int i = 0; i < n; ++i) { a[i] = 0; }
  // CHECK: {{.*}}clauses.cpp:[[@LINE+1]]:36: error: the 'block' schedule takes no chunk size
  [[cluster::gpu_parallel(schedule(block, 3))]]
  for (int i = 0; i < n; ++i) { a[i] = 0; }
  // CHECK: {{.*}}clauses.cpp:[[@LINE+1]]:45: error: expected an integer in 'schedule' clause, found 'x'
  [[cluster::gpu_parallel(schedule(dynamic, x))]]
  for (int i = 0; i < n; ++i) { a[i] = 0; }
  // CHECK: {{.*}}clauses.cpp:[[@LINE+1]]:36: error: expected 'block', 'cyclic' or 'dynamic' in 'schedule' clause, found '42'
  [[cluster::gpu_parallel(schedule(42))]]
  for (int i = 0; i < n; ++i) { a[i] = 0; }
  // CHECK: {{.*}}clauses.cpp:[[@LINE+1]]:35: error: 'devices' must be at least 1, found 0
  [[cluster::gpu_parallel(devices(0))]]
  for (int i = 0; i < n; ++i) { a[i] = 0; }
  // CHECK: {{.*}}clauses.cpp:[[@LINE+1]]:35: error: '99999999999999999999999' is not a valid integer for 'devices'
  [[cluster::gpu_parallel(devices(99999999999999999999999))]]
  for (int i = 0; i < n; ++i) { a[i] = 0; }
  // CHECK: {{.*}}clauses.cpp:[[@LINE+1]]:35: error: expected '(' in 'devices' clause, found '2'
  [[cluster::gpu_parallel(devices 2)]]
  for (int i = 0; i < n; ++i) { a[i] = 0; }
  // CHECK: {{.*}}clauses.cpp:[[@LINE+1]]:36: error: expected ')' in 'devices' clause, found ','
  [[cluster::gpu_parallel(devices(2, 3))]]
  for (int i = 0; i < n; ++i) { a[i] = 0; }
  // CHECK: {{.*}}clauses.cpp:[[@LINE+1]]:37: error: expected an integer in 'min_iters' clause, found '-'
  [[cluster::gpu_parallel(min_iters(-1))]]
  for (int i = 0; i < n; ++i) { a[i] = 0; }
  // CHECK: {{.*}}clauses.cpp:[[@LINE+1]]:36: error: 'collapse' must be between 1 and 3, found 4
  [[cluster::gpu_parallel(collapse(4))]]
  for (int i = 0; i < n; ++i) { a[i] = 0; }
  // CHECK: {{.*}}clauses.cpp:[[@LINE+1]]:35: error: 'enable' and 'disable' cannot both be given
  [[cluster::gpu_parallel(enable, disable)]]
  for (int i = 0; i < n; ++i) { a[i] = 0; }
  // CHECK: {{.*}}clauses.cpp:[[@LINE+1]]:39: error: duplicate 'devices' clause
  [[cluster::gpu_parallel(devices(2), devices(3))]]
  for (int i = 0; i < n; ++i) { a[i] = 0; }
  // CHECK: {{.*}}clauses.cpp:[[@LINE+1]]:36: error: expected ':' in 'reduce' clause, found 's'
  [[cluster::gpu_parallel(reduce(+ s))]]
  for (int i = 0; i < n; ++i) { a[i] = 0; }
  // CHECK: {{.*}}clauses.cpp:[[@LINE+1]]:34: error: expected a reduction operator (+ * min max & | ^) in 'reduce' clause, found '-'
  [[cluster::gpu_parallel(reduce(-: s))]]
  for (int i = 0; i < n; ++i) { a[i] = 0; }
  // CHECK: {{.*}}clauses.cpp:[[@LINE+1]]:37: error: expected a variable name in 'reduce' clause, found '3'
  [[cluster::gpu_parallel(reduce(+: 3))]]
  for (int i = 0; i < n; ++i) { a[i] = 0; }
  // CHECK: {{.*}}clauses.cpp:[[@LINE+1]]:53: error: 's' is named in more than one 'reduce' clause
  [[cluster::gpu_parallel(reduce(+: s), reduce(max: s))]]
  for (int i = 0; i < n; ++i) { a[i] = 0; }
  // CHECK: {{.*}}clauses.cpp:[[@LINE+1]]:35: error: expected ',' in 'extent' clause, found ')'
  [[cluster::gpu_parallel(extent(a))]]
  for (int i = 0; i < n; ++i) { a[i] = 0; }
  // CHECK: {{.*}}clauses.cpp:[[@LINE+1]]:37: error: expected an element count in 'extent' clause
  [[cluster::gpu_parallel(extent(a, ))]]
  for (int i = 0; i < n; ++i) { a[i] = 0; }
  // CHECK: {{.*}}clauses.cpp:[[@LINE+1]]:48: error: duplicate 'extent' clause for 'a'
  [[cluster::gpu_parallel(extent(a, n), extent(a, n))]]
  for (int i = 0; i < n; ++i) { a[i] = 0; }
  // CHECK: {{.*}}clauses.cpp:[[@LINE+1]]:34: error: expected a pointer name in 'extent' clause, found '1'
  [[cluster::gpu_parallel(extent(1, n))]]
  for (int i = 0; i < n; ++i) { a[i] = 0; }
  // CHECK: {{.*}}clauses.cpp:[[@LINE+1]]:34: error: expected a clause after ','
  [[cluster::gpu_parallel(enable,)]]
  for (int i = 0; i < n; ++i) { a[i] = 0; }
  // CHECK: {{.*}}clauses.cpp:[[@LINE+1]]:34: error: expected ',' between clauses, found 'disable'
  [[cluster::gpu_parallel(enable disable)]]
  for (int i = 0; i < n; ++i) { a[i] = 0; }
  // CHECK: {{.*}}clauses.cpp:[[@LINE+1]]:27: error: expected a clause, found '%'
  [[cluster::gpu_parallel(%% @ 3)]]
  for (int i = 0; i < n; ++i) { a[i] = 0; }
  // CHECK: {{.*}}clauses.cpp:[[@LINE+1]]:27: error: expected a clause, found ','
  [[cluster::gpu_parallel(,)]]
  for (int i = 0; i < n; ++i) { a[i] = 0; }
}
// FIXIT: fix-it:"{{.*}}clauses.cpp":{22:27-22:34}:"schedule"
// FIXIT: fix-it:"{{.*}}clauses.cpp":{28:36-28:40}:"block"
