// What the hand-written CUDA benchmarks share (HandWritten.cu, KernelTime.cu): the check of a
// runtime call, and the hand-written Jacobi sweep that Clustrix's generated kernels are held to.
#ifndef CLUSTRIX_BENCH_GPU_COMMON_CUH
#define CLUSTRIX_BENCH_GPU_COMMON_CUH

#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#define CHECK(call)                                                                              \
  do {                                                                                           \
    cudaError_t e_ = (call);                                                                     \
    if (e_ != cudaSuccess) {                                                                     \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                              \
    }                                                                                            \
  } while (0)

/// One 5-point sweep of an m x m grid, a into b, interior points only: one thread per point on
/// a 2-D grid of 32 x 8 blocks (launch with dim3((m + 31) / 32, (m + 7) / 8), dim3(32, 8)).
__global__ void jacobiKernel(int m, const double *a, double *b) {
  int j = blockIdx.x * blockDim.x + threadIdx.x + 1, i = blockIdx.y * blockDim.y + threadIdx.y + 1;
  if (i < m - 1 && j < m - 1)
    b[i * m + j] = 0.25 * (a[(i - 1) * m + j] + a[(i + 1) * m + j] + a[i * m + j - 1] +
                           a[i * m + j + 1]);
}

#endif
