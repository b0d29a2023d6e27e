// A header without templates: rewritten to the same text for every unit that includes it.
#ifndef PLAIN_H
#define PLAIN_H
inline void axpy(double *y, const double *x, double a, int n) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}
#endif
