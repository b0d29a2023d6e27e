// Loops that are not in canonical form, whose bounds change, or that leave early are refused
// with the reason at the offending part of the loop.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark}}:"
// REQUIRES: compiler

void form(int n, double *b, unsigned u) {
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}canonical.cpp:[[@LINE+2]]:3: warning: loop not parallelized: induction variable 'x' has type 'double', not an integer type
  // CHECK: {{.*}}canonical.cpp:[[@LINE+1]]:15: note: declared here
  for (double x = 0; x < n; x += 1) {
    b[0] = x;
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}canonical.cpp:[[@LINE+1]]:3: warning: loop not parallelized: the loop initializes more than one variable
  for (int i = 0, j = 0; i < n; ++i) {
    b[i] = j;
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}canonical.cpp:[[@LINE+2]]:3: warning: loop not parallelized: the condition does not compare the induction variable 'i'
  // CHECK: {{.*}}canonical.cpp:[[@LINE+1]]:19: note: condition here
  for (int i = 0; i * i < n; ++i) {
    b[i] = 1;
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}canonical.cpp:[[@LINE+2]]:3: warning: loop not parallelized: the increment is not '++', '--', '+=' or '-=' of the induction variable
  // CHECK: {{.*}}canonical.cpp:[[@LINE+1]]:26: note: increment here
  for (int i = 1; i < n; i *= 2) {
    b[i] = 1;
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}canonical.cpp:[[@LINE+2]]:3: warning: loop not parallelized: the condition is not a comparison of the induction variable with a bound
  // CHECK: {{.*}}canonical.cpp:[[@LINE+1]]:19: note: condition here
  for (int i = 0; i == 0; ++i) {
    b[i] = 1;
  }
  int k = 0;
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}canonical.cpp:[[@LINE+1]]:3: warning: loop not parallelized: the loop does not start by initializing one induction variable
  for (; k < n; ++k) {
    b[k] = 1;
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}canonical.cpp:[[@LINE+1]]:3: warning: loop not parallelized: the increment is not '++', '--', '+=' or '-=' of the induction variable
  for (int i = 0; i < n;) {
    b[i++] = 1;
  }
}

void direction(int n, double *b, unsigned u) {
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}canonical.cpp:[[@LINE+2]]:3: warning: loop not parallelized: induction variable 'i' moves away from the bound: it decreases while the condition needs it to increase
  // CHECK: {{.*}}canonical.cpp:[[@LINE+1]]:19: note: condition here
  for (int i = 0; i < n; --i) {
    b[i] = 1;
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}canonical.cpp:[[@LINE+2]]:3: warning: loop not parallelized: the condition 'i >= 0' is always true for unsigned 'i', so the loop only ends by wrapping around
  // CHECK: {{.*}}canonical.cpp:[[@LINE+1]]:24: note: condition here
  for (unsigned i = u; i >= 0; --i) {
    b[i] = 1;
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}canonical.cpp:[[@LINE+2]]:3: warning: loop not parallelized: the step is zero, so the loop never ends
  // CHECK: {{.*}}canonical.cpp:[[@LINE+1]]:31: note: step here
  for (int i = 0; i < n; i += 0) {
    b[i] = 1;
  }
}

void invariance(int n, int step, double *b) {
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}canonical.cpp:[[@LINE+2]]:3: warning: loop not parallelized: the bound 'n' reads 'n', which the loop modifies
  // CHECK: {{.*}}canonical.cpp:[[@LINE+1]]:23: note: bound here
  for (int i = 0; i < n; ++i) {
    n--;
    b[i] = 1;
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}canonical.cpp:[[@LINE+4]]:3: warning: loop not parallelized: the step 'step' may change
  // CHECK: {{.*}}canonical.cpp:[[@LINE+3]]:31: note: step here
  // CHECK: {{.*}}canonical.cpp:[[@LINE+4]]:5: note: also: 'step' is declared outside the loop and written by every iteration; declare it inside the loop body
  // CHECK: {{.*}}canonical.cpp:[[@LINE+2]]:5: note: also: 'b' is written in one iteration and written in another: two iterations (with step = 0) touch the same element
  for (int i = 0; i < n; i += step) {
    b[i] = 1;
    step = 2;
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}canonical.cpp:[[@LINE+2]]:3: warning: loop not parallelized: the body modifies the induction variable 'i'
  // CHECK: {{.*}}canonical.cpp:[[@LINE+2]]:5: note: modified here
  for (int i = 0; i < n; ++i) {
    i += 1;
    b[i] = 1;
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}canonical.cpp:[[@LINE+3]]:3: warning: loop not parallelized: the address of the induction variable is taken
  // CHECK: {{.*}}canonical.cpp:[[@LINE+4]]:7: note: also: reads memory through '*p', whose extent the analysis cannot determine
  // CHECK: {{.*}}canonical.cpp:[[@LINE+3]]:5: note: also: 'b' is written through a subscript that is not affine in the loop variables, so iterations may write the same element
  for (int i = 0; i < n; ++i) {
    int *p = &i;
    b[*p] = 1;
  }
}

int exits(int n, double *b) {
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}canonical.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'break' leaves the loop early
  // CHECK: {{.*}}canonical.cpp:[[@LINE+3]]:7: note: 'break' here
  for (int i = 0; i < n; ++i) {
    if (b[i] < 0)
      break;
    b[i] = 1;
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}canonical.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'return' leaves the loop early
  // CHECK: {{.*}}canonical.cpp:[[@LINE+3]]:7: note: 'return' here
  for (int i = 0; i < n; ++i) {
    if (b[i] < 0)
      return i;
    b[i] = 1;
  }
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}canonical.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'goto' in the loop body
  // CHECK: {{.*}}canonical.cpp:[[@LINE+3]]:7: note: 'goto' here
  for (int i = 0; i < n; ++i) {
    if (b[i] < 0)
      goto done;
    b[i] = 1;
  }
done:
  // break and continue inside the body's own loops and switches are fine.
  [[cluster::gpu_parallel]]
  // CHECK: {{.*}}canonical.cpp:[[@LINE+1]]:3: remark: loop parallelized across devices: schedule default, level 2 (score 17); out: b
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < 4; ++j)
      if (j == 2)
        break;
    switch (i % 2) {
    case 0:
      b[i] = 0;
      break;
    default:
      continue;
    }
  }
  return 0;
}

// An inner loop `j != b` that steps by one towards b, from a start provably on its side, has
// the range of `j < b` (differential seed 50000, program 199: without it `x[j - 2]` was not
// affine, so only the extent clause bounded the copy, which the read reaches before).
void innerNotEqual(int n, double *a) {
  // CHECK: {{.*}}canonical.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 8); out: a
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j != 12; j += 1)
      a[i * 12 + j] = j;
}
void innerNotEqualDown(int n, double *a) {
  // CHECK: {{.*}}canonical.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 8); out: a
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    for (int j = 11; j != -1; --j)
      a[i * 12 + j] = j;
}
// Stepping by two, `j != 12` might be passed over: no range.
void innerNotEqualByTwo(int n, double *a) {
  // CHECK: {{.*}}canonical.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'a' is written through a subscript over 'j', the variable of an inner loop whose range is not known ('for (int j = 0; j != 12; j += 2)'), so iterations may write the same element
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j != 12; j += 2)
      // CHECK: {{.*}}canonical.cpp:[[@LINE+1]]:7: note: written here
      a[i * 12 + j] = j;
}
