/* A gather read through a malloc'd table in C: the generated code asks the runtime's C
 * interface (clustrix_allocation_lo/hi) for the block. */
#include <stdio.h>
#include <stdlib.h>

static void gather(int n, double *o, const double *t, const int *ix) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    o[i] = t[ix[i]] * 0.5 + i;
}

int main(void) {
  const int n = 3000, m = 700;
  double *t = malloc(m * sizeof(double)), *o = malloc(n * sizeof(double));
  int *ix = malloc(n * sizeof(int));
  for (int k = 0; k < m; ++k)
    t[k] = (k * 29) % 113;
  for (int i = 0; i < n; ++i)
    ix[i] = (i * 17) % m;
  gather(n, o, t, ix);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s = s * 0.5 + o[i];
  printf("%.6f %.1f %.1f\n", s, o[0], o[n - 1]);
  free(ix);
  free(o);
  free(t);
  return 0;
}
