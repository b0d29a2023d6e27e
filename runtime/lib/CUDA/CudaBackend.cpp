//===- CUDA/CudaBackend.cpp - Running chunks on CUDA devices --------------===//
//
// The CUDA backend: discovery through the driver, and chunks as pipelines of sub-chunks (one when
// the share fits free memory), which the generic driver (Exec/) runs as Backend.h's pieces:
// sub-chunk S is copied in and launched on stream S % 2 while sub-chunk S - 1 is copied out.
// Copies go through the device's pinned staging buffer in pieces of at most a quarter of its size
// (one half per stream, two pieces in flight in each), so pinned memory stays bounded and the
// host packs one piece while the link moves the other. The device data table's large copies
// (a resident range's first copy in, its copy back) take the same two-piece pipeline through a
// pinned buffer of their own.
//
//===----------------------------------------------------------------------===//
#include "CUDA/CudaBackend.h"

#include "CUDA/CudaDriver.h"
#include "CUDA/KernelCache.h"
#include "CUDA/KernelRegistry.h"
#include "CUDA/Nvrtc.h"
#include "Data/Residency.h"
#include "Plan/Planner.h"
#include "Plan/Reduce.h"
#include "Plan/Regions.h"
#include "Support/ConfigState.h"
#include "Support/ParallelCopy.h"
#include "Support/Log.h"
#include "Support/Trace.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <unistd.h>
#include <string_view>

namespace clustrix {
namespace rt {
namespace cuda {

namespace {

struct DeviceState;

/// One sub-chunk (a piece, in Backend.h's terms) on the device.
struct SubChunk {
  uint64_t Lo = 0, Hi = 0;
  unsigned Stream = 0;
  unsigned Grid = 0;
  std::vector<Box> Boxes;
  /// Per region, what the chunk's writes reach (LoopArgs::WriteBoxes, within Boxes): the part
  /// copied back and marked written. The rest of a box was only read and holds the host's values.
  std::vector<Box> WriteBoxes;
  std::vector<CUdeviceptr> Buffers;   // per region (0 when empty or resident)
  std::vector<uint64_t> Elem0;        // resident: per region, the device address of element 0
  std::vector<size_t> BufferBytes;    // their sizes
  std::vector<CUdeviceptr> Partials;  // per reduction, Grid cells each
  std::vector<size_t> PartialBytes;
  std::vector<std::vector<unsigned char>> Cells; // the partials' cells, once copied out
};

/// A GPU's memory as the device data table moves it (Data/Residency.h). Resident work runs on
/// stream 0: copies to the device and kernels in order there, copies out after it.
class CudaMemory final : public data::DeviceMemory {
public:
  CudaMemory(DeviceState &S, int Ordinal) : S(S), Ordinal(Ordinal) {}
  std::string name() const override { return "cuda" + std::to_string(Ordinal); }
  bool allocate(size_t Bytes, uint64_t &Ptr, std::string &Err) override;
  void free(uint64_t Ptr, size_t Bytes) override;
  bool toDevice(uint64_t Dst, const void *Src, size_t Bytes, std::string &Err,
                trace::Span *Traced) override;
  bool toHost(void *Dst, uint64_t Src, size_t Bytes, std::string &Err) override;
  bool within(uint64_t Dst, uint64_t Src, size_t Bytes, std::string &Err,
              trace::Span *Traced) override;
  bool toDevice2D(uint64_t Dst, const void *Src, size_t Width, size_t Rows, size_t Pitch,
                  std::string &Err, trace::Span *Traced) override;
  bool toHost2D(void *Dst, uint64_t Src, size_t Width, size_t Rows, size_t Pitch,
                std::string &Err) override;
  bool canPeer(const DeviceMemory &From) const override;
  bool fromPeer(DeviceMemory &From, uint64_t Dst, uint64_t Src, size_t Bytes, std::string &Err,
                trace::Span *Traced) override;
  bool lost() const override;
  bool settleHostReads(std::string &Err) override;
  /// Before anything this device holds reaches the host: waits for every device it took
  /// copies from since they last confirmed (fromPeer queues them behind the source's work and
  /// returns), and for the devices those took copies from in turn. If one of them failed, the
  /// copies may hold what it never finished computing: this device is then lost too (false,
  /// with Err saying why), and what only it holds is reported lost, never given back wrong.
  bool confirmSources(std::string &Err);

private:
  bool current(std::string &Err);
  /// This device's event (DeviceState::Mark), created at its first use; false when the driver
  /// has no events or refused one (copies between devices then wait on the host).
  bool mark();
  /// fromPeer, queued on both devices with no wait on the host.
  bool fromPeerQueued(CudaMemory &From, uint64_t Dst, uint64_t Src, size_t Bytes,
                      std::string &Err, trace::Span *Traced);
  /// After a copy from the program's memory was queued on stream 0: until the stream is
  /// synchronized, the copy may not have read it yet (memory the program page-locked).
  void readsHost();
  /// After a copy to the host was queued (Queued) or failed with Code: waits for it, so that
  /// it is complete when toHost returns, and marks the device lost on a sticky error.
  bool completeToHost(bool Queued, CUresult Code, std::string &Err);
  /// cuStreamSynchronize of stream 0, with its trace event.
  bool sync0(CUresult &Code, std::string &Err);
  /// Under tracing (Traced set, the driver timing events), records a timing event on stream 0
  /// before a copy is queued there; null otherwise, or when the driver refused.
  CUevent timeStart(const trace::Span *Traced);
  /// After the copy was queued (Queued): marks Traced "queued", and with Start, records the
  /// end event and keeps both until the device has run the copy (DeviceState::Timed).
  void timeQueued(trace::Span *Traced, CUevent Start, bool Queued);
  /// The table's pinned staging (CopyM held, context current): allocated at the first use;
  /// null when there is none (pinned_staging_bytes 0, or pinned memory refused).
  bool copyStaging();
  /// A copy of StagedCopyMin bytes or more between Host and Dev through the table's staging
  /// (CopyM held); Host is only read when ToDevice.
  bool staged(bool ToDevice, char *Host, uint64_t Dev, size_t Bytes, std::string &Err);
  /// With host_register, a copy of RegisteredCopyMin bytes or more straight between Host and
  /// Dev, the host pages locked for it; Done is unset (and nothing moved) when the pages could
  /// not be locked, and the caller stages the copy instead.
  bool direct(bool ToDevice, char *Host, uint64_t Dev, size_t Bytes, bool &Done,
              std::string &Err);
  DeviceState &S;
  int Ordinal;
};

/// Orders kernels by name and hash, and finds one by a name not copied into a string (the
/// lookup of every call).
struct KernelKeyLess {
  using is_transparent = void;
  template <typename A, typename B> bool operator()(const A &X, const B &Y) const {
    return std::make_pair(std::string_view(X.first), X.second) <
           std::make_pair(std::string_view(Y.first), Y.second);
  }
};

/// One GPU's process-wide state. M serializes chunks on the device.
struct DeviceState {
  std::mutex M;
  bool Tried = false;
  std::string InitError;
  CUdevice Dev = 0;
  CUcontext Ctx = nullptr;
  CUstream Streams[2] = {nullptr, nullptr};
  char *Staging = nullptr;   // pinned, two halves, one per stream
  size_t Half = 0;
  /// The device data table's staging (CudaMemory): its own pinned buffer, as the table may copy
  /// back from any thread while a chunk uses Staging. Allocated at the first copy that takes
  /// it; CopyM serializes its users (all on stream 0).
  std::mutex CopyM;
  bool CopyStagingTried = false;
  char *CopyStaging = nullptr;
  size_t CopyHalf = 0;
  std::map<std::pair<std::string, uint64_t>, CUfunction, KernelKeyLess> Kernels;
  /// Per ahead-of-time kernel, whether its rounding probe matched the host.
  std::map<std::pair<std::string, uint64_t>, bool> Probes;
  std::atomic<bool> Lost{false};
  /// Whether stream 0 holds a copy from the program's memory queued since its last
  /// synchronization (CudaMemory::readsHost).
  std::atomic<bool> HostReadsPending{false};
  /// An event that fromPeer records on stream 0 for the other device's stream to wait for;
  /// created at its first use (EventTried).
  CUevent Mark = nullptr;
  bool EventTried = false;
  /// The devices whose copies this device took (fromPeer) since they last confirmed
  /// (CudaMemory::confirmSources), each with the stamp of its latest copy (PeerStamp).
  std::mutex PeerM;
  std::map<DeviceState *, uint64_t> PeerSources;
  uint64_t PeerStamp = 0;
  /// Device buffers kept between chunks (by size), so that a loop called again reuses them
  /// instead of paying cuMemAlloc/cuMemFree each time; at most MaxCachedBytes.
  std::multimap<size_t, CUdeviceptr> FreeBuffers;
  size_t CachedBytes = 0;
  /// Host buffers that hold a sub-chunk's results until all of them arrived (one per region),
  /// kept so that their pages are touched once, not at every call.
  std::vector<std::vector<char>> Dense;
  /// What the device data table sees of the device.
  std::unique_ptr<CudaMemory> Memory;
  /// The device's free memory at the last cuMemGetInfo, while FreeKnown: valid until the
  /// runtime allocates or frees device memory itself (memAlloc, memFree). A loop called again
  /// on buffers it keeps (cached, or resident mirrors) asks the driver nothing: on a GPU,
  /// cuMemGetInfo is a round trip to the kernel driver, every call. Memory that other programs
  /// take meanwhile is not seen; an allocation that then fails is handled as always (the
  /// cache emptied and the allocation retried, else the chunk re-runs elsewhere).
  size_t KnownFree = 0;
  std::atomic<bool> FreeKnown{false};
  /// The vectors of the chunk being prepared (CudaLoop), kept with their capacity from chunk to
  /// chunk: a resident loop's whole call costs a few microseconds of host time, and a dozen
  /// allocations were a fifth of it. Only the holder of M uses them.
  struct Scratch {
    std::vector<SubChunk> Subs;
    std::vector<Box> Whole; // the boxes of the whole chunk, from split's footprint
    std::vector<uint64_t> Words;
    std::vector<void *> Ptrs;
    std::vector<char> Fetched;
  };
  Scratch Kept;
  /// The last resident chunks of a few loops (a time step alternates its loops):
  /// - their boxes, with what the boxes depend on (BoxKey, programBoxesKey): the same loop over
  ///   the same range with an equal key has these boxes, not evaluated again;
  /// - when the chunk's calls of the device data table changed nothing but what they changed
  ///   themselves (Replayable), the table's generation they left: the same loop again over the
  ///   same range and boxes, while the table still stands there, would find everything in place
  ///   at the same device addresses (Elem0) and record writes that are recorded already; it
  ///   skips the table (copyIn's acquires, run's wrote) and launches at once.
  struct Replay {
    /// The loop, by its descriptor and its kernel's hash: a module unloaded and another loaded
    /// in its place may put another loop's descriptor at the same address.
    const LoopInfo *Info = nullptr;
    uint64_t KernelHash = 0;
    uint64_t Lo = 0, Hi = 0;
    std::vector<int64_t> BoxKey; // empty: the boxes come from no box program
    std::vector<Box> Boxes;
    std::vector<uint64_t> Elem0;
    bool Replayable = false;
    uint64_t Generation = 0;
  };
  std::vector<Replay> Replays;
  size_t NextReplay = 0;
  /// Under tracing, the copies queued on stream 0 whose time on the device is not recorded yet
  /// (CudaMemory::timeQueued), oldest first; TimedM guards them (flushTimed runs at exit).
  struct TimedCopy {
    CUevent Start = nullptr, End = nullptr;
    uint64_t QueuedNs = 0; // trace::nowNs() when the copy was queued
    uint64_t Call = 0;     // the loop call it was queued for
    std::string Name;      // its trace event's ("copy H2D", "copy peer", ...)
    trace::Args Args;      // and args, with its number on the device ("timed")
  };
  std::mutex TimedM;
  std::vector<TimedCopy> Timed;
  uint64_t TimedCount = 0;  // copies timed so far (TimedM held)
  uint64_t TimedEndNs = 0;  // where the last copy-device event recorded ends (TimedM held)
};

/// Replays kept per device.
constexpr size_t MaxReplays = 8;

/// Most device memory kept cached per device between chunks.
constexpr size_t MaxCachedBytes = size_t(4) << 30;
/// Largest host result buffer kept between chunks (per region).
constexpr size_t MaxKeptDenseBytes = size_t(1) << 30;

std::mutex StatesM;
std::map<int, std::unique_ptr<DeviceState>> &states() {
  static auto *S = new std::map<int, std::unique_ptr<DeviceState>>();
  return *S;
}

/// Records the queued copies of S whose events the device has reached as "copy-device" events,
/// as long as the device took. The host's clock does not see when the device began one: each is
/// placed at the latest of where it was queued and where the one before it on the stream ended
/// (the stream runs them in order), which is never before it began. With Wait, waits for each.
void settleTimed(DeviceState &S, int Ordinal, bool Wait) {
  const DriverApi &Api = DriverApi::get();
  std::lock_guard<std::mutex> G(S.TimedM);
  size_t Done = 0;
  for (; Done < S.Timed.size(); ++Done) {
    DeviceState::TimedCopy &T = S.Timed[Done];
    float Ms = 0;
    CUresult Code = CUDA_SUCCESS;
    if (Wait)
      Code = Api.cuEventSynchronize(T.End);
    if (Code == CUDA_SUCCESS)
      Code = Api.cuEventElapsedTime(&Ms, T.Start, T.End);
    if (Code == CUDA_ERROR_NOT_READY && !Wait)
      break; // later ones follow it on the same stream
    if (Code == CUDA_SUCCESS) {
      trace::CallScope C(T.Call);
      const uint64_t Begin = std::max(T.QueuedNs, S.TimedEndNs);
      S.TimedEndNs = Begin + uint64_t(std::max(0.0, double(Ms) * 1e6));
      trace::complete(trace::deviceTrack("cuda" + std::to_string(Ordinal)), T.Name,
                      "copy-device", Begin, S.TimedEndNs, T.Args);
    } // else the device failed: only the queueing is in the trace
    Api.cuEventDestroy(T.Start);
    Api.cuEventDestroy(T.End);
  }
  S.Timed.erase(S.Timed.begin(), S.Timed.begin() + Done);
}

/// trace::beforeFlush's hook: every device's queued copies, waited for.
void flushTimed() {
  const DriverApi &Api = DriverApi::get();
  std::lock_guard<std::mutex> G(StatesM);
  for (auto &[Ordinal, S] : states()) {
    if (!S || S->Lost || Api.cuCtxSetCurrent(S->Ctx) != CUDA_SUCCESS)
      continue;
    settleTimed(*S, Ordinal, /*Wait=*/true);
  }
}

DeviceState &stateOf(int Ordinal) {
  std::lock_guard<std::mutex> G(StatesM);
  auto &P = states()[Ordinal];
  if (!P) {
    P = std::make_unique<DeviceState>();
    P->Memory = std::make_unique<CudaMemory>(*P, Ordinal);
  }
  return *P;
}

/// cuMemAlloc and cuMemFree of the runtime's own buffers: the device's free memory changes.
CUresult memAlloc(const DriverApi &Api, DeviceState &S, CUdeviceptr &Ptr, size_t Bytes) {
  S.FreeKnown = false;
  return Api.cuMemAlloc(&Ptr, Bytes);
}
CUresult memFree(const DriverApi &Api, DeviceState &S, CUdeviceptr Ptr) {
  S.FreeKnown = false;
  return Api.cuMemFree(Ptr);
}

/// A device buffer of at least Bytes: a cached one of that size (or up to twice it), else a new
/// one; when the device is out of memory the cache is emptied and the allocation tried again.
CUresult allocBuffer(const DriverApi &Api, DeviceState &S, size_t Bytes, CUdeviceptr &Ptr) {
  auto It = S.FreeBuffers.lower_bound(Bytes);
  if (It != S.FreeBuffers.end() && It->first <= 2 * Bytes) {
    Ptr = It->second;
    S.CachedBytes -= It->first;
    S.FreeBuffers.erase(It);
    return CUDA_SUCCESS;
  }
  CUresult R = memAlloc(Api, S, Ptr, Bytes);
  if (R == CUDA_ERROR_OUT_OF_MEMORY && !S.FreeBuffers.empty()) {
    for (auto &[Size, P] : S.FreeBuffers)
      memFree(Api, S, P);
    S.FreeBuffers.clear();
    S.CachedBytes = 0;
    R = memAlloc(Api, S, Ptr, Bytes);
  }
  return R;
}

/// Gives a buffer back: kept for the next chunk while the cache has room, else freed.
void releaseBuffer(const DriverApi &Api, DeviceState &S, CUdeviceptr Ptr, size_t Bytes) {
  if (!S.Lost && S.CachedBytes + Bytes <= MaxCachedBytes) {
    S.FreeBuffers.emplace(Bytes, Ptr);
    S.CachedBytes += Bytes;
    return;
  }
  memFree(Api, S, Ptr);
}

/// A synchronization's trace event on device Ordinal's track (callers test trace::on()).
void syncSpan(std::optional<trace::Span> &Sp, int Ordinal, const char *What) {
  Sp.emplace(trace::deviceTrack("cuda" + std::to_string(Ordinal)), "sync", "sync");
  Sp->args().add("call", What).add("device", "cuda" + std::to_string(Ordinal));
}

/// A copy's trace event on device Ordinal's track: Dir is H2D, D2H, D2D or peer.
void copySpan(std::optional<trace::Span> &Sp, int Ordinal, const char *Dir, uint64_t Bytes,
              const std::string &From, const std::string &To, const char *Array) {
  Sp.emplace(trace::deviceTrack("cuda" + std::to_string(Ordinal)), std::string("copy ") + Dir,
             "copy");
  Sp->args().add("dir", Dir).add("bytes", Bytes).add("from", From).add("to", To);
  if (Array)
    Sp->args().add("array", Array);
}

/// The context the runtime last made current on this thread within a chunk's work (prepare,
/// CudaMemory::current): the device data table may make another device's context current
/// (a copy back from it), and the chunk's own must be current again before its launch. Only
/// trusted between a chunk's prepare and its launch, when no user code runs on the thread.
thread_local CUcontext ThreadContext = nullptr;

/// Errors after which the context cannot be used again.
bool sticky(CUresult R) { return (R >= 700 && R <= 720) || R == 999 || R == CUDA_ERROR_DEINITIALIZED; }

/// The threads that fill and empty staging memory (pack_threads; 0: up to 8, no more than the
/// machine's hardware threads). On an H100 host (16 threads), 8 packed 5 to 20 % faster than 4
/// (docs/gpu-hardware.md, 2026-11-27).
unsigned packThreads() {
  unsigned N = activeConfig().PackThreads;
  if (N == 0)
    N = std::max(1u, std::min(8u, std::thread::hardware_concurrency()));
  return N;
}

/// How the host fills staging memory, which only the link reads next (pack_streaming).
Stores packStores() {
  return activeConfig().PackStreaming ? Stores::Streaming : Stores::Cached;
}

/// Moves N pieces from the host to a device through two pinned buffers, so that the host packs
/// piece K + 1 into one while the link reads piece K from the other. Pack(K, Buf) fills a
/// buffer; Issue(K, Buf) queues its transfer on the stream that Sync waits for. A buffer is
/// packed only once the stream is done with it: the first pack waits for whatever the stream
/// still does (an earlier copy may read either buffer), and each transfer is queued only after
/// the one before it finished, which frees that one's buffer for the next pack. The last
/// transfer may still run on return; the buffers' next user starts with a Sync.
template <typename PackFn, typename IssueFn, typename SyncFn>
bool pipelineToDevice(size_t N, char *const Buf[2], PackFn Pack, IssueFn Issue, SyncFn Sync) {
  if (N > 0 && !Sync())
    return false;
  for (size_t K = 0; K < N; ++K) {
    Pack(K, Buf[K % 2]);
    if ((K > 0 && !Sync()) || !Issue(K, Buf[K % 2]))
      return false;
  }
  return true;
}

/// The reverse: the link writes piece K + 1 into one buffer while the host unpacks piece K from
/// the other. Transfers queue in stream order behind the work that produced the data. Returns
/// with every transfer complete and unpacked.
template <typename IssueFn, typename UnpackFn, typename SyncFn>
bool pipelineToHost(size_t N, char *const Buf[2], IssueFn Issue, UnpackFn Unpack, SyncFn Sync) {
  if (N > 0 && !Issue(0, Buf[0]))
    return false;
  for (size_t K = 0; K < N; ++K) {
    if (!Sync() || (K + 1 < N && !Issue(K + 1, Buf[(K + 1) % 2])))
      return false;
    Unpack(K, Buf[K % 2]);
  }
  return true;
}

/// Copies of the device data table this large or larger go through pinned staging, packed by
/// several threads, with packing and transfer overlapped; smaller ones go directly from
/// pageable memory (the driver stages them itself, at a fraction of the link's speed).
constexpr size_t StagedCopyMin = size_t(4) << 20;
/// Least bytes a copy of the program's memory must have to be made directly, its pages locked
/// for it (host_register): locking costs per page, whatever the size.
constexpr size_t RegisteredCopyMin = size_t(16) << 20;
/// Whether the program page-locked [P, P + Bytes) itself (cudaHostRegister, cudaMallocHost):
/// the driver knows its first and last bytes as host memory. Copies of it then go straight
/// between it and the device, at the link's speed, instead of through staging. (A range whose
/// middle the driver does not know is still copied right: the driver stages what it must.)
bool lockedByProgram(const DriverApi &Api, const void *P, size_t Bytes) {
  if (!Api.cuPointerGetAttribute || Bytes == 0)
    return false;
  auto Host = [&](uintptr_t A) {
    unsigned Type = 0;
    return Api.cuPointerGetAttribute(&Type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, A) ==
               CUDA_SUCCESS &&
           Type == CU_MEMORYTYPE_HOST;
  };
  const auto B = reinterpret_cast<uintptr_t>(P);
  return Host(B) && Host(B + Bytes - 1);
}

/// Most pinned memory the device data table's staging takes (two halves).
constexpr uint64_t MaxCopyStagingBytes = uint64_t(32) << 20;

// --- CudaMemory ----------------------------------------------------------------------------------
// The table calls a device's allocate, toDevice and within only from the chunk that holds the
// device (its lock held, its context current); toHost and fromPeer's source from any thread,
// which the driver allows; free from the chunk, or when no chunk runs.

bool CudaMemory::current(std::string &Err) {
  const DriverApi &Api = DriverApi::get();
  if (S.Lost) {
    Err = name() + " was lost";
    return false;
  }
  CUresult Code = CUDA_SUCCESS;
  bool Ok = CLUSTRIX_CU_CODE(Api, Err, Code, cuCtxSetCurrent(S.Ctx));
  if (!Ok && sticky(Code))
    S.Lost = true;
  ThreadContext = Ok ? S.Ctx : nullptr;
  return Ok;
}

bool CudaMemory::allocate(size_t Bytes, uint64_t &Ptr, std::string &Err) {
  const DriverApi &Api = DriverApi::get();
  if (!current(Err))
    return false;
  CUdeviceptr P = 0;
  CUresult R = allocBuffer(Api, S, Bytes, P);
  if (!checkCall(Api, R, "cuMemAlloc", __FILE__, __LINE__, Err))
    return false;
  Ptr = P;
  return true;
}

void CudaMemory::free(uint64_t Ptr, size_t) {
  const DriverApi &Api = DriverApi::get();
  std::string Ignored;
  if (S.Lost || !current(Ignored))
    return; // a lost context's memory goes with it
  {
    std::optional<trace::Span> Sp;
    if (trace::on())
      syncSpan(Sp, Ordinal, "cuStreamSynchronize before cuMemFree");
    Api.cuStreamSynchronize(S.Streams[0]); // no resident work may still use it
  }
  memFree(Api, S, Ptr);
}

bool CudaMemory::sync0(CUresult &Code, std::string &Err) {
  const DriverApi &Api = DriverApi::get();
  std::optional<trace::Span> Sp;
  if (trace::on())
    syncSpan(Sp, Ordinal, "cuStreamSynchronize");
  // Cleared before the wait: a copy queued while it runs sets it again.
  bool Pending = S.HostReadsPending.exchange(false, std::memory_order_acq_rel);
  bool Ok = CLUSTRIX_CU_CODE(Api, Err, Code, cuStreamSynchronize(S.Streams[0]));
  if (!Ok && Pending && !sticky(Code))
    S.HostReadsPending.store(true, std::memory_order_release);
  if (Ok && trace::on())
    settleTimed(S, Ordinal, /*Wait=*/false);
  return Ok;
}

void CudaMemory::readsHost() { S.HostReadsPending.store(true, std::memory_order_release); }

CUevent CudaMemory::timeStart(const trace::Span *Traced) {
  const DriverApi &Api = DriverApi::get();
  if (!Traced || !Api.hasTimedEvents())
    return nullptr;
  settleTimed(S, Ordinal, /*Wait=*/false);
  CUevent Start = nullptr;
  if (Api.cuEventCreate(&Start, 0) != CUDA_SUCCESS)
    return nullptr;
  if (Api.cuEventRecord(Start, S.Streams[0]) != CUDA_SUCCESS) {
    Api.cuEventDestroy(Start);
    return nullptr;
  }
  return Start;
}

void CudaMemory::timeQueued(trace::Span *Traced, CUevent Start, bool Queued) {
  const DriverApi &Api = DriverApi::get();
  if (Traced && Queued)
    Traced->args().add("queued", 1);
  if (!Start)
    return;
  CUevent End = nullptr;
  if (!Queued || Api.cuEventCreate(&End, 0) != CUDA_SUCCESS ||
      Api.cuEventRecord(End, S.Streams[0]) != CUDA_SUCCESS) {
    if (End)
      Api.cuEventDestroy(End);
    Api.cuEventDestroy(Start);
    return;
  }
  static std::once_flag Hooked; // the hook is the process's, not the device's
  std::call_once(Hooked, [] { trace::beforeFlush(flushTimed); });
  std::lock_guard<std::mutex> G(S.TimedM);
  // The same number on both events pairs them (the device's may start after the queued ends).
  Traced->args().add("timed", ++S.TimedCount);
  S.Timed.push_back(
      {Start, End, trace::nowNs(), trace::currentCall(), Traced->name(), Traced->args()});
}

bool CudaMemory::settleHostReads(std::string &Err) {
  if (!S.HostReadsPending.load(std::memory_order_acquire) || S.Lost)
    return true; // a lost device's queued copies never run
  if (!current(Err))
    return S.Lost.load();
  CUresult Code = CUDA_SUCCESS;
  // A sticky error: the context is gone, and its queued copies with it. The table's next call
  // on the device meets the same error and says what it was.
  return sync0(Code, Err) || sticky(Code);
}

bool CudaMemory::copyStaging() {
  if (!S.CopyStagingTried) {
    S.CopyStagingTried = true;
    uint64_t Want = std::min(activeConfig().PinnedStagingBytes, MaxCopyStagingBytes);
    void *P = nullptr;
    if (Want >= 2 * 4096 && DriverApi::get().cuMemAllocHost(&P, size_t(Want)) == CUDA_SUCCESS) {
      S.CopyStaging = static_cast<char *>(P);
      S.CopyHalf = size_t(Want / 2);
    }
  }
  return S.CopyStaging != nullptr;
}

bool CudaMemory::staged(bool ToDevice, char *Host, uint64_t Dev, size_t Bytes,
                        std::string &Err) {
  const DriverApi &Api = DriverApi::get();
  const size_t Half = S.CopyHalf;
  char *const Buf[2] = {S.CopyStaging, S.CopyStaging + Half};
  const unsigned Threads = packThreads();
  const size_t N = (Bytes + Half - 1) / Half;
  CUresult Code = CUDA_SUCCESS;
  auto Size = [&](size_t K) { return std::min(Half, Bytes - K * Half); };
  auto Sync = [&] { return sync0(Code, Err); };
  bool Ok =
      ToDevice
          ? pipelineToDevice(
                N, Buf,
                [&](size_t K, char *B) {
                  copyRows(B, 0, Host + K * Half, 0, 1, Size(K), Threads,
                           MinParallelCopyBytes, packStores());
                },
                [&](size_t K, char *B) {
                  return CLUSTRIX_CU_CODE(Api, Err, Code, cuMemcpyHtoDAsync(Dev + K * Half, B,
                                                                            Size(K), S.Streams[0]));
                },
                Sync)
          : pipelineToHost(
                N, Buf,
                [&](size_t K, char *B) {
                  return CLUSTRIX_CU_CODE(Api, Err, Code, cuMemcpyDtoHAsync(B, Dev + K * Half,
                                                                            Size(K), S.Streams[0]));
                },
                [&](size_t K, char *B) { copyRows(Host + K * Half, 0, B, 0, 1, Size(K), Threads); },
                Sync);
  if (!Ok && sticky(Code))
    S.Lost = true;
  return Ok;
}

bool CudaMemory::direct(bool ToDevice, char *Host, uint64_t Dev, size_t Bytes, bool &Done,
                        std::string &Err) {
  const DriverApi &Api = DriverApi::get();
  Done = false;
  if (!activeConfig().HostRegister || Bytes < RegisteredCopyMin || !Api.cuMemHostRegister ||
      !Api.cuMemHostUnregister)
    return true;
  // Whole pages: the driver locks pages, and a range must not begin or end inside one.
  static const uintptr_t Page = [] {
    long P = ::sysconf(_SC_PAGESIZE);
    return uintptr_t(P > 0 ? P : 4096);
  }();
  uintptr_t Begin = reinterpret_cast<uintptr_t>(Host) & ~(Page - 1);
  uintptr_t End = (reinterpret_cast<uintptr_t>(Host) + Bytes + Page - 1) & ~(Page - 1);
  CUresult R;
  {
    std::optional<trace::Span> Sp;
    if (trace::on()) {
      Sp.emplace(trace::deviceTrack(name()), "cuMemHostRegister", "register");
      Sp->args().add("bytes", uint64_t(End - Begin));
    }
    R = Api.cuMemHostRegister(reinterpret_cast<void *>(Begin), End - Begin, 0);
  }
  if (R != CUDA_SUCCESS) {
    // Pages another copy or the program locked already, or a limit on locked memory: staged.
    // Never the device's fault, so never a reason to retire it.
    std::string Why;
    checkCall(Api, R, "cuMemHostRegister", __FILE__, __LINE__, Why);
    logOnce("register:" + name(), LogLevel::Debug,
            name() + ": a copy of " + std::to_string(Bytes >> 20) +
                " MiB is staged, its pages could not be locked: " + Why);
    return true;
  }
  Done = true;
  CUresult Code = CUDA_SUCCESS;
  bool Ok = ToDevice
                ? CLUSTRIX_CU_CODE(Api, Err, Code,
                                   cuMemcpyHtoDAsync(Dev, Host, Bytes, S.Streams[0]))
                : CLUSTRIX_CU_CODE(Api, Err, Code,
                                   cuMemcpyDtoHAsync(Host, Dev, Bytes, S.Streams[0]));
  // The pages stay locked until the copy has ended, in either direction.
  if (Ok)
    Ok = sync0(Code, Err);
  if (!Ok && sticky(Code))
    S.Lost = true;
  {
    std::optional<trace::Span> Sp;
    if (trace::on())
      Sp.emplace(trace::deviceTrack(name()), "cuMemHostUnregister", "register");
    Api.cuMemHostUnregister(reinterpret_cast<void *>(Begin));
  }
  return Ok;
}

bool CudaMemory::toDevice(uint64_t Dst, const void *Src, size_t Bytes, std::string &Err,
                          trace::Span *Traced) {
  const DriverApi &Api = DriverApi::get();
  if (!current(Err))
    return false;
  // From memory the program locked, the link reads it directly (asynchronously: the host's
  // writes wait for it, Table::settleHostReads).
  const bool Locked = Bytes >= StagedCopyMin && lockedByProgram(Api, Src, Bytes);
  if (Locked)
    logOnce("locked-in:" + name(), LogLevel::Debug,
            name() + ": copies from page-locked memory of the program go directly");
  if (!Locked) {
    char *Host = const_cast<char *>(static_cast<const char *>(Src));
    bool Done = false;
    if (bool Ok = direct(/*ToDevice=*/true, Host, Dst, Bytes, Done, Err); Done || !Ok)
      return Ok;
    if (Bytes >= StagedCopyMin) {
      std::lock_guard<std::mutex> G(S.CopyM);
      if (copyStaging())
        return staged(/*ToDevice=*/true, Host, Dst, Bytes, Err);
    }
  }
  // Queued, not waited for: under tracing, timed on the device.
  CUevent Start = timeStart(Traced);
  CUresult Code = CUDA_SUCCESS;
  bool Ok = CLUSTRIX_CU_CODE(Api, Err, Code, cuMemcpyHtoDAsync(Dst, Src, Bytes, S.Streams[0]));
  timeQueued(Traced, Start, Ok);
  if (Ok)
    readsHost();
  if (!Ok && sticky(Code))
    S.Lost = true;
  return Ok;
}

bool CudaMemory::toHost(void *Dst, uint64_t Src, size_t Bytes, std::string &Err) {
  const DriverApi &Api = DriverApi::get();
  if (!confirmSources(Err) || !current(Err))
    return false;
  const bool Locked = Bytes >= StagedCopyMin && lockedByProgram(Api, Dst, Bytes);
  if (!Locked) {
    bool Done = false;
    if (bool Ok = direct(/*ToDevice=*/false, static_cast<char *>(Dst), Src, Bytes, Done, Err);
        Done || !Ok)
      return Ok;
    if (Bytes >= StagedCopyMin) {
      std::lock_guard<std::mutex> G(S.CopyM);
      if (copyStaging())
        return staged(/*ToDevice=*/false, static_cast<char *>(Dst), Src, Bytes, Err);
    }
  }
  CUresult Code = CUDA_SUCCESS;
  bool Ok = CLUSTRIX_CU_CODE(Api, Err, Code, cuMemcpyDtoHAsync(Dst, Src, Bytes, S.Streams[0]));
  return completeToHost(Ok, Code, Err);
}

bool CudaMemory::completeToHost(bool Queued, CUresult Code, std::string &Err) {
  bool Ok = Queued && sync0(Code, Err);
  if (!Ok && sticky(Code))
    S.Lost = true;
  return Ok;
}

bool CudaMemory::within(uint64_t Dst, uint64_t Src, size_t Bytes, std::string &Err,
                        trace::Span *Traced) {
  const DriverApi &Api = DriverApi::get();
  Memcpy3D M;
  std::memset(&M, 0, sizeof(M));
  M.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  M.srcDevice = Src;
  M.srcPitch = Bytes;
  M.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  M.dstDevice = Dst;
  M.dstPitch = Bytes;
  M.WidthInBytes = Bytes;
  M.Height = 1;
  M.Depth = 1;
  CUresult Code = CUDA_SUCCESS;
  if (!current(Err))
    return false;
  CUevent Start = timeStart(Traced);
  bool Ok = CLUSTRIX_CU_CODE(Api, Err, Code, cuMemcpy3DAsync(&M, S.Streams[0]));
  timeQueued(Traced, Start, Ok);
  if (!Ok && sticky(Code))
    S.Lost = true;
  return Ok;
}

/// A strided copy between the host and this device, both sides with the same pitch.
Memcpy3D stridedCopy(bool ToDevice, uint64_t Dev, const void *Host, size_t Width, size_t Rows,
                     size_t Pitch) {
  Memcpy3D M;
  std::memset(&M, 0, sizeof(M));
  if (ToDevice) {
    M.srcMemoryType = CU_MEMORYTYPE_HOST;
    M.srcHost = Host;
    M.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    M.dstDevice = Dev;
  } else {
    M.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    M.srcDevice = Dev;
    M.dstMemoryType = CU_MEMORYTYPE_HOST;
    M.dstHost = const_cast<void *>(Host);
  }
  M.srcPitch = M.dstPitch = Pitch;
  M.srcHeight = M.dstHeight = Rows;
  M.WidthInBytes = Width;
  M.Height = Rows;
  M.Depth = 1;
  return M;
}

bool CudaMemory::toDevice2D(uint64_t Dst, const void *Src, size_t Width, size_t Rows,
                            size_t Pitch, std::string &Err, trace::Span *Traced) {
  const DriverApi &Api = DriverApi::get();
  Memcpy3D M = stridedCopy(true, Dst, Src, Width, Rows, Pitch);
  if (!current(Err))
    return false;
  CUevent Start = timeStart(Traced);
  CUresult Code = CUDA_SUCCESS;
  bool Ok = CLUSTRIX_CU_CODE(Api, Err, Code, cuMemcpy3DAsync(&M, S.Streams[0]));
  timeQueued(Traced, Start, Ok);
  if (Ok)
    readsHost();
  if (!Ok && sticky(Code))
    S.Lost = true;
  return Ok;
}

bool CudaMemory::toHost2D(void *Dst, uint64_t Src, size_t Width, size_t Rows, size_t Pitch,
                          std::string &Err) {
  const DriverApi &Api = DriverApi::get();
  Memcpy3D M = stridedCopy(false, Src, Dst, Width, Rows, Pitch);
  CUresult Code = CUDA_SUCCESS;
  bool Ok = confirmSources(Err) && current(Err) &&
            CLUSTRIX_CU_CODE(Api, Err, Code, cuMemcpy3DAsync(&M, S.Streams[0]));
  return completeToHost(Ok, Code, Err);
}

bool CudaMemory::canPeer(const DeviceMemory &) const {
  return DriverApi::get().cuMemcpyPeerAsync != nullptr;
}

bool CudaMemory::fromPeer(DeviceMemory &From, uint64_t Dst, uint64_t Src, size_t Bytes,
                          std::string &Err, trace::Span *Traced) {
  const DriverApi &Api = DriverApi::get();
  auto &OM = static_cast<CudaMemory &>(From);
  DeviceState &O = OM.S;
  if (O.Lost) {
    Err = From.name() + " was lost";
    return false;
  }
  if (OM.mark() && mark())
    return fromPeerQueued(OM, Dst, Src, Bytes, Err, Traced);
  CUresult Code = CUDA_SUCCESS;
  // Without events: the source's resident work (the kernels that wrote it) first, on the
  // host; then the copy, in order with this device's work.
  std::optional<trace::Span> Sp;
  if (trace::on())
    syncSpan(Sp, Ordinal, "cuStreamSynchronize of the source");
  bool Ok = CLUSTRIX_CU_CODE(Api, Err, Code, cuStreamSynchronize(O.Streams[0]));
  Sp.reset();
  if (!Ok) {
    if (sticky(Code))
      O.Lost = true;
    return false;
  }
  // Complete before returning: the source may replace (and free) the mirror it reads from as
  // soon as the table lets go of it.
  Ok = current(Err) &&
       CLUSTRIX_CU_CODE(Api, Err, Code,
                        cuMemcpyPeerAsync(Dst, S.Ctx, Src, O.Ctx, Bytes, S.Streams[0]));
  if (Ok) {
    if (trace::on())
      syncSpan(Sp, Ordinal, "cuStreamSynchronize");
    Ok = CLUSTRIX_CU_CODE(Api, Err, Code, cuStreamSynchronize(S.Streams[0]));
  }
  if (!Ok && sticky(Code))
    S.Lost = true;
  return Ok;
}

bool CudaMemory::mark() {
  const DriverApi &Api = DriverApi::get();
  if (S.EventTried)
    return S.Mark != nullptr;
  std::string Err;
  if (!Api.hasEvents() || !current(Err))
    return false;
  S.EventTried = true;
  if (!CLUSTRIX_CU(Api, Err, cuEventCreate(&S.Mark, CU_EVENT_DISABLE_TIMING))) {
    S.Mark = nullptr;
    logLine(LogLevel::Debug, name() + ": no event for copies between devices (" + Err +
                                 "); they wait on the host");
  }
  return S.Mark != nullptr;
}

bool CudaMemory::fromPeerQueued(CudaMemory &From, uint64_t Dst, uint64_t Src, size_t Bytes,
                                std::string &Err, trace::Span *Traced) {
  const DriverApi &Api = DriverApi::get();
  DeviceState &O = From.S;
  CUresult Code = CUDA_SUCCESS;
  auto Failed = [&](DeviceState &On) {
    if (sticky(Code))
      On.Lost = true;
    return false;
  };
  // The copy waits on this device for everything the source had queued (the kernels that
  // wrote what it reads) ...
  if (!From.current(Err) ||
      !CLUSTRIX_CU_CODE(Api, Err, Code, cuEventRecord(O.Mark, O.Streams[0])))
    return Failed(O);
  if (!current(Err) ||
      !CLUSTRIX_CU_CODE(Api, Err, Code, cuStreamWaitEvent(S.Streams[0], O.Mark, 0)))
    return Failed(S);
  // Under tracing, timed from where the stream has passed the wait: the copy's own time.
  CUevent Start = timeStart(Traced);
  bool Queued = CLUSTRIX_CU_CODE(
      Api, Err, Code, cuMemcpyPeerAsync(Dst, S.Ctx, Src, O.Ctx, Bytes, S.Streams[0]));
  timeQueued(Traced, Start, Queued);
  if (!Queued || !CLUSTRIX_CU_CODE(Api, Err, Code, cuEventRecord(S.Mark, S.Streams[0])))
    return Failed(S);
  // ... and the source's later work waits for the copy: its next kernels may overwrite what
  // the copy reads, and freeing or reusing its mirror first synchronizes its stream 0 (free).
  if (!From.current(Err) ||
      !CLUSTRIX_CU_CODE(Api, Err, Code, cuStreamWaitEvent(O.Streams[0], S.Mark, 0)))
    return Failed(O);
  if (!current(Err))
    return Failed(S);
  std::lock_guard<std::mutex> G(S.PeerM);
  S.PeerSources[&O] = ++S.PeerStamp;
  return true;
}

bool CudaMemory::confirmSources(std::string &Err) {
  const DriverApi &Api = DriverApi::get();
  // The devices this one took copies from, transitively, each with the stamp up to which its
  // own sources are confirmed once all of them are.
  std::vector<std::pair<DeviceState *, uint64_t>> Seen;
  {
    std::lock_guard<std::mutex> G(S.PeerM);
    if (S.PeerSources.empty())
      return true;
  }
  Seen.emplace_back(&S, 0);
  for (size_t I = 0; I < Seen.size(); ++I) {
    DeviceState &X = *Seen[I].first;
    std::lock_guard<std::mutex> G(X.PeerM);
    Seen[I].second = X.PeerStamp;
    for (const auto &Entry : X.PeerSources)
      if (std::none_of(Seen.begin(), Seen.end(),
                       [&](const auto &Y) { return Y.first == Entry.first; }))
        Seen.emplace_back(Entry.first, 0);
  }
  // Every one of them ran what it had queued (this device's copies from them included). This
  // device itself is not its own source: its failure is its own, which the caller's next call
  // on it reports (naming it as a source of itself misled, depending on which came first).
  for (const auto &[X, Stamp] : Seen) {
    if (X == &S)
      continue;
    CUresult Code = CUDA_SUCCESS;
    std::string Why;
    bool Ok = !X->Lost;
    if (Ok) {
      std::optional<trace::Span> Sp;
      if (trace::on())
        syncSpan(Sp, Ordinal, "cuStreamSynchronize of a source");
      Ok = CLUSTRIX_CU_CODE(Api, Why, Code, cuStreamSynchronize(X->Streams[0]));
      if (!Ok && sticky(Code))
        X->Lost = true;
    }
    if (!Ok) {
      S.Lost = true;
      Err = "took data from " + X->Memory->name() + ", which failed";
      return false;
    }
  }
  for (const auto &[X, Stamp] : Seen) {
    std::lock_guard<std::mutex> G(X->PeerM);
    for (auto It = X->PeerSources.begin(); It != X->PeerSources.end();)
      It = It->second <= Stamp ? X->PeerSources.erase(It) : std::next(It);
  }
  return true;
}

bool CudaMemory::lost() const { return S.Lost; }

bool initDevice(const DriverApi &Api, DeviceState &S, int Ordinal, std::string &Err) {
  if (S.Tried) {
    Err = S.InitError;
    return S.InitError.empty();
  }
  S.Tried = true;
  bool Ok = CLUSTRIX_CU(Api, Err, cuInit(0)) && CLUSTRIX_CU(Api, Err, cuDeviceGet(&S.Dev, Ordinal)) &&
            CLUSTRIX_CU(Api, Err, cuDevicePrimaryCtxRetain(&S.Ctx, S.Dev)) &&
            CLUSTRIX_CU(Api, Err, cuCtxSetCurrent(S.Ctx)) &&
            CLUSTRIX_CU(Api, Err, cuStreamCreate(&S.Streams[0], 1 /*non-blocking*/)) &&
            CLUSTRIX_CU(Api, Err, cuStreamCreate(&S.Streams[1], 1));
  if (!Ok) {
    S.InitError = Err;
    return false;
  }
  uint64_t Want = activeConfig().PinnedStagingBytes;
  if (Want >= 2 * 4096) {
    void *P = nullptr;
    if (Api.cuMemAllocHost(&P, static_cast<size_t>(Want)) == CUDA_SUCCESS) {
      S.Staging = static_cast<char *>(P);
      S.Half = static_cast<size_t>(Want / 2);
    } else {
      logOnce("pinned", LogLevel::Warn,
              "cannot allocate " + std::to_string(Want) +
                  " bytes of pinned staging memory; copies go directly from pageable memory");
    }
  }
  return true;
}

/// Whether the ahead-of-time kernel of Info rounds as the host does: runs the probe compiled
/// with it (a*b+c with a*b inexact) once per kernel and device. nvcc's default --fmad=true fuses
/// the two into one rounding; then the kernel is not used and NVRTC compiles the kernel text.
bool aheadOfTimeExact(const DriverApi &Api, DeviceState &S, const LoopInfo &Info) {
  std::string ProbeName = std::string(Info.KernelName) + "_fmad_probe";
  auto Key = std::make_pair(ProbeName, Info.KernelHash);
  if (auto It = S.Probes.find(Key); It != S.Probes.end())
    return It->second;
  bool Exact = false;
  std::string Why;
  auto Probe = findKernelGetter(ProbeName.c_str(), Info.KernelHash);
  void *Handle = Probe ? Probe() : nullptr;
  CUfunction F = nullptr;
  CUdeviceptr Buf = 0;
  const double In[3] = {1.0 + 0x1p-27, 1.0 - 0x1p-27, -1.0};
  double Out = 1.0;
  if (!Handle) {
    Why = "it was built without its rounding probe";
  } else if (CLUSTRIX_CU(Api, Why, cuKernelGetFunction(&F, static_cast<CUkernel>(Handle))) &&
             CLUSTRIX_CU(Api, Why, cuMemAlloc(&Buf, 4 * sizeof(double))) &&
             CLUSTRIX_CU(Api, Why, cuMemcpyHtoDAsync(Buf, In, sizeof(In), S.Streams[0]))) {
    CUdeviceptr OutPtr = Buf + 3 * sizeof(double);
    void *Params[] = {&Buf, &OutPtr};
    if (CLUSTRIX_CU(Api, Why, cuLaunchKernel(F, 1, 1, 1, 1, 1, 1, 0, S.Streams[0], Params, nullptr)) &&
        CLUSTRIX_CU(Api, Why, cuMemcpyDtoHAsync(&Out, OutPtr, sizeof(Out), S.Streams[0])) &&
        CLUSTRIX_CU(Api, Why, cuStreamSynchronize(S.Streams[0]))) {
      volatile double A = In[0], B = In[1], C = In[2];
      double Product = A * B;
      double Host = Product + C; // two roundings, as the host program computes a*b+c
      Exact = Out == Host;
      if (!Exact)
        Why = "nvcc fused multiply-adds in it (build with --fmad=false to use it)";
    }
  }
  S.FreeKnown = false; // the probe's buffer
  if (Buf)
    Api.cuMemFree(Buf);
  if (!Exact)
    logOnce("fmad:" + std::string(Info.KernelName), LogLevel::Warn,
            loopLocation(Info) + ": the kernel compiled ahead of time is not used, as " + Why +
                "; NVRTC compiles the loop's kernel text instead");
  S.Probes[Key] = Exact;
  return Exact;
}

/// Finds or builds the loop's kernel for the device: registered image, disk cache, NVRTC.
bool kernelFor(const DriverApi &Api, DeviceState &S, const LoopInfo &Info, const DeviceInfo &Dev,
               CUfunction &F, std::string &Err) {
  if (auto It = S.Kernels.find(std::make_pair(std::string_view(Info.KernelName), Info.KernelHash));
      It != S.Kernels.end()) {
    F = It->second;
    return true;
  }
  auto Key = std::make_pair(std::string(Info.KernelName), Info.KernelHash);
  // A kernel nvcc compiled into the program: its context-independent handle, resolved for this
  // device's context (the primary one, which the CUDA runtime shares); unless nvcc fused
  // multiply-adds in it, which NVRTC does not do.
  if (auto Getter = findKernelGetter(Info.KernelName, Info.KernelHash);
      Getter && Api.cuKernelGetFunction && aheadOfTimeExact(Api, S, Info)) {
    if (void *Handle = Getter()) {
      std::string Ignored;
      if (CLUSTRIX_CU(Api, Ignored,
                      cuKernelGetFunction(&F, static_cast<CUkernel>(Handle)))) {
        if (logEnabled(LogLevel::Debug))
          logLine(LogLevel::Debug, loopLocation(Info) + ": " + Info.KernelName +
                                       " compiled ahead of time by nvcc");
        S.Kernels[Key] = F;
        return true;
      }
    }
  }
  std::vector<char> Built;
  const void *Image = nullptr;
  KernelImage Registered = findKernelImage(Info.KernelName, Info.KernelHash);
  if (Registered.Data) {
    Image = Registered.Data;
  } else {
    int Arch = Dev.ComputeMajor * 10 + Dev.ComputeMinor;
    int Driver = 0;
    Api.cuDriverGetVersion(&Driver);
    const NvrtcApi &Nvrtc = NvrtcApi::get();
    const std::string &Configured = activeConfig().KernelCache;
    KernelCache Cache(Configured.empty() ? defaultKernelCacheDir() : Configured);
    std::string CacheErr;
    bool CacheOk = Cache.open(CacheErr);
    if (!CacheOk)
      logOnce("cache:" + CacheErr, LogLevel::Warn, "kernel cache unused: " + CacheErr);
    std::string CacheKey = KernelCache::key(Info.KernelHash, Arch, Driver, Nvrtc.version());
    if (!CacheOk || !Cache.load(CacheKey, Built)) {
      std::string Log;
      if (!compileToCubin(Nvrtc, Info.KernelSource, Info.KernelName, Arch, Built, Log)) {
        Err = Log;
        return false;
      }
      if (CacheOk && !Cache.store(CacheKey, Built, CacheErr))
        logOnce("cachestore:" + CacheErr, LogLevel::Warn, "kernel cache: " + CacheErr);
      if (logEnabled(LogLevel::Debug))
        logLine(LogLevel::Debug, loopLocation(Info) + ": compiled " + Info.KernelName +
                                     " for sm_" + std::to_string(Arch) + " with NVRTC");
    }
    Image = Built.data();
  }
  CUmodule Mod = nullptr;
  if (!CLUSTRIX_CU(Api, Err, cuModuleLoadData(&Mod, Image)))
    return false;
  if (!CLUSTRIX_CU(Api, Err, cuModuleGetFunction(&F, Mod, Info.KernelName))) {
    Api.cuModuleUnload(Mod);
    return false;
  }
  S.Kernels[Key] = F;
  return true;
}

/// Rows [Y0, Y0 + Rows) of slab Z, bytes [X0, X0 + Width) of each: one staged copy.
struct Piece {
  size_t Z, Y0, Rows, X0, Width;
};

/// Cuts a box copy into pieces whose dense size fits Limit bytes (rows within one slab, or
/// parts of one row when a row alone is larger).
std::vector<Piece> piecesOf(const BoxCopy &C, size_t Limit) {
  std::vector<Piece> Out;
  if (C.WidthBytes == 0)
    return Out;
  for (size_t Z = 0; Z < C.Depth; ++Z) {
    if (C.WidthBytes > Limit) {
      for (size_t Y = 0; Y < C.Height; ++Y)
        for (size_t X = 0; X < C.WidthBytes; X += Limit)
          Out.push_back({Z, Y, 1, X, std::min(Limit, C.WidthBytes - X)});
      continue;
    }
    size_t PerPiece = Limit / C.WidthBytes;
    for (size_t Y = 0; Y < C.Height; Y += PerPiece)
      Out.push_back({Z, Y, std::min(PerPiece, C.Height - Y), 0, C.WidthBytes});
  }
  return Out;
}

/// A 2-D copy of one piece between host memory laid out as the array (or densely, in staging)
/// and the device buffer that keeps the array's layout from the box's first element on.
Memcpy3D pieceCopy(const BoxCopy &C, const Piece &P, bool ToDevice, const char *HostArray,
                   const char *Dense, CUdeviceptr Buf) {
  Memcpy3D M;
  std::memset(&M, 0, sizeof(M));
  size_t RowOff = (P.Z * C.SlabRows + P.Y0) * C.Pitch + P.X0; // from the box's first element
  const void *HostPtr = Dense ? static_cast<const void *>(Dense)
                              : static_cast<const void *>(HostArray + C.OffsetBytes + RowOff);
  size_t HostPitch = Dense ? P.Width : C.Pitch;
  if (ToDevice) {
    M.srcMemoryType = CU_MEMORYTYPE_HOST;
    M.srcHost = HostPtr;
    M.srcPitch = HostPitch;
    M.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    M.dstDevice = Buf + RowOff;
    M.dstPitch = C.Pitch;
  } else {
    M.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    M.srcDevice = Buf + RowOff;
    M.srcPitch = C.Pitch;
    M.dstMemoryType = CU_MEMORYTYPE_HOST;
    M.dstHost = const_cast<void *>(HostPtr);
    M.dstPitch = HostPitch;
  }
  M.WidthInBytes = P.Width;
  M.Height = P.Rows;
  M.Depth = 1;
  return M;
}

/// Packs one piece of the host array into dense staging memory.
void stagePiece(const BoxCopy &C, const Piece &P, const char *HostArray, char *Dense) {
  copyRows(Dense, P.Width, HostArray + C.OffsetBytes + (P.Z * C.SlabRows + P.Y0) * C.Pitch + P.X0,
           C.Pitch, P.Rows, P.Width, packThreads(), MinParallelCopyBytes,
           packStores());
}


/// The loop prepared on one device for one chunk: the device's lock is held, its context is
/// current and the kernel is loaded. Sub-chunk S is copied in and launched on stream S % 2, so
/// that it computes while S - 1 is copied out.
class CudaLoop final : public PreparedLoop {
public:
  CudaLoop(const DriverApi &Api, DeviceState &S, std::unique_lock<std::mutex> Lock,
           const LoopInfo &Info, const LoopArgs &Args, const DeviceInfo &Dev, CUfunction F,
           bool Resident, bool HostMemory, const std::vector<int64_t> *BoxesKey)
      : Api(Api), S(S), Lock(std::move(Lock)), Info(Info), Args(Args), Dev(Dev), F(F),
        Subs(S.Kept.Subs), BoxesKey(BoxesKey), Resident(Resident),
        HostMemory(HostMemory && !Resident) {}

  ~CudaLoop() override {
    for (size_t I = 0; I < Subs.size(); ++I)
      release(I);
    if (Lost)
      S.Lost = true;
  }

  bool split(uint64_t Lo, uint64_t Hi, std::vector<Chunk> &Pieces, bool &Overlap,
             std::string &Err) override {
    // Free memory as the driver last said, unless the runtime allocated or freed since.
    if (!S.FreeKnown) {
      size_t Total = 0;
      if (!check(CLUSTRIX_CU_CODE(Api, Err, LastCode, cuMemGetInfo(&S.KnownFree, &Total))))
        return false;
      S.FreeKnown = true;
    }
    size_t Free = S.KnownFree;
    Free += S.CachedBytes; // cached buffers are reused or freed on demand
    uint64_t Budget = Free > (64u << 20) ? static_cast<uint64_t>((Free - (64u << 20)) * 0.9) : 0;
    if (uint64_t Limit = activeConfig().CudaMemoryLimit; Limit && Limit < Budget)
      Budget = Limit;
    std::vector<Box> &Whole = S.Kept.Whole;
    Whole.resize(Info.NumRegions);
    // A resident chunk's boxes are those of its loop's last chunk over the same range when
    // nothing they depend on changed (DeviceState::Replay).
    Keyed = Resident && Info.NumRegions && !trace::on() && BoxesKey;
    const DeviceState::Replay *Memo = Keyed ? memoFor(Lo, Hi) : nullptr;
    if (Memo)
      std::copy(Memo->Boxes.begin(), Memo->Boxes.end(), Whole.begin());
    auto CellBytes = [&](uint64_t L, uint64_t H) {
      return static_cast<uint64_t>(gridBlocks(H - L, Dev.Multiprocessors)) * 8 *
             Args.NumReductions;
    };
    auto Footprint = [&](uint64_t L, uint64_t H, Box *B, bool Evaluate = true) {
      if (Info.NumRegions && Evaluate) // a loop without regions may have no box function
        Args.Boxes(Args.BoxEnv, L, H, B);
      uint64_t Bytes = 0;
      for (uint32_t R = 0; R < Info.NumRegions; ++R)
        Bytes += boxHullBytes(B[R], Info.Regions[R].Rank);
      return Bytes + CellBytes(L, H);
    };
    auto PieceFootprint = [&](uint64_t L, uint64_t H) {
      std::vector<Box> B(Info.NumRegions);
      return Footprint(L, H, B.data());
    };
    Pieces.clear();
    uint64_t Bytes = Footprint(Lo, Hi, Whole.data(), !Memo);
    Direct = HostMemory && inPlace();
    if (Direct) {
      Bytes = CellBytes(Lo, Hi); // only the reduction cells live on the device
      if (logEnabled(LogLevel::Debug))
        logLine(LogLevel::Debug, loopLocation(Info) + ": cuda" + std::to_string(Dev.Index) +
                                     " uses the host's memory in place for [" +
                                     std::to_string(Lo) + ", " + std::to_string(Hi) +
                                     ") (pageable_access)");
    }
    if (Direct || Bytes <= Budget)
      Pieces.push_back({Lo, Hi});
    else if (Resident) {
      // Resident data is addressed in whole mirrors: the chunk must fit at once.
      Err = "the chunk's regions do not fit at once in the " + std::to_string(Budget >> 10) +
            " KiB usable on cuda" + std::to_string(Dev.Index) + ", as residency needs";
      return false;
    } else if (!splitForMemory(Lo, Hi, PieceFootprint, Budget / 2, Pieces)) {
      Err = "one iteration's regions do not fit in the " + std::to_string(Budget >> 10) +
            " KiB usable on cuda" + std::to_string(Dev.Index) + " (" +
            std::to_string(Free >> 20) + " MiB free)";
      return false;
    }
    // Overlapping sub-chunks only when their write boxes are disjoint; else one at a time.
    Overlap = Pieces.size() > 1;
    if (Overlap && Info.NumRegions) {
      std::vector<Box> All(Pieces.size() * Info.NumRegions);
      // Each copies back its write boxes only (copyOut).
      BoxFn Written = Args.WriteBoxes ? Args.WriteBoxes : Args.Boxes;
      for (size_t I = 0; I < Pieces.size(); ++I)
        Written(Args.BoxEnv, Pieces[I].Lo, Pieces[I].Hi, &All[I * Info.NumRegions]);
      Overlap = checkWriteDisjoint(Info, All, Pieces.size()).empty();
    }
    if (Pieces.size() > 1 && logEnabled(LogLevel::Debug))
      logLine(LogLevel::Debug, loopLocation(Info) + ": cuda" + std::to_string(Dev.Index) +
                                   " streams [" + std::to_string(Lo) + ", " + std::to_string(Hi) +
                                   ") in " + std::to_string(Pieces.size()) + " sub-chunks");
    // The kept sub-chunks are reset, their vectors' capacity kept (release emptied them).
    Subs.resize(Pieces.size());
    for (size_t I = 0; I < Pieces.size(); ++I) {
      SubChunk &Sc = Subs[I];
      Sc.Lo = Pieces[I].Lo;
      Sc.Hi = Pieces[I].Hi;
      Sc.Stream = static_cast<unsigned>(I % 2);
      Sc.Grid = 0;
      Sc.Buffers.clear();
      Sc.Partials.clear();
      Sc.Cells.clear();
    }
    WholeBoxes = Pieces.size() == 1;
    if (WholeBoxes)
      Subs[0].Boxes.swap(Whole);
    return true;
  }

  /// Allocates the sub-chunk's buffers and copies in what it reads (rule 3: a write box not
  /// provably written in full is copied in first).
  bool copyIn(size_t P, std::string &Err) override {
    SubChunk &Sc = Subs[P];
    const uint32_t NR = Info.NumRegions;
    Sc.Buffers.assign(NR, 0);
    Sc.BufferBytes.assign(NR, 0);
    if (!(P == 0 && WholeBoxes)) {
      Sc.Boxes.resize(NR);
      if (NR)
        Args.Boxes(Args.BoxEnv, Sc.Lo, Sc.Hi, Sc.Boxes.data());
    }
    if (Direct)
      return true; // the kernel reads the host's memory; the driver brings the pages
    if (Resident) {
      // From the device data table: only what is not current here moves.
      data::Table &T = data::Table::get();
      if (const DeviceState::Replay *E = replayFor(Sc)) {
        Sc.Elem0 = E->Elem0;
        Replayed = true;
        return true; // no user code ran, and the table made no context current
      }
      writeBoxesOf(Sc); // what run() marks written
      Sc.Elem0.assign(NR, 0);
      GenerationBefore = T.generation();
      OwnChanges = 0;
      for (uint32_t R = 0; R < NR; ++R) {
        uint8_t A = Info.Regions[R].Access;
        bool In = (A & AccessRead) || ((A & AccessWrite) && !Info.Regions[R].FullWrite);
        bool Changed = false;
        if (!T.acquire(*S.Memory, Sc.Boxes[R], Info.Regions[R].Rank, In, Info.Regions[R].Name,
                       Sc.Elem0[R], Err, &Changed)) {
          if (S.Lost)
            Lost = true;
          return false;
        }
        OwnChanges += Changed;
      }
      // The table may have made another device current (a copy back from it).
      if (ThreadContext == S.Ctx)
        return true;
      ThreadContext = S.Ctx;
      return check(CLUSTRIX_CU_CODE(Api, Err, LastCode, cuCtxSetCurrent(S.Ctx)));
    }
    writeBoxesOf(Sc); // what copyOut() copies back
    for (uint32_t R = 0; R < NR; ++R) {
      size_t Bytes = boxHullBytes(Sc.Boxes[R], Info.Regions[R].Rank);
      if (Bytes == 0)
        continue;
      if (!checkCode(allocBuffer(Api, S, Bytes, Sc.Buffers[R]), "cuMemAlloc", Err))
        return false;
      Sc.BufferBytes[R] = Bytes;
      uint8_t A = Info.Regions[R].Access;
      bool In = (A & AccessRead) || ((A & AccessWrite) && !Info.Regions[R].FullWrite);
      if (In && !copyBoxIn(Sc, R, Err))
        return false;
    }
    return true;
  }

  /// Allocates the per-block partial cells and launches the kernel on the sub-chunk's stream.
  bool run(size_t P, const ChunkJob &, std::string &Err) override {
    SubChunk &Sc = Subs[P];
    Sc.Grid = gridBlocks(Sc.Hi - Sc.Lo, Dev.Multiprocessors);
    Sc.Partials.assign(Args.NumReductions, 0);
    Sc.PartialBytes.assign(Args.NumReductions, 0);
    for (uint32_t R = 0; R < Args.NumReductions; ++R) {
      size_t Bytes = Sc.Grid * scalarSize(Args.Reductions[R].Kind);
      if (!checkCode(allocBuffer(Api, S, Bytes, Sc.Partials[R]), "cuMemAlloc", Err))
        return false;
      Sc.PartialBytes[R] = Bytes;
    }
    // Parameters in the kernel's order; Region pointers rebased so global indices work.
    std::vector<uint64_t> &Words = S.Kept.Words;
    std::vector<void *> &Ptrs = S.Kept.Ptrs;
    Words.assign(Info.NumParams, 0);
    Ptrs.assign(Info.NumParams, nullptr);
    for (uint32_t I = 0; I < Info.NumParams; ++I) {
      const KernelParam &KP = Info.Params[I];
      switch (KP.Kind) {
      case KernelParamKind::Lo: Words[I] = Sc.Lo; break;
      case KernelParamKind::Hi: Words[I] = Sc.Hi; break;
      case KernelParamKind::Region: {
        if (Resident) {
          Words[I] = Sc.Elem0[KP.Index];
          break;
        }
        if (Direct) {
          Words[I] = reinterpret_cast<uintptr_t>(Sc.Boxes[KP.Index].Base);
          break;
        }
        const Box &B = Sc.Boxes[KP.Index];
        int64_t First, End;
        boxLinearHull(B, Info.Regions[KP.Index].Rank, First, End);
        Words[I] = Sc.Buffers[KP.Index] - static_cast<uint64_t>(First) * B.ElemSize;
        break;
      }
      case KernelParamKind::Partial: Words[I] = Sc.Partials[KP.Index]; break;
      case KernelParamKind::Scalar: break;
      }
      Ptrs[I] = KP.Kind == KernelParamKind::Scalar ? const_cast<void *>(Args.Scalars[KP.Index])
                                                   : static_cast<void *>(&Words[I]);
    }
    std::optional<trace::Span> Sp;
    if (trace::on()) {
      Sp.emplace(trace::deviceTrack(name()), "launch", "launch");
      Sp->args()
          .add("kernel", Info.KernelName)
          .add("grid", Sc.Grid)
          .add("block", BlockThreads)
          .add("lo", Sc.Lo)
          .add("hi", Sc.Hi)
          .add("device", name())
          .add("memory", Direct ? "host" : "device");
    }
    if (!check(CLUSTRIX_CU_CODE(Api, Err, LastCode,
                                cuLaunchKernel(F, Sc.Grid, 1, 1, BlockThreads, 1, 1, 0,
                                               S.Streams[Sc.Stream], Ptrs.data(), nullptr))))
      return false;
    Sp.reset();
    if (Resident && !Replayed) {
      data::Table &T = data::Table::get();
      for (uint32_t R = 0; R < Info.NumRegions; ++R)
        if (Info.Regions[R].Access & AccessWrite) {
          bool Changed = false;
          T.wrote(*S.Memory, Sc.WriteBoxes[R], Info.Regions[R].Rank, Info.Regions[R].Name,
                  &Changed);
          OwnChanges += Changed;
        }
      keepReplay(Sc, T.generation());
    }
    return true;
  }

  /// Fetches the sub-chunk's write boxes and partial cells, then writes the boxes into the host
  /// arrays: host arrays change only once every device call of the sub-chunk has succeeded.
  bool copyOut(size_t P, std::string &Err) override {
    SubChunk &Sc = Subs[P];
    const uint32_t NR = Info.NumRegions;
    std::vector<std::vector<char>> &Dense = S.Dense;
    if (Dense.size() < NR)
      Dense.resize(NR);
    std::vector<char> &Fetched = S.Kept.Fetched;
    Fetched.assign(NR, 0);
    for (uint32_t R = 0; R < NR; ++R)
      if ((Info.Regions[R].Access & AccessWrite) && Sc.Buffers[R] &&
          !boxEmpty(Sc.WriteBoxes[R], Info.Regions[R].Rank)) {
        if (!fetchBox(Sc, R, Dense[R], Err))
          return false;
        Fetched[R] = 1;
      }
    CUstream St = S.Streams[Sc.Stream];
    Sc.Cells.assign(Args.NumReductions, {});
    if (Resident && Args.NumReductions == 0)
      return true; // the results stay on the device; nothing to wait for
    for (uint32_t R = 0; R < Args.NumReductions; ++R) {
      Sc.Cells[R].resize(Sc.Grid * scalarSize(Args.Reductions[R].Kind));
      std::optional<trace::Span> Sp;
      if (trace::on())
        copySpan(Sp, Dev.Index, "D2H", Sc.Cells[R].size(), name(), "host", "reduction partials");
      if (!check(CLUSTRIX_CU_CODE(Api, Err, LastCode,
                                  cuMemcpyDtoHAsync(Sc.Cells[R].data(), Sc.Partials[R],
                                                    Sc.Cells[R].size(), St))))
        return false;
    }
    {
      std::optional<trace::Span> Sp;
      if (trace::on())
        syncSpan(Sp, Dev.Index, "cuStreamSynchronize");
      if (!check(CLUSTRIX_CU_CODE(Api, Err, LastCode, cuStreamSynchronize(St))))
        return false;
    }
    // Resident partials may come from halos another device computed: that device must have
    // computed them (CudaMemory::confirmSources).
    if (Resident && !S.Memory->confirmSources(Err)) {
      Lost = true;
      return false;
    }
    for (uint32_t R = 0; R < NR; ++R)
      if (Fetched[R]) {
        unpackBox(describeBoxCopy(Sc.WriteBoxes[R], Info.Regions[R].Rank), Dense[R].data(),
                  Sc.WriteBoxes[R].Base);
        if (Dense[R].size() > MaxKeptDenseBytes)
          std::vector<char>().swap(Dense[R]);
      }
    return true;
  }

  /// Combines the per-block cells in block order into the chunk's partials.
  void combine(size_t P, const ChunkJob &Job) override {
    SubChunk &Sc = Subs[P];
    for (uint32_t R = 0; R < Args.NumReductions; ++R) {
      const ReductionSlot &Slot = Args.Reductions[R];
      size_t ES = scalarSize(Slot.Kind);
      for (unsigned Blk = 0; Blk < Sc.Grid; ++Blk)
        rt::combine(Slot.Kind, Slot.Op, Job.Partials[R], &Sc.Cells[R][Blk * ES]);
    }
  }

  void release(size_t P) override {
    SubChunk &Sc = Subs[P];
    bool Holds = !Sc.Partials.empty();
    for (CUdeviceptr B : Sc.Buffers)
      Holds |= B != 0;
    if (!Holds)
      return;
    // After a failure the stream may still use the buffers: they are freed, never cached.
    std::optional<trace::Span> Sp;
    if (trace::on())
      syncSpan(Sp, Dev.Index, "cuStreamSynchronize before the buffers are reused");
    bool Ok = Api.cuStreamSynchronize(S.Streams[Sc.Stream]) == CUDA_SUCCESS && !Lost;
    Sp.reset();
    auto Give = [&](CUdeviceptr Ptr, size_t Bytes) {
      if (!Ptr)
        return;
      if (Ok)
        releaseBuffer(Api, S, Ptr, Bytes);
      else
        memFree(Api, S, Ptr);
    };
    for (size_t I = 0; I < Sc.Buffers.size(); ++I)
      Give(Sc.Buffers[I], Sc.BufferBytes[I]);
    for (size_t I = 0; I < Sc.Partials.size(); ++I)
      Give(Sc.Partials[I], Sc.PartialBytes[I]);
    Sc.Buffers.clear();
    Sc.Partials.clear();
    Sc.Cells.clear();
  }

private:
  bool check(bool Ok) {
    if (!Ok && sticky(LastCode))
      Lost = true;
    return Ok;
  }

  /// Whether the loop's chunks may run on the host's memory in place. A kernel that fails part
  /// way has then written some of its results where the program sees them, and the chunk
  /// re-runs elsewhere over them: it must compute the same values again, so no region is both
  /// read and written. (Two names for one array, a write box overlapping another region's box,
  /// never get here: the site's alias check, checkAliasing, sends such a call to serial.)
  bool inPlace() const {
    for (uint32_t R = 0; R < Info.NumRegions; ++R)
      if ((Info.Regions[R].Access & AccessReadWrite) == AccessReadWrite)
        return false;
    return true;
  }

  /// The sub-chunk's write boxes: LoopArgs::WriteBoxes where the loop has them and each lies
  /// within its box (the buffer holds the box), else the boxes themselves.
  void writeBoxesOf(SubChunk &Sc) const {
    const uint32_t NR = Info.NumRegions;
    if (!NR || !Args.WriteBoxes) {
      Sc.WriteBoxes = Sc.Boxes;
      return;
    }
    Sc.WriteBoxes.resize(NR);
    Args.WriteBoxes(Args.BoxEnv, Sc.Lo, Sc.Hi, Sc.WriteBoxes.data());
    for (uint32_t R = 0; R < NR; ++R) {
      const Box &B = Sc.Boxes[R];
      Box &W = Sc.WriteBoxes[R];
      const unsigned Rank = Info.Regions[R].Rank;
      bool Within = W.Base == B.Base && W.ElemSize == B.ElemSize;
      for (unsigned D = 0; D < Rank && Within; ++D)
        Within = W.Extent[D] == B.Extent[D] &&
                 (boxEmpty(W, Rank) || (W.Lo[D] >= B.Lo[D] && W.Hi[D] <= B.Hi[D]));
      if (!Within)
        W = B;
    }
  }

  /// Copies one box from the host array to its device buffer, through staging when there is
  /// some (strided pieces, never one covering range).
  bool copyBoxIn(const SubChunk &Sc, uint32_t R, std::string &Err) {
    const Box &B = Sc.Boxes[R];
    BoxCopy C = describeBoxCopy(B, Info.Regions[R].Rank);
    char *Host = static_cast<char *>(B.Base);
    CUstream St = S.Streams[Sc.Stream];
    if (logEnabled(LogLevel::Debug))
      logCopy(R, C, /*ToDevice=*/true);
    std::optional<trace::Span> Sp;
    if (trace::on())
      copySpan(Sp, Dev.Index, "H2D", uint64_t(C.WidthBytes) * C.Height * C.Depth, "host", name(),
               Info.Regions[R].Name);
    // Without staging, or from memory the program page-locked: pitched copies straight from
    // the array (the chunk waits for its stream before it returns).
    bool Locked = false;
    if (S.Staging && uint64_t(C.WidthBytes) * C.Height * C.Depth >= StagedCopyMin) {
      int64_t First = 0, End = 0;
      boxLinearHull(B, Info.Regions[R].Rank, First, End);
      Locked = End > First &&
               lockedByProgram(Api, Host + First * static_cast<int64_t>(B.ElemSize),
                               static_cast<size_t>(End - First) * B.ElemSize);
      if (Locked && logEnabled(LogLevel::Debug))
        logLine(LogLevel::Debug, loopLocation(Info) + ": copy in " +
                                     (Info.Regions[R].Name ? Info.Regions[R].Name : "?") +
                                     " directly: the program page-locked it");
    }
    if (!S.Staging || Locked) {
      Piece Whole{0, 0, C.Height, 0, C.WidthBytes};
      for (size_t Z = 0; Z < C.Depth; ++Z) {
        Whole.Z = Z;
        Memcpy3D M = pieceCopy(C, Whole, /*ToDevice=*/true, Host, nullptr, Sc.Buffers[R]);
        if (!check(CLUSTRIX_CU_CODE(Api, Err, LastCode, cuMemcpy3DAsync(&M, St))))
          return false;
      }
      return true;
    }
    // The stream's half of staging, as two buffers: one packed while the other is copied.
    const size_t Quarter = S.Half / 2;
    char *const Buf[2] = {S.Staging + Sc.Stream * S.Half, S.Staging + Sc.Stream * S.Half + Quarter};
    std::vector<Piece> Pieces = piecesOf(C, Quarter);
    return pipelineToDevice(
        Pieces.size(), Buf, [&](size_t K, char *B) { stagePiece(C, Pieces[K], Host, B); },
        [&](size_t K, char *B) {
          Memcpy3D M = pieceCopy(C, Pieces[K], /*ToDevice=*/true, Host, B, Sc.Buffers[R]);
          return check(CLUSTRIX_CU_CODE(Api, Err, LastCode, cuMemcpy3DAsync(&M, St)));
        },
        [&] { return sync(St, Err); });
  }

  /// Copies a device box into Dense (the box's elements, packed), through staging if any.
  bool fetchBox(const SubChunk &Sc, uint32_t R, std::vector<char> &Dense, std::string &Err) {
    BoxCopy C = describeBoxCopy(Sc.WriteBoxes[R], Info.Regions[R].Rank);
    // The buffer holds the whole box from its first element: the write box starts further in.
    const CUdeviceptr Buffer =
        Sc.Buffers[R] + (C.OffsetBytes - describeBoxCopy(Sc.Boxes[R], Info.Regions[R].Rank).OffsetBytes);
    size_t Need = C.WidthBytes * C.Height * C.Depth;
    if (Dense.size() < Need)
      Dense.resize(Need);
    CUstream St = S.Streams[Sc.Stream];
    if (logEnabled(LogLevel::Debug))
      logCopy(R, C, /*ToDevice=*/false);
    std::optional<trace::Span> Sp;
    if (trace::on())
      copySpan(Sp, Dev.Index, "D2H", uint64_t(C.WidthBytes) * C.Height * C.Depth, name(), "host",
               Info.Regions[R].Name);
    auto OutOf = [&](const Piece &P) {
      return Dense.data() + (P.Z * C.Height + P.Y0) * C.WidthBytes + P.X0;
    };
    if (!S.Staging) {
      for (const Piece &P : piecesOf(C, std::max<size_t>(C.WidthBytes * C.Height, 1))) {
        Memcpy3D M = pieceCopy(C, P, /*ToDevice=*/false, nullptr, OutOf(P), Buffer);
        if (!check(CLUSTRIX_CU_CODE(Api, Err, LastCode, cuMemcpy3DAsync(&M, St))) ||
            !sync(St, Err))
          return false;
      }
      return true;
    }
    // As copyBoxIn: the link fills one quarter while the host empties the other.
    const size_t Quarter = S.Half / 2;
    char *const Buf[2] = {S.Staging + Sc.Stream * S.Half, S.Staging + Sc.Stream * S.Half + Quarter};
    std::vector<Piece> Pieces = piecesOf(C, Quarter);
    const unsigned Threads = packThreads();
    return pipelineToHost(
        Pieces.size(), Buf,
        [&](size_t K, char *B) {
          Memcpy3D M = pieceCopy(C, Pieces[K], /*ToDevice=*/false, nullptr, B, Buffer);
          return check(CLUSTRIX_CU_CODE(Api, Err, LastCode, cuMemcpy3DAsync(&M, St)));
        },
        [&](size_t K, char *B) {
          const Piece &P = Pieces[K];
          copyRows(OutOf(P), C.WidthBytes, B, P.Width, P.Rows, P.Width, Threads);
        },
        [&] { return sync(St, Err); });
  }

  /// The replay of this chunk (DeviceState::Replay), if the table still holds everything its
  /// last call left in place: one piece, untraced (a trace shows every acquire), the same loop,
  /// range and boxes, and no change to the table since.
  const DeviceState::Replay *replayFor(const SubChunk &Sc) const {
    if (Subs.size() != 1 || trace::on() || S.Replays.empty())
      return nullptr;
    const uint64_t Now = data::Table::get().generation();
    for (const DeviceState::Replay &E : S.Replays)
      if (E.Info == &Info && E.KernelHash == Info.KernelHash && E.Lo == Sc.Lo &&
          E.Hi == Sc.Hi && E.Replayable &&
          E.Generation == Now && E.Boxes.size() == Sc.Boxes.size() &&
          (E.Boxes.empty() ||
           std::memcmp(E.Boxes.data(), Sc.Boxes.data(), E.Boxes.size() * sizeof(Box)) == 0))
        return &E;
    return nullptr;
  }

  /// The kept chunk of this loop whose boxes are those of [Lo, Hi) with *BoxesKey.
  const DeviceState::Replay *memoFor(uint64_t Lo, uint64_t Hi) const {
    for (const DeviceState::Replay &E : S.Replays)
      if (E.Info == &Info && E.KernelHash == Info.KernelHash && E.Lo == Lo && E.Hi == Hi &&
          !E.BoxKey.empty() && E.BoxKey == *BoxesKey)
        return &E;
    return nullptr;
  }

  /// After the table's calls of a resident chunk: its boxes kept, and its replay when the
  /// table's generation moved by this chunk's own changes alone (Now, read after them), so that
  /// the kept generation describes a table that holds what the chunk asked for. Another
  /// thread's change in between (another device's writes, say) may have taken some of it away:
  /// then the chunk is not replayable.
  void keepReplay(const SubChunk &Sc, uint64_t Now) {
    if (Subs.size() != 1 || trace::on())
      return;
    DeviceState::Replay *E = nullptr;
    for (DeviceState::Replay &X : S.Replays)
      if (X.Info == &Info)
        E = &X;
    if (!E) {
      if (S.Replays.size() < MaxReplays) {
        E = &S.Replays.emplace_back();
      } else {
        E = &S.Replays[S.NextReplay];
        S.NextReplay = (S.NextReplay + 1) % MaxReplays;
      }
    }
    E->Info = &Info;
    E->KernelHash = Info.KernelHash;
    E->Lo = Sc.Lo;
    E->Hi = Sc.Hi;
    if (Keyed)
      E->BoxKey = *BoxesKey;
    else
      E->BoxKey.clear();
    E->Boxes = Sc.Boxes;
    E->Elem0 = Sc.Elem0;
    E->Replayable = Now == GenerationBefore + OwnChanges;
    E->Generation = Now;
  }

  /// cuStreamSynchronize(St), checked, with its trace event.
  bool sync(CUstream St, std::string &Err) {
    std::optional<trace::Span> Sp;
    if (trace::on())
      syncSpan(Sp, Dev.Index, "cuStreamSynchronize");
    return check(CLUSTRIX_CU_CODE(Api, Err, LastCode, cuStreamSynchronize(St)));
  }

  std::string name() const { return "cuda" + std::to_string(Dev.Index); }

  void logCopy(uint32_t R, const BoxCopy &C, bool ToDevice) {
    logLine(LogLevel::Debug, loopLocation(Info) + ": copy " + (ToDevice ? "in " : "out ") +
                                 (Info.Regions[R].Name ? Info.Regions[R].Name : "?") + ": " +
                                 std::to_string(C.Depth) + " x " + std::to_string(C.Height) +
                                 " rows of " + std::to_string(C.WidthBytes) + " bytes, cuda" +
                                 std::to_string(Dev.Index));
  }

  /// As CLUSTRIX_CU for a result already in hand (calls made through a helper).
  bool checkCode(CUresult R, const char *Call, std::string &Err) {
    LastCode = R;
    return check(checkCall(Api, R, Call, __FILE__, __LINE__, Err));
  }

  const DriverApi &Api;
  DeviceState &S;
  std::unique_lock<std::mutex> Lock; // chunks on one device run one at a time
  const LoopInfo &Info;
  const LoopArgs &Args;
  const DeviceInfo &Dev;
  CUfunction F;
  std::vector<SubChunk> &Subs; // S.Kept's, which the device's lock (Lock) makes this loop's
  /// Whether Subs[0].Boxes holds the boxes of the whole chunk already (split computed them).
  bool WholeBoxes = false;
  /// Resident: whether copyIn replayed the chunk (DeviceState::Replay), and the table's
  /// generation before its calls with the changes they made themselves.
  bool Replayed = false;
  uint64_t GenerationBefore = 0, OwnChanges = 0;
  /// The site's key of this call's boxes (RunOptions::BoxesKey), computed once for its
  /// checks; null when the box function is not the generated one.
  const std::vector<int64_t> *BoxesKey;
  /// Whether the chunk's boxes are keyed by *BoxesKey (split).
  bool Keyed = false;
  CUresult LastCode = CUDA_SUCCESS;
  bool Lost = false;
  const bool Resident; // boxes live in the device data table (Data/Residency.h)
  /// The lane uses the host's memory in place (Lane::HostMemory), and this chunk does (split).
  const bool HostMemory;
  bool Direct = false;
};

/// Number of GPUs NVML sees, which CUDA_VISIBLE_DEVICES does not filter; -1 when unknown.
int physicalGpuCount() {
  void *Lib = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!Lib)
    return -1;
  using InitFn = int (*)();
  using CountFn = int (*)(unsigned *);
  auto Init = reinterpret_cast<InitFn>(::dlsym(Lib, "nvmlInit_v2"));
  auto Count = reinterpret_cast<CountFn>(::dlsym(Lib, "nvmlDeviceGetCount_v2"));
  auto Shutdown = reinterpret_cast<InitFn>(::dlsym(Lib, "nvmlShutdown"));
  unsigned N = 0;
  int Result = -1;
  if (Init && Count && Init() == 0) {
    if (Count(&N) == 0)
      Result = static_cast<int>(N);
    if (Shutdown)
      Shutdown();
  }
  return Result;
}

/// CUDA GPUs through the driver API, loaded with dlopen.
class CudaBackend final : public Backend {
public:
  const char *name() const override { return "cuda"; }
  bool isHost() const override { return false; }
  bool copiesBackWritesOnly() const override { return true; }
  /// A GPU whose kernels use the host's memory directly (pageable_access) keeps nothing.
  bool keepsData(const Lane &L) const override { return !L.HostMemory; }
  bool requested(const DeviceSpec &Spec) const override { return Spec.Auto || Spec.Cuda; }

  void discover(DeviceReport &R, bool QueryFreeMemory) const override {
    const DriverApi &Api = DriverApi::get();
    std::string Err;
    int Count = 0;
    bool Counted = false;
    if (!Api.Loaded) {
      R.CudaStatus = "no CUDA driver: " + Api.Error;
    } else if (!CLUSTRIX_CU(Api, Err, cuInit(0))) {
      R.CudaStatus = "the CUDA driver failed to initialize: " + Err;
    } else {
      Api.cuDriverGetVersion(&R.DriverVersion);
      Counted = CLUSTRIX_CU(Api, Err, cuDeviceGetCount(&Count));
      if (!Counted)
        R.CudaStatus = Err;
      else if (Count == 0)
        R.CudaStatus = "the CUDA driver reports no device";
    }
    int Found = 0;
    for (int I = 0; I < Count; ++I) {
      CUdevice Dev;
      if (!CLUSTRIX_CU(Api, Err, cuDeviceGet(&Dev, I)))
        continue;
      DeviceInfo D;
      D.Kind = DeviceKind::CUDA;
      D.Index = I;
      char Name[256] = {0};
      if (Api.cuDeviceGetName(Name, sizeof(Name) - 1, Dev) == CUDA_SUCCESS)
        D.Name = Name;
      size_t Total = 0;
      if (Api.cuDeviceTotalMem(&Total, Dev) == CUDA_SUCCESS)
        D.TotalMemory = Total;
      Api.cuDeviceGetAttribute(&D.ComputeMajor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, Dev);
      Api.cuDeviceGetAttribute(&D.ComputeMinor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, Dev);
      Api.cuDeviceGetAttribute(&D.Multiprocessors, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, Dev);
      Api.cuDeviceGetAttribute(&D.ClockKHz, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, Dev);
      Api.cuDeviceGetAttribute(&D.MemoryClockKHz, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, Dev);
      // Drivers older than the attributes answer CUDA_ERROR_INVALID_VALUE: no such access.
      int Pageable = 0, HostTables = 0;
      if (Api.cuDeviceGetAttribute(&Pageable, CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS, Dev) ==
          CUDA_SUCCESS)
        D.PageableMemoryAccess = Pageable != 0;
      if (Api.cuDeviceGetAttribute(&HostTables,
                                   CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES,
                                   Dev) == CUDA_SUCCESS)
        D.HostPageTables = D.PageableMemoryAccess && HostTables != 0;
      if (QueryFreeMemory) {
        CUcontext Ctx = nullptr;
        if (Api.cuDevicePrimaryCtxRetain(&Ctx, Dev) == CUDA_SUCCESS) {
          size_t Free = 0, Tot = 0;
          if (Api.cuCtxSetCurrent(Ctx) == CUDA_SUCCESS &&
              Api.cuMemGetInfo(&Free, &Tot) == CUDA_SUCCESS)
            D.FreeMemory = Free;
          Api.cuCtxSetCurrent(nullptr);
          Api.cuDevicePrimaryCtxRelease(Dev);
        }
      }
      R.Devices.push_back(D);
      ++Found;
    }
    R.CudaAvailable = Found > 0;
    const char *Vis = std::getenv("CUDA_VISIBLE_DEVICES");
    if (!Vis && Counted)
      R.TotalGpus = Count; // Nothing hides a GPU from the driver.
    if (Vis) {
      int Physical = Api.Loaded ? physicalGpuCount() : -1;
      std::string V = Vis;
      R.CudaVisibleDevices = V;
      if (Physical >= 0)
        R.TotalGpus = Physical;
      if (Physical > Found)
        R.Notes.push_back("CUDA_VISIBLE_DEVICES=" + V + " hides " +
                          std::to_string(Physical - Found) + " of this machine's " +
                          std::to_string(Physical) + " GPUs");
      else if (Physical < 0)
        R.Notes.push_back("CUDA_VISIBLE_DEVICES=" + V +
                          " is set: only the GPUs it lists are visible (unset it to see all)");
    }
  }

  void addLanes(const DeviceSpec &Spec, const DeviceReport &Report, LaneSet &S) const override {
    if (!requested(Spec))
      return;
    std::vector<int> Found;
    for (const DeviceInfo &D : Report.Devices) {
      if (D.Kind != DeviceKind::CUDA)
        continue;
      bool Listed = Spec.CudaOrdinals.empty();
      for (int O : Spec.CudaOrdinals)
        Listed |= O == D.Index;
      if (!Listed)
        continue;
      Lane L;
      L.Owner = this;
      L.Ordinal = D.Index;
      L.Name = "cuda" + std::to_string(D.Index);
      L.Weight = cudaWeight(D);
      L.Info = D;
      L.HostMemory = Spec.PageableAccess && D.PageableMemoryAccess;
      S.Lanes.push_back(L);
      Found.push_back(D.Index);
    }
    for (int O : Spec.CudaOrdinals) {
      bool Present = false;
      for (int F : Found)
        Present |= F == O;
      if (!Present)
        S.Warnings.push_back("devices: cuda:" + std::to_string(O) + " does not exist (" +
                             std::to_string(Report.gpuCount()) +
                             " CUDA device(s) visible); it is skipped");
    }
    if (Spec.Cuda && Found.empty() && !Spec.Cpu)
      S.Warnings.push_back("devices: CUDA was requested but no CUDA device is usable" +
                           (Report.CudaStatus.empty() ? std::string()
                                                      : " (" + Report.CudaStatus + ")") +
                           "; using the CPU");
    for (const std::string &N : Report.Notes)
      S.Warnings.push_back(N);
  }

  bool canRun(const LoopInfo &Info, const LoopArgs &Args, std::string &Why) const override {
    return loopRunsOnCuda(Info, Args, Why);
  }

  std::unique_ptr<PreparedLoop> prepare(const Lane &L, const LoopInfo &Info, const LoopArgs &Args,
                                        const RunOptions &Opts, std::string &Err) const override {
    const DriverApi &Api = DriverApi::get();
    if (!Api.Loaded) {
      Err = "no CUDA driver: " + Api.Error;
      return nullptr;
    }
    const DeviceInfo &Dev = L.Info;
    DeviceState &S = stateOf(Dev.Index);
    std::unique_lock<std::mutex> Lock(S.M);
    if (S.Lost) {
      Err = "cuda" + std::to_string(Dev.Index) + " was lost earlier in this process";
      return nullptr;
    }
    CUfunction F = nullptr;
    // Set on every call: the program's own CUDA code may have made another context current.
    if (!initDevice(Api, S, Dev.Index, Err) || !CLUSTRIX_CU(Api, Err, cuCtxSetCurrent(S.Ctx)) ||
        !kernelFor(Api, S, Info, Dev, F, Err))
      return nullptr;
    ThreadContext = S.Ctx;
    return std::make_unique<CudaLoop>(Api, S, std::move(Lock), Info, Args, Dev, F, Opts.Resident,
                                      L.HostMemory, Opts.BoxesKey);
  }

  bool lost(const Lane &L) const override { return deviceLost(L.Ordinal); }
};

} // namespace

double cudaWeight(const DeviceInfo &D) {
  double ClockGHz = D.ClockKHz > 0 ? D.ClockKHz / 1e6 : 1.5;
  int Sms = D.Multiprocessors > 0 ? D.Multiprocessors : 1;
  // A CPU worker at ~3 GHz weighs 1: 16 cores' worth per SM, at the GPU's clock.
  return Sms * 16.0 * ClockGHz / 3.0;
}

unsigned gridBlocks(uint64_t N, int Sms) {
  uint64_t Need = (N + BlockThreads - 1) / BlockThreads;
  uint64_t Cap = static_cast<uint64_t>(Sms > 0 ? Sms : 1) * 8;
  return static_cast<unsigned>(std::max<uint64_t>(1, std::min(Need, Cap)));
}

bool loopRunsOnCuda(const LoopInfo &Info, const LoopArgs &Args, std::string &Why) {
  if (!Info.KernelName || (!Info.KernelSource &&
                           !findKernelImage(Info.KernelName, Info.KernelHash).Data)) {
    Why = "the loop has no GPU form";
    return false;
  }
  if (Args.NumAppends) {
    Why = "ordered appends run on the CPU only";
    return false;
  }
  if (Info.NumRegions && !Args.Boxes) {
    Why = "the loop's regions have no box function";
    return false;
  }
  for (uint32_t I = 0; I < Info.NumParams; ++I) {
    const KernelParam &P = Info.Params[I];
    bool Ok = true;
    switch (P.Kind) {
    case KernelParamKind::Region: Ok = P.Index < Info.NumRegions; break;
    case KernelParamKind::Scalar: Ok = P.Index < Args.NumScalars && Args.Scalars; break;
    case KernelParamKind::Partial: Ok = P.Index < Args.NumReductions; break;
    default: break;
    }
    if (!Ok) {
      Why = "kernel parameter " + std::to_string(I) + " names a missing region, scalar or reduction";
      return false;
    }
  }
  return true;
}

bool deviceLost(int Ordinal) {
  std::lock_guard<std::mutex> G(StatesM);
  auto It = states().find(Ordinal);
  return It != states().end() && It->second->Lost.load();
}

} // namespace cuda

const Backend &cudaBackend() {
  static const cuda::CudaBackend B;
  return B;
}

} // namespace rt
} // namespace clustrix
