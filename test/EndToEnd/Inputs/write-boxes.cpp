// Chunks that read elements of the region they write beyond their own rows (test/EndToEnd/
// write-boxes.test). A GPU copies back only what a chunk's writes reach, so chunks whose boxes
// overlap only where one reads run side by side, and the host keeps the other chunk's results.
#include <cstdio>

static double a[8][16][4];
static double t[64][32];

int main() {
  for (int k = 0; k < 8; k++)
    for (int j = 0; j < 16; j++)
      for (int m = 0; m < 4; m++)
        a[k][j][m] = k + 0.25 * j - m;
  for (int i = 0; i < 64; i++)
    for (int j = 0; j < 32; j++)
      t[i][j] = (i * 7 + j * 3) % 11;

  // j - 1 under the hull of the two sibling loops over j reaches row -1: the box of chunk
  // [4, 8) takes in the last row of slab 3, which chunk [0, 4) writes.
  [[cluster::gpu_parallel]]
  for (int k = 0; k < 8; k++) {
    for (int j = 0; j < 16; j++)
      for (int m = 0; m < 4; m++)
        a[k][j][m] += 1;
    for (int j = 1; j < 16; j++)
      for (int m = 0; m < 4; m++)
        a[k][j][m] += 0.5 * a[k][j - 1][m];
  }

  // Each row's sum into its first element: the box is the row, the write box one element.
  [[cluster::gpu_parallel]]
  for (int i = 0; i < 64; i++) {
    double s = 0;
    for (int j = 1; j < 32; j++)
      s += t[i][j];
    t[i][0] = s;
  }

  double sum = 0;
  for (int k = 0; k < 8; k++)
    for (int j = 0; j < 16; j++)
      for (int m = 0; m < 4; m++)
        sum += a[k][j][m] * (1 + k + j + m);
  for (int i = 0; i < 64; i++)
    for (int j = 0; j < 32; j++)
      sum += t[i][j] * (i + 1) / (j + 1);
  printf("%.17g\n", sum);
  return 0;
}
