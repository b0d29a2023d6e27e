// Pointers into an array member of an element (`&s[i].v[0]`), written through by a callee and
// moved within the member (`o[1]`, `o + 1`): the access is to the member of element i, not to
// element i + 1, and it writes part of the element, so a GPU copies the element in before its
// kernel runs. The differential tester found the partial write on emulated GPUs.
#include <cstdio>
#include <vector>

struct Cell {
  double v[3];
  double w;
};

static void put(double *o, int k, double x) { o[k] = x; }

int main() {
  const int n = 150;
  std::vector<Cell> s(n);
  for (int i = 0; i < n; ++i)
    s[i] = Cell{{i * 0.5, i * 0.25, 1.0}, -1.0 * i};
  Cell *c = s.data();
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    put(&c[i].v[0], 1, i * 3.0);   // c[i].v[1]
    double *o = &c[i].v[0] + 2;    // c[i].v[2]
    *o = c[i].v[0] + 7.0;
  }
  // Through the member's first element only: still part of the element (w stays as it was).
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    put(&c[i].v[0], 0, i * 2.0);
  }
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum = sum * 0.75 + s[i].v[0] + 2 * s[i].v[1] + 3 * s[i].v[2] + 5 * s[i].w;
  std::printf("%.17g %g %g %g %g\n", sum, s[3].v[0], s[3].v[1], s[3].v[2], s[3].w);
  return 0;
}
