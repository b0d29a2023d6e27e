struct Vec { int d[16]; int *begin() { return d; } int *end() { return d + 16; } };
void r(Vec &v) {
  [[cluster::gpu_parallel]]
  for (int &e : v)
    e *= 2;
}
