// Host code in residency scopes that reads or writes single elements
// (docs/data-movement.md#residency): an element read comes back just before the statement that
// reads it, and the devices keep the arrays; an element written is made current on the host
// and dropped from the devices. Then the shapes that still end the proof: a side effect in the
// statement, a read that only one branch of ?: makes, a read in the time-step loop's header.
//
//   residency-reads N STEPS
#include <cstdio>
#include <cstdlib>
#include <vector>

// A convergence test on one element after each step's two sweeps.
int converge(int n, int steps, double *x, double *y) {
  int t, k = 0;
  for (t = 0; t < steps; ++t) {
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; ++i) {
      y[i] = 0.5 * x[i] + 1.0 + 0.001 * i;
    }
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; ++i) {
      x[i] = 0.5 * y[i] + 1.0;
    }
    if (x[k] > 1.99)
      break;
  }
  return t;
}

// Two loops with reads of what the first wrote between them: an assignment, a compound one.
double ends(int n, double *x, double *y) {
  double s = 0.0;
  int k = n / 3;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    y[i] = x[i] * 2.0;
  }
  s = y[0] + y[n - 1];
  s += y[k];
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    x[i] = y[i] + s;
  }
  return s;
}

// A host write between the loops: the second loop reads the element the host wrote.
double writeBetween(int n, double *x, double *y) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    y[i] = x[i] + 1.0;
  }
  y[0] = 5.0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    x[i] = y[i] * 0.5;
  }
  return x[0];
}

// A side effect in the reading statement: no scope.
double sideEffect(int n, double *x, double *y) {
  double s = 0.0;
  int k = 1;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    y[i] = x[i] + 2.0;
  }
  s = y[k++];
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    x[i] = y[i] + s + k;
  }
  return s;
}

// A read only one branch of ?: makes: no scope.
double conditional(int n, double *x, double *y) {
  double s = 0.0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    y[i] = x[i] - 1.0;
  }
  s = n > 10 ? y[10] : 0.0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    x[i] = y[i] + s;
  }
  return s;
}

// A read in the time-step loop's own condition: no scope.
int headerRead(int n, double *x) {
  int t = 0;
  for (t = 0; x[0] < 50.0; ++t) {
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; ++i) {
      x[i] = x[i] + 1.0;
    }
  }
  return t;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 4096;
  int steps = argc > 2 ? std::atoi(argv[2]) : 20;
  std::vector<double> x(n), y(n);
  for (int i = 0; i < n; ++i)
    x[i] = (i % 17) * 0.25;
  int t = converge(n, steps, x.data(), y.data());
  double s1 = ends(n, x.data(), y.data());
  double s2 = writeBetween(n, x.data(), y.data());
  double s3 = sideEffect(n, x.data(), y.data());
  double s4 = conditional(n, x.data(), y.data());
  int t2 = headerRead(n, x.data());
  double sum = 0.0;
  for (int i = 0; i < n; ++i)
    sum += x[i] * (i % 5 + 1) + y[i];
  std::printf("%d %d %.17g %.17g %.17g %.17g %.17g\n", t, t2, s1, s2, s3, s4, sum);
  return 0;
}
