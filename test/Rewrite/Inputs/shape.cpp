// A loop with a region read, a region written, a captured scalar, a callee and a reduction.
static double twice(double V) { return 2 * V; }

double scaled(int n, double a, const double *x, double *y) {
  double sum = 0;
  [[cluster::gpu_parallel(schedule(cyclic, 64), reduce(+: sum))]]
  for (int i = 0; i < n; ++i) {
    y[i] = a * twice(x[i]);
    sum += y[i];
  }
  return sum;
}
