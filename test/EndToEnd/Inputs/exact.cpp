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
  double s = 0, t = 0, u = 0;
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j) {
      s = s * 0.999 + c[i][j];
      t = t * 0.999 + a[i][j];
    }
  for (int k = 0; k < 40 * 64; ++k)
    u = u * 0.999 + f[k];
  std::printf("%a %a %a\n", s, t, u);
}
