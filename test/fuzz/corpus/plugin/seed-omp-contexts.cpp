extern "C" void *malloc(unsigned long);
int main() {
  double *u = (double *)malloc(100 * sizeof(double));
  double *v = (double *)malloc(100 * sizeof(double));
  int k = 0;
  for (int t = 0; t < 4; t++) {
#pragma omp parallel for
    for (int i = 1; i < 50; i++)
      v[i] = u[i - 1] + u[i + k];
    double *tmp = u;
    u = v;
    v = tmp;
    k = 1 - k;
  }
  return 0;
}
