/* Collapsed nests run a row of the innermost level at a time (test/EndToEnd/collapsed-rows.test):
 * chunks that start and end inside rows, a `continue` in the body, an innermost level that
 * counts down, three levels, cyclic and dynamic schedules; and PRK's tiled transpose, whose
 * inner tile loop steps by a run-time tile size. */
#include <stdio.h>
#define MIN(a, b) ((a) < (b) ? (a) : (b))
enum { R = 37, C = 53 };
static double a[R][C], b[R][C], t3[5][7][11], A[61 * 61], B[61 * 61];

static void rows(int n, int m) {
  int i, j;
  [[cluster::gpu_parallel(collapse(2), schedule(cyclic, 5))]]
  for (i = 1; i < n; i++)
    for (j = 2; j < m; j += 3) {
      if ((i + j) % 7 == 0)
        continue;
      a[i][j] = b[i - 1][j] * 2 + j;
    }
}

static void down(int n, int m) {
  [[cluster::gpu_parallel(collapse(2), schedule(dynamic, 7))]]
  for (int i = 0; i < n; i++)
    for (int j = m - 1; j >= 0; j -= 2)
      b[i][j] = a[i][j] + i * 0.5;
}

static void three(void) {
  [[cluster::gpu_parallel(collapse(3))]]
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < 7; j++)
      for (int k = 10; k > 0; --k)
        t3[i][j][k] = i * 100 + j * 10 + k + a[i][j];
}

static void transpose(int order, int tile) {
  [[cluster::gpu_parallel]]
  for (int it = 0; it < order; it += tile)
    for (int jt = 0; jt < order; jt += tile)
      for (int i = it; i < MIN(order, it + tile); i++)
        for (int j = jt; j < MIN(order, jt + tile); j++) {
          B[i * order + j] += A[j * order + i];
          A[j * order + i] += 1.0;
        }
}

int main(void) {
  double s = 0;
  int i, j, k;
  for (i = 0; i < R; i++)
    for (j = 0; j < C; j++)
      b[i][j] = (i * 31 + j * 7) % 13;
  for (i = 0; i < 61 * 61; i++)
    A[i] = i % 17;
  rows(R, C);
  down(R - 2, C);
  three();
  transpose(61, 8);
  transpose(61, 61);
  transpose(50, 7);
  for (i = 0; i < R; i++)
    for (j = 0; j < C; j++)
      s += a[i][j] * (i + 1) + b[i][j] * (j + 2);
  for (i = 0; i < 5; i++)
    for (j = 0; j < 7; j++)
      for (k = 0; k < 11; k++)
        s += t3[i][j][k] * (k + 1);
  for (i = 0; i < 61 * 61; i++)
    s += A[i] * (i % 5 + 1) + B[i] * (i % 3 + 1);
  printf("%.1f\n", s);
  return 0;
}
