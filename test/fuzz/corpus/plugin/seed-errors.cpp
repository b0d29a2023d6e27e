void bad(int n, int *a) {
  [[cluster::gpu_paralel(schedule(cyclc))]]
  for (int i = 0; i < n; ++i)
    a[i] = i;
  [[cluster::gpu_parallel(reduce(+ s))]]
  for (int i = 0; i < n; ++i)
    a[i] = -a[i];
  [[cluster::gpu_parallel]] int x = 0;
  (void)x;
}
