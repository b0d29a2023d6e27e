void jacobi(int n, int m, const double (*in)[64], double (*out)[64]) {
  [[cluster::gpu_parallel(collapse(2))]]
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < 63; ++j)
      out[i][j] = 0.25 * (in[i - 1][j] + in[i + 1][j] + in[i][j - 1] + in[i][j + 1]);
}
