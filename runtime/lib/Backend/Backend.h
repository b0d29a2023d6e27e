//===- Backend/Backend.h - What every kind of device implements -*- C++ -*-===//
//
// The runtime's generic code (Exec/) reaches devices only through this interface. Each backend
// implements it in its own folder (CPU/, CUDA/) and is listed once in Backends.def; nothing
// else names it. A chunk runs on a device as a pipeline of pieces: the loop is prepared on the
// device, the chunk is split into the pieces the device can hold, and each piece is copied in,
// run, copied out and combined, the next piece starting while the previous one finishes.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_RT_BACKEND_BACKEND_H
#define CLUSTRIX_RT_BACKEND_BACKEND_H

#include "Plan/Planner.h"
#include "Support/DeviceSet.h"
#include "clustrix/Devices.h"
#include "clustrix/Runtime.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace clustrix {
namespace rt {

class Backend;

/// One device as the scheduler sees it: a GPU, or one CPU worker thread (so `cpu:4` is four
/// lanes). Lanes carry the weights the block schedule splits by.
struct Lane {
  const Backend *Owner = nullptr; ///< The backend that runs the lane's chunks.
  int Ordinal = 0;                ///< The device's number within its backend.
  std::string Name;               ///< "cuda0", "cpu3": what logs and CLUSTRIX_FAULT use.
  double Weight = 1.0;            ///< Relative throughput, a CPU worker being 1.
  DeviceInfo Info;                ///< What discovery found out about the device.
  /// An accelerator whose kernels use the host's memory in place (pageable_access on a GPU
  /// with pageable memory access): loops that may re-run a chunk run there without copies.
  bool HostMemory = false;
};

/// The lanes of a device setting, accelerators first, and what resolving it had to say.
struct LaneSet {
  std::vector<Lane> Lanes;
  std::vector<std::string> Warnings; ///< e.g. "cuda requested but no CUDA device: ...".
  /// Whether the set has lanes of a backend other than the host's (they come first).
  bool hasAccelerators() const;
};

/// One chunk as a device runs it: iterations [Lo, Hi), the chunk's reduction partials (each
/// holding the operator's identity, or the result of an earlier part of the chunk) and ordered
/// append buffers, and the lane's position in the loop's device list.
struct ChunkJob {
  uint64_t Lo = 0, Hi = 0;
  void **Partials = nullptr;
  void **AppendBuffers = nullptr;
  int Device = 0;
};

/// How a chunk runs beyond the loop itself.
struct RunOptions {
  /// In a residency scope, on devices that all keep data: boxes come from and go to the device
  /// data table (Data/Residency.h) instead of the host, and nothing is copied back.
  bool Resident = false;
  /// What this call's boxes depend on (SiteState::boxesKey), or null: a backend that keeps
  /// boxes across calls may take equal keys for equal boxes over equal ranges of the loop.
  const std::vector<int64_t> *BoxesKey = nullptr;
};

/// A loop prepared on one device to run one chunk. The generic driver calls split() once, then,
/// for the pieces in order: copyIn(), run(), copyOut(), combine(), release(); piece I + 1 may be
/// copied in and run before piece I is copied out when split() allows overlap. A piece's results
/// reach the host arrays in copyOut() only once every device operation of the piece succeeded,
/// so a piece that fails leaves nothing half-written and only the pieces after the last combined
/// one must be re-run. Destroying the object releases every piece still on the device.
class PreparedLoop {
public:
  virtual ~PreparedLoop() = default;
  /// Cuts [Lo, Hi) into consecutive pieces the device can hold (one when the whole fits);
  /// Overlap says whether consecutive pieces may be in flight together. False, with Err, when
  /// not even one iteration fits.
  virtual bool split(uint64_t Lo, uint64_t Hi, std::vector<Chunk> &Pieces, bool &Overlap,
                     std::string &Err) = 0;
  /// Copies to the device the boxes piece P reads, and its write boxes not written in full.
  virtual bool copyIn(size_t P, std::string &Err) = 0;
  /// Runs piece P's iterations (or starts them, on a device that computes asynchronously).
  virtual bool run(size_t P, const ChunkJob &Job, std::string &Err) = 0;
  /// Waits for piece P and copies its write boxes back into the host arrays.
  virtual bool copyOut(size_t P, std::string &Err) = 0;
  /// Folds piece P's reduction results into Job.Partials, in a fixed order.
  virtual void combine(size_t P, const ChunkJob &Job) = 0;
  /// Gives back what piece P holds on the device.
  virtual void release(size_t P) = 0;
};

/// A kind of device: how to find its devices, turn them into lanes, and run chunks on them.
class Backend {
public:
  virtual ~Backend() = default;
  /// The name logs and the `devices` setting use ("cuda", "cpu").
  virtual const char *name() const = 0;
  /// Whether lanes run chunks in place in the host's memory (no copies). One such lane alone is
  /// no faster than the caller's own loop, and a loop no other backend can run falls back to
  /// these lanes.
  virtual bool isHost() const = 0;
  /// Whether a lane that copies a chunk's boxes copies back only what the chunk's writes reach
  /// (LoopArgs::WriteBoxes), not the whole box: then chunks whose boxes overlap only where one
  /// merely reads may still run side by side, each copying back its own writes.
  virtual bool copiesBackWritesOnly() const { return false; }
  /// Whether the lane keeps a residency scope's data on its device (Data/Residency.h).
  virtual bool keepsData(const Lane &) const { return false; }
  /// Whether the setting may use this backend's devices, so that discovery must look for them.
  virtual bool requested(const DeviceSpec &Spec) const = 0;
  /// Adds this machine's devices of this kind to R, and what R should say about them.
  virtual void discover(DeviceReport &R, bool QueryFreeMemory) const = 0;
  /// Appends the lanes Spec asks of this backend among R's devices (and warnings) to Out, which
  /// already holds the lanes of the backends before it in Backends.def.
  virtual void addLanes(const DeviceSpec &Spec, const DeviceReport &R, LaneSet &Out) const = 0;
  /// Whether the loop has a form this backend runs; when not, Why says what is missing.
  virtual bool canRun(const LoopInfo &Info, const LoopArgs &Args, std::string &Why) const = 0;
  /// Prepares the loop on the lane's device for one chunk; null, with Err, when it cannot.
  virtual std::unique_ptr<PreparedLoop> prepare(const Lane &L, const LoopInfo &Info,
                                                const LoopArgs &Args, const RunOptions &Opts,
                                                std::string &Err) const = 0;
  /// Whether the lane's device was lost: every later loop of the process skips it.
  virtual bool lost(const Lane &L) const = 0;
};

/// Every backend, in the order of Backends.def: accelerators first, then the host, then MPI ranks.
const std::vector<const Backend *> &backends();

} // namespace rt
} // namespace clustrix

#endif
