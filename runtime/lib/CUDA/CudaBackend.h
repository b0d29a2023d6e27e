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

#include "clustrix/Devices.h"
#include "clustrix/Runtime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace clustrix {
namespace rt {
namespace cuda {

/// Threads per block of every launch; kernels use a grid-stride loop (docs/descriptor.md).
constexpr unsigned BlockThreads = 256;

/// Whether the loop has a form CUDA devices can run (kernel text or a registered image, boxes
/// for its regions, no ordered appends); when not, Why says what is missing.
bool loopRunsOnCuda(const LoopInfo &Info, const LoopArgs &Args, std::string &Why);

/// Grid size for N iterations on a device with Sms multiprocessors: enough blocks to cover N,
/// at most 8 per SM (the kernel's grid-stride loop does the rest), at least one.
unsigned gridBlocks(uint64_t N, int Sms);

/// Runs iterations [Lo, Hi) on device Dev: copies in, launches, copies back, and folds the
/// device's per-block partials into Partials[R] (host cells holding the chunk's partials).
/// Returns false with a message naming the failed call when the device fails; iterations
/// [Lo, Committed) are then complete on the host (results written, partials folded) and the
/// caller re-runs only [Committed, Hi) elsewhere. A sub-chunk's results reach the host all at
/// once, after its last device call succeeded, so nothing is ever half-written.
bool runChunkOnDevice(const LoopInfo &Info, const LoopArgs &Args, const DeviceInfo &Dev,
                      uint64_t Lo, uint64_t Hi, void *const *Partials, uint64_t &Committed,
                      std::string &Err);

/// Whether device Ordinal hit an error that leaves its context unusable (it is then skipped by
/// every later loop of the process).
bool deviceLost(int Ordinal);

} // namespace cuda
} // namespace rt
} // namespace clustrix

#endif
