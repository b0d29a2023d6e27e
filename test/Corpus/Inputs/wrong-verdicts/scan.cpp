/* Verdicts written wrong on purpose: the corpus's own check must catch both directions. */
#include "corpus.h"

#define N 64

static double a[N], b[N];

int main(void)
{
  int i;

  for (i = 0; i < N; i++)
    a[i] = (double)(i % 7) / 7;
  /* loop scan: parallel */
  [[cluster::gpu_parallel]]
  for (i = 1; i < N; i++)
    a[i] = a[i] + a[i - 1];
  /* loop scale: sequential (it is not: every iteration writes its own element) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < N; i++)
    b[i] = 2.0 * a[i];
  /* loop copy: parallel */
  [[cluster::gpu_parallel]]
  for (i = 0; i < N; i += 3)
    a[i] = b[i];
  print_array("a", a, N);
  print_array("b", b, N);
  return 0;
}
