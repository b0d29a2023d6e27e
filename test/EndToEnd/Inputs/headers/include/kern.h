// Kernels in a header of the project, included by two translation units (headers.test):
// an inline function, a function template that each unit instantiates otherwise, and a loop
// that carries a value.
#ifndef KERN_H
#define KERN_H
inline void scale(double *a, const double *b, double s, int n) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    a[i] = b[i] * s;
}
template <class T> T dot(const T *a, const T *b, int n) {
  T sum = 0;
  [[cluster::gpu_parallel(reduce(+: sum))]]
  for (int i = 0; i < n; ++i)
    sum += a[i] * b[i];
  return sum;
}
inline void carried(double *a, int n) {
  [[cluster::gpu_parallel]]
  for (int i = 1; i < n; ++i)
    a[i] = a[i - 1] + 1;
}
#endif
