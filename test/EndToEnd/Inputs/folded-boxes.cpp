// Regions of four and five dimensions (test/EndToEnd/folded-boxes.test), as NPB's BT, SP and LU
// keep their grids (`double (*rhs)[JMAXP+1][IMAXP+1][5]`): a box has three dimensions, and the
// third is the fold of the rest. Chunks of the outer loop write disjoint boxes, so they run on
// several GPUs; a folded row that a chunk does not write in full (trailing subscripts over part
// of their rows, or fixed) is copied in before the kernel, so the elements it skips keep their
// values.
#include <cstdio>
#include <cstdlib>

enum { K = 6, J = 7, I = 8, M = 5 };
static int grid_points[3] = {I, J, K};
static double u[K][J][I][M];
static double (*rhs)[J][I][M] = (double(*)[J][I][M])malloc(sizeof(double) * K * J * I * M);
static double (*forcing)[J][I][M] = (double(*)[J][I][M])malloc(sizeof(double) * K * J * I * M);
static double w[4][3][4][2][3];

static double sum() {
  double s = 0;
  for (int k = 0; k < K; k++)
    for (int j = 0; j < J; j++)
      for (int i = 0; i < I; i++)
        for (int m = 0; m < M; m++)
          s += rhs[k][j][i][m] * (1 + m + 5 * i) + u[k][j][i][m];
  for (int a = 0; a < 4; a++)
    for (int b = 0; b < 3; b++)
      for (int c = 0; c < 4; c++)
        for (int d = 0; d < 2; d++)
          for (int e = 0; e < 3; e++)
            s += w[a][b][c][d][e] * (a + 2 * b + 3 * c + 5 * d + 7 * e + 1);
  return s;
}

int main() {
  int i, j, k, m;
  for (k = 0; k < K; k++)
    for (j = 0; j < J; j++)
      for (i = 0; i < I; i++)
        for (m = 0; m < M; m++) {
          forcing[k][j][i][m] = k * 1000 + j * 100 + i * 10 + m;
          u[k][j][i][m] = 0.5 * (k - j) + 0.25 * i * m;
          rhs[k][j][i][m] = -1;
        }

  // Every element of each chunk's rows: the folded row [i][m] is written whole.
  [[cluster::gpu_parallel]]
  for (k = 0; k <= grid_points[2] - 1; k++)
    for (j = 0; j <= grid_points[1] - 1; j++)
      for (i = 0; i <= grid_points[0] - 1; i++)
        for (m = 0; m < 5; m++)
          rhs[k][j][i][m] = forcing[k][j][i][m];
  printf("%.17g\n", sum());

  // A stencil over the interior, reading neighbours in every dimension.
  [[cluster::gpu_parallel]]
  for (k = 1; k <= grid_points[2] - 2; k++)
    for (j = 1; j <= grid_points[1] - 2; j++)
      for (i = 1; i <= grid_points[0] - 2; i++)
        for (m = 0; m < 5; m++)
          rhs[k][j][i][m] += u[k][j][i + 1][m] - 2.0 * u[k][j][i][m] + u[k][j][i - 1][m] +
                             u[k + 1][j][i][m] - u[k - 1][j][i][m] + u[k][j + 1][i][m];
  printf("%.17g\n", sum());

  // Part of each row of five: the folded rows have holes, which keep the host's values.
  [[cluster::gpu_parallel]]
  for (k = 0; k < K; k++)
    for (j = 0; j < J; j++)
      for (i = 0; i < I; i++)
        for (m = 1; m < 4; m++)
          rhs[k][j][i][m] = 3 * u[k][j][i][m] + m;
  printf("%.17g\n", sum());

  // A fixed last subscript.
  [[cluster::gpu_parallel]]
  for (k = 0; k < K; k++)
    for (j = 0; j < J; j++)
      for (i = 0; i < I; i++)
        rhs[k][j][i][4] = rhs[k][j][i][0] + rhs[k][j][i][2];
  printf("%.17g\n", sum());

  // Five dimensions, written whole and then in part.
  [[cluster::gpu_parallel]]
  for (int a = 0; a < 4; a++)
    for (int b = 0; b < 3; b++)
      for (int c = 0; c < 4; c++)
        for (int d = 0; d < 2; d++)
          for (int e = 0; e < 3; e++)
            w[a][b][c][d][e] = a - b + c * d + e;
  [[cluster::gpu_parallel]]
  for (int a = 0; a < 4; a++)
    for (int b = 0; b < 3; b++)
      for (int c = 1; c < 3; c++)
        for (int e = 0; e < 3; e += 2)
          w[a][b][c][1][e] = 100 + w[a][b][c][0][e];
  printf("%.17g\n", sum());
  return 0;
}
