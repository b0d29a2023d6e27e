/* A program that includes the runtime's C header itself (to read its settings, say) before an
   annotated loop: the header's own macros (CLUSTRIX_RT_ABI_VERSION) are then defined where the
   generated code stands, and the generated code uses them as the runtime's. */
#include <clustrix/runtime_c.h>
#include <stdio.h>

void scale(int n, double *x) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    x[i] = 2.0 * x[i];
}

int main(void) {
  double x[1000];
  for (int i = 0; i < 1000; ++i)
    x[i] = i;
  scale(1000, x);
  printf("%g %g\n", x[1], x[999]);
  return 0;
}
