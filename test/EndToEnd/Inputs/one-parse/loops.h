// Loops in a project header, included after the split of one-parse/main.cpp.
#ifndef ONE_PARSE_LOOPS_H
#define ONE_PARSE_LOOPS_H

inline void scale(double *p, int n) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    p[i] *= 3;
}

inline void prefixSums(double *p, int n) {
  [[cluster::gpu_parallel]]
  for (int i = 1; i < n; ++i)
    p[i] += p[i - 1];
}

#endif
