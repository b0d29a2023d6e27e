// A system header (-isystem): never rewritten, its attributes ignored.
inline void sysfill(int *a, int n) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    a[i] = i;
}
