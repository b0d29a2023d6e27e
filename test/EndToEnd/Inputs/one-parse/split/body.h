// The program of each file here, after its leading lines (their split is what is tested).
int main() {
  int a[16];
  [[cluster::gpu_parallel]]
  for (int i = 0; i < 16; ++i)
    a[i] = i + ONE_PARSE_OFFSET;
  std::printf("%d\n", a[15]);
}
