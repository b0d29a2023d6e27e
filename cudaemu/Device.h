//===- cudaemu/Device.h - The emulated machine ------------------*- C++ -*-===//
//
// The state behind the emulated driver: devices with their own memory, streams that run their
// operations in order on a thread of their own, loaded kernel modules, sticky errors and fault
// counters. The driver's types (CUresult, CUDA_MEMCPY3D) are the runtime's own declarations of
// them (runtime/lib/CUDA/CudaDriver.h, checked against cuda.h by a unit test), so the emulator
// implements exactly the interface the runtime calls.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_CUDAEMU_DEVICE_H
#define CLUSTRIX_CUDAEMU_DEVICE_H

#include "CUDA/CudaDriver.h"
#include "Config.h"
#include "Fiber.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace clustrix {
namespace cudaemu {

using rt::cuda::CUresult;
using rt::cuda::Memcpy3D;
using rt::cuda::CU_EVENT_DISABLE_TIMING;

/// Result codes of cuda.h the emulator returns (beyond those CudaDriver.h names).
enum : int {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_INVALID_IMAGE = 200,
  CUDA_ERROR_INVALID_CONTEXT = 201,
  CUDA_ERROR_INVALID_HANDLE = 400,
  CUDA_ERROR_NOT_FOUND = 500,
  CUDA_ERROR_NOT_READY = 600,
  CUDA_ERROR_ILLEGAL_ADDRESS = 700,
  CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
  CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED = 712,
  CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED = 713,
  CUDA_ERROR_LAUNCH_FAILED = 719,
  CUDA_ERROR_NOT_SUPPORTED = 801,
  CUDA_ERROR_UNKNOWN = 999,
};

/// What the emulated NVRTC returns as a "cubin": this header, then the kernel module (a shared
/// object) itself.
struct ImageHeader {
  char Magic[8];   ///< "CLXEMUSO"
  uint32_t Abi;    ///< CLUSTRIX_EMU_ABI
  uint32_t Reserved;
  uint64_t Size;   ///< Bytes of the shared object that follows.
};
constexpr char ImageMagic[8] = {'C', 'L', 'X', 'E', 'M', 'U', 'S', 'O'};

/// Prints one line on stderr, prefixed `clustrix-cudaemu: `.
void report(const std::string &Text);

/// One device's memory: an address range of its own, reserved at start and never shared with
/// the host or another device. Allocations are carved from its upper part, page by page, and
/// poisoned (every 32-bit word 0xFFF4CDCD: a NaN as float and as double); freed pages are
/// returned to the system and made inaccessible again. The lower part of the range (the margin)
/// is never allocated: it is where the runtime's rebased region pointers point, which the
/// kernels index with global indices back into an allocation.
class DeviceMemory {
public:
  ~DeviceMemory();
  /// Reserves the range for Capacity bytes; false with Err when the address space is short.
  bool reserve(uint64_t Capacity, std::string &Err);
  /// Allocates Bytes (rounded up to pages), or CUDA_ERROR_OUT_OF_MEMORY past the capacity.
  CUresult alloc(size_t Bytes, uintptr_t &Ptr);
  /// Frees an allocation by its first address; CUDA_ERROR_INVALID_VALUE for anything else.
  CUresult free(uintptr_t Ptr);
  /// Whether [P, P + N) lies inside the bytes asked for by one live allocation.
  bool holds(uintptr_t P, size_t N) const;
  /// Whether P lies in the device's range (an allocation, or the margin below them).
  bool owns(uintptr_t P) const { return P >= Begin && P < End; }
  uint64_t used() const;
  uint64_t capacity() const { return Capacity; }

private:
  mutable std::mutex M;
  uintptr_t Begin = 0, Heap = 0, End = 0;
  uint64_t Capacity = 0, Used = 0;
  /// An allocation: the bytes asked for (what copies may touch) and the pages it holds.
  struct Block {
    size_t Asked, Pages;
  };
  std::map<uintptr_t, Block> Live;
  std::map<uintptr_t, size_t> Free; ///< free ranges of [Heap, End)
};

class Device;

/// A CUDA stream: operations run in submission order on the stream's own thread, concurrently
/// with the host and with other streams. Launches run there too, so concurrent kernels never
/// share an OS thread (nor, therefore, __shared__ memory).
class Stream {
public:
  Stream(Device &D, bool Blocking);
  ~Stream();
  /// Queues Op; it runs after every operation queued before it.
  void enqueue(std::function<void()> Op);
  /// Returns once every queued operation has run.
  void synchronize();
  Device &device() const { return Dev; }
  bool blocking() const { return Blocking; }

private:
  void work();
  Device &Dev;
  bool Blocking;
  std::mutex M;
  std::condition_variable Wake, Idle;
  std::deque<std::function<void()>> Queue;
  bool Running = false, Stop = false;
  std::thread Worker;
};

/// A CUDA event: each cuEventRecord numbers a record and queues the point where its stream
/// reaches it; a stream told to wait for the event (cuStreamWaitEvent) waits for the record
/// made last before that call, and for nothing recorded after it.
class Event {
public:
  Event(Device &D, bool Timing) : Dev(D), Timing(Timing) {}
  Device &device() const { return Dev; }
  /// Whether it was created without CU_EVENT_DISABLE_TIMING (cuEventElapsedTime accepts it).
  bool timing() const { return Timing; }
  /// Numbers a new record (its stream then reaches it: done).
  uint64_t record();
  /// The number of the last record, 0 when none was made.
  uint64_t last() const;
  /// Marks record N reached (and every one before it).
  void done(uint64_t N);
  /// Returns once record N was reached.
  void waitFor(uint64_t N);
  /// Whether its last record was reached, and when (steady_clock nanoseconds): what
  /// cuEventQuery and cuEventElapsedTime read. False when it was never recorded.
  bool reached(uint64_t &AtNs) const;

private:
  Device &Dev;
  const bool Timing;
  mutable std::mutex M;
  std::condition_variable Reached;
  uint64_t Recorded = 0, Done = 0;
  uint64_t DoneNs = 0; // when Done was last raised
};

/// A kernel function of a loaded module.
struct Function {
  struct Module *Mod = nullptr;
  const __clx_emu_kernel *Entry = nullptr;
  std::string Name;
};

/// A loaded kernel module (the shared object the emulated NVRTC built), owned by one device.
struct Module {
  Device *Dev = nullptr;
  void *Handle = nullptr;
  SelfSlotFn Slot = nullptr;
  std::mutex M;
  std::map<std::string, std::unique_ptr<Function>> Functions;
};

/// One emulated GPU. Its address is also its primary context's handle.
class Device {
public:
  Device(int Ordinal, uint64_t Memory, int Sms, PageableAccess Pageable)
      : Ordinal(Ordinal), Sms(Sms), MemoryBytes(Memory), Pageable(Pageable) {}
  ~Device();

  const int Ordinal;
  const int Sms;
  const uint64_t MemoryBytes;
  /// Whether kernels may be given host memory (CLUSTRIX_EMU_PAGEABLE_ACCESS).
  const PageableAccess Pageable;
  DeviceMemory Memory;
  /// A sticky error (lost device, illegal address): every later call on the device returns it.
  std::atomic<int> Sticky{0};
  /// Events counted for CLUSTRIX_EMU_FAULT.
  std::atomic<uint64_t> Launches{0}, Allocations{0}, CopiesIn{0}, Registrations{0};
  /// Bytes moved, per direction, for CLUSTRIX_EMU_STATS: host to this device, this device to
  /// the host, from another device into this one, and within this device.
  std::atomic<uint64_t> BytesToDevice{0}, BytesToHost{0}, BytesPeerIn{0}, BytesWithin{0};
  /// Whether another device queued a copy that reads from this one; whether this device
  /// waited for another's event since.
  bool PeerRead = false, PeerReadAwaited = false;
  std::mutex PeerReadM;
  std::condition_variable PeerReadCv;
  /// Driver entry points called on this device (Device.cpp's DriverCallNames, in order), for
  /// CLUSTRIX_EMU_STATS: what the runtime asks of the driver, per loop call, in tests.
  static constexpr unsigned NumDriverCalls = 32;
  std::atomic<uint64_t> DriverCalls[NumDriverCalls] = {};

  std::string name() const { return "cuda" + std::to_string(Ordinal); }
  /// The fault rule of kind K that fires for the Nth event of its kind (reported), or null.
  const FaultRule *fault(FaultKind K, uint64_t N) const;
  /// Notes that another device queued a copy that reads from this one (for +peer faults).
  void notePeerRead();
  /// Notes that a stream of this device was told to wait for another device's event.
  void notePeerWait();
  /// Waits until a copy that reads from this device was queued and this device was then told
  /// to wait for another device's event, or 10 s went by (+peer faults).
  void waitPeerRead();
  /// Marks the device lost (every later call fails with Code).
  void lose(int Code);

  Stream *createStream(bool Blocking);
  bool destroyStream(Stream *S);
  /// Waits for the streams that synchronize with the legacy default stream (or all of them).
  void waitStreams(bool OnlyBlocking);
  Module *addModule(std::unique_ptr<Module> M);
  bool removeModule(Module *M);

private:
  std::mutex M;
  std::vector<std::unique_ptr<Stream>> Streams;
  std::vector<std::unique_ptr<Module>> Modules;
};

/// The process's emulated machine, made by the first successful cuInit.
class Emulator {
public:
  /// The machine; null before cuInit succeeded.
  static Emulator *get();
  /// Creates the machine from the environment (once); the result of cuInit.
  static CUresult init();

  EmuConfig Config;
  std::vector<std::unique_ptr<Device>> Devices;

  /// The device whose address range holds P, or null (host memory).
  Device *deviceOwning(uintptr_t P) const;

  /// Page-locked host memory (cuMemAllocHost): copies from and to it are asynchronous.
  void *allocPinned(size_t Bytes);
  bool freePinned(void *P);
  bool isPinned(const void *P, size_t N) const;
  /// Host memory the program page-locks (cuMemHostRegister): copies from and to it are
  /// asynchronous too. False when the range overlaps memory that is page-locked already.
  bool registerHost(void *P, size_t N);
  /// False when P does not begin a registered range.
  bool unregisterHost(void *P);

  /// Events of every device, by handle: a stream may wait for another device's event. An event
  /// lives on while operations queued for it have not run (a destroyed one included).
  std::shared_ptr<Event> createEvent(Device &D, bool Timing);
  std::shared_ptr<Event> findEvent(const void *Handle) const;
  bool destroyEvent(const void *Handle);

private:
  /// The page-locked ranges overlapping [A, A + N), under PinnedM.
  bool overlapsLocked(uintptr_t A, size_t N) const;
  mutable std::mutex PinnedM;
  mutable std::mutex EventsM;
  std::map<const void *, std::shared_ptr<Event>> Events;
  std::map<uintptr_t, size_t> Pinned;
  std::map<uintptr_t, size_t> Registered;
};

} // namespace cudaemu
} // namespace clustrix

#endif
