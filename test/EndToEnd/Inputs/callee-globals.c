/* Callees that read globals, in C (test/EndToEnd/callee-globals.test): the kernel passes them
   as parameters after the callee's own, and declares the constants with the host's values. */
#include <stdio.h>

#define N 8
static const int Rows = N / 2;
static const double Half = 0.5;
double grid[N][N];
int offset;
struct Shape { int w, h; } shape = {3, 5};

static double corner(void) { return grid[0][0] * Half + shape.w; }
static double cell(int i, int j) { return grid[i % N][j % N] + offset + corner(); }
static double row(int i) {
  double s = 0;
  int j;
  for (j = 0; j < Rows; j++)
    s += cell(i, j);
  return s;
}

int main(void) {
  double out[64];
  double sum = 0;
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      grid[i][j] = i * 0.5 - j;
  offset = 11;
  [[cluster::gpu_parallel]]
  for (i = 0; i < 64; i++)
    out[i] = row(i) * shape.h;
  for (i = 0; i < 64; i++)
    sum += out[i] * (i + 1);
  printf("%.17g %.17g %.17g\n", sum, out[0], out[63]);
  return 0;
}
