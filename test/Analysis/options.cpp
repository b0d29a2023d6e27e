// Plugin arguments: remarks=on|off, refusals=warning|error|remark|ignore, max-level=N, and an
// error for a bad one.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=DEFAULT --implicit-check-not="{{warning|error|remark}}:"
// RUN: %clustrix_cxx -fsyntax-only -fplugin-arg-clustrix-remarks=off %s 2>&1 | FileCheck %s --check-prefix=NOREMARK --implicit-check-not="{{warning|error|remark}}:"
// RUN: not %clustrix_cxx -fsyntax-only -fplugin-arg-clustrix-refusals=error %s 2>&1 | FileCheck %s --check-prefix=ERROR --implicit-check-not="{{warning|error|remark}}:"
// RUN: %clustrix_cxx -fsyntax-only -fplugin-arg-clustrix-refusals=remark %s 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not="{{warning|error|remark}}:"
// RUN: %clustrix_cxx -fsyntax-only -fplugin-arg-clustrix-refusals=ignore %s 2>&1 | FileCheck %s --check-prefix=IGNORE --implicit-check-not="{{warning|error|remark}}:"
// RUN: %clustrix_cxx -fsyntax-only -fplugin-arg-clustrix-max-level=1 %s 2>&1 | FileCheck %s --check-prefix=LEVEL --implicit-check-not="{{warning|error|remark}}:"
// RUN: not %clustrix_cxx -fsyntax-only -fplugin-arg-clustrix-max-level=9 %s 2>&1 | FileCheck %s --check-prefix=BADLEVEL
// RUN: not %clustrix_cxx -fsyntax-only -fplugin-arg-clustrix-refusals=loud %s 2>&1 | FileCheck %s --check-prefix=BADREFUSAL
// RUN: not %clustrix_cxx -fsyntax-only -fplugin-arg-clustrix-remarks=maybe %s 2>&1 | FileCheck %s --check-prefix=BADREMARKS
// RUN: not %clustrix_cxx -fsyntax-only -fplugin-arg-clustrix-verbose=1 %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not %clustrix_cxx -fsyntax-only -fplugin-arg-clustrix-report= %s 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: not %clustrix_cxx -fsyntax-only -fplugin-arg-clustrix-project-root= %s 2>&1 | FileCheck %s --check-prefix=NOROOT
// RUN: not %clustrix_cxx -fsyntax-only -fplugin-arg-clustrix-parse=thrice %s 2>&1 | FileCheck %s --check-prefix=BADPARSE
// REQUIRES: compiler

void simple(int n, double *a) {
  // DEFAULT: options.cpp:[[@LINE+6]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); out: a
  // ERROR: options.cpp:[[@LINE+5]]:3: remark: loop parallelized across devices
  // REMARK: options.cpp:[[@LINE+4]]:3: remark: loop parallelized across devices
  // IGNORE: options.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices
  // LEVEL: options.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    a[i] = 0;
  }
}

void branchy(int n, double *a) {
  // DEFAULT: options.cpp:[[@LINE+7]]:3: remark: loop parallelized across devices: schedule default, level 2 (score
  // NOREMARK-NOT: remark
  // ERROR: options.cpp:[[@LINE+5]]:3: remark: loop parallelized across devices
  // REMARK: options.cpp:[[@LINE+4]]:3: remark: loop parallelized across devices
  // IGNORE: options.cpp:[[@LINE+3]]:3: remark: loop parallelized across devices
  // LEVEL: options.cpp:[[@LINE+2]]:3: warning: loop not parallelized: complexity level 2 (score {{[0-9]+}}) is above the configured maximum 1
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < 4; ++j)
      if (a[i] > j)
        a[i] -= j;
  }
}

void dependent(int n, double *a) {
  // DEFAULT: options.cpp:[[@LINE+7]]:3: warning: loop not parallelized: 'a' is written in one iteration and read in another (dependence distance 1)
  // NOREMARK: options.cpp:[[@LINE+6]]:3: warning: loop not parallelized: 'a' is written
  // ERROR: options.cpp:[[@LINE+5]]:3: error: loop not parallelized: 'a' is written
  // REMARK: options.cpp:[[@LINE+4]]:3: remark: loop not parallelized: 'a' is written
  // LEVEL: options.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'a' is written
  // IGNORE-NOT: loop not parallelized
  [[cluster::gpu_parallel]]
  for (int i = 1; i < n; ++i) {
    a[i] = a[i - 1];
  }
}

// BADLEVEL: error: clustrix plugin argument: 'max-level=' takes a level from 1 to 5, not '9' (pass options as -fplugin-arg-clustrix-NAME=VALUE)
// BADREFUSAL: error: clustrix plugin argument: 'refusals=' takes 'warning', 'error', 'remark' or 'ignore', not 'loud'
// BADREMARKS: error: clustrix plugin argument: 'remarks=' takes 'on' or 'off', not 'maybe'
// BADPARSE: error: clustrix plugin argument: 'parse=' takes 'once' or 'twice', not 'thrice' (pass options as -fplugin-arg-clustrix-NAME=VALUE)
// UNKNOWN: error: clustrix plugin argument: unknown option 'verbose=1'; expected report=FILE, emit-rewritten=FILE, remarks=on|off, refusals=warning|error|remark|ignore, max-level=N, project-root=DIR, parse=once|twice, whole-program=on|off or openmp=on|trust|check|off
// NOFILE: error: clustrix plugin argument: 'report=' needs a file name
// NOROOT: error: clustrix plugin argument: 'project-root=' needs a directory

// The OpenMP front door's option (at the end: the lines above are the golden test's input).
// RUN: not %clustrix_cxx -fsyntax-only -fplugin-arg-clustrix-openmp=yes %s 2>&1 | FileCheck %s --check-prefix=BADOMP
// BADOMP: error: clustrix plugin argument: 'openmp=' takes 'on', 'trust', 'check' or 'off', not 'yes' (pass options as -fplugin-arg-clustrix-NAME=VALUE)
// RUN: not %clustrix_cxx -fsyntax-only -fplugin-arg-clustrix-whole-program=maybe %s 2>&1 | FileCheck %s --check-prefix=BADWHOLE
// BADWHOLE: error: clustrix plugin argument: 'whole-program=' takes 'on' or 'off', not 'maybe' (pass options as -fplugin-arg-clustrix-NAME=VALUE)
