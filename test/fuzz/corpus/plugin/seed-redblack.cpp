void sweep(int n, double (*u)[64], const double (*f)[64], double *v) {
  [[cluster::gpu_parallel]]
  for (int i = 1; i < n - 1; i++)
    for (int j = 1 + (i + 1) % 2; j < n - 1; j += 2)
      u[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1] - f[i][j]);
  [[cluster::gpu_parallel]]
  for (int i = 1; i < n; i++)
    for (int j = 3 + (i - 4) % 3; j < 62; j += 3)
      u[i][j] = u[i - 1][1] + v[j % 7];
}
