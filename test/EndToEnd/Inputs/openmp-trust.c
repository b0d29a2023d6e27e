#include <stdio.h>
#define N 1000
int idx[N];
double x[N], y[N], z[N];
int main(void) {
  int i;
  for (i = 0; i < N; i++) {
    idx[i] = (i * 7) % N;
    x[i] = i;
  }
#pragma omp parallel for
  for (i = 0; i < N; i++)
    y[idx[i]] = x[i];
#pragma omp parallel for
  for (i = 0; i < N; i++)
    z[i] = 2 * y[i];
  printf("%f %f\n", y[7], z[N - 1]);
  return 0;
}
