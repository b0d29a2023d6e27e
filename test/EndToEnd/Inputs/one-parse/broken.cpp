// A syntax error after the split: reported once, by the compile, on the text as written.
#include <cstdio>

int main() {
  int a[8];
  [[cluster::gpu_parallel]]
  for (int i = 0; i < 8; ++i)
    a[i] = i
  std::printf("%d\n", a[7]);
}
