/* Run through fake-clustrix.py: a sequential loop it accepts, a parallel loop it refuses. */
#include "corpus.h"

#define N 32

static double a[N], b[N];

int main(void)
{
  int i;

  for (i = 0; i < N; i++)
    a[i] = (double)(i % 5) / 5;
  /* loop prefix: sequential (a[i] needs a[i-1]) */
  [[cluster::gpu_parallel]]
  for (i = 1; i < N; i++)
    a[i] = a[i] + a[i - 1];
  /* loop twice: parallel (FAKE-REFUSE) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < N; i++)
    b[i] = 2.0 * a[i];
  /* loop half: parallel */
  [[cluster::gpu_parallel]]
  for (i = 0; i < N; i++)
    b[i] = b[i] + 0.5 * a[i];
  print_array("b", b, N);
  return 0;
}
