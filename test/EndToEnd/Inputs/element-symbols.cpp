// Inner loops bounded by elements of shared arrays at constant subscripts (NPB BT's
// `grid_points[1] - 1`): the elements are symbols of the boxes each GPU copies. A loop that
// writes such an element through a pointer runs serially (the regions' alias check).
#include <cstdio>

static int grid_points[3];
static int dims[2][2];
static double rhs[12][10][8], forcing[12][10][8];

static void copyForcing() {
  int i, j, k;
  [[cluster::gpu_parallel]]
  for (k = 0; k <= grid_points[2] - 1; k++)
    for (j = 1; j <= grid_points[1] - 2; j++)
      for (i = 0; i <= grid_points[0] - 1; i++)
        rhs[k][j][i] = forcing[k][j][i] + k;
}

static void rows(double *a, int n) {
  [[cluster::gpu_parallel]]
  for (int r = 0; r < n; r++)
    for (int c = 0; c < dims[1][0]; c++)
      a[r * dims[1][0] + c] = r + 0.5 * c;
}

static void local(double *a, int n, int m) {
  int d[2] = {n, m};
  [[cluster::gpu_parallel]]
  for (int r = 0; r < d[0]; r++)
    for (int c = 0; c < d[1]; c++)
      a[r * d[1] + c] *= 2;
}

// q points into grid_points: the loop changes its own inner bound.
__attribute__((noinline)) static void alias(int *q, double *a) {
  [[cluster::gpu_parallel]]
  for (int r = 0; r < 4; r++) {
    for (int c = 0; c < grid_points[1]; c++)
      a[c * 4 + r] += 1;
    q[r] = 2 + r;
  }
}

int main() {
  grid_points[0] = 8;
  grid_points[1] = 9; // one row of rhs stays as it was
  grid_points[2] = 12;
  dims[1][0] = 7;
  for (int k = 0; k < 12; k++)
    for (int j = 0; j < 10; j++)
      for (int i = 0; i < 8; i++) {
        forcing[k][j][i] = k * 0.5 + j * 0.25 + i;
        rhs[k][j][i] = -1;
      }
  copyForcing();
  double s = 0;
  for (int k = 0; k < 12; k++)
    for (int j = 0; j < 10; j++)
      for (int i = 0; i < 8; i++)
        s += rhs[k][j][i] * (1 + (k + j + i) % 3);
  printf("rhs %.3f\n", s);
  static double a[256];
  for (int i = 0; i < 256; i++)
    a[i] = 1;
  rows(a, 9);
  local(a, 5, 9);
  s = 0;
  for (int i = 0; i < 256; i++)
    s += a[i] * (i % 5 + 1);
  printf("rows %.3f\n", s);
  alias(grid_points, a);
  s = 0;
  for (int i = 0; i < 256; i++)
    s += a[i] * (i % 5 + 1);
  printf("alias %.3f %d\n", s, grid_points[1]);
  return 0;
}
