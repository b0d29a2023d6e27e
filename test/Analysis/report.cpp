// The JSON report: one record per annotated loop with its decision, reasons, regions (may_alias
// for pointer parameters), reductions, appends and score.
// RUN: %clustrix_cxx -fsyntax-only -fplugin-arg-clustrix-remarks=off -fplugin-arg-clustrix-refusals=ignore -fplugin-arg-clustrix-report=%t.json %s
// RUN: FileCheck %s --input-file=%t.json
// RUN: echo 'int main() { return 0; }' > %t.plain.cpp
// RUN: %clustrix_cxx -fsyntax-only -fplugin-arg-clustrix-report=%t.empty.json %t.plain.cpp
// RUN: FileCheck %s --check-prefix=EMPTY --input-file=%t.empty.json
// REQUIRES: compiler
#include <vector>

void accepted(int n, double *dst, const double *src, std::vector<int> &keep) {
  int count = 0;
  [[cluster::gpu_parallel(schedule(cyclic, 4))]]
  for (int i = 0; i < n; ++i) {
    dst[i] = src[i];
    count += 1;
    if (src[i] > 0)
      keep.push_back(i);
  }
  (void)count;
}

void refused(int n, double *a) {
  double sum = 0;
  [[cluster::gpu_parallel]]
  for (int i = 1; i < n; ++i) {
    a[i] = a[i - 1];
    sum += a[i];
  }
  (void)sum;
}

// CHECK:      "clustrix_report": 1,
// CHECK:      "loops": [
// CHECK:          "appends": [
// CHECK-NEXT:       "keep"
// CHECK-NEXT:     ],
// CHECK-NEXT:     "automatic": false,
// CHECK-NEXT:     "collapse": 1,
// CHECK-NEXT:     "column": 3,
// CHECK-NEXT:     "decision": "accepted",
// CHECK-NEXT:     "file": "{{.*}}report.cpp",
// CHECK-NEXT:     "function": "accepted",
// CHECK-NEXT:     "gpu": false,
// CHECK-NEXT:     "gpu_reason": "ordered appends run on CPU devices",
// CHECK-NEXT:     "level": 1,
// CHECK-NEXT:     "line": 14,
// CHECK-NEXT:     "privates": [],
// CHECK-NEXT:     "reasons": [],
// CHECK-NEXT:     "reductions": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "clause": false,
// CHECK-NEXT:         "op": "+",
// CHECK-NEXT:         "var": "count"
// CHECK-NEXT:       }
// CHECK-NEXT:     ],
// CHECK-NEXT:     "regions": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "access": "write",
// CHECK-NEXT:         "affine": true,
// CHECK-NEXT:         "extent": "",
// CHECK-NEXT:         "full_write": true,
// CHECK-NEXT:         "guard": false,
// CHECK-NEXT:         "may_alias": true,
// CHECK-NEXT:         "name": "dst",
// CHECK-NEXT:         "rank": 1,
// CHECK-NEXT:         "subscripts": [
// CHECK-NEXT:           [
// CHECK-NEXT:             "__clx_k0"
// CHECK-NEXT:           ]
// CHECK-NEXT:         ]
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "access": "read",
// CHECK:              "may_alias": true,
// CHECK-NEXT:         "name": "src",
// CHECK:          "schedule": "cyclic",
// CHECK-NEXT:     "score": {{[0-9]+}},
// CHECK-NEXT:     "unit": "{{.*}}report.cpp",
// CHECK-NEXT:     "work_per_iteration": {{[0-9.]+}}
// CHECK:          "decision": "refused",
// CHECK:          "function": "refused",
// CHECK:          "line": 26,
// CHECK-NEXT:     "privates": [],
// CHECK-NEXT:     "reasons": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "column": 5,
// CHECK-NEXT:         "kind": "float-reduction",
// CHECK-NEXT:         "line": 28,
// CHECK-NEXT:         "message": "'sum' is a floating-point reduction, whose rounding depends on the order of the iterations",
// CHECK-NEXT:         "suggestion": "reduce(+: sum)"
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "column": 12,
// CHECK-NEXT:         "kind": "array-dependence",
// CHECK-NEXT:         "line": 27,
// CHECK-NEXT:         "message": "'a' is written in one iteration and read in another (dependence distance 1)"
// CHECK-NEXT:       }
// CHECK-NEXT:     ],
// CHECK-NEXT:     "reductions": [],
// CHECK-NEXT:     "regions": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "access": "read-write",

// EMPTY:      "clustrix_report": 1,
// EMPTY-NEXT: "files": [
// EMPTY-NEXT:   "{{.*}}report.cpp.tmp.plain.cpp"
// EMPTY-NEXT: ],
// EMPTY-NEXT: "loops": []
