#define PAR [[cluster::gpu_parallel(schedule(dynamic, 16))]]
#define N 100
int g[N];
void fill() {
  PAR
  for (int i = 0; i < N; ++i)
    g[i] = i * __LINE__;
}
