int f(int n, int *a) {
  int s = 0, i = 0;
  [[cluster::gpu_parallel]]
  for (; i != n; i += 3) {
    if (a[i] < 0) break;
    s += a[i];
  }
  return s;
}
