void t(int n, int *a) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    if (a[i] == 7) throw 1;
    static int c = 0;
    a[i] = c++ + (int)sizeof(__func__) + __COUNTER__;
  }
}
