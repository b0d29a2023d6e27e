/* wave-1d: the 1-D wave equation by the leapfrog scheme, with three time levels whose
 * pointers rotate after every step. The update of the new level reads only the two older
 * ones. Updating one array in place is a negative case. */
#include "corpus.h"

#define N 150
#define TSTEPS 16

static double buf0[N], buf1[N], buf2[N], w[N];

static void kernel_wave_1d(int tsteps, int n, double c2, double *uold, double *u,
                           double *unew, double *w)
{
  int t, i;
  double *tmp;

  for (t = 0; t < tsteps; t++) {
    /* loop update: parallel */
    [[cluster::gpu_parallel]]
    for (i = 1; i < n - 1; i++)
      unew[i] = 2.0 * u[i] - uold[i] + c2 * (u[i + 1] - 2.0 * u[i] + u[i - 1]);
    unew[0] = 0.0;
    unew[n - 1] = 0.0;
    tmp = uold;
    uold = u;
    u = unew;
    unew = tmp;
  }

  /* loop inplace: sequential (w[i] reads w[i-1], already updated) */
  [[cluster::gpu_parallel]]
  for (i = 1; i < n - 1; i++)
    w[i] = w[i] + 0.5 * (w[i + 1] - w[i - 1]);
}

int main(void)
{
  int i;

  for (i = 0; i < N; i++) {
    buf0[i] = (i > N / 3 && i < N / 2) ? 1.0 : 0.0;
    buf1[i] = buf0[i];
    buf2[i] = 0.0;
    w[i] = (double)((i * 7) % 10) / 3;
  }
  kernel_wave_1d(TSTEPS, N, 0.25, buf0, buf1, buf2, w);
  print_array("buf0", buf0, N);
  print_array("buf1", buf1, N);
  print_array("buf2", buf2, N);
  print_array("w", w, N);
  return 0;
}
