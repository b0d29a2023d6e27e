template <class F> void each(int n, F f) { for (int i = 0; i < n; ++i) f(i); }
void run(int n, int *out) {
  int k = 3;
  auto sq = [k](int x) { return x * x + k; };
  [[cluster::gpu_parallel(devices(2))]]
  for (int i = 0; i < n; ++i)
    out[i] = sq(i);
  each(n, [&](int i) { out[i] += 1; });
}
