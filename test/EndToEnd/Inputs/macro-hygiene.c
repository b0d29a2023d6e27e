/* Macros against the generated code: a macro defined inside the function that holds the loop,
 * and one redefined there, reach the function the loop is outlined to (before this one) with
 * their definitions at the loop; the command line's macros (-DN=4 -DT=int -DLo=7 -DOk=1
 * -DCount=2) keep out of the runtime's header and of the generated code's own names, and N
 * still reaches the loop. */
#include <stdio.h>
#include <stdlib.h>
#define SCALE 3
static void kernel(int n, double *a, const double *b) {
#define SQ(x) ((x) * (x) * SCALE)
#undef SCALE
#define SCALE 5
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = SQ(b[i]) + N;
#undef SQ
}
int main(void) {
  int n = 1000;
  double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) b[i] = i % 7;
  kernel(n, a, b);
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i];
  printf("%.1f %d\n", s, SCALE);
  return 0;
}
