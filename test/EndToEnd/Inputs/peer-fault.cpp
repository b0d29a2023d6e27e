// Copies between devices queued behind the source's kernels (docs/data-movement.md#residency):
// in one residency scope, a loop writes x on two GPUs; a loop on one GPU (devices(1), cuda0)
// reads x[n - 1], which cuda1 wrote, so the table copies it from cuda1; a third loop on cuda0
// overwrites all of x, so that cuda1 no longer holds the only current copy of anything.
// If cuda1's kernel fails part way after cuda0's copy was queued, the copy may bring what
// cuda1 never computed, and y's values on cuda0 come from it.
//
//   peer-fault N
#include <cstdio>
#include <cstdlib>
#include <vector>

void steps(int n, const double *z, double *x, double *y) {
  for (int t = 0; t < 1; ++t) {
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; ++i)
      x[i] = 2.0 * z[i] + t;
    [[cluster::gpu_parallel(devices(1))]]
    for (int k = 0; k < 2; ++k)
      y[k] = x[n - 1] + k;
    [[cluster::gpu_parallel(devices(1))]]
    for (int i = 0; i < n; ++i)
      x[i] = 0.5 * i;
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 4096;
  std::vector<double> x(n, 0.0), y(2, 0.0), z(n);
  for (int i = 0; i < n; ++i)
    z[i] = i;
  steps(n, z.data(), x.data(), y.data());
  double s = 0;
  for (double v : x)
    s += v;
  std::printf("%.17g %.17g %.17g\n", y[0], y[1], s);
}
