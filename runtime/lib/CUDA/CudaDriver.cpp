//===- CUDA/CudaDriver.cpp - The CUDA driver API through dlopen -----------===//
#include "CUDA/CudaDriver.h"

#include "CUDA/DynamicLibrary.h"

#include <cstdlib>
#include <dlfcn.h>

namespace clustrix {
namespace rt {
namespace cuda {

DriverApi DriverApi::load(const std::string &Path) {
  DriverApi Api;
  Api.Path = Path;
  void *Lib = openLibrary(Path, Api.Error);
  if (!Lib)
    return Api;
  resolveSymbol(Lib, Api.cuInit, "cuInit", Path, Api.Error);
  resolveSymbol(Lib, Api.cuDriverGetVersion, "cuDriverGetVersion", Path, Api.Error);
  resolveSymbol(Lib, Api.cuDeviceGetCount, "cuDeviceGetCount", Path, Api.Error);
  resolveSymbol(Lib, Api.cuDeviceGet, "cuDeviceGet", Path, Api.Error);
  resolveSymbol(Lib, Api.cuDeviceGetName, "cuDeviceGetName", Path, Api.Error);
  resolveSymbol(Lib, Api.cuDeviceTotalMem, "cuDeviceTotalMem_v2", Path, Api.Error);
  resolveSymbol(Lib, Api.cuDeviceGetAttribute, "cuDeviceGetAttribute", Path, Api.Error);
  resolveSymbol(Lib, Api.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", Path, Api.Error);
  resolveSymbol(Lib, Api.cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", Path, Api.Error);
  resolveSymbol(Lib, Api.cuCtxSetCurrent, "cuCtxSetCurrent", Path, Api.Error);
  resolveSymbol(Lib, Api.cuMemGetInfo, "cuMemGetInfo_v2", Path, Api.Error);
  resolveSymbol(Lib, Api.cuMemAlloc, "cuMemAlloc_v2", Path, Api.Error);
  resolveSymbol(Lib, Api.cuMemFree, "cuMemFree_v2", Path, Api.Error);
  resolveSymbol(Lib, Api.cuMemAllocHost, "cuMemAllocHost_v2", Path, Api.Error);
  resolveSymbol(Lib, Api.cuMemFreeHost, "cuMemFreeHost", Path, Api.Error);
  resolveSymbol(Lib, Api.cuMemcpy3DAsync, "cuMemcpy3DAsync_v2", Path, Api.Error);
  resolveSymbol(Lib, Api.cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2", Path, Api.Error);
  resolveSymbol(Lib, Api.cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2", Path, Api.Error);
  resolveSymbol(Lib, Api.cuStreamCreate, "cuStreamCreate", Path, Api.Error);
  resolveSymbol(Lib, Api.cuStreamDestroy, "cuStreamDestroy_v2", Path, Api.Error);
  resolveSymbol(Lib, Api.cuStreamSynchronize, "cuStreamSynchronize", Path, Api.Error);
  resolveSymbol(Lib, Api.cuModuleLoadData, "cuModuleLoadData", Path, Api.Error);
  resolveSymbol(Lib, Api.cuModuleUnload, "cuModuleUnload", Path, Api.Error);
  resolveSymbol(Lib, Api.cuModuleGetFunction, "cuModuleGetFunction", Path, Api.Error);
  // Optional: without them, copies of the program's memory are staged (host_register).
  Api.cuMemHostRegister =
      reinterpret_cast<decltype(Api.cuMemHostRegister)>(::dlsym(Lib, "cuMemHostRegister_v2"));
  if (!Api.cuMemHostRegister)
    Api.cuMemHostRegister =
        reinterpret_cast<decltype(Api.cuMemHostRegister)>(::dlsym(Lib, "cuMemHostRegister"));
  Api.cuMemHostUnregister =
      reinterpret_cast<decltype(Api.cuMemHostUnregister)>(::dlsym(Lib, "cuMemHostUnregister"));
  Api.cuPointerGetAttribute = reinterpret_cast<decltype(Api.cuPointerGetAttribute)>(
      ::dlsym(Lib, "cuPointerGetAttribute"));
  // Optional: a driver without it moves data between devices through the host.
  Api.cuMemcpyPeerAsync =
      reinterpret_cast<decltype(Api.cuMemcpyPeerAsync)>(::dlsym(Lib, "cuMemcpyPeerAsync"));
  // Optional: without them, a copy between devices waits on the host for the source's work.
  Api.cuEventCreate =
      reinterpret_cast<decltype(Api.cuEventCreate)>(::dlsym(Lib, "cuEventCreate"));
  Api.cuEventDestroy =
      reinterpret_cast<decltype(Api.cuEventDestroy)>(::dlsym(Lib, "cuEventDestroy_v2"));
  Api.cuEventRecord =
      reinterpret_cast<decltype(Api.cuEventRecord)>(::dlsym(Lib, "cuEventRecord"));
  Api.cuStreamWaitEvent =
      reinterpret_cast<decltype(Api.cuStreamWaitEvent)>(::dlsym(Lib, "cuStreamWaitEvent"));
  // Optional: copies timed on the device under tracing. CUDA 13's cuda.h calls the _v2 entry
  // point (same signature); older drivers have only the first.
  Api.cuEventSynchronize =
      reinterpret_cast<decltype(Api.cuEventSynchronize)>(::dlsym(Lib, "cuEventSynchronize"));
  Api.cuEventElapsedTime =
      reinterpret_cast<decltype(Api.cuEventElapsedTime)>(::dlsym(Lib, "cuEventElapsedTime_v2"));
  if (!Api.cuEventElapsedTime)
    Api.cuEventElapsedTime =
        reinterpret_cast<decltype(Api.cuEventElapsedTime)>(::dlsym(Lib, "cuEventElapsedTime"));
  // Optional: present from CUDA 12 on.
  Api.cuKernelGetFunction =
      reinterpret_cast<decltype(Api.cuKernelGetFunction)>(::dlsym(Lib, "cuKernelGetFunction"));
  resolveSymbol(Lib, Api.cuLaunchKernel, "cuLaunchKernel", Path, Api.Error);
  resolveSymbol(Lib, Api.cuGetErrorName, "cuGetErrorName", Path, Api.Error);
  resolveSymbol(Lib, Api.cuGetErrorString, "cuGetErrorString", Path, Api.Error);
  Api.Loaded = Api.Error.empty();
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
