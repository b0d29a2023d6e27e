// The residency checking mode (residency_check): a residency scope opened by hand around a loop
// and a host read that no compiler would let into a scope. Inside it the host's copy of what
// the GPU wrote is stale: it still holds the old values, which here look right by chance
// (scale 1), unless the checking mode poisoned it. After the scope, the result is back.
#include <clustrix/Runtime.h>

#include <cstdio>
#include <vector>

void scale(int n, double f, double *x) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    x[i] = f * x[i];
  }
}

int main() {
  const int n = 4096;
  std::vector<double> x(n, 3.0);
  {
    clustrix::rt::ResidencyScope Scope;
    scale(n, 1.0, x.data());
    std::printf("inside the scope: %g\n", x[100]);
  }
  std::printf("after the scope: %g\n", x[100]);
  return 0;
}
