#include "kern.h"
#include <cstdio>
#include <syskern.h>
double unitB(int n);
int main() {
  const int n = 3001;
  static double a[n], b[n];
  for (int i = 0; i < n; ++i)
    b[i] = i % 13;
  scale(a, b, 2.0, n);
  double d = dot(a, b, n);
  carried(a, n);
  int c[10];
  sysfill(c, 10);
  std::printf("%.1f %.1f %d %.1f\n", d, a[n - 1], c[9], unitB(n));
  return 0;
}
