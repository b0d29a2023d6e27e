// The race check and the team's threads: a shared variable that only the thread of one number
// uses (every use under `if (omp_get_thread_num() == 0)`) is no race; a threadprivate array is
// each thread's own; the OpenMP runtime's queries write nothing.
// RUN: %clustrix_cc -fsyntax-only -fplugin-arg-clustrix-openmp=check %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark}}:"
// REQUIRES: compiler
int omp_get_thread_num(void);
int omp_get_num_threads(void);

double tp[64];
#pragma omp threadprivate(tp)
int g;
void touch(void) { g = 0; }

void threads(int n, double *restrict a) {
  double s = 0, t = 0;
  int c = 0;
  // CHECK: openmp-check-threads.c:[[@LINE+1]]:1: remark: OpenMP loop is race-free: no two iterations touch one element or variable where either writes it
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    a[i] = omp_get_num_threads();
    if (omp_get_thread_num() == 0)
      s = a[i];
    if (0 == omp_get_thread_num())
      c++;
  }
  // Read by every thread: not one thread's.
  // CHECK: openmp-check-threads.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: 's' is shared (declared outside the loop, in no private or reduction clause) and written in some iterations only, so no two iterations are known to write it
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    if (omp_get_thread_num() == 0)
      s = 1;
    a[i] = s;
  }
  // The else branch runs in the other threads.
  // CHECK: openmp-check-threads.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: 't' is shared (declared outside the loop, in no private or reduction clause) and written in some iterations only, so no two iterations are known to write it
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    if (omp_get_thread_num() == 0)
      t = 1;
    else
      t = 2;
    a[i] = i;
  }
  // A global that a callee may reach.
  // CHECK: openmp-check-threads.c:[[@LINE+1]]:1: remark: OpenMP race check: unknown: 'g' is shared (declared outside the loop, in no private or reduction clause) and written in some iterations only, so no two iterations are known to write it
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    if (omp_get_thread_num() == 0)
      g = i;
    touch();
  }
  // Each thread's own copy of tp: no race through it, witness or not.
  // CHECK: openmp-check-threads.c:[[@LINE+1]]:1: remark: OpenMP loop is race-free: no two iterations touch one element or variable where either writes it
#pragma omp parallel for
  for (int i = 0; i < 63; i++)
    tp[i] = tp[i + 1];
}
// CHECK: remark: OpenMP race check: 5 worksharing loops: 0 with a race, 2 race-free, 3 unknown
