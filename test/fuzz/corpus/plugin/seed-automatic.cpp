[[cluster::gpu_parallel]] void all(int n, float *a, float *b) {
  for (int i = 0; i < n; ++i)
    a[i] = a[i] + 1;
  for (int j = n - 1; j >= 0; --j)
    b[j] = a[j] * 2;
}
