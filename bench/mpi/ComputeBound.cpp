// A compute-bound loop for bench/mpi/bench.py: every element goes through STEPS multiply-adds, so
// a chunk moves 16 bytes per iteration (8 in, 8 out) and computes 2 x STEPS operations. With
// STEPS = 0 the same loop only moves data: its time on remote ranks is the communication cost.
//
//   ComputeBound N STEPS REPS    prints "median_ms checksum first_ms"
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  const long n = argc > 1 ? std::atol(argv[1]) : 200000;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 1000;
  const int reps = argc > 3 ? std::atoi(argv[3]) : 3;
  std::vector<double> a(n), b(n);
  for (long i = 0; i < n; ++i)
    a[i] = double(i % 1000) * 0.001;
  std::vector<double> ms;
  double first = 0;
  for (int r = 0; r <= reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    [[cluster::gpu_parallel]]
    for (long i = 0; i < n; ++i) {
      double x = a[i];
      for (int k = 0; k < steps; ++k)
        x = x * 0.999 + 0.001;
      b[i] = x;
    }
    double t = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                   .count();
    // The first run also compiles the kernel on remote ranks: reported on its own.
    if (r == 0)
      first = t;
    else
      ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  double sum = 0;
  for (long i = 0; i < n; ++i)
    sum += b[i];
  std::printf("%.3f %.9e %.3f\n", ms[ms.size() / 2], sum, first);
  return 0;
}
