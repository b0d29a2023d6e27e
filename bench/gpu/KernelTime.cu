// The GPU time of Clustrix's generated kernel for BenchIter's Jacobi sweep against the
// hand-written kernel of HandWritten.cu (Common.cuh's jacobiKernel), each launched back to
// back on one stream and timed with CUDA events: what the device spends per sweep, with the
// host's cost per call out of the way (the host issues launches far faster than they run).
// Run by scripts/gpu-check.sh, which finds the generated kernel among `clustrix-rewrite
// --kernels-dir`'s files for BenchIter.cpp and builds this file with
//   nvcc -O2 -std=c++17 -arch=native -DCLUSTRIX_KERNEL_FILE='"<file>.cu"'
//        -DCLUSTRIX_KERNEL_NAME=<kernel> bench/gpu/KernelTime.cu
//
//   KernelTime M SWEEPS    prints "hand_us X generated_us Y generated_per_hand Z equal E"
//
// The generated kernel is launched as the runtime launches a resident chunk of the whole loop:
// block 256, grid min(ceil(N / 256), 8 x SMs), the collapsed nest's levels from 1 up by 1, the
// inner extent M - 2, the arrays' device addresses as their element 0. E is 1 when both kernels
// leave the same grid after the same sweeps, bit for bit.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "Common.cuh"

// In a namespace of its own, as the rewritten sources hold their ahead-of-time kernels: the
// kernel's text declares the standard integer types for itself.
namespace clx_generated {
#include CLUSTRIX_KERNEL_FILE
} // namespace clx_generated

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: KernelTime M SWEEPS\n");
    return 2;
  }
  const int m = std::atoi(argv[1]), sweeps = std::atoi(argv[2]);
  const size_t cells = size_t(m) * m, bytes = cells * sizeof(double);
  std::vector<double> init(cells);
  for (size_t i = 0; i < cells; ++i)
    init[i] = double(i % 31);
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  double *da, *db;
  CHECK(cudaMalloc(&da, bytes));
  CHECK(cudaMalloc(&db, bytes));
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  auto reset = [&] {
    CHECK(cudaMemcpy(da, init.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, init.data(), bytes, cudaMemcpyHostToDevice));
  };
  // As the runtime: the flattened trip count, its grid, and each level's start, magnitude and
  // direction (__clx_init/__clx_mag/__clx_up), the inner level's extent.
  const unsigned long long trip = (unsigned long long)(m - 2) * (m - 2);
  const unsigned long long need = (trip + 255) / 256, cap = (unsigned long long)std::max(sms, 1) * 8;
  const unsigned grid = unsigned(std::max(1ull, std::min(need, cap)));
  auto generated = [&](double *to, double *from) {
    clx_generated::CLUSTRIX_KERNEL_NAME<<<grid, 256>>>(0ull, trip, to, from, 1, 1u, true, 1, 1u,
                                                       true, (unsigned long long)(m - 2), m);
  };
  auto hand = [&](double *to, double *from) {
    jacobiKernel<<<dim3((m + 31) / 32, (m + 7) / 8), dim3(32, 8)>>>(m, from, to);
  };
  auto timeSweeps = [&](auto sweep, std::vector<double> &out) {
    reset();
    for (int w = 0; w < 10; ++w) // warm-up, then the grids start again
      sweep(db, da);
    CHECK(cudaDeviceSynchronize());
    reset();
    CHECK(cudaEventRecord(e0));
    for (int s = 0; s < sweeps; ++s)
      s % 2 == 0 ? sweep(db, da) : sweep(da, db);
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    CHECK(cudaGetLastError());
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    out.resize(cells);
    CHECK(cudaMemcpy(out.data(), sweeps % 2 ? db : da, bytes, cudaMemcpyDeviceToHost));
    return double(ms) * 1e3 / sweeps;
  };
  std::vector<double> outHand, outGen;
  double h = timeSweeps(hand, outHand);
  double g = timeSweeps(generated, outGen);
  bool equal = std::memcmp(outHand.data(), outGen.data(), bytes) == 0;
  std::printf("hand_us %.3f generated_us %.3f generated_per_hand %.3f equal %d\n", h, g, g / h,
              equal ? 1 : 0);
  return equal ? 0 : 1;
}
