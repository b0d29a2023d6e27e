// Loops whose safety depends on what their arguments alias: the runtime must compare addresses
// and keep the loop serial when they overlap, so each call's output equals the serial program.
#include <cstdio>
#include <span>
#include <vector>

struct S {
  double arr[64];
};
void shift(S &s, const S &t) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < 63; ++i)
    s.arr[i] = t.arr[i + 1] + 1;
}
struct G {
  double arr[64];
  void f(const G &other) {
    [[cluster::gpu_parallel]]
    for (int i = 0; i < 63; ++i)
      arr[i] = other.arr[i + 1] * 2;
  }
};
void spans(std::span<double> a, std::span<const double> b) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < 60; ++i)
    a[i] = b[i] + 3;
}
void rows(double (*a)[8], double (*b)[8], int n) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 8; ++j)
      a[i][j] = b[i][j] + 1;
}
int limit = 40;
void global_bound(int *a) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < limit; ++i)
    a[i] = i - limit;
}
struct Buf {
  int *data; // first: the ints from n on are contiguous, so data = &n stays in the object
  int n, tail[24];
  void fill() {
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; ++i)
      data[i] = n + i;
  }
};

static double sum(const double *p, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s = s * 1.0000001 + p[i];
  return s;
}

int main() {
  S x, y;
  for (int i = 0; i < 64; ++i)
    x.arr[i] = y.arr[i] = i * 0.5;
  shift(x, x);
  shift(y, x);
  std::printf("shift %a %a\n", sum(x.arr, 64), sum(y.arr, 64));
  G g, h;
  for (int i = 0; i < 64; ++i)
    g.arr[i] = h.arr[i] = i;
  g.f(g);
  h.f(g);
  std::printf("member %a %a\n", sum(g.arr, 64), sum(h.arr, 64));
  std::vector<double> v(100);
  for (int i = 0; i < 100; ++i)
    v[i] = i;
  spans(std::span<double>(v.data() + 1, 60), std::span<const double>(v.data(), 60));
  spans(std::span<double>(v.data() + 40, 60), std::span<const double>(v.data(), 60));
  std::printf("spans %a\n", sum(v.data(), 100));
  double m[40][8];
  for (int i = 0; i < 40; ++i)
    for (int j = 0; j < 8; ++j)
      m[i][j] = i * 8 + j;
  rows(m + 1, m, 39);
  rows(m, m + 20, 20);
  std::printf("rows %a\n", sum(&m[0][0], 320));
  int a[64] = {0};
  global_bound(a);
  global_bound(&limit); // a[0] is limit itself: the first iteration ends the loop
  std::printf("global %d %d %d\n", a[0], a[39], limit);
  std::vector<int> store(80);
  Buf b{store.data(), 30, {}};
  b.fill();
  Buf c{&c.n, 20, {}}; // writes its own bound (with its value) and the tail
  c.fill();
  std::printf("member bound %d %d %d\n", store[0], store[29], c.n);
}
