// Built with -include forced-macros.h: N and T come from it.
#include <cstdio>

int main() {
  T a[N];
  [[cluster::gpu_parallel]]
  for (int i = 0; i < N; ++i)
    a[i] = i * 2;
  std::printf("%g\n", (double)a[N - 1]);
}
