/* doitgen: multiresolution kernel of MADNESS, A(r,q,:) := A(r,q,:) * C4. Each (r, q) pair
 * uses the array sum as scratch, declared once at the top and written before it is read. */
#include "corpus.h"

#define NR 10
#define NQ 12
#define NP 14

static double A[NR][NQ][NP], C4[NP][NP];

static void kernel_doitgen(int nr, int nq, int np, double A[NR][NQ][NP], double C4[NP][NP])
{
  int r, q, p, s;
  double sum[NP];

  /* loop rq: parallel (sum is scratch that every iteration fills before reading it); omp: private(p, s, sum) */
  [[cluster::gpu_parallel(collapse(2))]]
  for (r = 0; r < nr; r++)
    for (q = 0; q < nq; q++) {
      for (p = 0; p < np; p++) {
        sum[p] = 0.0;
        for (s = 0; s < np; s++)
          sum[p] += A[r][q][s] * C4[s][p];
      }
      for (p = 0; p < np; p++)
        A[r][q][p] = sum[p];
    }
}

int main(void)
{
  int i, j, k;

  for (i = 0; i < NR; i++)
    for (j = 0; j < NQ; j++)
      for (k = 0; k < NP; k++)
        A[i][j][k] = (double)((i * j + k) % NP) / NP;
  for (i = 0; i < NP; i++)
    for (j = 0; j < NP; j++)
      C4[i][j] = (double)(i * j % NP) / NP;
  kernel_doitgen(NR, NQ, NP, A, C4);
  print_array("A", &A[0][0][0], NR * NQ * NP);
  return 0;
}
