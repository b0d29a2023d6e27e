void prefix(int n, double *a) {
  [[cluster::gpu_parallel]]
  for (int i = 1; i < n; ++i)
    a[i] = a[i - 1] + a[i];
}
