#include <cstdio>
#include <vector>

int main() {
  std::vector<long> v(10000);
  for (long i = 0; i < 10000; ++i)
    v[i] = i;
  long sum = 0;
  [[cluster::gpu_parallel]]
  for (long i = 0; i < 10000; ++i)
    sum += v[i] * v[i];
  std::printf("sum of squares 0..9999 = %ld\n", sum);
}
