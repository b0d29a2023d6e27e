// C-style loops that privatization and the exact dependence test accept
// (test/Analysis/privatization.cpp): counters and temporaries declared at the top, scratch rows,
// an LU decomposition's elimination step, an in-place reversal over n/2 iterations. Their output
// must equal the serial program's wherever they run.
#include <cstdio>

#define N 48

static double A[N][N], B[N][N], C[N][N], L[N][N], S[101], O[N][8], In[N];

void gemm(int ni, int nj, int nk) {
  int i, j, k;
  [[cluster::gpu_parallel]]
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
      C[i][j] *= 0.5;
      for (k = 0; k < nk; k++)
        C[i][j] += A[i][k] * B[k][j];
    }
}

void lu(int n) {
  int i, j, k;
  for (k = 0; k < n; k++) {
    [[cluster::gpu_parallel]]
    for (i = k + 1; i < n; i++) {
      L[i][k] /= L[k][k];
      for (j = k + 1; j < n; j++)
        L[i][j] -= L[i][k] * L[k][j];
    }
  }
}

void reverse(int n, double *a) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n / 2; i++) {
    double t = a[i];
    a[i] = a[n - 1 - i];
    a[n - 1 - i] = t;
  }
}

void scratch(int n) {
  double tmp[8];
  int i, j;
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++) {
    for (j = 0; j < 8; j++)
      tmp[j] = In[i] * j + 1;
    for (j = 0; j < 8; j++)
      O[i][j] = tmp[7 - j] / tmp[j];
  }
}

double scratchLive(int n) {
  double tmp[8];
  int i, j;
  double t;
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++) {
    for (j = 0; j < 8; j++)
      tmp[j] = In[i] - j;
    t = tmp[3] * 2;
    for (j = 0; j < 8; j++)
      O[i][j] += tmp[j] * t;
  }
  return tmp[5] + t;
}

/* An index kept in a private declared before the loop (its one top-level assignment makes the
   subscripts affine), and a temporary whose type is spelled through a macro. */
#define fp double
static double Idx[4 * N + 2];
long indexPrivate(int n) {
  long k = 0;
  fp t;
  int i;
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++) {
    k = 4 * i + 1;
    t = In[i] * 3;
    Idx[k] = t + Idx[k - 1];
  }
  return k;
}

/* A scratch row filled by a call (NPB BT's exact_solution), and one read after the loop: the
   last iteration's row. */
static void fillRow(double x, double row[8]) {
  for (int m = 0; m < 8; m++)
    row[m] = x * (m + 1) - m;
}
void scratchCall(int n) {
  double tmp[8];
  int i, j;
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++) {
    fillRow(In[i], tmp);
    for (j = 0; j < 8; j++)
      O[i][j] -= tmp[7 - j];
  }
}
double scratchCallLive(int n) {
  double tmp[8];
  int i;
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++) {
    fillRow(In[i] + 1, tmp);
    O[i][3] += tmp[i % 8];
  }
  return tmp[6];
}
/* A row a call fills inside an inner loop, in two loops of one function: dead between them
   (the second fills it again before reading), so private in both. */
void scratchTwice(int n) {
  double tmp[8];
  int i, j, k;
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++)
    for (j = 0; j < 2; j++) {
      fillRow(In[i] + j, tmp);
      for (k = 0; k < 8; k++)
        O[i][k] += tmp[k] * 0.5;
    }
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++)
    for (j = 0; j < 3; j++) {
      fillRow(In[i] - j, tmp);
      O[i][j] -= tmp[7 - j];
    }
}

int main() {
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      A[i][j] = i + j * 0.5;
      B[i][j] = i - j * 0.25;
      L[i][j] = i == j ? 100.0 : 1.0 / (1 + i + j);
    }
  for (i = 0; i < 101; i++)
    S[i] = i * 1.5;
  for (i = 0; i < N; i++)
    In[i] = i * 0.1;
  gemm(N, N - 3, N - 5);
  lu(N);
  reverse(101, S);
  reverse(100, S);
  reverse(7, S + 3);
  scratch(N);
  double live = scratchLive(N - 1);
  scratchCall(N);
  scratchTwice(N);
  live += scratchCallLive(N - 2);
  for (i = 0; i < 4 * N + 2; i++)
    Idx[i] = i % 9;
  long lastK = indexPrivate(N);
  double s = live + lastK;
  for (i = 0; i < 4 * N + 2; i++)
    s += Idx[i] * (i % 5 + 1);
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      s += C[i][j] * (j + 1) + L[i][j] * (i + 1);
  for (i = 0; i < 101; i++)
    s += S[i] * i;
  for (i = 0; i < N; i++)
    for (j = 0; j < 8; j++)
      s += O[i][j] * (j + 2);
  printf("%a %a\n", s, live);
  return 0;
}
