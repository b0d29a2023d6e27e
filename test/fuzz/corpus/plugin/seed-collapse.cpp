void mm(int n, int m, const double *a, double *c) {
  [[cluster::gpu_parallel(collapse(2), min_iters(10))]]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      c[i * m + j] = a[j * n + i] * 2.0;
}
