/* permute: data movement on flat arrays. Reversal in place swaps a[i] with a[n-1-i] for
 * i < n/2; a blocked copy indexes b[i*64 + j] under collapse; a transpose writes
 * bt[j*r + i]. A prefix sum and a left shift in place are negative cases. */
#include "corpus.h"

#define NB 6
#define BS 64
#define R 24
#define C 20
#define N (NB * BS)

static double a[N], b[N], m[R * C], mt[C * R], ps[N], sh[N];

static void kernel_permute(int n, int nb, int r, int c, double *a, double *b, const double *m,
                           double *mt, double *ps, double *sh)
{
  int i, j;
  double t;

  /* loop reverse: parallel (iteration i swaps a[i] and a[n-1-i], i < n/2); omp: private(t) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < n / 2; i++) {
    t = a[i];
    a[i] = a[n - 1 - i];
    a[n - 1 - i] = t;
  }

  /* loop blocks: parallel */
  [[cluster::gpu_parallel(collapse(2))]]
  for (i = 0; i < nb; i++)
    for (j = 0; j < 64; j++)
      b[i * 64 + j] = 2.0 * a[i * 64 + (63 - j)] + i;

  /* loop transpose: parallel */
  [[cluster::gpu_parallel(collapse(2))]]
  for (i = 0; i < r; i++)
    for (j = 0; j < c; j++)
      mt[j * r + i] = m[i * c + j];

  /* loop prefix: sequential (ps[i] adds the running total ps[i-1]) */
  [[cluster::gpu_parallel]]
  for (i = 1; i < n; i++)
    ps[i] = ps[i] + ps[i - 1];

  /* loop shift: sequential (sh[i] takes sh[i+1] before iteration i+1 overwrites it) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < n - 1; i++)
    sh[i] = sh[i + 1];
}

int main(void)
{
  int i;

  for (i = 0; i < N; i++) {
    a[i] = (double)((i * 37) % 101) / 7;
    ps[i] = (double)(i % 13) / 5;
    sh[i] = (double)((i * 5) % 17);
  }
  for (i = 0; i < R * C; i++)
    m[i] = (double)i / 3;
  kernel_permute(N, NB, R, C, a, b, m, mt, ps, sh);
  print_array("a", a, N);
  print_array("b", b, N);
  print_array("mt", mt, R * C);
  print_array("ps", ps, N);
  print_array("sh", sh, N);
  return 0;
}
