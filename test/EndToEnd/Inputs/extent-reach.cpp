// `extent(p, n)` gives the array's length for reads at positions the compiler cannot compute;
// the affine reads of the same pointer keep their own boxes, also where they reach before
// p[0] or past p[n - 1] (docs/data-movement.md, the extent clause). On a GPU, the copy covers
// both; the emulated driver's poisoned memory shows an element left out.
#include <cstdio>
#include <vector>

int main() {
  const int n = 200;
  std::vector<int> buf(n + 8), idx(n), out(n, 0);
  for (int i = 0; i < n + 8; ++i)
    buf[i] = (i * 37) % 101;
  for (int i = 0; i < n; ++i)
    idx[i] = (i * 13) % 50;
  const int *p = buf.data() + 3; // p[-3] .. p[n + 4] are the program's memory
  int *o = out.data();
  const int *ix = idx.data();
  [[cluster::gpu_parallel(extent(p, 50))]]
  for (int i = 0; i < n; ++i) {
    o[i] = p[i - 1] + 2 * p[i + 4] + 3 * p[ix[i]];
  }
  long long s = 0;
  for (int i = 0; i < n; ++i)
    s = s * 7 + out[i];
  std::printf("%lld %d %d\n", s, out[0], out[n - 1]);
  return 0;
}
