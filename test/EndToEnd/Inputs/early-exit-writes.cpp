// Writes that a `continue` or a callee's early `return` skips in some iterations: the elements
// skipped keep their values, so on a GPU the write box must be copied in before the kernel
// runs (design rule 3). Without that copy, the emulated driver's poisoned memory comes back.
#include <cstdio>
#include <vector>

static void setUnlessMultiple(int *x, int i) {
  if (i % 4 == 0)
    return;
  x[i] = 5 * i;
}

int main() {
  const int n = 300;
  std::vector<int> a(n, 7), b(n, 9), c(n, 11), d(n, 1);
  int *pa = a.data(), *pb = b.data(), *pc = c.data();
  const int *pd = d.data();
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    if (i % 3 == 1)
      continue;
    pa[i] = 7 * i + pd[i];
  }
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    setUnlessMultiple(pb, i);
  }
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < 3; ++k) {
      if (k == i % 5)
        continue;
      pd[i] == 0 ? (void)0 : (void)0;
    }
    pc[i] = 3 * i; // after an inner loop's continue: written in every iteration
  }
  long long s = 0;
  for (int i = 0; i < n; ++i)
    s = s * 31 + a[i] + 7 * b[i] + 13 * c[i];
  std::printf("%lld %d %d %d\n", s, a[1], b[4], c[1]);
  return 0;
}
