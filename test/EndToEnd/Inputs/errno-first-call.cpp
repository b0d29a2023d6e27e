// The program's first annotated loop call is also the runtime's first use: it reads its
// settings then (the environment, configuration files that may not exist), and the errno that
// the program set just before the loop must be the one it reads after it
// (test/EndToEnd/errno-first-call.test).
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <vector>

static void scale(int n, unsigned *x) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    x[i] = (unsigned)(std::log((double)(x[i] & 1023u) + 1.0) * 8.0) + i;
}

int main() {
  std::vector<unsigned> a(4000, 7);
  errno = 0;
  scale(4000, a.data());
  std::printf("errno after the first call: %d\n", errno);
  errno = ERANGE;
  scale(4000, a.data());
  std::printf("errno after the second call: %d\n", errno);
  unsigned long s = 0;
  for (unsigned v : a)
    s += v;
  std::printf("sum %lu\n", s);
  return 0;
}
