// Code before any #include: no split, the analysis runs in a parse of its own.
static int table[64];
#include <cstdio>

int main() {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < 64; ++i)
    table[i] = i * i;
  std::printf("%d\n", table[63]);
}
