//===- Exec/Site.cpp - What the runtime remembers about one loop -----------===//
#include "Exec/Site.h"

#include "Exec/Lanes.h"
#include "Plan/Regions.h"
#include "Support/Log.h"
#include "Support/Trace.h"

#include <cctype>

namespace clustrix {
namespace rt {

SiteState &SiteState::of(LoopSite &Site) {
  if (SiteState *S = find(Site))
    return *S;
  static std::mutex Creation;
  std::lock_guard<std::mutex> G(Creation);
  if (SiteState *S = find(Site))
    return *S;
  auto *S = new SiteState();
  S->Site = &Site;
  __atomic_store_n(&Site.State, static_cast<void *>(S), __ATOMIC_RELEASE);
  return *S;
}

void SiteState::refresh(const LoopInfo &Info, const LoopArgs &Args, const RuntimeConfig &C) {
  if (&C == Config && !CanLose)
    return;
  if (&C != Config) {
    // Other settings: every decision made under the old ones is void.
    Config = &C;
    HavePlan = false;
    Checks[0].Valid = Checks[1].Valid = false;
    for (AdaptiveChoice &A : Classes)
      A = AdaptiveChoice();
    publish(C, 0, 0, FastNone, 0);
  }
  const LaneSet &All = lanesFor(C.Devices, C.PageableAccess);
  PrevUsable.swap(Usable);
  Usable.clear();
  Usable.reserve(All.Lanes.size());
  std::string Why; // why an accelerator backend cannot run the loop
  const Backend *Asked = nullptr;
  bool CanRun = false;
  CanLose = false;
  for (const Lane &L : All.Lanes) {
    if (L.Owner != Asked) {
      Asked = L.Owner;
      std::string Reason;
      CanRun = L.Owner->canRun(Info, Args, Reason);
      if (!CanRun && Why.empty())
        Why = Reason;
    }
    if (CanRun && !L.Owner->lost(L)) {
      Usable.push_back(&L);
      CanLose |= !L.Owner->isHost();
    }
  }
  OnlyHost = true;
  for (const Lane *L : Usable)
    OnlyHost &= L->Owner->isHost();
  if (Usable.empty() && All.hasAccelerators()) {
    // Only accelerators were configured and none can run this loop: the host's lanes run it.
    const LaneSet &Host = hostLanes();
    for (const Lane &L : Host.Lanes)
      Usable.push_back(&L);
    if (!Host.Lanes.empty()) {
      std::string Kind = Host.Lanes.front().Owner->name();
      for (char &Ch : Kind)
        Ch = static_cast<char>(std::toupper(static_cast<unsigned char>(Ch)));
      logOnce("nocuda:" + loopLocation(Info), LogLevel::Warn,
              loopLocation(Info) + ": runs on the " + Kind + ": " +
                  (Why.empty() ? "every configured device was lost earlier in this process"
                               : Why));
    }
  }
  // A lane lost since the last call (or found again) changes the lanes: the plan made for
  // the old ones is void. The same lanes keep it, and so the checks made for it.
  if (CanLose && Usable != PrevUsable)
    HavePlan = false;
}

uint64_t SiteState::callsLeft() const {
  if (Site && Fast.load(std::memory_order_relaxed) == FastSerial)
    return __atomic_load_n(&Site->SerialCalls, __ATOMIC_RELAXED);
  return Countdown.load(std::memory_order_relaxed);
}

const Plan &SiteState::plan(const Decision &D, uint64_t Trip, uint64_t Align,
                            const LoopArgs &Args) {
  if (HavePlan && PlanTrip == Trip && PlanAlign == Align && PlanLanes == D.NumLanes &&
      PlanSched == D.Sched && PlanChunk == D.ChunkSize)
    return CachedPlan;
  std::vector<double> W;
  W.reserve(D.NumLanes);
  for (unsigned L = 0; L < D.NumLanes; ++L)
    W.push_back(Usable[L]->Weight);
  if (Align > 1 && Trip / Align >= D.NumLanes)
    CachedPlan = planAligned(D.Sched, Trip, Align, W, D.ChunkSize);
  else if (D.Sched == Schedule::Block) {
    // Where the inner loops' trips vary with the iteration (a triangular nest), each lane gets
    // a share of the work, not of the iterations.
    std::vector<double> Work;
    if (D.NumLanes > 1 && Args.Boxes == &programBoxes && Args.BoxEnv &&
        programIterationWork(*static_cast<const ProgramBoxes *>(Args.BoxEnv), Trip, 64, Work))
      CachedPlan = planBlockBalanced(Trip, W, Work);
    else
      CachedPlan = planBlock(Trip, W);
  }
  else if (D.Sched == Schedule::Cyclic)
    CachedPlan = planCyclic(Trip, D.NumLanes, D.ChunkSize);
  else
    CachedPlan = planDynamic(Trip, D.NumLanes, D.ChunkSize);
  HavePlan = true;
  ++PlanGeneration;
  PlanTrip = Trip;
  PlanAlign = Align;
  PlanLanes = D.NumLanes;
  PlanSched = D.Sched;
  PlanChunk = D.ChunkSize;
  return CachedPlan;
}

bool SiteState::boxKey(const LoopArgs &Args, std::vector<int64_t> &Key) const {
  return programBoxesKey(Args, Key);
}

/// A region read whole whose extent neither the source nor the runtime knows: a gather read
/// through a pointer into no heap block the runtime saw allocated (allocationHi's -1), or an
/// extent clause's negative count. Its copy and its alias check would cover too little: only
/// the loop as written reads it right.
static std::string unknownExtent(const LoopInfo &Info, const LoopArgs &Args) {
  if (Args.Boxes != &programBoxes || !Args.BoxEnv)
    return "";
  const ProgramBoxes &B = *static_cast<const ProgramBoxes *>(Args.BoxEnv);
  for (unsigned R = 0; R < B.Program->NumRegions && R < Info.NumRegions; ++R) {
    const BoxFrame &F = B.Frames[R];
    if (!F.Whole || F.WholeHi >= 0)
      continue;
    const char *Name = Info.Regions[R].Name ? Info.Regions[R].Name : "?";
    return std::string("the extent of '") + Name +
           "' is unknown: it is read through a subscript that is not affine, and its address "
           "is in no heap block the runtime saw allocated";
  }
  return "";
}

const std::string &SiteState::checks(const LoopInfo &Info, const LoopArgs &Args) {
  const Plan &P = CachedPlan;
  // Chunks that run in place write only what their writes reach, and so does a device that
  // copies back only its write boxes (a GPU); one that copies a region's whole box back (an
  // MPI rank) writes what it only read too.
  bool InPlace = true, WritesOnly = true;
  for (size_t L = 0; L < P.NumLanes && L < Usable.size(); ++L) {
    InPlace &= Usable[L]->Owner->isHost();
    WritesOnly &= Usable[L]->Owner->isHost() || Usable[L]->Owner->copiesBackWritesOnly();
  }
  BoxFn Written = WritesOnly && Args.WriteBoxes ? Args.WriteBoxes : Args.Boxes;
  bool Keyed = boxKey(Args, ScratchKey);
  ScratchKey.push_back(Written == Args.Boxes ? 0 : 1);
  if (Keyed)
    for (unsigned I : {ChecksNewest, ChecksNewest ^ 1u}) {
      ChecksEntry &E = Checks[I];
      if (E.Valid && E.PlanGeneration == PlanGeneration && E.Key == ScratchKey) {
        ChecksNewest = I;
        return E.Result;
      }
    }
  // The older entry takes the new result.
  ChecksNewest ^= 1u;
  ChecksEntry &E = Checks[ChecksNewest];
  std::string &ChecksResult = E.Result;
  ChecksResult = unknownExtent(Info, Args);
  if (ChecksResult.empty() && Args.Boxes && Info.NumRegions > 0) {
    bool AnyAlias = false, AnyWrite = false;
    for (uint32_t R = 0; R < Info.NumRegions; ++R) {
      AnyAlias |= Info.Regions[R].MayAlias != 0;
      AnyWrite |= (Info.Regions[R].Access & AccessWrite) != 0;
    }
    if (AnyAlias && AnyWrite) {
      Boxes.resize(Info.NumRegions);
      Args.Boxes(Args.BoxEnv, 0, PlanTrip, Boxes.data());
      ChecksResult = checkAliasing(Info, Boxes.data());
    }
    if (ChecksResult.empty() && AnyWrite && P.Chunks.size() > 1) {
      // In place, the writes of each access on their own: where a region's accesses reach
      // different parts of it (row j and column j of a matrix), their hull per chunk overlaps
      // the next chunk's and theirs do not. A device copies back a region's hull (of its
      // writes, or of its whole box), so there the hull is what is written.
      bool PerAccess = InPlace && Args.Boxes == &programBoxes && Args.BoxEnv;
      if (PerAccess) {
        const auto &PB = *static_cast<const ProgramBoxes *>(Args.BoxEnv);
        const size_t NA = PB.Program->NumAccesses;
        Boxes.resize(P.Chunks.size() * NA);
        for (size_t J = 0; J < P.Chunks.size() && PerAccess; ++J)
          PerAccess = programWriteAccessBoxes(PB, P.Chunks[J].Lo, P.Chunks[J].Hi, &Boxes[J * NA]);
        if (PerAccess)
          ChecksResult = checkWriteAccessesDisjoint(Info, *PB.Program, Boxes, P.Chunks.size());
      }
      if (!PerAccess) {
        Boxes.resize(P.Chunks.size() * Info.NumRegions);
        for (size_t J = 0; J < P.Chunks.size(); ++J)
          Written(Args.BoxEnv, P.Chunks[J].Lo, P.Chunks[J].Hi, &Boxes[J * Info.NumRegions]);
        ChecksResult = checkWriteDisjoint(Info, Boxes, P.Chunks.size());
      }
    }
  }
  E.Valid = Keyed;
  E.Key.swap(ScratchKey);
  E.PlanGeneration = PlanGeneration;
  return ChecksResult;
}

std::string SiteState::aliasing(const LoopInfo &Info, const LoopArgs &Args) {
  if (!Args.Boxes || Info.NumRegions == 0)
    return "";
  Boxes.resize(Info.NumRegions);
  Args.Boxes(Args.BoxEnv, 0, Args.TripCount, Boxes.data());
  return checkAliasing(Info, Boxes.data());
}

void SiteState::publish(const RuntimeConfig &C, uint64_t Trip, uint64_t Align, FastMode Mode,
                        uint64_t Calls, unsigned Class) {
  PublishedClass = Class;
  // At info and debug every call is logged, which only the slow path does; while tracing, a
  // serial call must reach runLoop to be recorded, so keepSerial is given nothing to keep.
  const RuntimeConfig *Settings =
      C.Log >= LogLevel::Info || (Mode == FastSerial && trace::on()) ? nullptr : &C;
  // Withdraw first, so that a reader never pairs the new trip count with the old mode.
  Fast.store(FastNone, std::memory_order_relaxed);
  if (Site)
    __atomic_store_n(&Site->SerialCalls, uint64_t(0), __ATOMIC_RELAXED);
  Countdown.store(Calls, std::memory_order_relaxed);
  FastTrip.store(Trip, std::memory_order_relaxed);
  FastAlign.store(Align, std::memory_order_relaxed);
  FastConfig.store(Settings, std::memory_order_relaxed);
  Fast.store(Mode, std::memory_order_release);
  if (Site && Mode == FastSerial) {
    // What keepSerial reads, in generated code: the serial decision and its count of calls.
    __atomic_store_n(&Site->SerialTrip, Trip, __ATOMIC_RELAXED);
    __atomic_store_n(&Site->SerialSettings, static_cast<const void *>(Settings),
                     __ATOMIC_RELAXED);
    __atomic_store_n(&Site->SerialCalls, Calls, __ATOMIC_RELEASE);
  }
}

} // namespace rt
} // namespace clustrix
