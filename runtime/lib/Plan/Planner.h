//===- Plan/Planner.h - Splitting a loop into chunks -----------*- C++ -*-===//
//
// Pure functions, no devices and no threads: whether a loop goes wide and on how many devices,
// how its iterations are split (block by weight, cyclic, dynamic), and how a device's share is cut
// into pieces that fit its memory. The unit tests exercise these directly.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_RT_PLAN_PLANNER_H
#define CLUSTRIX_RT_PLAN_PLANNER_H

#include "clustrix/Config.h"
#include "clustrix/Runtime.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace clustrix {
namespace rt {

/// One chunk: normalized iterations [Lo, Hi). Chunks of a plan are sorted by Lo and cover
/// [0, TripCount) exactly once.
struct Chunk {
  uint64_t Lo, Hi;
};

/// A split of a loop over NumLanes devices. Static schedules (block, cyclic) give chunk J to
/// lane J % NumLanes; dynamic lets lanes take chunks in order from a shared counter.
struct Plan {
  Schedule Sched = Schedule::Block;
  unsigned NumLanes = 0;
  uint64_t ChunkSize = 0;  ///< For cyclic and dynamic; 0 for block.
  std::vector<Chunk> Chunks;

  bool isStatic() const { return Sched != Schedule::Dynamic; }
  /// The lane a static chunk runs on.
  unsigned laneOf(size_t ChunkIndex) const {
    return static_cast<unsigned>(ChunkIndex % NumLanes);
  }
};

/// Why a loop stays serial, or how wide it goes.
struct Decision {
  bool Wide = false;
  std::string Reason;      ///< Why not wide (for the `serial:` log line), when asked for.
  /// Serial only because trip count x work is below serial_threshold: the loop could go wide
  /// (NumLanes, Sched and ChunkSize say how), and a measurement may overrule the threshold.
  bool BelowThreshold = false;
  unsigned NumLanes = 0;   ///< Lanes to use when wide (at least 2, or 1 when that lane is a GPU).
  Schedule Sched = Schedule::Block;
  uint64_t ChunkSize = 0;
};

/// Upper bound on the chunks of one plan, so per-chunk bookkeeping stays small; a requested
/// chunk size that would exceed it is enlarged.
constexpr uint64_t MaxChunks = 1u << 16;

/// Decides from the descriptor, the real trip count, the settings and the number of lanes
/// available. OnlyHost says all available lanes run in place on the host (CPU workers): then one
/// lane means serial. Explain: fill Decision::Reason (it costs a few allocations).
Decision decide(const LoopInfo &Info, uint64_t TripCount, const RuntimeConfig &Config,
                unsigned AvailableLanes, bool OnlyHost, bool Explain = true);

/// Splits N iterations in proportion to Weights (largest remainders get the leftovers, ties to
/// the lower index). Every positive weight gets a share; the shares sum to N.
std::vector<uint64_t> splitWeighted(uint64_t N, const std::vector<double> &Weights);

/// Block plan: one contiguous chunk per lane, sized by weight; lanes whose share is empty are
/// dropped (NumLanes shrinks, Weights keep their order).
Plan planBlock(uint64_t TripCount, const std::vector<double> &Weights);
/// Block plan over iterations of unequal work (a triangular nest, whose inner loop runs from
/// the outer variable to the end): Work holds the work of Samples evenly spaced iterations
/// (Work[S] is that of iteration S * (TripCount - 1) / (Samples - 1)), and each lane's chunk
/// gets a share of the work, interpolated between samples, in proportion to its weight; every
/// chunk keeps at least one iteration. With fewer than two samples, or work that does not vary,
/// the same plan as planBlock.
Plan planBlockBalanced(uint64_t TripCount, const std::vector<double> &Weights,
                       const std::vector<double> &Work);
/// Cyclic plan: chunks of ChunkSize, chunk J on lane J % NumLanes. On one lane, one chunk of
/// the whole range (ChunkSize becomes TripCount): that lane would run every chunk, in order.
Plan planCyclic(uint64_t TripCount, unsigned NumLanes, uint64_t ChunkSize);
/// Dynamic plan: chunks of ChunkSize, taken by whichever lane is free. On one lane, one chunk
/// of the whole range, as for cyclic.
Plan planDynamic(uint64_t TripCount, unsigned NumLanes, uint64_t ChunkSize);

/// Plans on whole multiples of Align (the rows of a collapsed nest): Plan(ceil(Trip/Align)
/// rows) scaled by Align, the last chunk ending at TripCount. ChunkSize is in iterations and is
/// rounded up to whole rows.
Plan planAligned(Schedule S, uint64_t TripCount, uint64_t Align, const std::vector<double> &Weights,
                 uint64_t ChunkSize);
/// The chunk size used when none is given: about eight chunks per lane for dynamic, one round
/// of a few chunks per lane for cyclic, never below one.
uint64_t defaultChunkSize(Schedule S, uint64_t TripCount, unsigned NumLanes);

/// Cuts [Lo, Hi) into consecutive pieces whose footprint Bytes(lo, hi) is at most Budget, as few
/// as the footprint allows (binary search on each piece's end; Bytes must not decrease as the
/// range grows). Returns false when even one iteration does not fit.
bool splitForMemory(uint64_t Lo, uint64_t Hi,
                    const std::function<uint64_t(uint64_t, uint64_t)> &Bytes, uint64_t Budget,
                    std::vector<Chunk> &Out);

} // namespace rt
} // namespace clustrix

#endif
