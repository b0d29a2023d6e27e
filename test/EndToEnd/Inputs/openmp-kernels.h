// A header of the project with an OpenMP loop: the front door takes it as it takes the main
// file's.
static inline void scale(int n, double f, double *v) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    v[i] *= f;
}
