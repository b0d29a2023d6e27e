// Flags: a bool that some iterations set to one value (test/EndToEnd/flags.test).
#include <cstdio>
bool anyNeg(int n, const double *a) {
  bool stop = false;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    if (a[i] < 0) stop = true;
  return stop;
}
bool allPos(int n, const double *a) {
  bool ok = true;
  [[cluster::gpu_parallel(reduce(&: ok))]]
  for (int i = 0; i < n; ++i)
    if (a[i] <= 0) ok = false;
  return ok;
}
bool wrongClause(int n, const double *a) {
  bool stop = false;
  [[cluster::gpu_parallel(reduce(&: stop))]]
  for (int i = 0; i < n; ++i)
    if (a[i] < 0) stop = true;
  return stop;
}
int intFlag(int n, const double *a) {
  int found = 0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    if (a[i] < 0) found = 1;
  return found;
}
bool mixed(int n, const double *a) {
  bool f = false;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    if (a[i] < 0) f = true;
    if (a[i] > 100) f = false;
  }
  return f;
}
int main() {
  double a[1000];
  for (int i = 0; i < 1000; ++i) a[i] = i == 777 ? -1 : i + 1;
  printf("%d %d %d %d %d\n", anyNeg(1000, a), allPos(1000, a), allPos(700, a), intFlag(1000, a), mixed(1000, a));
}
