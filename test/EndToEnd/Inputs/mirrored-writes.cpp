// Covariance's symmetric update: iteration j1 writes row j1 of symmat from column j1 on, and
// column j1 from row j1 on (the mirror). The two writes reach different parts of symmat.
#include <cstdio>

constexpr int M = 96, N = 40;

int main() {
  auto *data = new double[N][M];
  auto *symmat = new double[M][M];
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      data[i][j] = double((i * 7 + j * 3) % 11) / 4.0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < M; ++j)
      symmat[i][j] = -1.0;
  [[cluster::gpu_parallel]]
  for (int j1 = 0; j1 < M; ++j1)
    for (int j2 = j1; j2 < M; ++j2) {
      double s = 0.0;
      for (int i = 0; i < N; ++i)
        s += data[i][j1] * data[i][j2];
      symmat[j1][j2] = s;
      symmat[j2][j1] = s;
    }
  double sum = 0.0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < M; ++j)
      sum += symmat[i][j] * double(1 + (i * M + j) % 5);
  std::printf("%.17g\n", sum);
  delete[] data;
  delete[] symmat;
}
