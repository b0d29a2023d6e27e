// Loops whose independence only the exact test proves (test/Analysis/exact-dependences.cpp):
// a symmetric update, one step of an elimination below a pivot row, a flat subscript under
// collapse. Their output must equal the serial program's wherever they run.
#include <cstdio>

static double c[64][64], a[64][64], f[40 * 64];

void symmetric(int n) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    for (int j = i; j < n; ++j)
      c[i][j] = c[j][i] = i * 0.5 + j;
}

void eliminate(int n, int r) {
  [[cluster::gpu_parallel]]
  for (int i = r + 1; i < n; ++i)
    for (int j = r + 1; j < n; ++j)
      a[i][j] -= a[i][r] * a[r][j] / a[r][r];
}

void flat(int n) {
  [[cluster::gpu_parallel(collapse(2))]]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 64; ++j)
      f[i * 64 + j] = f[i * 64 + j] * 2 + i - j;
}

// A collapsed nest whose inner level runs no iteration: nothing runs.
void emptyInner(int m) {
  [[cluster::gpu_parallel(collapse(2))]]
  for (int i = 0; i < 10; ++i)
    for (int j = 0; j < m; ++j)
      f[i * 64 + j] = -1;
}

// A red-black sweep: each colour's rows read the other colour of the rows beside them (inner
// loops with step 2 from a start with a residue).
static double u[66][66], g[66][66];
static void redBlack(int n) {
  for (int sweep = 0; sweep < 3; ++sweep) {
    [[cluster::gpu_parallel]]
    for (int i = 1; i < n - 1; i++)
      for (int j = 1 + (i + 1) % 2; j < n - 1; j += 2)
        u[i][j] = 0.5 * u[i][j] +
                  0.125 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]) - g[i][j];
    [[cluster::gpu_parallel]]
    for (int i = 1; i < n - 1; i++)
      for (int j = 1 + i % 2; j < n - 1; j += 2)
        u[i][j] = 0.5 * u[i][j] +
                  0.125 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]) - g[i][j];
  }
}

int main(int argc, char **) {
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      a[i][j] = (i == j ? 64.0 : 1.0 / (1 + i + 2 * j));
  for (int k = 0; k < 40 * 64; ++k)
    f[k] = k % 13;
  symmetric(64);
  for (int r = 0; r < 63; ++r)
    eliminate(64, r);
  flat(40);
  emptyInner(argc - 1);
  for (int i = 0; i < 66; ++i)
    for (int j = 0; j < 66; ++j) {
      u[i][j] = (i == 0 || j == 0) ? 1.0 : 0.0;
      g[i][j] = ((i * 5 + j * 3) % 9) / 90.0;
    }
  redBlack(66);
  double s = 0, t = 0, u = 0;
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j) {
      s = s * 0.999 + c[i][j];
      t = t * 0.999 + a[i][j];
    }
  for (int k = 0; k < 40 * 64; ++k)
    u = u * 0.999 + f[k];
  double w = 0;
  for (int i = 0; i < 66; ++i)
    for (int j = 0; j < 66; ++j)
      w = w * 0.999 + ::u[i][j];
  std::printf("%a %a %a %a\n", s, t, u, w);
}
