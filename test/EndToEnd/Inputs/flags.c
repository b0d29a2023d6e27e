/* A flag in C: a _Bool that some iterations set (test/EndToEnd/flags.test). */
#include <stdbool.h>
#include <stdio.h>
static bool anyAbove(int n, const double *a, double limit) {
  bool found = false;
  int i;
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++)
    if (a[i] > limit)
      found = true;
  return found;
}
int main(void) {
  static double a[5000];
  int i;
  for (i = 0; i < 5000; i++)
    a[i] = (i * 37) % 1000;
  printf("%d %d\n", anyAbove(5000, a, 998.5), anyAbove(5000, a, 999.5));
  return 0;
}
