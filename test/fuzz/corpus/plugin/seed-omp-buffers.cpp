extern "C" void *malloc(unsigned long);
extern "C" void exit(int);
static int table[6] = {0, 2, 4, 6, 8, 14};
double g;
void step(double *a, int n) {
  double *b = (double *)malloc(40 * sizeof(double));
  double *u[2] = {&b[0], &b[20]};
  int p = 0;
  for (int t = 0; t < 5; t++) {
#pragma omp parallel for
    for (int i = 1; i < 19; i++)
      u[1 - p][i] = u[p][i - 1] + u[p][i + 1] + g;
    p = 1 - p;
    if (n > t)
      u[0] = a;
  }
#pragma omp parallel for
  for (int i = 0; i < 6; i++) {
    int k = table[i];
    b[k] += 1.0;
    b[k + 12] += 2.0;
  }
  int j = 0;
#pragma omp parallel for linear(j : 2)
  for (int i = 0; i < n; i++) {
    a[j] = a[j + 1];
    j += 2;
  }
  if (n < 0)
    exit(1);
}
