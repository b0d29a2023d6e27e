// A body that ends inside a macro invocation is copied up to the invocation's ')': the chunk
// function and the loop as written compile (before, the text stopped after the macro's name).
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error}}:"
// RUN: %clustrix-rewrite --remarks=off %s -o %t.cpp -- -std=c++17
// RUN: FileCheck %s --check-prefix=SRC < %t.cpp
// REQUIRES: compiler
#define SCALE(v) ((v) * factor)

void scaled(int n, double factor, double *out) {
  [[cluster::gpu_parallel]]
  // CHECK: macro-body-end.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices
  for (int i = 0; i < n; ++i)
    out[i] = SCALE(out[i]);
}
// SRC:      auto __clx_chunk = [&,
// SRC:      {{^}}    out[i] = SCALE(out[i]);
// SRC-NEXT: {{^}}      }
// SRC:      CLUSTRIX_RT_AS_WRITTEN
// SRC:      {{^}}    out[i] = SCALE(out[i]);
// The kernel text defines the macro again and uses it as written.
// SRC:      #define SCALE(v) ((v) * factor)
// SRC:      {{^}}    out[i] = SCALE(out[i]);
