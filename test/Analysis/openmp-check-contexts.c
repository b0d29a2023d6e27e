// The race check in the states in which a function reaches a loop: the function is run from
// its start at compile time, following the values of its integer and pointer locals (and, in
// main of a whole program, the globals only main writes) while every decision of its control
// flow is known, and the loop is then run iteration by iteration in each state it arrives in.
// A race in one state is reported with that state; a proof needs every state, so the run must
// reach the function's end. Pointers swapped between time steps, a buffer index `p = 1 - p`.
// RUN: %clustrix_cc -fsyntax-only -fplugin-arg-clustrix-openmp=check %s 2>&1 | FileCheck %s --check-prefixes=CHECK,PART --implicit-check-not="{{warning|error|remark}}:"
// RUN: %clustrix_cc -fsyntax-only -fplugin-arg-clustrix-openmp=check -fplugin-arg-clustrix-whole-program=on %s 2>&1 | FileCheck %s --check-prefixes=CHECK,WHOLE --implicit-check-not="{{warning|error|remark}}:"
// REQUIRES: compiler
#include <stdlib.h>

double *g1, *g2;       // only main writes them: followed in a whole program
static double *s1, *s2; // written outside main: never followed
double *w;
void set_w(void) { w = malloc(100 * sizeof(double)); }

// Two blocks swapped after each step: apart in both states.
void swapped(void) {
  double *u = malloc(100 * sizeof(double));
  double *v = malloc(100 * sizeof(double));
  for (int t = 0; t < 10; t++) {
    // CHECK: openmp-check-contexts.c:[[@LINE+1]]:1: remark: OpenMP loop is race-free: run iteration by iteration in each of the 2 states in which 'swapped' reaches it, no two iterations touch one element where either writes it
#pragma omp parallel for
    for (int i = 1; i < 99; i++)
      v[i] = u[i - 1] + u[i + 1];
    double *tmp = u;
    u = v;
    v = tmp;
  }
}

// `u = v` without the swap's other half: one block from the second step on.
void aliased(void) {
  double *u = malloc(100 * sizeof(double));
  double *v = malloc(100 * sizeof(double));
  for (int t = 0; t < 10; t++) {
    // CHECK: openmp-check-contexts.c:[[@LINE+1]]:1: warning: data race in OpenMP loop: iterations i = 1 and i = 2 both reach element 1 of the block allocated at line [[@LINE-2]], through 'v[i]' and 'u[i - 1]', and one writes it, the 2nd time 'aliased' reaches the loop, with u and v at the block allocated at line [[@LINE-2]]
#pragma omp parallel for
    for (int i = 1; i < 99; i++)
      // CHECK: openmp-check-contexts.c:[[@LINE+2]]:7: note: written here
      // CHECK: openmp-check-contexts.c:[[@LINE+1]]:14: note: and read here
      v[i] = u[i - 1] + u[i + 1];
    u = v;
  }
}

// The same, but the loop runs in one step only: the aliased state is never reached.
void aliased_later(void) {
  double *u = malloc(100 * sizeof(double));
  double *v = malloc(100 * sizeof(double));
  for (int t = 0; t < 1; t++) {
    // CHECK: openmp-check-contexts.c:[[@LINE+1]]:1: remark: OpenMP loop is race-free: run iteration by iteration in the one state in which 'aliased_later' reaches it, no two iterations touch one element where either writes it
#pragma omp parallel for
    for (int i = 1; i < 99; i++)
      v[i] = u[i - 1] + u[i + 1];
    u = v;
  }
}

// A double buffer in one block, chosen by p = 1 - p: halves apart, or overlapping.
void buffers(void) {
  double *b = malloc(40 * sizeof(double));
  double *u[2] = {&b[0], &b[20]};
  int p = 0;
  for (int t = 0; t < 5; t++) {
    // CHECK: openmp-check-contexts.c:[[@LINE+1]]:1: remark: OpenMP loop is race-free: run iteration by iteration in each of the 2 states in which 'buffers' reaches it, no two iterations touch one element where either writes it
#pragma omp parallel for
    for (int i = 1; i < 19; i++)
      u[1 - p][i] = u[p][i - 1] + u[p][i + 1];
    p = 1 - p;
  }
}

void buffers_overlap(void) {
  double *b = malloc(40 * sizeof(double));
  double *u[2] = {&b[0], &b[18]};
  int p = 0;
  for (int t = 0; t < 5; t++) {
    // CHECK: openmp-check-contexts.c:[[@LINE+1]]:1: warning: data race in OpenMP loop: iterations i = 1 and i = 18 both reach element 19 of the block allocated at line [[@LINE-4]], through 'u[1 - p][i]' and 'u[p][i + 1]', and one writes it, the 1st time 'buffers_overlap' reaches the loop, with p = 0
#pragma omp parallel for
    for (int i = 1; i < 19; i++)
      // CHECK: openmp-check-contexts.c:[[@LINE+2]]:7: note: written here
      // CHECK: openmp-check-contexts.c:[[@LINE+1]]:35: note: and read here
      u[1 - p][i] = u[p][i - 1] + u[p][i + 1];
    p = 1 - p;
  }
}

// A pointer moved by an integer the run follows: the same element in one iteration first, an
// element of another iteration at the second step.
void moved(void) {
  double *u = malloc(200 * sizeof(double));
  int k = 0;
  for (int t = 0; t < 3; t++) {
    double *v = u + k;
    // CHECK: openmp-check-contexts.c:[[@LINE+1]]:1: warning: data race in OpenMP loop: iterations i = 0 and i = 50 both reach element 50 of the block allocated at line [[@LINE-4]], through 'v[i]' and 'u[i]', and one writes it, the 2nd time 'moved' reaches the loop, with u at the block allocated at line [[@LINE-4]] and v at element 50 of the block allocated at line [[@LINE-4]]
#pragma omp parallel for
    for (int i = 0; i < 100; i++)
      // CHECK: openmp-check-contexts.c:[[@LINE+2]]:7: note: written here
      // CHECK: openmp-check-contexts.c:[[@LINE+1]]:14: note: and read here
      v[i] = u[i] * 2.0;
    k += 50;
  }
}

// A break after the first step: only the state in which the halves are apart.
void moved_far(void) {
  double *u = malloc(200 * sizeof(double));
  int k = 100;
  for (int t = 0; t < 3; t++) {
    double *v = u + k;
    // CHECK: openmp-check-contexts.c:[[@LINE+1]]:1: remark: OpenMP loop is race-free: run iteration by iteration in the one state in which 'moved_far' reaches it, no two iterations touch one element where either writes it
#pragma omp parallel for
    for (int i = 0; i < 100; i++)
      v[i] = u[i] * 2.0;
    k -= 50;
    if (k < 100)
      break;
  }
}

// A fresh block at every step: every state has two blocks.
void fresh_each_step(void) {
  double *u = malloc(100 * sizeof(double));
  for (int t = 0; t < 4; t++) {
    double *v = malloc(100 * sizeof(double));
    // CHECK: openmp-check-contexts.c:[[@LINE+1]]:1: remark: OpenMP loop is race-free: run iteration by iteration in each of the 4 states in which 'fresh_each_step' reaches it, no two iterations touch one element where either writes it
#pragma omp parallel for
    for (int i = 1; i < 99; i++)
      v[i] = u[i - 1] + u[i + 1];
    u = v;
  }
}

// Elements as bytes: the run counts offsets in bytes and compares elements of one size.
void bytes(void) {
  char *u = malloc(100);
  char *v = malloc(100);
  for (int t = 0; t < 2; t++) {
    // CHECK: openmp-check-contexts.c:[[@LINE+1]]:1: warning: data race in OpenMP loop: iterations i = 1 and i = 2 both reach element 1 of the block allocated at line [[@LINE-3]], through 'v[i]' and 'u[i - 1]', and one writes it, the 2nd time 'bytes' reaches the loop, with u and v at the block allocated at line [[@LINE-3]]
#pragma omp parallel for
    for (int i = 1; i < 99; i++)
      // CHECK: openmp-check-contexts.c:[[@LINE+2]]:7: note: written here
      // CHECK: openmp-check-contexts.c:[[@LINE+1]]:14: note: and read here
      v[i] = u[i - 1];
    v = u;
  }
}

// A race seen before the run is lost is still a race: that state is the program's.
void lost_after_race(int argc) {
  double *u = malloc(100 * sizeof(double));
  double *v = u;
  for (int t = 0; t < 10; t++) {
    // CHECK: openmp-check-contexts.c:[[@LINE+1]]:1: warning: data race in OpenMP loop: iterations i = 1 and i = 2 both reach element 1 of the block allocated at line [[@LINE-3]], through 'v[i]' and 'u[i - 1]', and one writes it, the 1st time 'lost_after_race' reaches the loop, with u and v at the block allocated at line [[@LINE-3]]
#pragma omp parallel for
    for (int i = 1; i < 99; i++)
      // CHECK: openmp-check-contexts.c:[[@LINE+2]]:7: note: written here
      // CHECK: openmp-check-contexts.c:[[@LINE+1]]:14: note: and read here
      v[i] = u[i - 1];
    while (argc-- > 0)
      v = malloc(100 * sizeof(double));
  }
}

// A call that does not return ends the run: every state was seen.
void ends_early(void) {
  double *u = malloc(100 * sizeof(double));
  double *v = malloc(100 * sizeof(double));
  for (int t = 0; t < 10; t++) {
    // CHECK: openmp-check-contexts.c:[[@LINE+1]]:1: remark: OpenMP loop is race-free: run iteration by iteration in the one state in which 'ends_early' reaches it, no two iterations touch one element where either writes it
#pragma omp parallel for
    for (int i = 1; i < 99; i++)
      v[i] = u[i - 1];
    if (t == 0)
      exit(0);
    u = v;
  }
}

// Unknown: a decision the run cannot make (on a parameter) that changes a followed pointer.
void unknown_branch(int argc) {
  double *u = malloc(100 * sizeof(double));
  double *v = malloc(100 * sizeof(double));
  for (int t = 0; t < 10; t++) {
    // CHECK: openmp-check-contexts.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: 'v' is written through a pointer that may overlap another array the loop touches; the proof holds where they do not overlap
#pragma omp parallel for
    for (int i = 1; i < 99; i++)
      v[i] = u[i - 1] + u[i + 1];
    if (argc > t)
      u = v;
  }
}

// Unknown: the run is lost after states without a race, so others may follow.
void lost_before_proof(int argc) {
  double *u = malloc(100 * sizeof(double));
  double *v = malloc(100 * sizeof(double));
  for (int t = 0; t < 10; t++) {
    // CHECK: openmp-check-contexts.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: 'v' is written through a pointer that may overlap another array the loop touches; the proof holds where they do not overlap
#pragma omp parallel for
    for (int i = 1; i < 99; i++)
      v[i] = u[i - 1];
    while (argc-- > 0)
      v = u;
  }
}

// Unknown: the address of u leaves the function, so a callee may change it.
void escape(double **);
void escaped(void) {
  double *u = malloc(100 * sizeof(double));
  double *v = malloc(100 * sizeof(double));
  escape(&u);
  for (int t = 0; t < 10; t++) {
    // CHECK: openmp-check-contexts.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: 'v' is written through a pointer that may overlap another array the loop touches; the proof holds where they do not overlap
#pragma omp parallel for
    for (int i = 1; i < 99; i++)
      v[i] = u[i - 1] + u[i + 1];
  }
}

// Unknown: an element outside its block (u holds 10) is undefined behaviour, no verdict.
void outside_block(void) {
  double *u = malloc(10 * sizeof(double));
  double *v = malloc(100 * sizeof(double));
  for (int t = 0; t < 2; t++) {
    // CHECK: openmp-check-contexts.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: 'v' is written through a pointer that may overlap another array the loop touches; the proof holds where they do not overlap
#pragma omp parallel for
    for (int i = 1; i < 99; i++)
      v[i] = u[i - 1] + u[i + 1];
    double *tmp = u;
    u = v;
    v = tmp;
  }
}

// Unknown: globals that another function writes have no known value in a run.
void statics(void) {
  for (int t = 0; t < 3; t++) {
    // CHECK: openmp-check-contexts.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: 's2' is written through a pointer that may overlap another array the loop touches; the proof holds where they do not overlap
#pragma omp parallel for
    for (int i = 1; i < 99; i++)
      s2[i] = s1[i - 1];
    double *tmp = s1;
    s1 = s2;
    s2 = tmp;
  }
}

// The dependence test takes each symbol for a free value; a variable that the run computes in
// every state has only its states' values. k stays 0 (a value computed, not a constant): no
// iteration reads another's element, where a free k would meet one.
void offset_zero(void) {
  double *u = malloc(100 * sizeof(double));
  int k = 0;
  for (int t = 0; t < 4; t++) {
    // CHECK: openmp-check-contexts.c:[[@LINE+1]]:1: remark: OpenMP loop is race-free: run iteration by iteration in the one state in which 'offset_zero' reaches it, no two iterations touch one element where either writes it
#pragma omp parallel for
    for (int i = 0; i < 50; i++)
      u[i] = u[i + k] * 2.0;
    k = t - t;
  }
}

// k is 0, then 1: the witness is tested again in each state, and holds in the second.
void offset_toggles(void) {
  double *u = malloc(100 * sizeof(double));
  int k = 0;
  for (int t = 0; t < 4; t++) {
    // CHECK: openmp-check-contexts.c:[[@LINE+1]]:1: warning: data race in OpenMP loop: 'u' is written in one iteration and read in another: iterations 49 and 48 touch the same element, the 2nd time 'offset_toggles' reaches the loop, with k = 1
#pragma omp parallel for
    for (int i = 0; i < 50; i++)
      // CHECK: openmp-check-contexts.c:[[@LINE+2]]:7: note: written here
      // CHECK: openmp-check-contexts.c:[[@LINE+1]]:14: note: and read here
      u[i] = u[i + k] * 2.0;
    k = 1 - k;
  }
}

// Unknown: k stays 0, the bound is a parameter, so the loop is not run in its state; the
// free witness is not one.
void offset_zero_bound(int n) {
  double *u = malloc(100 * sizeof(double));
  int k = 0;
  for (int t = 0; t < 4; t++) {
    // CHECK: openmp-check-contexts.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: the dependence test's witness needs k = {{-?[0-9]+}}, which 'offset_zero_bound' never has when it reaches the loop
#pragma omp parallel for
    for (int i = 0; i < n; i++)
      u[i] = u[i + k] * 2.0;
    k = t - t;
  }
}

// A bound the run does not know (a parameter): the loop is not run, but the analysis proves it
// where its pointers reach apart objects, and each state says where they point. Two blocks
// swapped: apart in every state.
void swapped_n(int n) {
  double *u = malloc(n * sizeof(double));
  double *v = malloc(n * sizeof(double));
  for (int t = 0; t < 10; t++) {
    // CHECK: openmp-check-contexts.c:[[@LINE+1]]:1: remark: OpenMP loop is race-free: the analysis proves it where its pointers reach apart objects, and in each of the 2 states in which 'swapped_n' reaches it they do, or meet only where the exact test finds no two iterations
#pragma omp parallel for
    for (int i = 1; i < n - 1; i++)
      v[i] = u[i - 1] + u[i + 1];
    double *tmp = u;
    u = v;
    v = tmp;
  }
}

// One block from the second step on: the exact test on offsets into it finds the race.
void aliased_n(int n) {
  double *u = malloc(n * sizeof(double));
  double *v = malloc(n * sizeof(double));
  for (int t = 0; t < 10; t++) {
    // CHECK: openmp-check-contexts.c:[[@LINE+1]]:1: warning: data race in OpenMP loop: 'v' and 'u' point into the block allocated at line [[@LINE-2]], and iterations 0 and 1 (with n = 4) touch one element through them, one writing, the other reading, the 2nd time 'aliased_n' reaches the loop, with u and v at the block allocated at line [[@LINE-2]]
#pragma omp parallel for
    for (int i = 1; i < n - 1; i++)
      // CHECK: openmp-check-contexts.c:[[@LINE+2]]:7: note: written here
      // CHECK: openmp-check-contexts.c:[[@LINE+1]]:14: note: and read here
      v[i] = u[i - 1] + u[i + 1];
    u = v;
  }
}

// Two pointers one element apart in one block: compared as offsets, a race.
void shifted_n(int n) {
  double *b = malloc(2 * n * sizeof(double));
  double *u = b, *v = b + 1;
  for (int t = 0; t < 10; t++) {
    // CHECK: openmp-check-contexts.c:[[@LINE+1]]:1: warning: data race in OpenMP loop: 'v' and 'u' point into the block allocated at line [[@LINE-3]], and iterations 0 and 2 (with n = 5) touch one element through them, one writing, the other reading, the 1st time 'shifted_n' reaches the loop, with u at the block allocated at line [[@LINE-3]] and v at element 1 of the block allocated at line [[@LINE-3]]
#pragma omp parallel for
    for (int i = 1; i < n - 1; i++)
      // CHECK: openmp-check-contexts.c:[[@LINE+2]]:7: note: written here
      // CHECK: openmp-check-contexts.c:[[@LINE+1]]:14: note: and read here
      v[i] = u[i - 1] + u[i + 1];
  }
}

int main(void) {
  set_w();
  double *a = malloc(100 * sizeof(double));
  for (int t = 0; t < 2; t++) {
    // CHECK: openmp-check-contexts.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: 'w' is written through a pointer that may overlap another array the loop touches; the proof holds where they do not overlap
#pragma omp parallel for
    for (int i = 0; i < 99; i++)
      w[i] = a[i + 1];
    a = w;
  }
  g1 = malloc(100 * sizeof(double));
  g2 = malloc(100 * sizeof(double));
  for (int t = 0; t < 3; t++) {
    // PART: openmp-check-contexts.c:[[@LINE+2]]:1: remark: OpenMP race check: unknown: 'g2' is written through a pointer that may overlap another array the loop touches; the proof holds where they do not overlap
    // WHOLE: openmp-check-contexts.c:[[@LINE+1]]:1: remark: OpenMP loop is race-free: run iteration by iteration in each of the 2 states in which 'main' reaches it, no two iterations touch one element where either writes it
#pragma omp parallel for
    for (int i = 1; i < 99; i++)
      g2[i] = g1[i - 1] + g1[i + 1];
    double *tmp = g1;
    g1 = g2;
    g2 = tmp;
  }
  return 0;
}
// PART: remark: OpenMP race check: 24 worksharing loops: 8 with a race, 8 race-free, 8 unknown
// WHOLE: remark: OpenMP race check: 24 worksharing loops: 8 with a race, 9 race-free, 7 unknown
// CHECK: warnings generated.
