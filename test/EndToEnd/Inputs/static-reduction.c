/* A reduction into a static local (NPB CG's `static double rho;`), called more than once: each
   call's sum starts from the value the function assigns, as in the serial program. C, so that
   the outlined function reaches the static through the environment. */
#include <stdio.h>

static double dot(const double *a, const double *b, int n) {
  static double rho;
  static long count;
  int i;
  rho = 0.0;
  [[cluster::gpu_parallel(reduce(+: rho))]]
  for (i = 0; i < n; i++) {
    rho += a[i] * b[i];
    count += a[i] > 10.0;
  }
  return rho + (double)count;
}

int main(void) {
  static double a[3000], b[3000];
  int i;
  for (i = 0; i < 3000; i++) {
    a[i] = (i % 17) * 0.75;
    b[i] = (i % 5) - 2.0;
  }
  printf("%.3f\n", dot(a, b, 3000));
  printf("%.3f\n", dot(b, a, 1234));
  printf("%.3f\n", dot(a, a, 77));
  return 0;
}
