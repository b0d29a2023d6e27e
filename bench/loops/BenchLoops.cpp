// Benchmark loops, each written three ways: a plain serial loop, the same loop
// annotated [[cluster::gpu_parallel]], and the same loop under `#pragma omp parallel for`.
// This file is built with clustrix++ -O2; the OpenMP variants are in BenchOmp.cpp (clang++-19 -O2
// -fopenmp), linked into the same program.
//
//   BenchLoops <serial|clustrix|omp> <saxpy|dot|jacobi|traces|paths> N REPS
//
// Prints "median_ns T check C": the median time of REPS timed calls (after one warm-up call) and
// a checksum of the result, which bench/run.sh compares across the variants.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "BenchLoops.h"

using namespace bench;

namespace {

// --- saxpy: memory-bound, one multiply-add per 24 bytes moved -----------------------------------
void saxpySerial(long n, double a, const double *x, double *y) {
  for (long i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}
void saxpyClustrix(long n, double a, const double *x, double *y) {
  [[cluster::gpu_parallel]]
  for (long i = 0; i < n; ++i) {
    y[i] = a * x[i] + y[i];
  }
}

// --- dot: a floating-point reduction -------------------------------------------------------------
double dotSerial(long n, const double *x, const double *y) {
  double s = 0.0;
  for (long i = 0; i < n; ++i)
    s += x[i] * y[i];
  return s;
}
double dotClustrix(long n, const double *x, const double *y) {
  double s = 0.0;
  [[cluster::gpu_parallel(reduce(+: s))]]
  for (long i = 0; i < n; ++i) {
    s += x[i] * y[i];
  }
  return s;
}

// --- jacobi: one 5-point sweep over an m x m grid, parallel over rows -----------------------------
void jacobiSerial(int m, const double *a, double *b) {
  for (int i = 1; i < m - 1; ++i)
    for (int j = 1; j < m - 1; ++j)
      b[i * m + j] = 0.25 * (a[(i - 1) * m + j] + a[(i + 1) * m + j] + a[i * m + j - 1] +
                             a[i * m + j + 1]);
}
void jacobiClustrix(int m, const double *a, double *b) {
  [[cluster::gpu_parallel]]
  for (int i = 1; i < m - 1; ++i) {
    for (int j = 1; j < m - 1; ++j)
      b[i * m + j] = 0.25 * (a[(i - 1) * m + j] + a[(i + 1) * m + j] + a[i * m + j - 1] +
                             a[i * m + j + 1]);
  }
}

// --- traces: the matrix example's loop, compute-bound (count products of S x S matrices) ----------
void tracesSerial(int count, const double *a, const double *b, double *c, double *tr) {
  for (int k = 0; k < count; ++k) {
    for (int i = 0; i < S; ++i)
      for (int j = 0; j < S; ++j) {
        double s = 0.0;
        for (int l = 0; l < S; ++l)
          s += a[k * SS + i * S + l] * b[k * SS + l * S + j];
        c[k * SS + i * S + j] = s;
      }
    double t = 0.0;
    for (int i = 0; i < S; ++i)
      t += c[k * SS + i * S + i];
    tr[k] = t;
  }
}
void tracesClustrix(int count, const double *a, const double *b, double *c, double *tr) {
  [[cluster::gpu_parallel]]
  for (int k = 0; k < count; ++k) {
    for (int i = 0; i < S; ++i)
      for (int j = 0; j < S; ++j) {
        double s = 0.0;
        for (int l = 0; l < S; ++l)
          s += a[k * SS + i * S + l] * b[k * SS + l * S + j];
        c[k * SS + i * S + j] = s;
      }
    double t = 0.0;
    for (int i = 0; i < S; ++i)
      t += c[k * SS + i * S + i];
    tr[k] = t;
  }
}

// --- paths: independent Monte-Carlo paths, transcendental-heavy -----------------------------------
void pathsSerial(long n, double *out) {
  for (long p = 0; p < n; ++p)
    out[p] = pathValue(p);
}
void pathsClustrix(long n, double *out) {
  [[cluster::gpu_parallel]]
  for (long p = 0; p < n; ++p) {
    out[p] = pathValue(p);
  }
}

double checksum(const std::vector<double> &v) {
  double s = 0.0;
  for (double x : v)
    s += x;
  return s;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: BenchLoops <serial|clustrix|omp> <saxpy|dot|jacobi|traces|paths> N "
                         "REPS\n");
    return 2;
  }
  const std::string how = argv[1], what = argv[2];
  const long n = std::atol(argv[3]);
  const int reps = std::atoi(argv[4]);
  const int v = how == "serial" ? 0 : how == "clustrix" ? 1 : how == "omp" ? 2 : -1;
  if (v < 0) {
    std::fprintf(stderr, "BenchLoops: unknown variant '%s'\n", argv[1]);
    return 2;
  }

  std::vector<double> x, y, z, w;
  double result = 0.0;
  auto prepare = [&] {
    if (what == "saxpy" || what == "dot") {
      x.assign(n, 0.0);
      y.assign(n, 0.0);
      for (long i = 0; i < n; ++i) {
        x[i] = double(i % 17) * 0.125;
        y[i] = double(i % 13) * 0.5;
      }
    } else if (what == "jacobi") {
      x.assign(n * n, 0.0);
      y.assign(n * n, 0.0);
      for (long i = 0; i < n * n; ++i)
        x[i] = double(i % 31);
    } else if (what == "traces") {
      x.resize(n * SS);
      y.resize(n * SS);
      z.assign(n * SS, 0.0);
      w.assign(n, 0.0);
      for (long i = 0; i < n * SS; ++i) {
        x[i] = double(i % 7) * 0.25;
        y[i] = double(i % 5) * 0.5;
      }
    } else {
      x.assign(n, 0.0);
    }
  };
  auto once = [&] {
    if (what == "saxpy") {
      void (*f[])(long, double, const double *, double *) = {saxpySerial, saxpyClustrix, saxpyOmp};
      f[v](n, 0.5, x.data(), y.data());
    } else if (what == "dot") {
      double (*f[])(long, const double *, const double *) = {dotSerial, dotClustrix, dotOmp};
      result = f[v](n, x.data(), y.data());
    } else if (what == "jacobi") {
      void (*f[])(int, const double *, double *) = {jacobiSerial, jacobiClustrix, jacobiOmp};
      f[v](int(n), x.data(), y.data());
    } else if (what == "traces") {
      void (*f[])(int, const double *, const double *, double *, double *) = {
          tracesSerial, tracesClustrix, tracesOmp};
      f[v](int(n), x.data(), y.data(), z.data(), w.data());
    } else {
      void (*f[])(long, double *) = {pathsSerial, pathsClustrix, pathsOmp};
      f[v](n, x.data());
    }
  };
  if (what != "saxpy" && what != "dot" && what != "jacobi" && what != "traces" &&
      what != "paths") {
    std::fprintf(stderr, "BenchLoops: unknown loop '%s'\n", argv[2]);
    return 2;
  }
  prepare();
  once(); // warm-up: first-touch pages, start worker threads
  std::vector<double> times;
  for (int r = 0; r < reps; ++r) {
    if (what == "saxpy")
      prepare(); // y grows otherwise; preparation is not timed
    auto t0 = std::chrono::steady_clock::now();
    once();
    times.push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0)
                        .count());
  }
  std::sort(times.begin(), times.end());
  double check = what == "dot" ? result : what == "traces" ? checksum(w) : what == "saxpy" || what == "jacobi" ? checksum(y) : checksum(x);
  std::printf("median_ns %.1f check %.17g\n", times[times.size() / 2], check);
  return 0;
}
