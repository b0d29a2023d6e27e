/* deriche: Deriche's recursive edge-detection filter, a causal and an anti-causal pass along
 * the rows, then along the columns. Each pass keeps the filter's state in scalars declared at
 * the top and reset at the start of every row (or column): the rows are independent, the
 * points of a row are a recurrence. */
#include <math.h>
#include "corpus.h"

#define W 40
#define H 32

static double imgIn[W][H], imgOut[W][H], yy1[W][H], yy2[W][H];

static void kernel_deriche(int w, int h, double alpha, double imgIn[W][H], double imgOut[W][H],
                           double yy1[W][H], double yy2[W][H])
{
  int i, j;
  double xm1, tm1, ym1, ym2, xp1, xp2, tp1, tp2, yp1, yp2;
  double k, a1, a2, a3, a4, a5, a6, a7, a8, b1, b2, c1, c2;

  k = (1.0 - exp(-alpha)) * (1.0 - exp(-alpha)) /
      (1.0 + 2.0 * alpha * exp(-alpha) - exp(2.0 * alpha));
  a1 = a5 = k;
  a2 = a6 = k * exp(-alpha) * (alpha - 1.0);
  a3 = a7 = k * exp(-alpha) * (alpha + 1.0);
  a4 = a8 = -k * exp(-2.0 * alpha);
  b1 = pow(2.0, -alpha);
  b2 = -exp(-2.0 * alpha);
  c1 = c2 = 1;

  /* loop rowcausal: parallel; omp: private(j, ym1, ym2, xm1) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < w; i++) {
    ym1 = 0.0;
    ym2 = 0.0;
    xm1 = 0.0;
    /* loop rowcausal_j: sequential (ym1, ym2 and xm1 carry the filter state along the row) */
    [[cluster::gpu_parallel]]
    for (j = 0; j < h; j++) {
      yy1[i][j] = a1 * imgIn[i][j] + a2 * xm1 + b1 * ym1 + b2 * ym2;
      xm1 = imgIn[i][j];
      ym2 = ym1;
      ym1 = yy1[i][j];
    }
  }

  /* loop rowanti: parallel; omp: private(j, yp1, yp2, xp1, xp2) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < w; i++) {
    yp1 = 0.0;
    yp2 = 0.0;
    xp1 = 0.0;
    xp2 = 0.0;
    for (j = h - 1; j >= 0; j--) {
      yy2[i][j] = a3 * xp1 + a4 * xp2 + b1 * yp1 + b2 * yp2;
      xp2 = xp1;
      xp1 = imgIn[i][j];
      yp2 = yp1;
      yp1 = yy2[i][j];
    }
  }

  /* loop rowsum: parallel */
  [[cluster::gpu_parallel(collapse(2))]]
  for (i = 0; i < w; i++)
    for (j = 0; j < h; j++)
      imgOut[i][j] = c1 * (yy1[i][j] + yy2[i][j]);

  /* loop colcausal: parallel; omp: private(i, tm1, ym1, ym2) */
  [[cluster::gpu_parallel]]
  for (j = 0; j < h; j++) {
    tm1 = 0.0;
    ym1 = 0.0;
    ym2 = 0.0;
    for (i = 0; i < w; i++) {
      yy1[i][j] = a5 * imgOut[i][j] + a6 * tm1 + b1 * ym1 + b2 * ym2;
      tm1 = imgOut[i][j];
      ym2 = ym1;
      ym1 = yy1[i][j];
    }
  }

  /* loop colanti: parallel; omp: private(i, tp1, tp2, yp1, yp2) */
  [[cluster::gpu_parallel]]
  for (j = 0; j < h; j++) {
    tp1 = 0.0;
    tp2 = 0.0;
    yp1 = 0.0;
    yp2 = 0.0;
    for (i = w - 1; i >= 0; i--) {
      yy2[i][j] = a7 * tp1 + a8 * tp2 + b1 * yp1 + b2 * yp2;
      tp2 = tp1;
      tp1 = imgOut[i][j];
      yp2 = yp1;
      yp1 = yy2[i][j];
    }
  }

  /* loop colsum: parallel; omp: private(j) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < w; i++)
    for (j = 0; j < h; j++)
      imgOut[i][j] = c2 * (yy1[i][j] + yy2[i][j]);
}

int main(void)
{
  int i, j;

  for (i = 0; i < W; i++)
    for (j = 0; j < H; j++)
      imgIn[i][j] = (double)((313 * i + 991 * j) % 65536) / 65535.0;
  kernel_deriche(W, H, 0.25, imgIn, imgOut, yy1, yy2);
  print_array("imgOut", &imgOut[0][0], W * H);
  return 0;
}
