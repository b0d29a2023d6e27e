// Built by one-parse.test through the plugin's one-parse compile. N and T are defined before
// the split, with names the runtime's header uses; the third #include is skipped (include
// guard), and the project header that holds loops comes after the split. A diagnostic before
// the split counts the lines of the main file's buffer before the rewritten text is in it.
#define N 40
#define T double
#pragma message("one-parse: a diagnostic before the split")
#include <cstdio>
#include <vector>
#include <cstdio>
#include "loops.h"

static T twice(T x) { return 2 * x; }

int main() {
  std::vector<T> a(N), b(N);
  for (int i = 0; i < N; ++i)
    b[i] = i;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < N; ++i)
    a[i] = twice(b[i]);
  scale(a.data(), N);
  prefixSums(b.data(), N);
  int unused;
  T s = 0;
  for (T x : a)
    s += x;
  std::printf("%d %s %g %g\n", __LINE__, __FILE__, s, b[N - 1]);
  return 0;
}
