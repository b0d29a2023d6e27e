//===- CUDA/CudaBackend.h - Running chunks on CUDA devices ------*- C++ -*-===//
//
// The CUDA path: per device a context, two streams and a bounded pinned staging buffer; kernels
// from the ahead-of-time registry, the disk cache or NVRTC; region copies as boxes; kernel
// parameters per LoopInfo::Params; per-block reduction partials combined in block order; a share
// that does not fit free memory streamed through in sub-chunks.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_RT_CUDA_CUDABACKEND_H
#define CLUSTRIX_RT_CUDA_CUDABACKEND_H

#include "Backend/Backend.h"

#include <cstdint>
#include <string>

namespace clustrix {
namespace rt {

/// The CUDA backend, as listed in Backends.def.
const Backend &cudaBackend();

namespace cuda {

/// Threads per block of every launch; kernels use a grid-stride loop (docs/descriptor.md).
constexpr unsigned BlockThreads = 256;

/// Whether the loop has a form CUDA devices can run (kernel text or a registered image, boxes
/// for its regions, no ordered appends); when not, Why says what is missing.
bool loopRunsOnCuda(const LoopInfo &Info, const LoopArgs &Args, std::string &Why);

/// Grid size for N iterations on a device with Sms multiprocessors: enough blocks to cover N,
/// at most 8 per SM (the kernel's grid-stride loop does the rest), at least one.
unsigned gridBlocks(uint64_t N, int Sms);

/// Weight of a CUDA device relative to one CPU worker: SMs x clock, scaled so that an SM counts
/// as 16 CPU cores at the same clock (an H100 with 132 SMs weighs about 2100 workers).
double cudaWeight(const DeviceInfo &D);

/// Whether device Ordinal hit an error that leaves its context unusable (it is then skipped by
/// every later loop of the process).
bool deviceLost(int Ordinal);

} // namespace cuda
} // namespace rt
} // namespace clustrix

#endif
