/* conv2d: 3x3 convolution of an image into another, on flat row-major images, the accumulator
 * a scalar at the top; then the same filter applied in place, which reads neighbours it has
 * already overwritten: a negative case. */
#include "corpus.h"

#define H 34
#define W 38

static double in[H * W], out[H * W], K[3][3];

static void kernel_conv2d(int h, int w, double *in, double *out, double K[3][3])
{
  int i, j, di, dj;
  double acc;

  /* loop pixels: parallel; omp: private(di, dj, acc) */
  [[cluster::gpu_parallel(collapse(2))]]
  for (i = 1; i < h - 1; i++)
    for (j = 1; j < w - 1; j++) {
      acc = 0.0;
      for (di = -1; di <= 1; di++)
        for (dj = -1; dj <= 1; dj++)
          acc += K[di + 1][dj + 1] * in[(i + di) * w + j + dj];
      out[i * w + j] = acc;
    }

  /* loop border: parallel */
  [[cluster::gpu_parallel]]
  for (i = 0; i < h; i++) {
    out[i * w] = in[i * w];
    out[i * w + w - 1] = in[i * w + w - 1];
  }

  /* loop inplace: sequential (row i reads row i-1, already filtered); omp: private(j, di, dj, acc) */
  [[cluster::gpu_parallel]]
  for (i = 1; i < h - 1; i++)
    for (j = 1; j < w - 1; j++) {
      acc = 0.0;
      for (di = -1; di <= 1; di++)
        for (dj = -1; dj <= 1; dj++)
          acc += K[di + 1][dj + 1] * in[(i + di) * w + j + dj];
      in[i * w + j] = acc;
    }
}

int main(void)
{
  int i, j;

  for (i = 0; i < H; i++)
    for (j = 0; j < W; j++)
      in[i * W + j] = (double)((i * 17 + j * 29) % 23) / 7;
  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++)
      K[i][j] = (double)(i * 3 + j + 1) / 45;
  kernel_conv2d(H, W, in, out, K);
  print_array("out", out, H * W);
  print_array("in", in, H * W);
  return 0;
}
