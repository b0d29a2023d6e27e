// Address hulls that reach past a region's heap block (test/EndToEnd/heap-hulls.test): the hull of
// two sibling loops over k puts rhs[k - 1] at row -1, before rhs's block, where the block
// malloc handed out just before it (u's) lies. An access outside its block would be undefined,
// so the alias check starts each hull at its block, and the loop runs wide. Two regions in one
// block whose ranges do overlap still run serially, and so does a one-based view whose base lies
// in the block before its data: the end of its hull is not cut at that block's.
#include <cstdio>
#include <cstdlib>

enum { K = 12, J = 8, I = 6 };

int main() {
  double (*u)[J][I] = (double (*)[J][I])std::malloc(sizeof(double) * K * J * I);
  double (*rhs)[J][I] = (double (*)[J][I])std::malloc(sizeof(double) * K * J * I);
  for (int k = 0; k < K; k++)
    for (int j = 0; j < J; j++)
      for (int i = 0; i < I; i++) {
        u[k][j][i] = k - j + 0.5 * i;
        rhs[k][j][i] = 1;
      }
  int k;
  [[cluster::gpu_parallel]]
  for (int j = 0; j < J; j++) {
    for (k = 0; k < K; k++)
      for (int i = 0; i < I; i++)
        rhs[k][j][i] = u[k][j][i] * 2;
    for (k = 1; k < K; k++)
      for (int i = 0; i < I; i++)
        rhs[k][j][i] += 0.5 * rhs[k - 1][j][i];
  }

  // One block, two views: the written range meets the read one.
  double *block = (double *)std::malloc(sizeof(double) * 400);
  for (int q = 0; q < 400; q++)
    block[q] = q % 9;
  double *p = block, *r = block + 100;
  [[cluster::gpu_parallel]]
  for (int q = 0; q < 200; q++)
    p[q] = r[q] + 1;

  // A one-based view set before its data: its base lies in the block allocated just before,
  // its accesses in the next one, where another view reads what it writes.
  double *before = (double *)std::malloc(sizeof(double) * 400);
  double *data = (double *)std::malloc(sizeof(double) * 400);
  for (int q = 0; q < 400; q++)
    before[q] = data[q] = q % 7;
  double *v = data - 20, *w = data;
  [[cluster::gpu_parallel]]
  for (int q = 21; q < 220; q++)
    v[q] = w[q - 21] + 1;

  double s = 0;
  for (int kk = 0; kk < K; kk++)
    for (int j = 0; j < J; j++)
      for (int i = 0; i < I; i++)
        s += rhs[kk][j][i] * (kk + 1);
  for (int q = 0; q < 400; q++)
    s += block[q] * (q % 5);
  for (int q = 0; q < 400; q++)
    s += data[q] * (q % 3) + before[q];
  std::printf("%.17g\n", s);
  std::free(u);
  std::free(rhs);
  std::free(block);
  std::free(before);
  std::free(data);
  return 0;
}
