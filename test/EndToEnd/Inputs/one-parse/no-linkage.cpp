// Containers of types without linkage outside this file: their member functions (instances of
// a system header's templates) cannot be defined anywhere else.
#include <cstdio>
#include <vector>

namespace {
struct Cell {
  double v;
};
} // namespace

int main() {
  struct Local {
    double w;
  };
  std::vector<Cell> cells(1000);
  std::vector<Local> locals(1000);
  Cell *c = cells.data();
  Local *l = locals.data();
  [[cluster::gpu_parallel]]
  for (int i = 0; i < 1000; ++i) {
    c[i].v = i * 0.5;
    l[i].w = i % 7;
  }
  double s = 0;
  for (int i = 0; i < 1000; ++i)
    s += cells[i].v * locals[i].w;
  std::printf("%.3f\n", s);
  return 0;
}
