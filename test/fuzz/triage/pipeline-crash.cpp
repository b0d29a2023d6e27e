// CLUSTRIX_FUZZ_SELFTEST: with CLUSTRIX_FUZZ_SELFTEST=crash, the plugin fuzz target crashes
// after analyzing this well-formed source (test/fuzz/PluginFuzzer.cpp).
void scale(double *a, int n) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    a[i] *= 2.0;
}
