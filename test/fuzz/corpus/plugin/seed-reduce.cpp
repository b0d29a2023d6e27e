double dot(int n, const double *x, const double *y) {
  double s = 0, lo = 1e300, hi = -1e300;
  [[cluster::gpu_parallel(reduce(+: s), schedule(cyclic, 8))]]
  for (int i = 0; i < n; ++i) {
    s += x[i] * y[i];
    lo = x[i] < lo ? x[i] : lo;
    if (y[i] > hi) hi = y[i];
  }
  return s + lo + hi;
}
