#include "kern.h"
double unitB(int n) {
  static float x[4000], y[4000];
  static double d[4000], e[4000];
  for (int i = 0; i < n; ++i) {
    x[i] = i % 7;
    y[i] = i % 3;
    e[i] = i % 5;
  }
  scale(d, e, 3.0, n);
  return dot(x, y, n) + dot(d, e, n);
}
