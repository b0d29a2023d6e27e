#include "plain.h"
#include <cstdio>
double unitD(int n);
int main() {
  static double y[5000], x[5000];
  for (int i = 0; i < 5000; ++i)
    x[i] = i % 11, y[i] = i % 4;
  axpy(y, x, 0.5, 5000);
  double s = 0;
  for (int i = 0; i < 5000; ++i)
    s += y[i] * (i % 3);
  std::printf("%.2f %.2f\n", s, unitD(4000));
  return 0;
}
