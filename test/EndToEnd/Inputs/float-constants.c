/* INFINITY, HUGE_VAL and NAN in a C translation unit's loops on GPUs (float-constants.test). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4000;
  double *a = (double *)malloc(sizeof(double) * n);
  int i, nans = 0, infs = 0;
  double s = 0;
  for (i = 0; i < n; i++)
    a[i] = (i % 11) - 5.0;
  [[cluster::gpu_parallel]]
  for (int j = 0; j < n; j++)
    a[j] = a[j] > 4 ? INFINITY : a[j] < -4 ? -HUGE_VAL : a[j] == 0 ? NAN : a[j] * 2;
  for (i = 0; i < n; i++) {
    nans += isnan(a[i]) != 0;
    infs += isinf(a[i]) != 0;
    s += isfinite(a[i]) ? a[i] : 0;
  }
  printf("nans %d, infinities %d, sum %.6f\n", nans, infs, s);
  free(a);
  return 0;
}
