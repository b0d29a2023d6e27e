/* Residency scopes in C (docs/data-movement.md#residency): a time-step Jacobi with a pointer
   swap and a convergence read, and two loops with reads and a write between them, keep their data on the
   GPUs; a `break` in a time step ends it inside the scope. C has no destructor to end a scope
   however its block is left, so a time step with a `return` in it, and loops with a `break`
   between them that leaves their block, get no scope.

     residency M STEPS */
#include <stdio.h>
#include <stdlib.h>

int jacobi(int m, int steps, double *a, double *b) {
  int t, k = m + 1;
  for (t = 0; t < steps; ++t) {
    [[cluster::gpu_parallel]]
    for (int i = 1; i < m - 1; ++i) {
      for (int j = 1; j < m - 1; ++j)
        b[i * m + j] = 0.25 * (a[(i - 1) * m + j] + a[(i + 1) * m + j] + a[i * m + j - 1] +
                               a[i * m + j + 1]);
    }
    double *tmp = a;
    a = b;
    b = tmp;
    if (a[k] < 0.0)
      break;
  }
  return t;
}

double between(int n, double *x, double *y) {
  double s = 0.0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    y[i] = x[i] * 0.5;
  }
  s = y[0] + y[n - 1];
  y[1] = s;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    x[i] = y[i] + s;
  }
  return s;
}

/* A return in the time step: no scope. */
int returns(int n, int steps, double *x) {
  for (int t = 0; t < steps; ++t) {
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; ++i) {
      x[i] = x[i] + 1.0;
    }
    if (t == 2)
      return t;
  }
  return steps;
}

/* A break between two loops, which leaves the loop around them: that loop reads the array in
   its own condition, so it is no time step, and the two loops get no scope of their own. */
int breaks(int n, int rounds, double *x, double *y) {
  int r = 0;
  while (r < rounds && x[0] > -1.0) {
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; ++i) {
      y[i] = x[i] + 2.0;
    }
    if (r == 1)
      break;
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; ++i) {
      x[i] = y[i] * 0.5;
    }
    ++r;
  }
  return r;
}

int main(int argc, char **argv) {
  int m = argc > 1 ? atoi(argv[1]) : 64;
  int steps = argc > 2 ? atoi(argv[2]) : 5;
  size_t size = (size_t)m * m;
  double *a = malloc(size * sizeof(double)), *b = malloc(size * sizeof(double));
  for (size_t i = 0; i < size; ++i)
    a[i] = b[i] = (double)(i % 31);
  int t = jacobi(m, steps, a, b);
  double s = 0.0;
  for (size_t i = 0; i < size; ++i)
    s += a[i] * (double)(i % 7 + 1) + b[i];
  int n = 1000;
  double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    x[i] = i * 0.5;
  double s1 = between(n, x, y);
  int t2 = returns(n, 5, x);
  int r = breaks(n, 4, x, y);
  double u = 0.0;
  for (int i = 0; i < n; ++i)
    u += x[i] + 2.0 * y[i];
  printf("%d %.17g %.17g %d %d %.17g\n", t, s, s1, t2, r, u);
  free(a);
  free(b);
  free(x);
  free(y);
  return 0;
}
