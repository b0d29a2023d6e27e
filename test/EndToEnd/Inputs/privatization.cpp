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

/* Scratch rows filled in part, over a range the function's parameters bound (NPB MG's psinv):
   each inner row is filled for i1 < n1, then read at i1 - 1 and i1 + 1 for 1 <= i1 < n1 - 1.
   The second row's fill reads the first row's element just written, a descending loop reads
   the second row, and a row filled over a range an outer loop's variable bounds is read inside
   that range. */
static double U[N][N][N], R[N][N][N];
void psinv(int n1, int n2, int n3) {
  int i3, i2, i1, k;
  double r1[N], r2[N], t[N];
  [[cluster::gpu_parallel]]
  for (i3 = 1; i3 < n3 - 1; i3++) {
    for (i2 = 1; i2 < n2 - 1; i2++) {
      for (i1 = 0; i1 < n1; i1++) {
        r1[i1] = R[i3][i2 - 1][i1] + R[i3][i2 + 1][i1] + R[i3 - 1][i2][i1] + R[i3 + 1][i2][i1];
        r2[i1] = R[i3 - 1][i2 - 1][i1] + R[i3 + 1][i2 + 1][i1] + 0.5 * r1[i1];
      }
      for (i1 = 1; i1 < n1 - 1; i1++)
        U[i3][i2][i1] += 0.5 * R[i3][i2][i1] + 0.25 * (r1[i1 - 1] + r1[i1 + 1] + r1[i1]);
      for (i1 = n1 - 2; i1 >= 1; i1--)
        U[i3][i2][i1] -= 0.125 * (r2[i1 + 1] - r2[i1 - 1]);
      for (k = 2; k <= i2 + 1; k++)
        t[k] = R[i3][i2][k - 1] * 0.5;
      for (k = 3; k < i2 + 2; k++)
        U[i3][i2][k] += t[k - 1] - t[k];
    }
  }
}

int main() {
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      for (int k = 0; k < N; k++) {
        R[i][j][k] = (i * 7 + j * 3 + k) % 11 * 0.25;
        U[i][j][k] = (i + j + k) % 5 * 0.5;
      }
  psinv(N - 2, N, N - 1);
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
    for (j = 0; j < N; j++)
      for (int k = 0; k < N; k++)
        s += U[i][j][k] * ((i + 2 * j + 3 * k) % 13);
  for (i = 0; i < N; i++)
    for (j = 0; j < 8; j++)
      s += O[i][j] * (j + 2);
  printf("%a %a\n", s, live);
  return 0;
}
