//===- cudaemu/Driver.cpp - The emulated CUDA driver API ------------------===//
//
// The driver entry points the runtime resolves (runtime/lib/CUDA/CudaDriver.cpp), under the same
// versioned names, with C linkage. A primary context is its device; the current context is per
// thread, as in CUDA. Calls check what the real driver checks (pointers in copies and launches,
// sizes, contexts) and return its error codes.
//
//===----------------------------------------------------------------------===//
#include "Device.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <thread>
#include <tuple>
#include <fcntl.h>
#include <unistd.h>

using namespace clustrix::cudaemu;
using clustrix::rt::cuda::CUcontext;
using clustrix::rt::cuda::CUdevice;
using clustrix::rt::cuda::CUdeviceptr;
using clustrix::rt::cuda::CUevent;
using clustrix::rt::cuda::CUfunction;
using clustrix::rt::cuda::CUmodule;
using clustrix::rt::cuda::CUstream;

#define EMU_API extern "C" __attribute__((visibility("default")))

namespace {

thread_local Device *CurrentContext = nullptr;

/// The entry points counted per device (CLUSTRIX_EMU_STATS), in DriverCallNames' order.
enum class DriverCall : unsigned {
  DeviceGet,
  DeviceGetName,
  DeviceTotalMem,
  DeviceGetAttribute,
  DevicePrimaryCtxRetain,
  DevicePrimaryCtxRelease,
  CtxSetCurrent,
  MemGetInfo,
  MemAlloc,
  MemFree,
  MemAllocHost,
  MemFreeHost,
  MemHostRegister,
  MemHostUnregister,
  MemcpyHtoDAsync,
  MemcpyDtoHAsync,
  MemcpyPeerAsync,
  Memcpy3DAsync,
  StreamCreate,
  StreamDestroy,
  StreamSynchronize,
  ModuleLoadData,
  ModuleUnload,
  ModuleGetFunction,
  LaunchKernel,
  PointerGetAttribute,
  EventCreate,
  EventDestroy,
  EventRecord,
  StreamWaitEvent,
  EventSynchronize,
  EventElapsedTime,
};

/// Counts a call of entry point C on device D (none: a call on no device is not counted).
void count(DriverCall C, Device *D) {
  if (D)
    D->DriverCalls[static_cast<unsigned>(C)].fetch_add(1, std::memory_order_relaxed);
}

/// The device of the calling thread's current context, after the checks every call on a
/// context makes: initialized, a context current, no sticky error.
CUresult current(Device *&D) {
  if (!Emulator::get())
    return CUDA_ERROR_NOT_INITIALIZED;
  D = CurrentContext;
  if (!D)
    return CUDA_ERROR_INVALID_CONTEXT;
  if (int E = D->Sticky.load())
    return E;
  return CUDA_SUCCESS;
}

Device *deviceOf(CUdevice Dev) {
  Emulator *E = Emulator::get();
  if (!E || Dev < 0 || static_cast<size_t>(Dev) >= E->Devices.size())
    return nullptr;
  return E->Devices[static_cast<size_t>(Dev)].get();
}

std::string hex(uintptr_t P) {
  char B[32];
  std::snprintf(B, sizeof(B), "0x%llx", static_cast<unsigned long long>(P));
  return B;
}

/// Where a pointer that is not in D's memory points, for messages.
std::string whereIs(uintptr_t P) {
  if (Device *O = Emulator::get()->deviceOwning(P))
    return O->name() + "'s memory";
  return "host memory";
}

/// Runs a copy as CUDA orders it: on the legacy default stream (null) after the blocking streams;
/// on a stream asynchronously when the host side is page-locked, else in stream order but
/// returning only once it is done (CUDA's behaviour for pageable memory).
CUresult submitCopy(Device &D, CUstream S, bool PinnedHost, std::function<void()> Op,
                    const void *Host = nullptr, size_t HostBytes = 0) {
  auto *St = reinterpret_cast<Stream *>(S);
  if (!St) {
    D.waitStreams(/*OnlyBlocking=*/true);
    Op();
    return D.Sticky.load();
  }
  Device *Dev = &D;
  uint64_t Latency = PinnedHost ? Emulator::get()->Config.CopyLatencyUs : 0;
  St->enqueue([Dev, Latency, Op = std::move(Op), Host, HostBytes, PinnedHost] {
    if (Latency)
      std::this_thread::sleep_for(std::chrono::microseconds(Latency));
    // Page-locked host memory must stay locked until its asynchronous copy has run: a program
    // that unregisters it first leaves the real driver reading pages that may have moved. The
    // copy is not made, and said, so that a test sees it.
    if (PinnedHost && Host && !Emulator::get()->isPinned(Host, HostBytes)) {
      report(Dev->name() + ": an asynchronous copy of " + std::to_string(HostBytes) +
             " bytes ran after its host memory was unregistered; nothing copied");
      return;
    }
    if (!Dev->Sticky.load()) // a lost device copies nothing
      Op();
  });
  if (!PinnedHost) {
    St->synchronize();
    return D.Sticky.load();
  }
  return CUDA_SUCCESS;
}

/// One side of a pitched copy: its first byte and the bytes from there to its last byte.
struct Span {
  uintptr_t First = 0;
  size_t Bytes = 0;
};

Span spanOf(uintptr_t Base, size_t X, size_t Y, size_t Z, size_t Pitch, size_t Height,
            const Memcpy3D &C) {
  Span S;
  size_t SlabPitch = Pitch * (C.Depth > 1 ? Height : 0);
  S.First = Base + X + Y * Pitch + Z * SlabPitch;
  if (C.WidthInBytes == 0 || C.Height == 0 || C.Depth == 0)
    return S;
  S.Bytes = (C.Depth - 1) * SlabPitch + (C.Height - 1) * Pitch + C.WidthInBytes;
  return S;
}

} // namespace

//===----------------------------------------------------------------------===//
// Initialization and devices
//===----------------------------------------------------------------------===//

EMU_API CUresult cuInit(unsigned Flags) {
  if (Flags != 0)
    return CUDA_ERROR_INVALID_VALUE;
  return Emulator::init();
}

EMU_API CUresult cuDriverGetVersion(int *Version) {
  if (!Version)
    return CUDA_ERROR_INVALID_VALUE;
  *Version = 13000; // the API it implements (CUDA 13.0)
  return CUDA_SUCCESS;
}

EMU_API CUresult cuDeviceGetCount(int *Count) {
  if (!Count)
    return CUDA_ERROR_INVALID_VALUE;
  Emulator *E = Emulator::get();
  if (!E)
    return CUDA_ERROR_NOT_INITIALIZED;
  *Count = static_cast<int>(E->Devices.size());
  return CUDA_SUCCESS;
}

EMU_API CUresult cuDeviceGet(CUdevice *Dev, int Ordinal) {
  count(DriverCall::DeviceGet, deviceOf(Ordinal));
  if (!Emulator::get())
    return CUDA_ERROR_NOT_INITIALIZED;
  if (!Dev)
    return CUDA_ERROR_INVALID_VALUE;
  if (!deviceOf(Ordinal))
    return CUDA_ERROR_INVALID_DEVICE;
  *Dev = Ordinal;
  return CUDA_SUCCESS;
}

EMU_API CUresult cuDeviceGetName(char *Name, int Len, CUdevice Dev) {
  count(DriverCall::DeviceGetName, deviceOf(Dev));
  if (!Emulator::get())
    return CUDA_ERROR_NOT_INITIALIZED;
  if (!deviceOf(Dev))
    return CUDA_ERROR_INVALID_DEVICE;
  if (!Name || Len <= 0)
    return CUDA_ERROR_INVALID_VALUE;
  std::snprintf(Name, static_cast<size_t>(Len), "%s", "Clustrix emulated GPU");
  return CUDA_SUCCESS;
}

EMU_API CUresult cuDeviceTotalMem_v2(size_t *Bytes, CUdevice Dev) {
  count(DriverCall::DeviceTotalMem, deviceOf(Dev));
  if (!Emulator::get())
    return CUDA_ERROR_NOT_INITIALIZED;
  Device *D = deviceOf(Dev);
  if (!D)
    return CUDA_ERROR_INVALID_DEVICE;
  if (!Bytes)
    return CUDA_ERROR_INVALID_VALUE;
  *Bytes = static_cast<size_t>(D->Memory.capacity());
  return CUDA_SUCCESS;
}

EMU_API CUresult cuDeviceGetAttribute(int *Value, int Attribute, CUdevice Dev) {
  count(DriverCall::DeviceGetAttribute, deviceOf(Dev));
  if (!Emulator::get())
    return CUDA_ERROR_NOT_INITIALIZED;
  Device *D = deviceOf(Dev);
  if (!D)
    return CUDA_ERROR_INVALID_DEVICE;
  if (!Value)
    return CUDA_ERROR_INVALID_VALUE;
  switch (Attribute) {
  case 1: *Value = 1024; break;                  // MAX_THREADS_PER_BLOCK
  case 2: case 3: *Value = 1024; break;          // MAX_BLOCK_DIM_X, _Y
  case 4: *Value = 64; break;                    // MAX_BLOCK_DIM_Z
  case 5: *Value = 2147483647; break;            // MAX_GRID_DIM_X
  case 6: case 7: *Value = 65535; break;         // MAX_GRID_DIM_Y, _Z
  case 8: *Value = 48 << 10; break;              // MAX_SHARED_MEMORY_PER_BLOCK
  case 10: *Value = 32; break;                   // WARP_SIZE
  case 13: *Value = 1410000; break;              // CLOCK_RATE (kHz)
  case 16: *Value = D->Sms; break;               // MULTIPROCESSOR_COUNT
  case 36: *Value = 1593000; break;              // MEMORY_CLOCK_RATE (kHz)
  case 75: *Value = 9; break;                    // COMPUTE_CAPABILITY_MAJOR
  case 76: *Value = 0; break;                    // COMPUTE_CAPABILITY_MINOR
  case 88:                                       // PAGEABLE_MEMORY_ACCESS
    *Value = D->Pageable != PageableAccess::Off;
    break;
  case 100:                                      // ..._USES_HOST_PAGE_TABLES
    *Value = D->Pageable == PageableAccess::Ats;
    break;
  default: return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

EMU_API CUresult cuDevicePrimaryCtxRetain(CUcontext *Ctx, CUdevice Dev) {
  count(DriverCall::DevicePrimaryCtxRetain, deviceOf(Dev));
  if (!Emulator::get())
    return CUDA_ERROR_NOT_INITIALIZED;
  Device *D = deviceOf(Dev);
  if (!D)
    return CUDA_ERROR_INVALID_DEVICE;
  if (!Ctx)
    return CUDA_ERROR_INVALID_VALUE;
  *Ctx = reinterpret_cast<CUcontext>(D);
  return CUDA_SUCCESS;
}

EMU_API CUresult cuDevicePrimaryCtxRelease_v2(CUdevice Dev) {
  count(DriverCall::DevicePrimaryCtxRelease, deviceOf(Dev));
  if (!Emulator::get())
    return CUDA_ERROR_NOT_INITIALIZED;
  return deviceOf(Dev) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

EMU_API CUresult cuCtxSetCurrent(CUcontext Ctx) {
  Emulator *E = Emulator::get();
  if (!E)
    return CUDA_ERROR_NOT_INITIALIZED;
  auto *D = reinterpret_cast<Device *>(Ctx);
  if (D) {
    bool Known = false;
    for (const auto &Dev : E->Devices)
      Known |= Dev.get() == D;
    if (!Known)
      return CUDA_ERROR_INVALID_CONTEXT;
  }
  count(DriverCall::CtxSetCurrent, D);
  CurrentContext = D;
  return CUDA_SUCCESS;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

EMU_API CUresult cuMemGetInfo_v2(size_t *Free, size_t *Total) {
  count(DriverCall::MemGetInfo, CurrentContext);
  Device *D;
  if (CUresult R = current(D))
    return R;
  if (!Free || !Total)
    return CUDA_ERROR_INVALID_VALUE;
  *Total = static_cast<size_t>(D->Memory.capacity());
  *Free = static_cast<size_t>(D->Memory.capacity() - D->Memory.used());
  return CUDA_SUCCESS;
}

EMU_API CUresult cuMemAlloc_v2(CUdeviceptr *Ptr, size_t Bytes) {
  count(DriverCall::MemAlloc, CurrentContext);
  Device *D;
  if (CUresult R = current(D))
    return R;
  if (!Ptr || Bytes == 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (D->fault(FaultKind::Oom, ++D->Allocations))
    return CUDA_ERROR_OUT_OF_MEMORY;
  uintptr_t P = 0;
  if (CUresult R = D->Memory.alloc(Bytes, P))
    return R;
  *Ptr = P;
  return CUDA_SUCCESS;
}

EMU_API CUresult cuMemFree_v2(CUdeviceptr Ptr) {
  count(DriverCall::MemFree, CurrentContext);
  Emulator *E = Emulator::get();
  if (!E)
    return CUDA_ERROR_NOT_INITIALIZED;
  if (!CurrentContext)
    return CUDA_ERROR_INVALID_CONTEXT;
  if (Ptr == 0)
    return CUDA_SUCCESS;
  Device *Owner = E->deviceOwning(static_cast<uintptr_t>(Ptr));
  if (!Owner)
    return CUDA_ERROR_INVALID_VALUE;
  // Freeing waits for the work that may still use the memory, as cuMemFree does.
  Owner->waitStreams(/*OnlyBlocking=*/false);
  if (CUresult R = Owner->Memory.free(static_cast<uintptr_t>(Ptr)))
    return R;
  return CurrentContext->Sticky.load();
}

EMU_API CUresult cuMemAllocHost_v2(void **Ptr, size_t Bytes) {
  count(DriverCall::MemAllocHost, CurrentContext);
  Device *D;
  if (CUresult R = current(D))
    return R;
  if (!Ptr)
    return CUDA_ERROR_INVALID_VALUE;
  void *P = Emulator::get()->allocPinned(Bytes);
  if (!P)
    return CUDA_ERROR_OUT_OF_MEMORY;
  *Ptr = P;
  return CUDA_SUCCESS;
}

EMU_API CUresult cuMemFreeHost(void *Ptr) {
  count(DriverCall::MemFreeHost, CurrentContext);
  Emulator *E = Emulator::get();
  if (!E)
    return CUDA_ERROR_NOT_INITIALIZED;
  return E->freePinned(Ptr) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

EMU_API CUresult cuMemHostRegister_v2(void *Ptr, size_t Bytes, unsigned Flags) {
  count(DriverCall::MemHostRegister, CurrentContext);
  Device *D;
  if (CUresult R = current(D))
    return R;
  (void)Flags;
  if (!Ptr || Bytes == 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (D->fault(FaultKind::Register, ++D->Registrations))
    return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
  return Emulator::get()->registerHost(Ptr, Bytes) ? CUDA_SUCCESS
                                                   : CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
}

EMU_API CUresult cuMemHostUnregister(void *Ptr) {
  count(DriverCall::MemHostUnregister, CurrentContext);
  Emulator *E = Emulator::get();
  if (!E)
    return CUDA_ERROR_NOT_INITIALIZED;
  return E->unregisterHost(Ptr) ? CUDA_SUCCESS : CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
}

EMU_API CUresult cuPointerGetAttribute(void *Data, int Attribute, CUdeviceptr Ptr) {
  count(DriverCall::PointerGetAttribute, CurrentContext);
  Emulator *E = Emulator::get();
  if (!E)
    return CUDA_ERROR_NOT_INITIALIZED;
  if (!Data)
    return CUDA_ERROR_INVALID_VALUE;
  if (Attribute != 2) // CU_POINTER_ATTRIBUTE_MEMORY_TYPE, the only one emulated
    return CUDA_ERROR_NOT_SUPPORTED;
  unsigned Type;
  if (E->deviceOwning(static_cast<uintptr_t>(Ptr)))
    Type = 2; // CU_MEMORYTYPE_DEVICE
  else if (E->isPinned(reinterpret_cast<const void *>(static_cast<uintptr_t>(Ptr)), 1))
    Type = 1; // CU_MEMORYTYPE_HOST: page-locked by cuMemAllocHost or cuMemHostRegister
  else
    return CUDA_ERROR_INVALID_VALUE; // memory the driver does not know: pageable
  std::memcpy(Data, &Type, sizeof(Type));
  return CUDA_SUCCESS;
}

EMU_API CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr Dst, const void *Src, size_t Bytes, CUstream S) {
  count(DriverCall::MemcpyHtoDAsync, CurrentContext);
  Device *D;
  if (CUresult R = current(D))
    return R;
  if (Bytes == 0)
    return CUDA_SUCCESS;
  if (!Src || !D->Memory.holds(static_cast<uintptr_t>(Dst), Bytes)) {
    report(D->name() + ": cuMemcpyHtoDAsync to " + hex(Dst) + " (" + std::to_string(Bytes) +
           " bytes) is not inside one allocation of the device");
    return CUDA_ERROR_INVALID_VALUE;
  }
  bool Skip = D->fault(FaultKind::SkipCopyIn, ++D->CopiesIn);
  D->BytesToDevice += Bytes;
  return submitCopy(
      *D, S, Emulator::get()->isPinned(Src, Bytes),
      [=] {
        if (!Skip)
          std::memcpy(reinterpret_cast<void *>(Dst), Src, Bytes);
      },
      Src, Bytes);
}

EMU_API CUresult cuMemcpyDtoHAsync_v2(void *Dst, CUdeviceptr Src, size_t Bytes, CUstream S) {
  count(DriverCall::MemcpyDtoHAsync, CurrentContext);
  Device *D;
  if (CUresult R = current(D))
    return R;
  if (Bytes == 0)
    return CUDA_SUCCESS;
  if (!Dst || !D->Memory.holds(static_cast<uintptr_t>(Src), Bytes)) {
    report(D->name() + ": cuMemcpyDtoHAsync from " + hex(Src) + " (" + std::to_string(Bytes) +
           " bytes) is not inside one allocation of the device");
    return CUDA_ERROR_INVALID_VALUE;
  }
  D->BytesToHost += Bytes;
  return submitCopy(
      *D, S, Emulator::get()->isPinned(Dst, Bytes),
      [=] { std::memcpy(Dst, reinterpret_cast<const void *>(Src), Bytes); }, Dst, Bytes);
}

EMU_API CUresult cuMemcpyPeerAsync(CUdeviceptr Dst, CUcontext DstCtx, CUdeviceptr Src,
                                   CUcontext SrcCtx, size_t Bytes, CUstream S) {
  count(DriverCall::MemcpyPeerAsync, CurrentContext);
  Device *D;
  if (CUresult R = current(D))
    return R;
  auto *To = reinterpret_cast<Device *>(DstCtx);
  auto *From = reinterpret_cast<Device *>(SrcCtx);
  Emulator *E = Emulator::get();
  bool Known = false, KnownFrom = false;
  for (const auto &X : E->Devices) {
    Known |= X.get() == To;
    KnownFrom |= X.get() == From;
  }
  if (!Known || !KnownFrom)
    return CUDA_ERROR_INVALID_CONTEXT;
  if (int Err = From->Sticky.load())
    return Err;
  if (Bytes == 0)
    return CUDA_SUCCESS;
  if (!To->Memory.holds(static_cast<uintptr_t>(Dst), Bytes) ||
      !From->Memory.holds(static_cast<uintptr_t>(Src), Bytes)) {
    report(D->name() + ": cuMemcpyPeerAsync from " + hex(Src) + " to " + hex(Dst) + " (" +
           std::to_string(Bytes) + " bytes) is not inside one allocation of each device");
    return CUDA_ERROR_INVALID_VALUE;
  }
  To->BytesPeerIn += Bytes;
  if (From != To)
    From->notePeerRead();
  return submitCopy(*D, S, /*PinnedHost=*/true, [=] {
    std::memcpy(reinterpret_cast<void *>(Dst), reinterpret_cast<const void *>(Src), Bytes);
  });
}

EMU_API CUresult cuMemcpy3DAsync_v2(const Memcpy3D *C, CUstream S) {
  count(DriverCall::Memcpy3DAsync, CurrentContext);
  Device *D;
  if (CUresult R = current(D))
    return R;
  if (!C)
    return CUDA_ERROR_INVALID_VALUE;
  using clustrix::rt::cuda::CU_MEMORYTYPE_DEVICE;
  using clustrix::rt::cuda::CU_MEMORYTYPE_HOST;
  auto Known = [](int T) { return T == CU_MEMORYTYPE_HOST || T == CU_MEMORYTYPE_DEVICE; };
  if (!Known(C->srcMemoryType) || !Known(C->dstMemoryType))
    return CUDA_ERROR_NOT_SUPPORTED; // arrays and unified memory are not emulated
  if (C->WidthInBytes == 0 || C->Height == 0 || C->Depth == 0)
    return CUDA_SUCCESS;
  if ((C->Height > 1 || C->Depth > 1) &&
      (C->srcPitch < C->WidthInBytes || C->dstPitch < C->WidthInBytes))
    return CUDA_ERROR_INVALID_VALUE;
  if (C->Depth > 1 && (C->srcHeight < C->Height || C->dstHeight < C->Height))
    return CUDA_ERROR_INVALID_VALUE;
  bool SrcDev = C->srcMemoryType == CU_MEMORYTYPE_DEVICE;
  bool DstDev = C->dstMemoryType == CU_MEMORYTYPE_DEVICE;
  Span Src = spanOf(SrcDev ? static_cast<uintptr_t>(C->srcDevice)
                           : reinterpret_cast<uintptr_t>(C->srcHost),
                    C->srcXInBytes, C->srcY, C->srcZ, C->srcPitch, C->srcHeight, *C);
  Span Dst = spanOf(DstDev ? static_cast<uintptr_t>(C->dstDevice)
                           : reinterpret_cast<uintptr_t>(C->dstHost),
                    C->dstXInBytes, C->dstY, C->dstZ, C->dstPitch, C->dstHeight, *C);
  for (auto [IsDev, Sp, What] : {std::make_tuple(SrcDev, Src, "source"),
                                 std::make_tuple(DstDev, Dst, "destination")}) {
    if (IsDev && !D->Memory.holds(Sp.First, Sp.Bytes)) {
      report(D->name() + ": cuMemcpy3DAsync's " + What + " " + hex(Sp.First) + " (" +
             std::to_string(Sp.Bytes) + " bytes) is not inside one allocation of the device" +
             (D->Memory.owns(Sp.First) ? "" : " (it is in " + whereIs(Sp.First) + ")"));
      return CUDA_ERROR_INVALID_VALUE;
    }
    if (!IsDev && Sp.First == 0)
      return CUDA_ERROR_INVALID_VALUE;
  }
  bool Skip = DstDev && !SrcDev && D->fault(FaultKind::SkipCopyIn, ++D->CopiesIn);
  bool Pinned = (!SrcDev && Emulator::get()->isPinned(reinterpret_cast<void *>(Src.First), Src.Bytes)) ||
                (!DstDev && Emulator::get()->isPinned(reinterpret_cast<void *>(Dst.First), Dst.Bytes));
  if (SrcDev == DstDev)
    Pinned = true; // device to device (or host to host) never waits for the host
  Memcpy3D M = *C;
  uint64_t Moved = uint64_t(M.WidthInBytes) * M.Height * M.Depth;
  (SrcDev && DstDev ? D->BytesWithin : DstDev ? D->BytesToDevice : D->BytesToHost) += Moved;
  return submitCopy(*D, S, Pinned, [M, Src, Dst, Skip] {
    if (Skip)
      return;
    size_t SrcSlab = M.Depth > 1 ? M.srcPitch * M.srcHeight : 0;
    size_t DstSlab = M.Depth > 1 ? M.dstPitch * M.dstHeight : 0;
    for (size_t Z = 0; Z < M.Depth; ++Z)
      for (size_t Y = 0; Y < M.Height; ++Y)
        std::memcpy(reinterpret_cast<char *>(Dst.First + Z * DstSlab + Y * M.dstPitch),
                    reinterpret_cast<const char *>(Src.First + Z * SrcSlab + Y * M.srcPitch),
                    M.WidthInBytes);
  });
}

//===----------------------------------------------------------------------===//
// Streams
//===----------------------------------------------------------------------===//

EMU_API CUresult cuStreamCreate(CUstream *S, unsigned Flags) {
  count(DriverCall::StreamCreate, CurrentContext);
  Device *D;
  if (CUresult R = current(D))
    return R;
  if (!S || Flags > 1)
    return CUDA_ERROR_INVALID_VALUE;
  *S = reinterpret_cast<CUstream>(D->createStream(/*Blocking=*/Flags == 0));
  return CUDA_SUCCESS;
}

EMU_API CUresult cuStreamDestroy_v2(CUstream S) {
  count(DriverCall::StreamDestroy, CurrentContext);
  if (!Emulator::get())
    return CUDA_ERROR_NOT_INITIALIZED;
  auto *St = reinterpret_cast<Stream *>(S);
  if (!St)
    return CUDA_ERROR_INVALID_HANDLE;
  Device &D = St->device();
  return D.destroyStream(St) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

EMU_API CUresult cuStreamSynchronize(CUstream S) {
  Emulator *E = Emulator::get();
  if (!E)
    return CUDA_ERROR_NOT_INITIALIZED;
  auto *St = reinterpret_cast<Stream *>(S);
  Device *D = St ? &St->device() : CurrentContext;
  count(DriverCall::StreamSynchronize, D);
  if (!D)
    return CUDA_ERROR_INVALID_CONTEXT;
  if (St)
    St->synchronize();
  else
    D->waitStreams(/*OnlyBlocking=*/true);
  return D->Sticky.load();
}

//===----------------------------------------------------------------------===//
// Events
//===----------------------------------------------------------------------===//

EMU_API CUresult cuEventCreate(CUevent *E, unsigned Flags) {
  count(DriverCall::EventCreate, CurrentContext);
  Device *D;
  if (CUresult R = current(D))
    return R;
  if (!E || (Flags & ~0xFu))
    return CUDA_ERROR_INVALID_VALUE;
  *E = reinterpret_cast<CUevent>(
      Emulator::get()->createEvent(*D, !(Flags & CU_EVENT_DISABLE_TIMING)).get());
  return CUDA_SUCCESS;
}

EMU_API CUresult cuEventDestroy_v2(CUevent E) {
  count(DriverCall::EventDestroy, CurrentContext);
  if (!Emulator::get())
    return CUDA_ERROR_NOT_INITIALIZED;
  return Emulator::get()->destroyEvent(E) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

namespace {
/// What cuEventRecord and cuStreamWaitEvent check first: a context current, a known event and
/// a stream of the current context's device (CUDA requires the stream's and the event's
/// context to match for a record; requiring the current one too makes a runtime that switches
/// contexts for these calls run alike on a real driver). The null stream is not emulated here.
CUresult eventCall(CUevent E, CUstream S, Device *&D, std::shared_ptr<Event> &Ev, Stream *&St) {
  if (CUresult R = current(D))
    return R;
  Ev = Emulator::get()->findEvent(E);
  St = reinterpret_cast<Stream *>(S);
  if (!Ev)
    return CUDA_ERROR_INVALID_HANDLE;
  if (!St)
    return CUDA_ERROR_NOT_SUPPORTED;
  return &St->device() == D ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}
} // namespace

EMU_API CUresult cuEventRecord(CUevent E, CUstream S) {
  count(DriverCall::EventRecord, CurrentContext);
  Device *D;
  std::shared_ptr<Event> Ev;
  Stream *St;
  if (CUresult R = eventCall(E, S, D, Ev, St))
    return R;
  if (&Ev->device() != D)
    return CUDA_ERROR_INVALID_CONTEXT;
  uint64_t N = Ev->record();
  St->enqueue([Ev, N] { Ev->done(N); }); // reached even on a lost device: waiters never hang
  return CUDA_SUCCESS;
}

EMU_API CUresult cuStreamWaitEvent(CUstream S, CUevent E, unsigned Flags) {
  count(DriverCall::StreamWaitEvent, CurrentContext);
  Device *D;
  std::shared_ptr<Event> Ev;
  Stream *St;
  if (CUresult R = eventCall(E, S, D, Ev, St))
    return R;
  if (Flags != 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (uint64_t N = Ev->last()) // another device's event too
    St->enqueue([Ev, N] { Ev->waitFor(N); });
  if (&Ev->device() != D)
    D->notePeerWait();
  return CUDA_SUCCESS;
}

// Neither needs a context current (as CUDA): an event knows its device.
EMU_API CUresult cuEventSynchronize(CUevent E) {
  if (!Emulator::get())
    return CUDA_ERROR_NOT_INITIALIZED;
  std::shared_ptr<Event> Ev = Emulator::get()->findEvent(E);
  if (!Ev)
    return CUDA_ERROR_INVALID_HANDLE;
  count(DriverCall::EventSynchronize, &Ev->device());
  Ev->waitFor(Ev->last());
  return CUDA_SUCCESS;
}

/// Milliseconds between the moments both events' streams reached their last records, as
/// CUDA: CUDA_ERROR_NOT_READY while either is still queued (or was never recorded), and
/// CUDA_ERROR_INVALID_HANDLE for an event made with CU_EVENT_DISABLE_TIMING.
EMU_API CUresult cuEventElapsedTime_v2(float *Ms, CUevent Start, CUevent End) {
  if (!Emulator::get())
    return CUDA_ERROR_NOT_INITIALIZED;
  std::shared_ptr<Event> S = Emulator::get()->findEvent(Start), E = Emulator::get()->findEvent(End);
  if (!Ms || !S || !E)
    return !Ms ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_INVALID_HANDLE;
  count(DriverCall::EventElapsedTime, &E->device());
  if (!S->timing() || !E->timing())
    return CUDA_ERROR_INVALID_HANDLE;
  uint64_t SNs = 0, ENs = 0;
  if (!S->reached(SNs) || !E->reached(ENs))
    return CUDA_ERROR_NOT_READY;
  *Ms = float((double(ENs) - double(SNs)) / 1e6);
  return CUDA_SUCCESS;
}

//===----------------------------------------------------------------------===//
// Modules and launches
//===----------------------------------------------------------------------===//

namespace {

/// A private directory for module files: each is written there, opened and unlinked at once.
/// Names never repeat within the process, because the dynamic loader knows a library by its
/// path and would hand back an earlier module for a reused one.
const std::string &moduleDirectory() {
  static const std::string Dir = [] {
    const char *Tmp = std::getenv("TMPDIR");
    std::string T = std::string(Tmp && *Tmp ? Tmp : "/tmp") + "/clustrix-cudaemu-XXXXXX";
    if (!::mkdtemp(&T[0]))
      return std::string();
    std::string Made = T;
    static std::string ForExit = Made;
    std::atexit([] { ::rmdir(ForExit.c_str()); });
    return Made;
  }();
  return Dir;
}

std::atomic<uint64_t> ModuleCount{0};

} // namespace

EMU_API CUresult cuModuleLoadData(CUmodule *Out, const void *Image) {
  count(DriverCall::ModuleLoadData, CurrentContext);
  Device *D;
  if (CUresult R = current(D))
    return R;
  if (!Out || !Image)
    return CUDA_ERROR_INVALID_VALUE;
  ImageHeader H;
  std::memcpy(&H, Image, sizeof(H));
  if (std::memcmp(H.Magic, ImageMagic, sizeof(ImageMagic)) != 0 || H.Abi != CLUSTRIX_EMU_ABI) {
    report(D->name() + ": cuModuleLoadData: not a module of this emulator (a real cubin, or " +
           "one built by another revision of it)");
    return CUDA_ERROR_INVALID_IMAGE;
  }
  const std::string &Dir = moduleDirectory();
  std::string Path = Dir + "/module-" + std::to_string(++ModuleCount) + ".so";
  int Fd = Dir.empty() ? -1 : ::open(Path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0700);
  if (Fd < 0) {
    report("cannot write a kernel module to " + Path);
    return CUDA_ERROR_INVALID_IMAGE;
  }
  const char *Bytes = static_cast<const char *>(Image) + sizeof(H);
  size_t Done = 0;
  while (Done < H.Size) {
    ssize_t W = ::write(Fd, Bytes + Done, H.Size - Done);
    if (W <= 0)
      break;
    Done += static_cast<size_t>(W);
  }
  ::close(Fd);
  void *Handle = Done == H.Size ? ::dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL) : nullptr;
  std::string Why = Handle ? "" : (Done == H.Size && ::dlerror() ? "dlopen failed" : "short write");
  if (!Handle)
    if (const char *E = ::dlerror())
      Why = E;
  ::unlink(Path.c_str());
  if (!Handle) {
    report(D->name() + ": cuModuleLoadData: " + Why);
    return CUDA_ERROR_INVALID_IMAGE;
  }
  auto M = std::make_unique<Module>();
  M->Dev = D;
  M->Handle = Handle;
  M->Slot = reinterpret_cast<SelfSlotFn>(::dlsym(Handle, "__clx_emu_self_slot"));
  if (!M->Slot) {
    ::dlclose(Handle);
    return CUDA_ERROR_INVALID_IMAGE;
  }
  *Out = reinterpret_cast<CUmodule>(D->addModule(std::move(M)));
  return CUDA_SUCCESS;
}

EMU_API CUresult cuModuleUnload(CUmodule Mod) {
  count(DriverCall::ModuleUnload, CurrentContext);
  if (!Emulator::get())
    return CUDA_ERROR_NOT_INITIALIZED;
  auto *M = reinterpret_cast<Module *>(Mod);
  if (!M)
    return CUDA_ERROR_INVALID_HANDLE;
  Device *D = M->Dev;
  D->waitStreams(/*OnlyBlocking=*/false);
  void *Handle = M->Handle;
  if (!D->removeModule(M))
    return CUDA_ERROR_INVALID_HANDLE;
  ::dlclose(Handle);
  return CUDA_SUCCESS;
}

EMU_API CUresult cuModuleGetFunction(CUfunction *Out, CUmodule Mod, const char *Name) {
  count(DriverCall::ModuleGetFunction, CurrentContext);
  if (!Emulator::get())
    return CUDA_ERROR_NOT_INITIALIZED;
  auto *M = reinterpret_cast<Module *>(Mod);
  if (!Out || !M || !Name)
    return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::mutex> G(M->M);
  auto &F = M->Functions[Name];
  if (!F) {
    auto *Entry = static_cast<const __clx_emu_kernel *>(
        ::dlsym(M->Handle, ("__clx_emu_kernel_" + std::string(Name)).c_str()));
    if (!Entry || Entry->abi != CLUSTRIX_EMU_ABI) {
      M->Functions.erase(Name);
      return CUDA_ERROR_NOT_FOUND;
    }
    F = std::make_unique<Function>();
    F->Mod = M;
    F->Entry = Entry;
    F->Name = Name;
  }
  *Out = reinterpret_cast<CUfunction>(F.get());
  return CUDA_SUCCESS;
}

EMU_API CUresult cuLaunchKernel(CUfunction Fn, unsigned GridX, unsigned GridY, unsigned GridZ,
                                unsigned BlockX, unsigned BlockY, unsigned BlockZ,
                                unsigned SharedBytes, CUstream S, void **Params, void **Extra) {
  count(DriverCall::LaunchKernel, CurrentContext);
  Device *D;
  if (CUresult R = current(D))
    return R;
  auto *F = reinterpret_cast<Function *>(Fn);
  if (!F)
    return CUDA_ERROR_INVALID_HANDLE;
  if (F->Mod->Dev != D)
    return CUDA_ERROR_INVALID_HANDLE; // a function of another context
  auto *St = reinterpret_cast<Stream *>(S);
  if (St && &St->device() != D)
    return CUDA_ERROR_INVALID_HANDLE;
  if (Extra || SharedBytes)
    return CUDA_ERROR_NOT_SUPPORTED; // dynamic shared memory and packed parameters
  uint64_t Threads = uint64_t(BlockX) * BlockY * BlockZ;
  if (GridX == 0 || GridY == 0 || GridZ == 0 || Threads == 0 || Threads > 1024 || BlockZ > 64)
    return CUDA_ERROR_INVALID_VALUE;
  const __clx_emu_kernel &K = *F->Entry;
  if (K.num_params && !Params)
    return CUDA_ERROR_INVALID_VALUE;
  // The parameters are copied now, as the driver does: the caller's storage may go away.
  std::vector<size_t> Offsets(K.num_params);
  size_t Size = 0;
  for (unsigned I = 0; I < K.num_params; ++I) {
    size_t A = K.aligns[I] ? K.aligns[I] : 1;
    Size = (Size + A - 1) / A * A;
    Offsets[I] = Size;
    Size += K.sizes[I];
  }
  auto Storage = std::make_shared<std::vector<std::max_align_t>>(
      (Size + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t) + 1);
  auto Pointers = std::make_shared<std::vector<void *>>(K.num_params);
  char *Base = reinterpret_cast<char *>(Storage->data());
  for (unsigned I = 0; I < K.num_params; ++I) {
    if (!Params[I])
      return CUDA_ERROR_INVALID_VALUE;
    std::memcpy(Base + Offsets[I], Params[I], K.sizes[I]);
    (*Pointers)[I] = Base + Offsets[I];
    // A pointer parameter must point into this device's memory: a host pointer or another
    // device's is the bug real hardware reports as an illegal address. A device with pageable
    // memory access (HMM, ATS) may also be given the host's memory.
    if (K.is_pointer[I] && K.sizes[I] == sizeof(uintptr_t)) {
      uintptr_t P;
      std::memcpy(&P, Params[I], sizeof(P));
      bool HostOk = D->Pageable != PageableAccess::Off && !Emulator::get()->deviceOwning(P);
      if (P && !D->Memory.owns(P) && !HostOk) {
        report(D->name() + ": " + F->Name + ": parameter " + std::to_string(I) + " (" + hex(P) +
               ") points into " + whereIs(P) + ", not into " + D->name() +
               "'s memory: the launch fails with CUDA_ERROR_ILLEGAL_ADDRESS");
        D->lose(CUDA_ERROR_ILLEGAL_ADDRESS);
        return CUDA_ERROR_ILLEGAL_ADDRESS;
      }
    }
  }
  uint64_t N = ++D->Launches;
  if (D->fault(FaultKind::Launch, N))
    return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
  const FaultRule *LoseRule = D->fault(FaultKind::Lost, N);
  const FaultRule *PartialRule = D->fault(FaultKind::Partial, N);
  bool Lose = LoseRule, Partial = PartialRule;
  bool AfterPeerRead = (LoseRule && LoseRule->AfterPeerRead) ||
                       (PartialRule && PartialRule->AfterPeerRead);
  __clx_emu_dim3 Grid{GridX, GridY, GridZ}, Block{BlockX, BlockY, BlockZ};
  const __clx_emu_kernel *Entry = &K;
  SelfSlotFn Slot = F->Mod->Slot;
  auto Run = [D, Entry, Slot, Storage, Pointers, Grid, Block, Lose, Partial, AfterPeerRead] {
    if (D->Sticky.load())
      return;
    if (AfterPeerRead)
      D->waitPeerRead();
    if (Lose) {
      D->lose(CUDA_ERROR_LAUNCH_FAILED); // the kernel never finishes; the context is gone
      return;
    }
    if (Partial) {
      // The first half of the blocks (at least one) write what they write, then the kernel
      // faults: what they wrote stays wherever they wrote it.
      uint64_t Blocks = uint64_t(Grid.x) * Grid.y * Grid.z;
      BlockRunner::current().runGrid(*Entry, Slot, Pointers->data(), Grid, Block,
                                     (Blocks + 1) / 2);
      D->lose(CUDA_ERROR_LAUNCH_FAILED);
      return;
    }
    BlockRunner::current().runGrid(*Entry, Slot, Pointers->data(), Grid, Block);
  };
  if (!St) {
    D->waitStreams(/*OnlyBlocking=*/true);
    Run();
    return CUDA_SUCCESS;
  }
  St->enqueue(std::move(Run));
  return CUDA_SUCCESS;
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

namespace {

/// A result code as cuGetErrorName and cuGetErrorString give it.
struct ErrorText {
  int Code;
  const char *Name, *Text;
};

const ErrorText Errors[] = {
    {0, "CUDA_SUCCESS", "no error"},
    {1, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {4, "CUDA_ERROR_DEINITIALIZED", "driver shutting down"},
    {100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {101, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {200, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
    {201, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {400, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {500, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered"},
    {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "too many resources requested for launch"},
    {712, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED",
     "part or all of the requested memory range is already mapped"},
    {713, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED", "pointer does not correspond to a registered memory region"},
    {719, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
    {801, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
    {999, "CUDA_ERROR_UNKNOWN", "unknown error"},
};

const ErrorText *findError(int Code) {
  for (const ErrorText &E : Errors)
    if (E.Code == Code)
      return &E;
  return nullptr;
}

} // namespace

EMU_API CUresult cuGetErrorName(CUresult Code, const char **Name) {
  const ErrorText *E = findError(Code);
  if (!Name || !E)
    return CUDA_ERROR_INVALID_VALUE;
  *Name = E->Name;
  return CUDA_SUCCESS;
}

EMU_API CUresult cuGetErrorString(CUresult Code, const char **Text) {
  const ErrorText *E = findError(Code);
  if (!Text || !E)
    return CUDA_ERROR_INVALID_VALUE;
  *Text = E->Text;
  return CUDA_SUCCESS;
}
