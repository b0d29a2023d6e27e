/* An annotated loop without its marker comment, and a marker without its attribute. */
#include "corpus.h"

#define N 16

static double a[N];

int main(void)
{
  int i;

  [[cluster::gpu_parallel]]
  for (i = 0; i < N; i++)
    a[i] = i;
  /* loop lost: parallel */
  for (i = 0; i < N; i++)
    a[i] = 2 * a[i];
  print_array("a", a, N);
  return 0;
}
