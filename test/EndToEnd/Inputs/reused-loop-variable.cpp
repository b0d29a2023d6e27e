// A parallel loop whose body runs one variable, declared before it, through two inner loops
// of different ranges: the first reads in[k][i - 1 .. i + 1] for i = 1 .. 14, the second
// scales out[k][i] for i = 4 .. 9 only. A GPU must get rows 0 .. 15 of `in`. Then ranges whose
// ends cannot be ordered at compile time (i < n, then i < m): the hull's end is max(n, m) - 1,
// evaluated at each call, with n above m and m above n.
#include <cstdio>

static double in[40][16], out[40][16];

static void unordered(int n, int m) {
  int i;
  [[cluster::gpu_parallel]]
  for (int k = 0; k < 40; ++k) {
    for (i = 1; i < n; ++i)
      out[k][i] += in[k][i - 1];
    for (i = 2; i < m; ++i)
      out[k][i] -= 0.25 * in[k][i + 1];
  }
}

int main() {
  for (int k = 0; k < 40; ++k)
    for (int i = 0; i < 16; ++i) {
      in[k][i] = k * 100 + i * i % 7;
      out[k][i] = -1;
    }
  int i;
  [[cluster::gpu_parallel]]
  for (int k = 0; k < 40; ++k) {
    for (i = 1; i < 15; ++i)
      out[k][i] = in[k][i + 1] - 2.0 * in[k][i] + in[k][i - 1];
    for (i = 4; i < 10; ++i)
      out[k][i] *= 0.5;
  }
  unordered(16, 9);
  unordered(7, 15);
  double s = 0;
  for (int k = 0; k < 40; ++k)
    for (int i = 0; i < 16; ++i)
      s += out[k][i] * (1 + i + k);
  std::printf("%.6f\n", s);
}
