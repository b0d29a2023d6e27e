/* A tiled loop in C with MIN and MAX macros (test/EndToEnd/clamped-bounds.test). */
#include <stdio.h>
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
static double a[1000], b[1000];
static void tiles(int n) {
  int ii, i;
  [[cluster::gpu_parallel]]
  for (ii = 0; ii < n; ii += 32)
    for (i = MAX(ii, 1); i < MIN(ii + 32, n); i++)
      a[i] = b[i] * 3 + b[i - 1];
}
int main(void) {
  int i;
  double s = 0;
  for (i = 0; i < 1000; i++) b[i] = i % 11;
  tiles(997);
  for (i = 0; i < 1000; i++) s += a[i] * (i % 7 + 1);
  printf("%.1f\n", s);
  return 0;
}
