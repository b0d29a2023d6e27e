// The race check's run of a function (openmp-check-contexts.c) in C++: a variable that a
// reference, a lambda's capture by reference or a call's reference parameter may change is not
// followed, so its value in a run is unknown.
// RUN: %clustrix_cc -x c++ -fsyntax-only -fplugin-arg-clustrix-openmp=check %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark}}:"
// REQUIRES: compiler
#include <utility>

void reference() {
  double *u = new double[100];
  double *v = new double[100];
  double *&r = v;
  for (int t = 0; t < 2; t++) {
    // CHECK: openmp-check-contexts.cpp:[[@LINE+1]]:1: remark: OpenMP race check: unknown: 'v' is written through a pointer that may overlap another array the loop touches; the proof holds where they do not overlap
#pragma omp parallel for
    for (int i = 1; i < 99; i++)
      v[i] = u[i - 1];
    r = u;
  }
}

void lambda() {
  double *u = new double[100];
  double *v = new double[100];
  auto alias = [&] { v = u; };
  for (int t = 0; t < 2; t++) {
    // CHECK: openmp-check-contexts.cpp:[[@LINE+1]]:1: remark: OpenMP race check: unknown: 'v' is written through a pointer that may overlap another array the loop touches; the proof holds where they do not overlap
#pragma omp parallel for
    for (int i = 1; i < 99; i++)
      v[i] = u[i - 1];
    alias();
  }
}

void swapped() {
  double *u = new double[100];
  double *v = new double[100];
  for (int t = 0; t < 2; t++) {
    // CHECK: openmp-check-contexts.cpp:[[@LINE+1]]:1: remark: OpenMP race check: unknown: 'v' is written through a pointer that may overlap another array the loop touches; the proof holds where they do not overlap
#pragma omp parallel for
    for (int i = 1; i < 99; i++)
      v[i] = u[i - 1];
    std::swap(u, v);
  }
}

// Blocks from new[] are followed as malloc's are; the swap spelled out is followed.
void spelled_out() {
  double *u = new double[100];
  double *v = new double[100];
  for (int t = 0; t < 2; t++) {
    // CHECK: openmp-check-contexts.cpp:[[@LINE+1]]:1: remark: OpenMP loop is race-free: run iteration by iteration in each of the 2 states in which 'spelled_out' reaches it, no two iterations touch one element where either writes it
#pragma omp parallel for
    for (int i = 1; i < 99; i++)
      v[i] = u[i - 1];
    double *tmp = u;
    u = v;
    v = tmp;
  }
}

// new[] of 10 elements, read up to element 98: outside the block, no verdict.
void short_block() {
  double *u = new double[10];
  double *v = new double[100];
  for (int t = 0; t < 2; t++) {
    // CHECK: openmp-check-contexts.cpp:[[@LINE+1]]:1: remark: OpenMP race check: unknown: 'v' is written through a pointer that may overlap another array the loop touches; the proof holds where they do not overlap
#pragma omp parallel for
    for (int i = 1; i < 99; i++)
      v[i] = u[i - 1];
    double *tmp = u;
    u = v;
    v = tmp;
  }
}
// CHECK: remark: OpenMP race check: 5 worksharing loops: 0 with a race, 1 race-free, 4 unknown
