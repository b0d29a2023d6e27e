// Three loops for the network's cost rule: one that computes much for each byte it moves (it pays
// to send its chunks to other ranks), one that moves more than it computes (it stays on rank 0's
// devices), and one with no GPU form (ordered appends run on rank 0 only).
#include <cstdio>
#include <vector>

int main() {
  const long n = 60000;
  std::vector<double> a(n), b(n), c(n);
  for (long i = 0; i < n; ++i)
    a[i] = double(i % 101) * 0.125;

  [[cluster::gpu_parallel]]
  for (long i = 0; i < n; ++i) {
    double x = a[i];
    for (int k = 0; k < 400; ++k)
      x = x * 0.5 + 1.0;
    b[i] = x;
  }

  [[cluster::gpu_parallel]]
  for (long i = 0; i < n; ++i)
    c[i] = a[i] + b[i];

  std::vector<long> picked;
  [[cluster::gpu_parallel]]
  for (long i = 0; i < n; ++i)
    if (a[i] > 12.4)
      picked.push_back(i);

  double sum = 0;
  for (long i = 0; i < n; ++i)
    sum += c[i];
  std::printf("sum %.6f picked %zu first %ld last %ld\n", sum, picked.size(), picked.front(),
              picked.back());
  return 0;
}
