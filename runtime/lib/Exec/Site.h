//===- Exec/Site.h - What the runtime remembers about one loop ---*- C++ -*-===//
//
// Generated code gives every loop a LoopSite (Runtime.h); its State is a SiteState, made on the
// loop's first call. It caches what does not change from call to call: the lanes that can run
// the loop under the current settings, the decision and plan for the last trip count, the
// result of the run-time checks for the last box inputs, the Execution's storage, and the
// adaptive choice between serial and wide per trip-count class. A few atomics summarize the
// last decision, so that a call that repeats it skips the runtime's bookkeeping: the fast path.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_RT_EXEC_SITE_H
#define CLUSTRIX_RT_EXEC_SITE_H

#include "Backend/Backend.h"
#include "Exec/Execution.h"
#include "Plan/Adaptive.h"
#include "Plan/Planner.h"
#include "clustrix/Config.h"
#include "clustrix/Runtime.h"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace clustrix {
namespace rt {

/// The runtime's state of one loop site (LoopSite::State).
class SiteState {
public:
  /// What the fast path may do with a call that has the published trip count and settings.
  enum FastMode : uint8_t { FastNone, FastSerial, FastWide };

  /// The state of Site, made on first use; never freed (the site is a static of the program).
  static SiteState &of(LoopSite &Site);
  /// The state of Site, or null before its first call.
  static SiteState *find(LoopSite &Site) {
    return static_cast<SiteState *>(__atomic_load_n(&Site.State, __ATOMIC_ACQUIRE));
  }

  /// The generated code's LoopSite this state belongs to (null for a temporary state).
  LoopSite *Site = nullptr;

  // The fast path's summary of the last decision: a call with trip count FastTrip (and box
  // alignment FastAlign) under the settings FastConfig may run as FastMode, Countdown more
  // times; a serial decision is also published in the LoopSite, where keepSerial counts its
  // calls down (callsLeft). Written under M; read without it. A torn read can only send a call
  // to the slow path or run it serially, which is always correct.
  std::atomic<const RuntimeConfig *> FastConfig{nullptr};
  std::atomic<uint64_t> FastTrip{~uint64_t(0)};
  std::atomic<uint64_t> FastAlign{0};
  std::atomic<uint8_t> Fast{FastNone};
  std::atomic<uint64_t> Countdown{0};

  /// Guards everything below. Held for a whole wide run (so that the plan and the Execution are
  /// the run's alone); never waited for by a loop call, which takes the slow or static path
  /// when another thread holds it.
  std::mutex M;

  /// Resolves the lanes for Config when it is not the one they were resolved for (and again
  /// every call when a lane can be lost: accelerators); forgets every decision of other settings.
  void refresh(const LoopInfo &Info, const LoopArgs &Args, const RuntimeConfig &Config);
  const RuntimeConfig *Config = nullptr;
  std::vector<const Lane *> Usable; ///< Lanes that can run the loop, accelerators first.
  std::vector<const Lane *> PrevUsable; ///< Usable before the last refresh.
  bool OnlyHost = true;             ///< Every usable lane runs in place on the host.
  bool CanLose = false;             ///< Some lane is an accelerator, which may be lost.

  /// The plan for Trip over the first D.NumLanes usable lanes, cached for the last trip count.
  /// A block plan of a loop with inner loops shares their estimated work (Args' box program)
  /// among the lanes; the plan is kept while the trip count stays, whatever Args' symbols, as
  /// a plan shares iterations and any split is correct.
  const Plan &plan(const Decision &D, uint64_t Trip, uint64_t Align, const LoopArgs &Args);

  /// The run-time checks (aliasing and disjoint write boxes) for the plan plan() gave last;
  /// "" when they pass. With the generated box function (programBoxes) the result is kept for
  /// as long as the boxes' inputs (bases, extents, symbols, trip counts) and the plan stay the
  /// same.
  const std::string &checks(const LoopInfo &Info, const LoopArgs &Args);
  /// After checks(): what the boxes of this call depend on (programBoxesKey, then one more
  /// word), or null when the box function is not programBoxes. Equal keys of one loop give
  /// equal boxes over equal ranges (RunOptions::BoxesKey).
  const std::vector<int64_t> *boxesKey() const {
    return Checks[ChecksNewest].Valid ? &Checks[ChecksNewest].Key : nullptr;
  }

  /// The alias check alone, over the whole loop (the serial check of a guarded header); "" when
  /// no written region overlaps another.
  std::string aliasing(const LoopInfo &Info, const LoopArgs &Args);

  /// Publishes a decision for the fast path (Mode FastNone withdraws it), good for Calls calls.
  /// Class is the trip-count class whose adaptive choice it is (its countdown is then
  /// Countdown), or NoClass for a decision made without measuring.
  static constexpr unsigned NoClass = ~0u;
  void publish(const RuntimeConfig &C, uint64_t Trip, uint64_t Align, FastMode Mode,
               uint64_t Calls, unsigned Class = NoClass);
  unsigned PublishedClass = NoClass;
  /// Calls left of the published decision (the LoopSite's count for a serial one).
  uint64_t callsLeft() const;

  /// Whether plan() has a plan it keeps for the next calls, and that plan.
  bool hasPlan() const { return HavePlan; }
  const Plan &cachedPlan() const { return CachedPlan; }

  AdaptiveChoice Classes[NumTripClasses];
  Execution Exec;

private:
  /// The checks' inputs, field by field (no padding bytes), for programBoxes; false, with Key
  /// empty, for other box functions.
  bool boxKey(const LoopArgs &Args, std::vector<int64_t> &Key) const;

  Plan CachedPlan;
  bool HavePlan = false;
  uint64_t PlanGeneration = 0; ///< Bumped whenever CachedPlan is made anew.
  uint64_t PlanTrip = 0, PlanAlign = 0, PlanChunk = 0;
  unsigned PlanLanes = 0;
  Schedule PlanSched = Schedule::Block;

  /// The checks' last two results, by their inputs: a time-step loop that swaps two arrays
  /// between calls alternates between two sets of inputs, and each keeps its answer.
  struct ChecksEntry {
    bool Valid = false;
    uint64_t PlanGeneration = 0;
    std::vector<int64_t> Key;
    std::string Result;
  };
  ChecksEntry Checks[2];
  unsigned ChecksNewest = 0;
  std::vector<int64_t> ScratchKey;
  std::vector<Box> Boxes;
};

} // namespace rt
} // namespace clustrix

#endif
