// The race check and pointer parameters: two parameters (or a parameter and an array) are
// apart where every call of the function passes two different variables' whole objects. The
// unit holds every call of a static function whose address it never takes; of a function of
// external linkage only when the unit is the whole program (whole-program=on).
// RUN: %clustrix_cc -fsyntax-only -fplugin-arg-clustrix-openmp=check %s 2>&1 | FileCheck %s --check-prefixes=CHECK,PART --implicit-check-not="{{warning|error|remark}}:"
// RUN: %clustrix_cc -fsyntax-only -fplugin-arg-clustrix-openmp=check -fplugin-arg-clustrix-whole-program=on %s 2>&1 | FileCheck %s --check-prefixes=CHECK,WHOLE --implicit-check-not="{{warning|error|remark}}:"
// REQUIRES: compiler

double a[100], b[100], c[100];

static void apart(double *out, const double *in, int n) {
  // CHECK: openmp-check-calls.c:[[@LINE+1]]:1: remark: OpenMP loop is race-free: no two iterations touch one element or variable where either writes it
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    out[i] = in[i] * 2;
}

void exported(double *out, const double *in, int n) {
  // PART: openmp-check-calls.c:[[@LINE+2]]:1: remark: OpenMP race check: unknown: 'out' is written through a pointer that may overlap another array the loop touches; the proof holds where they do not overlap
  // WHOLE: openmp-check-calls.c:[[@LINE+1]]:1: remark: OpenMP loop is race-free: no two iterations touch one element or variable where either writes it
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    out[i] = in[i] + 1;
}

static void same(double *out, const double *in, int n) {
  // CHECK: openmp-check-calls.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: 'out' is written through a pointer that may overlap another array the loop touches; the proof holds where they do not overlap
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    out[i] = in[i] + 1;
}

static void escapes(double *out, const double *in, int n) {
  // CHECK: openmp-check-calls.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: 'out' is written through a pointer that may overlap another array the loop touches; the proof holds where they do not overlap
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    out[i] = in[i] + 1;
}

static void forwarded(double *out, const double *in, int n) {
  // CHECK: openmp-check-calls.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: 'out' is written through a pointer that may overlap another array the loop touches; the proof holds where they do not overlap
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    out[i] = in[i] + 1;
}

void (*keep)(double *, const double *, int) = escapes;

void caller(double *p, double *q) {
  apart(a, b, 100);
  apart(c, a, 100);
  exported(a, b, 100);
  same(a, b, 100);
  same(a, a, 100); // the same array for both
  escapes(a, b, 100);
  forwarded(p, q, 100); // pointers of unknown value
}
// PART: remark: OpenMP race check: 5 worksharing loops: 0 with a race, 1 race-free, 4 unknown
// WHOLE: remark: OpenMP race check: 5 worksharing loops: 0 with a race, 2 race-free, 3 unknown
