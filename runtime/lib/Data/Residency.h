//===- Data/Residency.h - Which copies of host memory are current -*- C++ -*-===//
//
// The device data table (docs/data-movement.md#residency). Inside a residency scope, what a
// loop writes on a device stays there: the device's copy becomes the current one and the
// host's is stale until something on the host needs it. For every host byte range a device
// holds, the table keeps which copies are valid (the host's, device k's), and it moves only
// what is missing: a read box already valid on its device is not copied; a box another device
// wrote comes from that device, peer to peer where the backend allows (the halo exchange);
// the rest comes from the host.
//
// The table is generic: a backend hands it a DeviceMemory per device and asks for boxes
// (acquire) and reports what its kernels wrote (wrote). It names no backend.
//
// The table belongs to the thread that opened the outermost residency scope. Leaving that
// scope, or any execution on the host inside it (a serial run, CPU workers, a chunk recovered
// on the host), calls releaseAll(): every stale range is copied back, every device copy
// dropped. A device lost while it holds the only current copy of a range ends the program with
// an error naming the arrays and the loop.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_RT_DATA_RESIDENCY_H
#define CLUSTRIX_RT_DATA_RESIDENCY_H

#include "clustrix/Runtime.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace clustrix {
namespace rt {
namespace trace {
class Span;
} // namespace trace
namespace data {

/// One device's memory, as the table moves data: what a backend that keeps data implements.
/// Copies to the device and within it are ordered with the device's resident work (its
/// kernels); copies from it wait for that work first.
class DeviceMemory {
public:
  virtual ~DeviceMemory() = default;
  /// "cuda0": for messages.
  virtual std::string name() const = 0;
  virtual bool allocate(size_t Bytes, uint64_t &Ptr, std::string &Err) = 0;
  virtual void free(uint64_t Ptr, size_t Bytes) = 0;
  /// Traced is the copy's trace event (null when not tracing). A backend that only queues the
  /// copy, so that the event spans its queueing, adds "queued" to its args and records the
  /// copy's time on the device as an event of its own ("copy-device", docs/runtime.md#trace).
  virtual bool toDevice(uint64_t Dst, const void *Src, size_t Bytes, std::string &Err,
                        trace::Span *Traced) = 0;
  /// Complete when it returns.
  virtual bool toHost(void *Dst, uint64_t Src, size_t Bytes, std::string &Err) = 0;
  /// Traced as for toDevice: the copy may be only queued.
  virtual bool within(uint64_t Dst, uint64_t Src, size_t Bytes, std::string &Err,
                      trace::Span *Traced) = 0;
  /// Rows copies of Width bytes each, Pitch bytes apart on both sides (a device copy keeps the
  /// host's layout): the edge columns of a grid, say. The defaults copy row by row; a backend
  /// with strided copies overrides them with one copy.
  virtual bool toDevice2D(uint64_t Dst, const void *Src, size_t Width, size_t Rows, size_t Pitch,
                          std::string &Err, trace::Span *Traced);
  /// Complete when it returns.
  virtual bool toHost2D(void *Dst, uint64_t Src, size_t Width, size_t Rows, size_t Pitch,
                        std::string &Err);
  /// Whether fromPeer can copy from From's memory directly.
  virtual bool canPeer(const DeviceMemory &From) const = 0;
  /// Traced as for toDevice: the copy may be only queued.
  virtual bool fromPeer(DeviceMemory &From, uint64_t Dst, uint64_t Src, size_t Bytes,
                        std::string &Err, trace::Span *Traced) = 0;
  /// Whether the device can no longer give back what it holds.
  virtual bool lost() const = 0;
  /// Waits until every copy from host memory that the device has queued has read it: the
  /// host is about to change that memory. A copy from memory the program page-locked reads it
  /// when the device reaches it, not when it is queued. False, with Err, when the wait failed
  /// on a device that can still run (a lost device's queued copies never run).
  virtual bool settleHostReads(std::string &) { return true; }
};

/// Half-open intervals of addresses, merged when they touch.
class IntervalSet {
public:
  /// Each returns whether the set changed.
  bool add(uintptr_t B, uintptr_t E);
  bool remove(uintptr_t B, uintptr_t E);
  /// Whether [B, E) lies in one interval of the set.
  bool covers(uintptr_t B, uintptr_t E) const;
  /// The parts of [B, E) not in the set, in order.
  void missing(uintptr_t B, uintptr_t E, std::vector<std::pair<uintptr_t, uintptr_t>> &Out) const;
  bool empty() const { return Map.empty(); }
  void clear() { Map.clear(); }
  const std::map<uintptr_t, uintptr_t> &intervals() const { return Map; }

private:
  std::map<uintptr_t, uintptr_t> Map; // begin -> end
};

/// Bytes the table moved (and found in place), logged at debug level when it lets go.
struct Traffic {
  uint64_t ToDevice = 0, ToHost = 0, Peer = 0, Skipped = 0;
};

class Table {
public:
  static Table &get();

  /// Makes box B of a region (Rank, Name) addressable on D: a device copy of at least its hull,
  /// holding current contents where Contents is set (what the box reads, or a write box not
  /// written in full). DevElem0 receives the device address standing for the host address
  /// B.Base, as kernels index regions with global indices.
  /// Changed, when given, is set when the call changed the table (it then counted one change).
  bool acquire(DeviceMemory &D, const Box &B, unsigned Rank, bool Contents, const char *Name,
               uint64_t &DevElem0, std::string &Err, bool *Changed = nullptr);
  /// Records that a kernel on D writes box B: D's copy is the current one, the host's and other
  /// devices' are stale. Changed as for acquire.
  void wrote(DeviceMemory &D, const Box &B, unsigned Rank, const char *Name,
             bool *Changed = nullptr);
  /// How many times the table has changed: a mirror made or dropped, a copy made current or
  /// stale anywhere. Equal at two moments, every acquire and wrote that ran between them found
  /// what it asked for in place (the resident replay of CudaBackend.cpp relies on it). A call
  /// that changes the table counts exactly one.
  uint64_t generation() const { return Generation.load(std::memory_order_acquire); }
  /// Copies every stale range back to the host and drops every device copy. False, with Err
  /// naming the arrays, when a device that holds the only current copy of a range cannot give
  /// it back.
  /// Moved receives what the table moved since the last release.
  bool releaseAll(std::string &Err, Traffic &Moved);
  /// Makes the host's copy of [B, E) current: what a device wrote there comes back; the
  /// devices keep their copies, or, with Drop (the host is about to write it), lose them.
  /// False, with Err naming the arrays, when the device that holds the only current copy
  /// cannot give it back.
  bool syncToHost(uintptr_t B, uintptr_t E, std::string &Err, bool Drop = false);

private:
  struct Mirror {
    uintptr_t HostEnd = 0;
    uint64_t Dev = 0;
  };
  struct PerDevice {
    std::map<uintptr_t, Mirror> Mirrors; // host begin -> mirror
    IntervalSet Valid;
  };
  struct Stale {
    uintptr_t End;
    DeviceMemory *Owner;
  };
  PerDevice &of(DeviceMemory &D);
  /// DeviceMemory::settleHostReads of every device (M held).
  bool settleHostReads(std::string &Err);
  /// Made: set when no mirror held [B, E) and one was made (or tried).
  bool mirrorFor(DeviceMemory &D, PerDevice &P, uintptr_t B, uintptr_t E, Mirror *&Out,
                 uintptr_t &MirrorBegin, bool &Made, std::string &Err);
  /// The device address of host address Host in P's mirror that covers it.
  static uint64_t deviceAddress(const PerDevice &P, uintptr_t Host);
  bool fill(DeviceMemory &D, PerDevice &P, uintptr_t B, uintptr_t E, std::string &Err);
  bool fillStrided(DeviceMemory &D, PerDevice &P, uintptr_t B, size_t Width, size_t Rows,
                   size_t Pitch, std::string &Err);
  /// Whether the stale map changed.
  bool markStale(uintptr_t B, uintptr_t E, DeviceMemory *Owner);
  /// Records that [B, E) is (part of) the array Name, for messages.
  void nameRange(uintptr_t B, uintptr_t E, const char *Name);
  void clearStale(uintptr_t B, uintptr_t E);
  std::string namesIn(uintptr_t B, uintptr_t E) const;
  /// The arrays any of Ranges touches.
  std::string namesIn(const std::vector<std::pair<uintptr_t, uintptr_t>> &Ranges) const;

  mutable std::mutex M;
  std::map<DeviceMemory *, PerDevice> Devices;
  std::map<uintptr_t, Stale> StaleMap; // host begin -> end, owner
  std::map<uintptr_t, std::pair<uintptr_t, std::string>> Names; // hulls of named regions
  Traffic T;
  std::atomic<uint64_t> Generation{0};
  /// wrote's rows, kept with their capacity (a resident loop reports its writes every call).
  std::vector<std::pair<uintptr_t, uintptr_t>> WroteRows;
};

/// Whether the calling thread owns an open residency scope and the setting allows residency:
/// then a loop whose devices all keep data runs resident.
bool residentHere();
/// Before anything runs on the host: releaseAll(), and when it fails, the error and exit.
/// Where is the loop about to run (for the message), or null.
void releaseBeforeHost(const LoopInfo *Where);
/// The error and exit (status 70) when a device that held the only current copy of data could
/// not give it back; When says at which point ("before the loop runs on the host: ").
[[noreturn]] void stopForLostData(const std::string &When, const std::string &Err);

} // namespace data
} // namespace rt
} // namespace clustrix

#endif
