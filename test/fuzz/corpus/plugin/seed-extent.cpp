void copy(long n, const int *src, int *dst) {
  [[cluster::gpu_parallel(extent(src, n), extent(dst, n))]]
  for (long i = 0; i < n; i += 2)
    dst[i] = src[i] + src[i + 1];
}
