// A loop whose bound is read through a reference that the loop's own writes may reach: the
// trip count computed before the loop is the loop's only when they do not. Called once with
// the bound inside the written array (the loop as written runs: it stops when p[10] = 3 lowers
// the bound) and once with the bound elsewhere (the loop goes wide), several times each, so
// that a decision kept from one call never serves the other.
#include <cstdio>

void fill(int *p, int *np, double *a) {
  int &n = *np;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    a[i] = 1.0 + i;
    p[i] = 3;
  }
}

int main() {
  for (int Round = 0; Round < 3; ++Round) {
    double a[64] = {};
    int buf[64] = {};
    buf[10] = 40;
    fill(buf, &buf[10], a);
    double s = 0;
    for (double v : a)
      s += v;
    std::printf("aliased: %g %d\n", s, buf[10]);
    int other[64] = {};
    int n = 40;
    fill(other, &n, a);
    s = 0;
    for (double v : a)
      s += v;
    std::printf("apart: %g %d\n", s, n);
  }
  return 0;
}
