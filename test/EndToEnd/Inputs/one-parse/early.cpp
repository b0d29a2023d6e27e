// Its second #include reaches loops only through a macro, which the plugin's scan of the
// project's files does not follow: that header is read before the split, and its loop stays as
// written, with the reason; the main file's loop runs wide.
#include <cstdio>
#include "early.h"

int main() {
  double a[64];
  [[cluster::gpu_parallel]]
  for (int i = 0; i < 64; ++i)
    a[i] = i;
  halve(a, 64);
  std::printf("%g %g\n", a[1], a[63]);
}
