//===- CUDA/KernelRegistry.cpp - Ahead-of-time kernel images --------------===//
#include "CUDA/KernelRegistry.h"

#include "clustrix/Runtime.h"

#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace clustrix {
namespace rt {
namespace cuda {

namespace {
/// Registered images by kernel name and hash. Function-local so that registrations from other
/// translation units' static initializers find it constructed.
struct Registry {
  std::mutex M;
  std::map<std::pair<std::string, uint64_t>, KernelImage> Images;
  std::map<std::pair<std::string, uint64_t>, void *(*)()> Getters;
};
Registry &registry() {
  static Registry *R = new Registry();
  return *R;
}
} // namespace

KernelImage findKernelImage(const char *Name, uint64_t Hash) {
  if (!Name)
    return {};
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.M);
  auto It = R.Images.find({Name, Hash});
  return It == R.Images.end() ? KernelImage{} : It->second;
}

void *(*findKernelGetter(const char *Name, uint64_t Hash))() {
  if (!Name)
    return nullptr;
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.M);
  auto It = R.Getters.find({Name, Hash});
  return It == R.Getters.end() ? nullptr : It->second;
}

} // namespace cuda

void registerKernelGetter(const char *KernelName, uint64_t KernelHash, void *(*Getter)()) {
  if (!KernelName || !Getter)
    return;
  cuda::Registry &R = cuda::registry();
  std::lock_guard<std::mutex> G(R.M);
  R.Getters[{KernelName, KernelHash}] = Getter;
}

void registerKernelImage(const char *KernelName, uint64_t KernelHash, const void *Image,
                         size_t Size) {
  if (!KernelName || !Image || Size == 0)
    return;
  cuda::Registry &R = cuda::registry();
  std::lock_guard<std::mutex> G(R.M);
  R.Images[{KernelName, KernelHash}] = cuda::KernelImage{Image, Size};
}

} // namespace rt
} // namespace clustrix
