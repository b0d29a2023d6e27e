unsigned long long h(unsigned n, const unsigned char *p) {
  unsigned long long x = 0;
  [[cluster::gpu_parallel(reduce(^: x))]]
  for (unsigned i = n; i > 0; i -= 1)
    x ^= (unsigned long long)p[i - 1] << (i % 56);
  return x;
}
