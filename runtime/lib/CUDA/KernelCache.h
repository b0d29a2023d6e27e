//===- CUDA/KernelCache.h - Compiled kernels on disk -----------*- C++ -*-===//
//
// NVRTC output is kept between runs in a private per-user directory, keyed by the kernel text's
// hash, the GPU architecture, the driver version and NVRTC's version. Files are written to a
// temporary name and renamed, so a reader never sees half a cubin; each starts with a header
// holding the key, checked on load.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_RT_CUDA_KERNELCACHE_H
#define CLUSTRIX_RT_CUDA_KERNELCACHE_H

#include <cstdint>
#include <string>
#include <vector>

namespace clustrix {
namespace rt {
namespace cuda {

/// The default cache directory: $XDG_CACHE_HOME/clustrix, else ~/.cache/clustrix; empty when
/// neither variable is set.
std::string defaultKernelCacheDir();

/// One cache directory.
class KernelCache {
public:
  explicit KernelCache(std::string Dir) : Dir(std::move(Dir)) {}

  /// Creates the directory (mode 0700) when missing and checks that it belongs to this user and
  /// that nobody else may write to it; false with a reason otherwise (the cache is then unused).
  bool open(std::string &Err);

  /// The cache key, also the file name: kernel hash, architecture, driver and NVRTC versions.
  static std::string key(uint64_t KernelHash, int Arch, int DriverVersion, int NvrtcVersion);

  bool load(const std::string &Key, std::vector<char> &Image) const;
  bool store(const std::string &Key, const std::vector<char> &Image, std::string &Err) const;

  const std::string &dir() const { return Dir; }

private:
  std::string Dir;
};

} // namespace cuda
} // namespace rt
} // namespace clustrix

#endif
