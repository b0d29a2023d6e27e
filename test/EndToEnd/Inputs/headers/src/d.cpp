#include "plain.h"
double unitD(int n) {
  static double y[4000], x[4000];
  for (int i = 0; i < n; ++i)
    x[i] = i % 5, y[i] = 1;
  axpy(y, x, 2.0, n);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += y[i];
  return s;
}
