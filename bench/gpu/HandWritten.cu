// Hand-written CUDA versions of the benchmark loops (bench/loops/BenchLoops.cpp), and the
// device's measured copy bandwidths, for comparison with Clustrix's generated kernels.
//
//   HandWritten <saxpy|dot|jacobi|paths|bandwidth> N REPS
//   HandWritten jacobi-steps M STEPS   iterative Jacobi, data resident (bench/resident/BenchIter.cpp)
//   HandWritten stream N REPS          BabelStream's copy and triad kernels, data resident
//   HandWritten register N REPS        a copy of N doubles of pageable memory: staged by the
//                                      driver, against its pages locked for the copy
//
// Loops print "median_ns T check C" like BenchLoops: T includes copying the inputs in and the
// results out (what Clustrix's loop call does), and "kernel_ns K" is the kernel alone with the
// data resident. `bandwidth` prints "d2d_GBps", "h2d_pinned_GBps", "d2h_pinned_GBps".
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "Common.cuh"

__device__ std::uint64_t mix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

__global__ void saxpyKernel(long n, double a, const double *x, double *y) {
  for (long i = blockIdx.x * long(blockDim.x) + threadIdx.x; i < n; i += long(gridDim.x) * blockDim.x)
    y[i] = a * x[i] + y[i];
}

__global__ void dotKernel(long n, const double *x, const double *y, double *partial) {
  __shared__ double s[256];
  double v = 0.0;
  for (long i = blockIdx.x * long(blockDim.x) + threadIdx.x; i < n; i += long(gridDim.x) * blockDim.x)
    v += x[i] * y[i];
  s[threadIdx.x] = v;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k /= 2) {
    if (threadIdx.x < k)
      s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    partial[blockIdx.x] = s[0];
}

__global__ void copyKernel(long n, const double *a, double *c) {
  for (long i = blockIdx.x * long(blockDim.x) + threadIdx.x; i < n; i += long(gridDim.x) * blockDim.x)
    c[i] = a[i];
}

__global__ void triadKernel(long n, double s, double *a, const double *b, const double *c) {
  for (long i = blockIdx.x * long(blockDim.x) + threadIdx.x; i < n; i += long(gridDim.x) * blockDim.x)
    a[i] = b[i] + s * c[i];
}

__global__ void pathsKernel(long n, double *out) {
  for (long p = blockIdx.x * long(blockDim.x) + threadIdx.x; p < n; p += long(gridDim.x) * blockDim.x) {
    double x = 0.0;
    for (int t = 0; t < 32; ++t) {
      std::uint64_t r = mix64(std::uint64_t(p) * 64 + t);
      double u1 = (double(r >> 32) + 1.0) * 0x1.0p-32, u2 = double(r & 0xffffffffull) * 0x1.0p-32;
      x += 0.01 * sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
    }
    out[p] = exp(x);
  }
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main(int argc, char **argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: HandWritten <saxpy|dot|jacobi|paths|bandwidth> N REPS\n");
    return 2;
  }
  const std::string what = argv[1];
  const long n = std::atol(argv[2]);
  const int reps = std::atoi(argv[3]);
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  auto elapsedNs = [&] {
    float ms = 0;
    CHECK(cudaEventSynchronize(e1));
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    return double(ms) * 1e6;
  };

  if (what == "jacobi-steps") {
    // As BenchIter: the grids in once, two sweeps a step, the result back, all timed.
    const int m = int(n), steps = reps;
    const size_t bytes = size_t(m) * m * sizeof(double);
    std::vector<double> a(size_t(m) * m);
    for (size_t i = 0; i < a.size(); ++i)
      a[i] = double(i % 31);
    double *da, *db;
    CHECK(cudaMalloc(&da, bytes));
    CHECK(cudaMalloc(&db, bytes));
    CHECK(cudaFree(nullptr));
    auto t0 = std::chrono::steady_clock::now();
    CHECK(cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, a.data(), bytes, cudaMemcpyHostToDevice));
    dim3 grid((m + 31) / 32, (m + 7) / 8), block(32, 8);
    for (int t = 0; t < steps; ++t) {
      jacobiKernel<<<grid, block>>>(m, da, db);
      jacobiKernel<<<grid, block>>>(m, db, da);
    }
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(a.data(), da, bytes, cudaMemcpyDeviceToHost));
    double check = 0.0;
    for (double v : a)
      check += v;
    double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    std::printf("total_ns %.1f check %.17g\n", ns, check);
    return 0;
  }

  if (what == "stream") {
    const size_t bytes = size_t(n) * sizeof(double);
    std::vector<double> a(n, 0.1), b(n, 0.2), c(n, 0.0);
    double *da, *db, *dc;
    CHECK(cudaMalloc(&da, bytes));
    CHECK(cudaMalloc(&db, bytes));
    CHECK(cudaMalloc(&dc, bytes));
    CHECK(cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dc, c.data(), bytes, cudaMemcpyHostToDevice));
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    std::vector<double> tc, tt;
    for (int r = 0; r < reps + 1; ++r) {
      CHECK(cudaEventRecord(e0));
      copyKernel<<<sms * 8, 256>>>(n, da, dc);
      CHECK(cudaEventRecord(e1));
      double u = elapsedNs();
      CHECK(cudaEventRecord(e0));
      triadKernel<<<sms * 8, 256>>>(n, 0.4, da, db, dc);
      CHECK(cudaEventRecord(e1));
      double w = elapsedNs();
      if (r > 0) {
        tc.push_back(u);
        tt.push_back(w);
      }
    }
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(a.data(), da, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(c.data(), dc, bytes, cudaMemcpyDeviceToHost));
    double check = 0.0;
    for (long i = 0; i < n; ++i)
      check += a[i] + c[i];
    std::printf("copy_GBps %.1f triad_GBps %.1f check %.17g\n", 2.0 * bytes / median(tc),
                3.0 * bytes / median(tt), check);
    return 0;
  }

  if (what == "bandwidth") {
    const size_t bytes = size_t(n) * sizeof(double);
    double *d1, *d2, *h;
    CHECK(cudaMalloc(&d1, bytes));
    CHECK(cudaMalloc(&d2, bytes));
    CHECK(cudaMallocHost(&h, bytes));
    std::vector<double> d2d, h2d, d2h;
    for (int r = 0; r < reps + 1; ++r) {
      CHECK(cudaEventRecord(e0));
      CHECK(cudaMemcpy(d2, d1, bytes, cudaMemcpyDeviceToDevice));
      CHECK(cudaEventRecord(e1));
      double t = elapsedNs();
      CHECK(cudaEventRecord(e0));
      CHECK(cudaMemcpy(d1, h, bytes, cudaMemcpyHostToDevice));
      CHECK(cudaEventRecord(e1));
      double u = elapsedNs();
      CHECK(cudaEventRecord(e0));
      CHECK(cudaMemcpy(h, d1, bytes, cudaMemcpyDeviceToHost));
      CHECK(cudaEventRecord(e1));
      double w = elapsedNs();
      if (r > 0) { // the first round is a warm-up
        d2d.push_back(t);
        h2d.push_back(u);
        d2h.push_back(w);
      }
    }
    // A device-to-device copy reads and writes every byte.
    std::printf("d2d_GBps %.1f h2d_pinned_GBps %.1f d2h_pinned_GBps %.1f\n",
                2.0 * bytes / median(d2d), bytes / median(h2d), bytes / median(d2h));
    return 0;
  }

  // What a copy of the program's own (pageable) memory costs each way: the driver staging it
  // (cudaMemcpy from pageable memory), against locking its pages for the copy (cudaHostRegister,
  // the copy, cudaHostUnregister, each timed by the host clock). N doubles, medians of REPS;
  // a fresh malloc'd range each time, its pages touched first, as a resident range's first copy.
  if (what == "register") {
    const size_t bytes = size_t(n) * sizeof(double);
    double *d;
    CHECK(cudaMalloc(&d, bytes));
    using Clock = std::chrono::steady_clock;
    auto ns = [](Clock::time_point a, Clock::time_point b) {
      return std::chrono::duration<double, std::nano>(b - a).count();
    };
    std::vector<double> pageable, reg, copy, unreg;
    for (int r = 0; r < reps + 1; ++r) {
      auto *h = static_cast<double *>(std::malloc(bytes));
      for (long i = 0; i < n; ++i)
        h[i] = double(i % 7);
      auto t0 = Clock::now();
      CHECK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
      auto t1 = Clock::now();
      CHECK(cudaHostRegister(h, bytes, cudaHostRegisterDefault));
      auto t2 = Clock::now();
      CHECK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
      auto t3 = Clock::now();
      CHECK(cudaHostUnregister(h));
      auto t4 = Clock::now();
      std::free(h);
      if (r > 0) {
        pageable.push_back(ns(t0, t1));
        reg.push_back(ns(t1, t2));
        copy.push_back(ns(t2, t3));
        unreg.push_back(ns(t3, t4));
      }
    }
    double all = median(reg) + median(copy) + median(unreg);
    std::printf("MiB %.0f pageable_GBps %.1f register_ms %.2f registered_copy_GBps %.1f "
                "unregister_ms %.2f registered_total_GBps %.1f\n",
                bytes / 1048576.0, bytes / median(pageable), median(reg) / 1e6,
                bytes / median(copy), median(unreg) / 1e6, bytes / all);
    return 0;
  }

  // Inputs as BenchLoops prepares them.
  const long cells = what == "jacobi" ? n * n : n;
  std::vector<double> x(cells), y(cells, 0.0);
  for (long i = 0; i < cells; ++i) {
    if (what == "jacobi") {
      x[i] = double(i % 31);
    } else {
      x[i] = double(i % 17) * 0.125;
      y[i] = double(i % 13) * 0.5;
    }
  }
  const size_t bytes = size_t(cells) * sizeof(double);
  double *dx, *dy, *dp;
  CHECK(cudaMalloc(&dx, bytes));
  CHECK(cudaMalloc(&dy, bytes));
  const int blocks = 1024, threads = 256;
  CHECK(cudaMalloc(&dp, blocks * sizeof(double)));
  std::vector<double> whole, kernel;
  double check = 0.0;
  for (int r = 0; r < reps + 1; ++r) {
    std::vector<double> out(cells);
    auto t0 = std::chrono::steady_clock::now();
    if (what != "paths")
      CHECK(cudaMemcpy(dx, x.data(), bytes, cudaMemcpyHostToDevice));
    if (what == "saxpy" || what == "dot" || what == "jacobi")
      CHECK(cudaMemcpy(dy, y.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaEventRecord(e0));
    if (what == "saxpy")
      saxpyKernel<<<blocks, threads>>>(n, 0.5, dx, dy);
    else if (what == "dot")
      dotKernel<<<blocks, threads>>>(n, dx, dy, dp);
    else if (what == "jacobi")
      jacobiKernel<<<dim3((n + 31) / 32, (n + 7) / 8), dim3(32, 8)>>>(int(n), dx, dy);
    else
      pathsKernel<<<blocks, threads>>>(n, dx);
    CHECK(cudaEventRecord(e1));
    CHECK(cudaGetLastError());
    double k = elapsedNs();
    if (what == "dot") {
      std::vector<double> part(blocks);
      CHECK(cudaMemcpy(part.data(), dp, blocks * sizeof(double), cudaMemcpyDeviceToHost));
      check = 0.0;
      for (double v : part)
        check += v;
    } else {
      CHECK(cudaMemcpy(out.data(), what == "paths" ? dx : dy, bytes, cudaMemcpyDeviceToHost));
      check = 0.0;
      for (double v : out)
        check += v;
    }
    double t = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    if (r > 0) {
      whole.push_back(t);
      kernel.push_back(k);
    }
  }
  std::printf("median_ns %.1f check %.17g kernel_ns %.1f\n", median(whole), check, median(kernel));
  return 0;
}
