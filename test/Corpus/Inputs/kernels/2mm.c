/* 2mm: D := alpha*A*B*C + beta*D, as two matrix products through a temporary; each product's
 * (i, j) nest is collapsed. */
#include "corpus.h"

#define NI 24
#define NJ 26
#define NK 28
#define NL 30

static double A[NI][NK], B[NK][NJ], C[NJ][NL], D[NI][NL], tmp[NI][NJ];

static void kernel_2mm(int ni, int nj, int nk, int nl, double alpha, double beta,
                       double tmp[NI][NJ], double A[NI][NK], double B[NK][NJ],
                       double C[NJ][NL], double D[NI][NL])
{
  int i, j, k;

  /* loop ab: parallel; omp: private(k) */
  [[cluster::gpu_parallel(collapse(2))]]
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
      tmp[i][j] = 0.0;
      for (k = 0; k < nk; k++)
        tmp[i][j] += alpha * A[i][k] * B[k][j];
    }

  /* loop abc: parallel; omp: private(k) */
  [[cluster::gpu_parallel(collapse(2))]]
  for (i = 0; i < ni; i++)
    for (j = 0; j < nl; j++) {
      D[i][j] *= beta;
      for (k = 0; k < nj; k++)
        D[i][j] += tmp[i][k] * C[k][j];
    }
}

int main(void)
{
  int i, j;

  for (i = 0; i < NI; i++)
    for (j = 0; j < NK; j++)
      A[i][j] = (double)((i * j + 1) % NI) / NI;
  for (i = 0; i < NK; i++)
    for (j = 0; j < NJ; j++)
      B[i][j] = (double)(i * (j + 1) % NJ) / NJ;
  for (i = 0; i < NJ; i++)
    for (j = 0; j < NL; j++)
      C[i][j] = (double)((i * (j + 3) + 1) % NL) / NL;
  for (i = 0; i < NI; i++)
    for (j = 0; j < NL; j++)
      D[i][j] = (double)(i * (j + 2) % NK) / NK;
  kernel_2mm(NI, NJ, NK, NL, 1.5, 1.2, tmp, A, B, C, D);
  print_array("D", &D[0][0], NI * NL);
  return 0;
}
