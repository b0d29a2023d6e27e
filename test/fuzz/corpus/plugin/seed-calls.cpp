static inline double sq(double v) { return v * v; }
double norm(int n, const double *x, double &out) {
  double s = 0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    s += sq(x[i]);
  out = s;
  double *p = &s;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    *p += x[i];
  return s;
}
