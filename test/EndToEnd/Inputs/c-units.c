/* A C99 translation unit, in the style of classic numerical kernels: variables declared at the
 * top of each function, `restrict` pointers, VLA parameters, reductions, privatized scalars,
 * collapse and schedules, and a loop that must stay serial. Only C headers. Its output must
 * equal the serial program's wherever the loops run. */
#include <stdio.h>
#include <stdlib.h>

#define N 96

static double g[N][N];

/* restrict pointers (also declared in the body, with a _Bool: the kernel text maps both). */
static void axpy(int n, double a, const double *restrict x, double *restrict y) {
  int i;
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++) {
    const double *restrict xi = x + i; _Bool neg = *xi < 0; y[i] = a * (neg ? -*xi : *xi) + y[i]; }
}

/* VLA parameters: the row lengths come from the types. */
static void matmul(int n, int m, int p, double C[n][m], double A[n][p], double B[p][m]) {
  int i;
  [[cluster::gpu_parallel(schedule(dynamic, 3))]]
  for (i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      double acc = 0.0;
      for (int k = 0; k < p; k++)
        acc += A[i][k] * B[k][j];
      C[i][j] = acc;
    }
}

/* A floating-point reduction, and an integer one found without a clause. */
static double norm1(int n, const double *v, long *count) {
  int i;
  double s = 0.0;
  long c = 0;
  [[cluster::gpu_parallel(reduce(+: s), schedule(cyclic, 5))]]
  for (i = 0; i < n; i++) {
    s += v[i] < 0 ? -v[i] : v[i];
    if (v[i] > 0.5)
      c += 1;
  }
  *count = c;
  return s;
}

/* A collapsed nest over a file-scope array; min and max reductions. */
static void stencil(int n, double (*restrict out)[N], double *lo, double *hi) {
  double mn = 1e300, mx = -1e300;
  [[cluster::gpu_parallel(collapse(2), reduce(min: mn), reduce(max: mx))]]
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j) {
      out[i][j] = 0.25 * (g[i - 1][j] + g[i + 1][j] + g[i][j - 1] + g[i][j + 1]);
      if (out[i][j] < mn)
        mn = out[i][j];
      if (out[i][j] > mx)
        mx = out[i][j];
    }
  *lo = mn;
  *hi = mx;
}

/* A struct captured by value and by address, and a counter that is live after the loop. */
struct params {
  double scale;
  int shift;
};

static int scaleShift(int n, struct params P, double *v) {
  int i;
  int last;
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++) {
    last = i + P.shift;
    v[i] = v[i] * P.scale + last;
  }
  return i + last;
}

/* A recurrence: refused, runs serially as written. */
static void prefix(int n, double *v) {
  int i;
  [[cluster::gpu_parallel]]
  for (i = 1; i < n; i++)
    v[i] += v[i - 1];
}

/* A scalar the loop reads, and a pointer that may point to it: the outlined body must read the
 * variable itself, not a copy (with m == 1 the iteration writes lim before reading it). */
static double guarded(int m, double *a, double *p) {
  double lim = 2.0;
  if (m == 1)
    p = &lim;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < m; i++) {
    p[i] = 7.0 + i;
    a[i] = lim;
  }
  return a[0] + a[m - 1];
}

int main(void) {
  int n = N, i, j;
  double *x = malloc(sizeof(double) * N * 4), *y = malloc(sizeof(double) * N * 4);
  double (*A)[N] = malloc(sizeof(double[N][N])), (*B)[N] = malloc(sizeof(double[N][N]));
  double (*C)[N] = malloc(sizeof(double[N][N])), (*out)[N] = calloc(1, sizeof(double[N][N]));
  double lo, hi, s = 0.0;
  long count;
  struct params P = {0.5, 3};
  for (i = 0; i < 4 * N; i++) {
    x[i] = (i % 17) * 0.25 - 1.5;
    y[i] = (i % 5) * 0.125;
  }
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      A[i][j] = 1.0 / (1 + i + j);
      B[i][j] = (i == j) ? 2.0 : 0.01 * (i - j);
      g[i][j] = (i * 7 + j * 3) % 11;
    }
  axpy(4 * n, 1.5, x, y);
  matmul(n, n - 1, n - 2, C, A, B);
  s = norm1(4 * n, y, &count);
  printf("%a %ld\n", s, count);
  s = 0.0;
  stencil(n, out, &lo, &hi);
  printf("%a %a\n", lo, hi);
  printf("%d\n", scaleShift(4 * n, P, x));
  prefix(4 * n, y);
  lo = guarded(1, x, y);
  hi = guarded(4 * n, x, y);
  printf("%a %a\n", lo, hi);
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      s = s * 0.999 + C[i][j] + out[i][j];
  for (i = 0; i < 4 * N; i++)
    s = s * 0.999 + x[i] + y[i];
  printf("%a\n", s);
  free(x);
  free(y);
  free(A);
  free(B);
  free(C);
  free(out);
  return 0;
}
