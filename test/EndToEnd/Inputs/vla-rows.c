/* Pointers to rows of variable length (C's VLA types, PRK C1z's `double (*in)[n]`): the rows'
 * extents come from the type, read with sizeof at run time, so chunks' boxes are rows and
 * columns, not the whole address space; before, every call ran serially ("write boxes of 'a'
 * overlap between chunks"). Two and three levels; n changes after the types are declared, and
 * the boxes keep the types' extents. */
#include <stdio.h>
#include <stdlib.h>

static void scale(int n, int m, double (*a)[m], const double (*b)[m]) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      a[i][j] = b[i][j] * 2.0 + i;
}

static void cube(int p, int n, int m, double (*c)[n][m]) {
  [[cluster::gpu_parallel]]
  for (int k = 0; k < p; k++)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++)
        c[k][i][j] += k * 100 + i * 10 + j;
}

int main(void) {
  int n = 300, m = 70, p = 9;
  double (*a)[m] = malloc(sizeof(double[n][m]));
  double (*b)[m] = malloc(sizeof(double[n][m]));
  double (*c)[n][m] = calloc(1, sizeof(double[p][n][m]));
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      b[i][j] = (i * 7 + j) % 13;
  int rows = n;
  n = 5; /* the VLA types keep their sizes */
  scale(rows, m, a, (const double (*)[m])b);
  n = rows;
  cube(p, n, m, c);
  cube(p, n, m, c);
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      s = s * 0.5 + a[i][j];
  for (int k = 0; k < p; k++)
    for (int i = 0; i < n; i++)
      s += c[k][i][m - 1 - i % m];
  printf("%.6f\n", s);
  free(a);
  free(b);
  free(c);
  return 0;
}
