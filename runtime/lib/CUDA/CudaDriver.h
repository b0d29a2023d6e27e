//===- CUDA/CudaDriver.h - The CUDA driver API through dlopen ---*- C++ -*-===//
//
// The runtime never links CUDA: it loads libcuda.so.1 at run time and resolves the entry points
// it uses. The declarations below mirror cuda.h (a unit test checks them against the real header
// where it is installed). Every call goes through CLUSTRIX_CU, which records the call's text,
// file and line in the error message, as Kokkos does.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_RT_CUDA_CUDADRIVER_H
#define CLUSTRIX_RT_CUDA_CUDADRIVER_H

#include <cstddef>
#include <string>

namespace clustrix {
namespace rt {
namespace cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUstream = struct CUstream_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUkernel = struct CUkern_st *;
using CUarray = struct CUarray_st *;
using CUevent = struct CUevent_st *;

enum : int {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_DEINITIALIZED = 4,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_NOT_READY = 600,
  CUDA_ERROR_LAUNCH_FAILED = 719,
};

enum : int { CU_MEMORYTYPE_HOST = 1, CU_MEMORYTYPE_DEVICE = 2 };

enum : int { CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2 };

enum : unsigned { CU_EVENT_DISABLE_TIMING = 2 };

/// Device attributes the runtime reads (values of CUdevice_attribute).
enum : int {
  CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13,
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS = 88,
  CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES = 100,
};

/// CUDA_MEMCPY3D (the _v2 layout of cuda.h).
struct Memcpy3D {
  size_t srcXInBytes, srcY, srcZ, srcLOD;
  int srcMemoryType;
  const void *srcHost;
  CUdeviceptr srcDevice;
  CUarray srcArray;
  void *reserved0;
  size_t srcPitch, srcHeight;
  size_t dstXInBytes, dstY, dstZ, dstLOD;
  int dstMemoryType;
  void *dstHost;
  CUdeviceptr dstDevice;
  CUarray dstArray;
  void *reserved1;
  size_t dstPitch, dstHeight;
  size_t WidthInBytes, Height, Depth;
};

/// The driver entry points, resolved from one library. Loaded is false (and Error says why) when
/// the library or any entry point is missing; then no pointer may be called.
struct DriverApi {
  bool Loaded = false;
  std::string Error;
  std::string Path;

  CUresult (*cuInit)(unsigned) = nullptr;
  CUresult (*cuDriverGetVersion)(int *) = nullptr;
  CUresult (*cuDeviceGetCount)(int *) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice *, int) = nullptr;
  CUresult (*cuDeviceGetName)(char *, int, CUdevice) = nullptr;
  CUresult (*cuDeviceTotalMem)(size_t *, CUdevice) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice) = nullptr;
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice) = nullptr;
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice) = nullptr;
  CUresult (*cuCtxSetCurrent)(CUcontext) = nullptr;
  CUresult (*cuMemGetInfo)(size_t *, size_t *) = nullptr;
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t) = nullptr;
  CUresult (*cuMemFree)(CUdeviceptr) = nullptr;
  CUresult (*cuMemAllocHost)(void **, size_t) = nullptr;
  CUresult (*cuMemFreeHost)(void *) = nullptr;
  /// Optional: page-locking the program's own memory for a direct copy (host_register).
  CUresult (*cuMemHostRegister)(void *, size_t, unsigned) = nullptr;
  CUresult (*cuMemHostUnregister)(void *) = nullptr;
  /// Optional: whether the program's memory is page-locked (copied directly, not staged).
  CUresult (*cuPointerGetAttribute)(void *, int, CUdeviceptr) = nullptr;
  CUresult (*cuMemcpy3DAsync)(const Memcpy3D *, CUstream) = nullptr;
  CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr, const void *, size_t, CUstream) = nullptr;
  CUresult (*cuMemcpyDtoHAsync)(void *, CUdeviceptr, size_t, CUstream) = nullptr;
  /// Optional (null when the driver lacks it): device to device across contexts.
  CUresult (*cuMemcpyPeerAsync)(CUdeviceptr, CUcontext, CUdeviceptr, CUcontext, size_t,
                                CUstream) = nullptr;
  /// Optional (all four or none is used): a device waits for another's work on the device, not
  /// on the host (the device data table's copies between devices).
  CUresult (*cuEventCreate)(CUevent *, unsigned) = nullptr;
  CUresult (*cuEventDestroy)(CUevent) = nullptr;
  CUresult (*cuEventRecord)(CUevent, CUstream) = nullptr;
  CUresult (*cuStreamWaitEvent)(CUstream, CUevent, unsigned) = nullptr;
  bool hasEvents() const {
    return cuEventCreate && cuEventDestroy && cuEventRecord && cuStreamWaitEvent;
  }
  /// Optional (both or neither is used): under tracing, a copy that is only queued is timed on
  /// the device (CudaMemory::timeQueued).
  CUresult (*cuEventSynchronize)(CUevent) = nullptr;
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent) = nullptr;
  bool hasTimedEvents() const { return hasEvents() && cuEventSynchronize && cuEventElapsedTime; }
  CUresult (*cuStreamCreate)(CUstream *, unsigned) = nullptr;
  CUresult (*cuStreamDestroy)(CUstream) = nullptr;
  CUresult (*cuStreamSynchronize)(CUstream) = nullptr;
  CUresult (*cuModuleLoadData)(CUmodule *, const void *) = nullptr;
  CUresult (*cuModuleUnload)(CUmodule) = nullptr;
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *) = nullptr;
  /// CUDA 12 and later; null on older drivers (ahead-of-time kernels then fall back to NVRTC).
  CUresult (*cuKernelGetFunction)(CUfunction *, CUkernel) = nullptr;
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, CUstream, void **, void **) = nullptr;
  CUresult (*cuGetErrorName)(CUresult, const char **) = nullptr;
  CUresult (*cuGetErrorString)(CUresult, const char **) = nullptr;

  /// Loads the driver from Path (dlopen name or file); never throws.
  static DriverApi load(const std::string &Path);
  /// The process's driver: $CLUSTRIX_CUDA_LIBRARY, else libcuda.so.1; loaded once.
  static const DriverApi &get();

  /// "CUDA_ERROR_OUT_OF_MEMORY (2): out of memory", or the number when the driver has no name.
  std::string describe(CUresult R) const;
};

/// Checks R; on failure writes "Call failed at File:Line: <error>" to Err and returns false.
bool checkCall(const DriverApi &Api, CUresult R, const char *Call, const char *File, int Line,
               std::string &Err, CUresult *Code = nullptr);

/// Calls Api.Call and checks it, recording the call's text and place in Err.
#define CLUSTRIX_CU(Api, Err, Call)                                                            \
  ::clustrix::rt::cuda::checkCall((Api), (Api).Call, #Call, __FILE__, __LINE__, (Err))

/// As CLUSTRIX_CU, also storing the result code in Code.
#define CLUSTRIX_CU_CODE(Api, Err, Code, Call)                                                 \
  ::clustrix::rt::cuda::checkCall((Api), (Api).Call, #Call, __FILE__, __LINE__, (Err), &(Code))

} // namespace cuda
} // namespace rt
} // namespace clustrix

#endif
