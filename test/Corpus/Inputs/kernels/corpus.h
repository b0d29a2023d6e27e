/* corpus.h - output helpers shared by the classic kernels of the corpus (C and C++).
 *
 * Every kernel prints its results through these, eight values to a line, doubles with 17
 * significant digits (they read back to the same bits), so that two runs can be compared
 * exactly, or number by number within a tolerance where a reduce clause lets the order of a
 * floating-point sum change.
 */
#ifndef CORPUS_H
#define CORPUS_H

#include <stdio.h>

static void print_array(const char *name, const double *a, int n)
{
  int k;
  for (k = 0; k < n; k++) {
    if (k % 8 == 0)
      printf("%s%s %d:", k ? "\n" : "", name, k);
    printf(" %.17g", a[k]);
  }
  printf("\n");
}

static void print_int_array(const char *name, const int *a, int n)
{
  int k;
  for (k = 0; k < n; k++) {
    if (k % 8 == 0)
      printf("%s%s %d:", k ? "\n" : "", name, k);
    printf(" %d", a[k]);
  }
  printf("\n");
}

static void print_scalar(const char *name, double v)
{
  printf("%s: %.17g\n", name, v);
}

#endif
