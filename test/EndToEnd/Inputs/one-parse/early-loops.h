// Reached from early.h through a macro.
inline void halve(double *p, int n) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    p[i] /= 2;
}
