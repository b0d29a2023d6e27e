// Accessors, member symbols in subscripts and member extents (test/Analysis/members.cpp), run:
// the output must equal the serial program's.
#include <cstdio>
#include <vector>

struct Domain {
  std::vector<double> m_x, m_y;
  std::vector<int> m_regElemSize;
  double &x(int i) { return m_x[i]; }
  const double &y(int i) const { return m_y[i]; }
  double yv(int i) const { return m_y[i]; }
  int regElemSize(int r) const { return m_regElemSize[r]; }
};
struct SimData {
  int *index_grid;
  double *energy;
};
struct Inputs {
  int n_isotopes;
};

void accessors(Domain &domain, int n) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    domain.x(i) = domain.y(i) * 2;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < domain.regElemSize(1); ++i)
    domain.x(i) += domain.yv(i) + 1;
}

void lookups(SimData SD, Inputs in, double *out, int e, int n) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < in.n_isotopes; ++i)
    out[i] = SD.index_grid[e * in.n_isotopes + i] * 0.5;
  [[cluster::gpu_parallel(extent(SD.energy, n))]]
  for (int i = 0; i < n; ++i)
    out[i] += SD.energy[(i * 7) % n];
}

int main() {
  const int n = 3000;
  Domain d;
  d.m_x.assign(n, 0.0);
  d.m_y.resize(n);
  for (int i = 0; i < n; ++i)
    d.m_y[i] = i % 11 - 3.5;
  d.m_regElemSize = {5, n - 7, 9};
  accessors(d, n);
  std::vector<int> grid(4 * 500);
  std::vector<double> energy(n), out(n);
  for (size_t i = 0; i < grid.size(); ++i)
    grid[i] = int(i * 37 % 101);
  for (int i = 0; i < n; ++i)
    energy[i] = i * 0.25;
  lookups(SimData{grid.data(), energy.data()}, Inputs{500}, out.data(), 2, n);
  double s = 0, t = 0;
  for (int i = 0; i < n; ++i) {
    s = s * 0.99 + d.m_x[i];
    t = t * 0.99 + out[i];
  }
  std::printf("%a %a\n", s, t);
}
