/* Errors of math calls on GPUs in a C translation unit (domain-errors.test): the C host code
 * names the kernel's last error to the runtime's C interface, which sets errno. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 5000;
  double *a = (double *)malloc(sizeof(double) * n), *b = (double *)malloc(sizeof(double) * n);
  double s = 0;
  int i;
  for (i = 0; i < n; i++)
    a[i] = (i % 9) - 1.0;
  errno = 0;
  [[cluster::gpu_parallel(reduce(+: s))]]
  for (int j = 0; j < n; j++) {
    b[j] = sqrt(a[j] + 1) + fmod(a[j], 2.0);
    s += b[j];
  }
  printf("clean: errno %d, sum %.6f\n", errno, s);
  errno = 0;
  [[cluster::gpu_parallel(reduce(+: s))]]
  for (int j = 0; j < n; j++) {
    b[j] = sqrt(a[j]) + acos(a[j] / 8);
    s += j == n / 2 ? 0 : 1;
  }
  printf("sqrt of -1: errno %d, sum %.6f\n", errno, s);
  errno = 0;
  [[cluster::gpu_parallel]]
  for (int j = 0; j < n; j++)
    b[j] = fmod(a[j], (double)(j % 4));
  printf("fmod by zero: errno %d\n", errno);
  errno = 0;
  [[cluster::gpu_parallel]]
  for (int j = 0; j < n; j++)
    b[j] = log(j == n / 5 ? -1.0 : j == n / 3 ? 0.0 : a[j] + 2) + exp(a[j]);
  printf("log, domain then pole: errno %d\n", errno);
  free(a);
  free(b);
  return 0;
}
