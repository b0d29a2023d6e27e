struct Grid {
  int n;
  double *v;
  double at(int i) const { return v[i]; }
  void scale(double f) {
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; ++i)
      v[i] = at(i) * f;
  }
};
void use(Grid &g) { g.scale(2); }
