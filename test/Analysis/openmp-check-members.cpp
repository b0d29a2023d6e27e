// The race check's constants in C++: a static data member that no code writes keeps its
// value; one written through an object (`s.n = 200`) is no constant.
// RUN: %clustrix_cxx -fsyntax-only -fplugin-arg-clustrix-openmp=check -fplugin-arg-clustrix-whole-program=on %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark}}:"
// REQUIRES: compiler
struct Kept { static int n; };
int Kept::n = 100;
struct Moved { static int n; };
int Moved::n = 100;
double b[100][100];

void set(Moved &s) { s.n = 200; }

void f() {
  // CHECK: openmp-check-members.cpp:[[@LINE+1]]:1: remark: OpenMP loop is race-free: no two iterations touch one element or variable where either writes it
#pragma omp parallel for
  for (int i = 0; i < 100; i++)
    for (int j = 0; j < Kept::n - 1; j++)
      b[i][j] = b[i][j + 1];
  // CHECK: openmp-check-members.cpp:[[@LINE+1]]:1: remark: OpenMP race check: unknown: a subscript of 'b' may leave its dimension (into the next row), which the proof does not cover
#pragma omp parallel for
  for (int i = 0; i < 100; i++)
    for (int j = 0; j < Moved::n - 1; j++)
      b[i][j] = b[i][j + 1];
}
// CHECK: remark: OpenMP race check: 2 worksharing loops: 0 with a race, 1 race-free, 1 unknown
