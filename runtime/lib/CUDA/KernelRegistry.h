//===- CUDA/KernelRegistry.h - Ahead-of-time kernel images -----*- C++ -*-===//
//
// Sources built with nvcc register their kernels' images at start-up (registerKernelImage);
// the CUDA backend looks them up before it considers NVRTC.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_RT_CUDA_KERNELREGISTRY_H
#define CLUSTRIX_RT_CUDA_KERNELREGISTRY_H

#include <cstddef>
#include <cstdint>

namespace clustrix {
namespace rt {
namespace cuda {

/// A registered image (cubin or fatbin).
struct KernelImage {
  const void *Data = nullptr;
  size_t Size = 0;
};

/// The image registered for (Name, Hash); Data is null when there is none.
KernelImage findKernelImage(const char *Name, uint64_t Hash);

/// The kernel getter registered for (Name, Hash) by an nvcc-built source; null when none.
void *(*findKernelGetter(const char *Name, uint64_t Hash))();

} // namespace cuda
} // namespace rt
} // namespace clustrix

#endif
