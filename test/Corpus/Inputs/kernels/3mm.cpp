/* 3mm: G := (A*B)*(C*D), three matrix products, fixed-size array parameters. */
#include "corpus.h"

#define NI 20
#define NJ 22
#define NK 24
#define NL 26
#define NM 28

static double A[NI][NK], B[NK][NJ], C[NJ][NM], D[NM][NL], E[NI][NJ], F[NJ][NL], G[NI][NL];

static void kernel_3mm(int ni, int nj, int nk, int nl, int nm, double E[NI][NJ],
                       double A[NI][NK], double B[NK][NJ], double F[NJ][NL], double C[NJ][NM],
                       double D[NM][NL], double G[NI][NL])
{
  int i, j, k;

  /* loop e: parallel; omp: private(j, k) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
      E[i][j] = 0.0;
      for (k = 0; k < nk; k++)
        E[i][j] += A[i][k] * B[k][j];
    }

  /* loop f: parallel; omp: private(j, k) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < nj; i++)
    for (j = 0; j < nl; j++) {
      F[i][j] = 0.0;
      for (k = 0; k < nm; k++)
        F[i][j] += C[i][k] * D[k][j];
    }

  /* loop g: parallel; omp: private(k) */
  [[cluster::gpu_parallel(collapse(2))]]
  for (i = 0; i < ni; i++)
    for (j = 0; j < nl; j++) {
      G[i][j] = 0.0;
      for (k = 0; k < nj; k++)
        G[i][j] += E[i][k] * F[k][j];
    }
}

int main(void)
{
  int i, j;

  for (i = 0; i < NI; i++)
    for (j = 0; j < NK; j++)
      A[i][j] = (double)((i * j + 1) % NI) / (5 * NI);
  for (i = 0; i < NK; i++)
    for (j = 0; j < NJ; j++)
      B[i][j] = (double)((i * (j + 1) + 2) % NJ) / (5 * NJ);
  for (i = 0; i < NJ; i++)
    for (j = 0; j < NM; j++)
      C[i][j] = (double)(i * (j + 3) % NL) / (5 * NL);
  for (i = 0; i < NM; i++)
    for (j = 0; j < NL; j++)
      D[i][j] = (double)((i * (j + 2) + 2) % NK) / (5 * NK);
  kernel_3mm(NI, NJ, NK, NL, NM, E, A, B, F, C, D, G);
  print_array("G", &G[0][0], NI * NL);
  return 0;
}
