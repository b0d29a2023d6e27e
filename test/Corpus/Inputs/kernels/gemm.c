/* gemm: C := alpha*A*B + beta*C (BLAS-3), written the PolyBench way: sizes as macros, arrays
 * as fixed-size parameters, every counter declared at the top of the function. */
#include "corpus.h"

#define NI 30
#define NJ 34
#define NK 38

static double A[NI][NK], B[NK][NJ], C[NI][NJ];

static void kernel_gemm(int ni, int nj, int nk, double alpha, double beta,
                        double C[NI][NJ], double A[NI][NK], double B[NK][NJ])
{
  int i, j, k;

  /* loop rows: parallel; omp: private(j, k) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < ni; i++) {
    for (j = 0; j < nj; j++)
      C[i][j] *= beta;
    for (k = 0; k < nk; k++)
      for (j = 0; j < nj; j++)
        C[i][j] += alpha * A[i][k] * B[k][j];
  }
}

int main(void)
{
  int i, j;

  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++)
      C[i][j] = (double)((i * j + 1) % NI) / NI;
  for (i = 0; i < NI; i++)
    for (j = 0; j < NK; j++)
      A[i][j] = (double)(i * (j + 1) % NK) / NK;
  for (i = 0; i < NK; i++)
    for (j = 0; j < NJ; j++)
      B[i][j] = (double)(i * (j + 2) % NJ) / NJ;
  kernel_gemm(NI, NJ, NK, 1.5, 1.2, C, A, B);
  print_array("C", &C[0][0], NI * NJ);
  return 0;
}
