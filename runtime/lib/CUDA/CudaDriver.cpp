//===- CUDA/CudaDriver.cpp - The CUDA driver API through dlopen -----------===//
#include "CUDA/CudaDriver.h"

#include <cstdlib>
#include <dlfcn.h>

namespace clustrix {
namespace rt {
namespace cuda {

namespace {
/// Resolves Name (or its versioned Symbol) into Fn; records the first missing one.
template <class F> void resolve(void *Lib, F &Fn, const char *Symbol, DriverApi &Api) {
  Fn = reinterpret_cast<F>(::dlsym(Lib, Symbol));
  if (!Fn && Api.Error.empty())
    Api.Error = std::string("entry point ") + Symbol + " is missing from " + Api.Path;
}
} // namespace

DriverApi DriverApi::load(const std::string &Path) {
  DriverApi Api;
  Api.Path = Path;
  void *Lib = ::dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!Lib) {
    const char *E = ::dlerror();
    Api.Error = "cannot load " + Path + (E ? std::string(": ") + E : std::string());
    return Api;
  }
  resolve(Lib, Api.cuInit, "cuInit", Api);
  resolve(Lib, Api.cuDriverGetVersion, "cuDriverGetVersion", Api);
  resolve(Lib, Api.cuDeviceGetCount, "cuDeviceGetCount", Api);
  resolve(Lib, Api.cuDeviceGet, "cuDeviceGet", Api);
  resolve(Lib, Api.cuDeviceGetName, "cuDeviceGetName", Api);
  resolve(Lib, Api.cuDeviceTotalMem, "cuDeviceTotalMem_v2", Api);
  resolve(Lib, Api.cuDeviceGetAttribute, "cuDeviceGetAttribute", Api);
  resolve(Lib, Api.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", Api);
  resolve(Lib, Api.cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", Api);
  resolve(Lib, Api.cuCtxSetCurrent, "cuCtxSetCurrent", Api);
  resolve(Lib, Api.cuMemGetInfo, "cuMemGetInfo_v2", Api);
  resolve(Lib, Api.cuMemAlloc, "cuMemAlloc_v2", Api);
  resolve(Lib, Api.cuMemFree, "cuMemFree_v2", Api);
  resolve(Lib, Api.cuMemAllocHost, "cuMemAllocHost_v2", Api);
  resolve(Lib, Api.cuMemFreeHost, "cuMemFreeHost", Api);
  resolve(Lib, Api.cuMemcpy3DAsync, "cuMemcpy3DAsync_v2", Api);
  resolve(Lib, Api.cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2", Api);
  resolve(Lib, Api.cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2", Api);
  resolve(Lib, Api.cuStreamCreate, "cuStreamCreate", Api);
  resolve(Lib, Api.cuStreamDestroy, "cuStreamDestroy_v2", Api);
  resolve(Lib, Api.cuStreamSynchronize, "cuStreamSynchronize", Api);
  resolve(Lib, Api.cuModuleLoadData, "cuModuleLoadData", Api);
  resolve(Lib, Api.cuModuleUnload, "cuModuleUnload", Api);
  resolve(Lib, Api.cuModuleGetFunction, "cuModuleGetFunction", Api);
  resolve(Lib, Api.cuLaunchKernel, "cuLaunchKernel", Api);
  resolve(Lib, Api.cuGetErrorName, "cuGetErrorName", Api);
  resolve(Lib, Api.cuGetErrorString, "cuGetErrorString", Api);
  Api.Loaded = Api.Error.empty();
  // The library stays loaded for the life of the process: its pointers may be held anywhere.
  return Api;
}

const DriverApi &DriverApi::get() {
  static const DriverApi *Api = [] {
    const char *Env = std::getenv("CLUSTRIX_CUDA_LIBRARY");
    return new DriverApi(load(Env && *Env ? Env : "libcuda.so.1"));
  }();
  return *Api;
}

std::string DriverApi::describe(CUresult R) const {
  std::string S;
  const char *Name = nullptr, *Text = nullptr;
  if (cuGetErrorName && cuGetErrorName(R, &Name) == CUDA_SUCCESS && Name)
    S = Name;
  else
    S = "CUDA error";
  S += " (" + std::to_string(R) + ")";
  if (cuGetErrorString && cuGetErrorString(R, &Text) == CUDA_SUCCESS && Text)
    S += std::string(": ") + Text;
  return S;
}

bool checkCall(const DriverApi &Api, CUresult R, const char *Call, const char *File, int Line,
               std::string &Err, CUresult *Code) {
  if (Code)
    *Code = R;
  if (R == CUDA_SUCCESS)
    return true;
  Err = std::string(Call) + " failed at " + File + ":" + std::to_string(Line) + ": " +
        Api.describe(R);
  return false;
}

} // namespace cuda
} // namespace rt
} // namespace clustrix
