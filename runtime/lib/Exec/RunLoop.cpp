//===- Exec/RunLoop.cpp - clustrix::rt::runLoop ---------------------------===//
//
// The runtime's entry point: decide, plan, check, execute on the lanes, recover from device
// faults, combine reductions in chunk order, merge appends in iteration order, log one line.
// Devices are reached only through Backend.h: a chunk on any lane is the same pipeline of pieces
// (copy in, run, copy out, combine), and a lane whose device fails is retired.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Runtime.h"

#include "Backend/Backend.h"
#include "Exec/Fault.h"
#include "Exec/Lanes.h"
#include "Exec/ThreadPool.h"
#include "Plan/Planner.h"
#include "Plan/Reduce.h"
#include "Plan/Regions.h"
#include "Support/ConfigState.h"
#include "Support/Log.h"

#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <mutex>

namespace clustrix {
namespace rt {

namespace {

/// Set while a thread runs a chunk, so that a loop inside a chunk stays serial.
thread_local bool InChunk = false;

/// A chunk a device gave up, for the log.
struct Failure {
  size_t Chunk;
  unsigned Lane;
  std::string Reason;
};

/// Everything one wide execution of a loop shares between its lanes.
class Execution {
public:
  Execution(const LoopInfo &Info, const LoopArgs &Args, const Plan &P,
            std::vector<const Lane *> Lanes)
      : Info(Info), Args(Args), P(P), Lanes(std::move(Lanes)), Faults(environmentFaults()),
        Retired(new std::atomic<bool>[P.NumLanes]) {
    size_t N = P.Chunks.size();
    for (unsigned L = 0; L < P.NumLanes; ++L)
      Retired[L].store(false, std::memory_order_relaxed);
    if (Args.NumReductions) {
      Partials.resize(N * Args.NumReductions);
      PartialPtrs.resize(N * Args.NumReductions);
      for (size_t I = 0; I < PartialPtrs.size(); ++I)
        PartialPtrs[I] = &Partials[I];
    }
    if (Args.NumAppends)
      Appends.assign(N * Args.NumAppends, nullptr);
    if (logEnabled(LogLevel::Debug))
      RanOn.assign(N, -1);
    // Devices that copy may fail part-way through a chunk: where each chunk resumes.
    for (const Lane *L : this->Lanes)
      if (!L->Owner->isHost()) {
        Resume.resize(N);
        for (size_t J = 0; J < N; ++J)
          Resume[J] = P.Chunks[J].Lo;
        break;
      }
  }

  ~Execution() {
    for (size_t I = 0; I < Appends.size(); ++I)
      if (Appends[I])
        Args.Appends[I % Args.NumAppends].Destroy(Appends[I]);
  }

  /// The body of lane L: its static chunks (or dynamic ones), then chunks given up by others.
  void runLane(unsigned L) {
    InChunk = true;
    size_t N = P.Chunks.size();
    if (P.isStatic()) {
      for (size_t J = L; J < N; J += P.NumLanes) {
        if (Retired[L].load(std::memory_order_relaxed))
          giveUp(J);
        else
          step(L, J);
      }
    } else {
      for (;;) {
        size_t J = NextDynamic.fetch_add(1, std::memory_order_relaxed);
        if (J >= N)
          break;
        if (Retired[L].load(std::memory_order_relaxed)) {
          giveUp(J);
          break;
        }
        step(L, J);
      }
    }
    size_t J;
    while (!Retired[L].load(std::memory_order_relaxed) && takeGivenUp(J))
      step(L, J);
    InChunk = false;
  }

  /// After the lanes joined: chunks still given up run on the first live lane, else on the host.
  void finishOnCaller() {
    // Dynamic chunks nobody took because every lane retired first.
    if (!P.isStatic())
      for (size_t J; (J = NextDynamic.fetch_add(1)) < P.Chunks.size();)
        giveUp(J);
    size_t J;
    while (takeGivenUp(J)) {
      bool Done = false;
      InChunk = true;
      for (unsigned L = 0; L < P.NumLanes && !Done; ++L)
        if (!Retired[L].load(std::memory_order_relaxed))
          Done = step(L, J, /*GiveUpOnFailure=*/false);
      if (!Done) {
        prepare(J);
        runHost(J, -1);
        ++Recovered;
      }
      InChunk = false;
    }
  }

  /// Folds the partials into the user's variables in chunk order and merges the appends in
  /// iteration order (chunks are sorted by Lo).
  void merge() {
    for (uint32_t R = 0; R < Args.NumReductions; ++R) {
      const ReductionSlot &S = Args.Reductions[R];
      for (size_t J = 0; J < P.Chunks.size(); ++J)
        combine(S.Kind, S.Op, S.Target, &Partials[J * Args.NumReductions + R]);
    }
    for (size_t J = 0; J < P.Chunks.size(); ++J)
      for (uint32_t A = 0; A < Args.NumAppends; ++A) {
        void *&B = Appends[J * Args.NumAppends + A];
        Args.Appends[A].Merge(Args.Appends[A].Target, B);
        Args.Appends[A].Destroy(B);
        B = nullptr;
      }
  }

  /// The first exception a chunk's host function threw, by chunk order.
  std::exception_ptr firstError() const {
    for (const std::exception_ptr &E : Errors)
      if (E)
        return E;
    return nullptr;
  }

  const std::vector<Failure> &failures() const { return Failures; }
  unsigned recoveredOnHost() const { return Recovered; }
  const std::vector<int> &ranOn() const { return RanOn; }
  bool retired(unsigned L) const { return Retired[L].load(std::memory_order_relaxed); }

private:
  /// First iteration of chunk J not yet complete: a device that failed part-way through a
  /// chunk may have finished a prefix of it.
  uint64_t from(size_t J) const { return Resume.empty() ? P.Chunks[J].Lo : Resume[J]; }

  /// Resets chunk J's partials to their identities and gives it fresh append buffers, unless a
  /// prefix of it is complete (then its partials hold that prefix's result).
  void prepare(size_t J) {
    if (from(J) != P.Chunks[J].Lo)
      return;
    for (uint32_t R = 0; R < Args.NumReductions; ++R)
      setIdentity(Args.Reductions[R].Kind, Args.Reductions[R].Op,
                  &Partials[J * Args.NumReductions + R]);
    for (uint32_t A = 0; A < Args.NumAppends; ++A) {
      void *&B = Appends[J * Args.NumAppends + A];
      if (B)
        Args.Appends[A].Destroy(B);
      B = Args.Appends[A].Create();
    }
  }

  void runHost(size_t J, int Device) {
    ChunkContext Ctx;
    Ctx.Partials = Args.NumReductions ? &PartialPtrs[J * Args.NumReductions] : nullptr;
    Ctx.AppendBuffers = Args.NumAppends ? &Appends[J * Args.NumAppends] : nullptr;
    Ctx.Lo = from(J);
    Ctx.Hi = P.Chunks[J].Hi;
    Ctx.Device = Device;
    try {
      Args.Host(Args.HostEnv, Ctx.Lo, Ctx.Hi, Ctx);
    } catch (...) {
      std::lock_guard<std::mutex> G(M);
      if (Errors.empty())
        Errors.resize(P.Chunks.size());
      Errors[J] = std::current_exception();
    }
  }

  /// Runs chunk J on lane L; on a device failure retires L, gives J up (for another lane to
  /// take) when asked, and returns false.
  bool step(unsigned L, size_t J, bool GiveUpOnFailure = true) {
    const Lane &Ln = *Lanes[L];
    prepare(J);
    std::string Err;
    bool Ok;
    if (!Faults.empty() && Faults.shouldFail(L, Ln.Name, J)) {
      Ok = false;
      Err = "injected fault (CLUSTRIX_FAULT)";
    } else {
      try {
        Ok = runOnDevice(Ln, J, static_cast<int>(L), Err);
      } catch (...) {
        // The loop body threw: the chunk ran, as it would have serially; runLoop rethrows.
        std::lock_guard<std::mutex> G(M);
        if (Errors.empty())
          Errors.resize(P.Chunks.size());
        Errors[J] = std::current_exception();
        Ok = true;
      }
    }
    if (Ok) {
      if (!RanOn.empty())
        RanOn[J] = static_cast<int>(L);
      return true;
    }
    Retired[L].store(true, std::memory_order_relaxed);
    {
      std::lock_guard<std::mutex> G(M);
      Failures.push_back({J, L, Err});
    }
    if (GiveUpOnFailure)
      giveUp(J);
    return false;
  }

  /// The chunk driver: prepares the loop on the lane's device and runs what is left of chunk J
  /// as the device's pieces, the next piece copied in and started while the previous one is
  /// copied out when the device allows. Each combined piece moves the chunk's resume point, so
  /// after a failure only the rest of the chunk runs again elsewhere.
  bool runOnDevice(const Lane &Ln, size_t J, int Device, std::string &Err) {
    ChunkJob Job;
    Job.Lo = from(J);
    Job.Hi = P.Chunks[J].Hi;
    Job.Partials = Args.NumReductions ? &PartialPtrs[J * Args.NumReductions] : nullptr;
    Job.AppendBuffers = Args.NumAppends ? &Appends[J * Args.NumAppends] : nullptr;
    Job.Device = Device;
    const uint64_t RunLo = Job.Lo;
    std::unique_ptr<PreparedLoop> D = Ln.Owner->prepare(Ln, Info, Args, Err);
    if (!D)
      return false;
    std::vector<Chunk> Pieces;
    bool Overlap = false;
    if (!D->split(Job.Lo, Job.Hi, Pieces, Overlap, Err))
      return false;
    using Clock = std::chrono::steady_clock;
    const bool Timed = !Ln.Owner->isHost() && logEnabled(LogLevel::Debug);
    double StartMs = 0, FinishMs = 0;
    auto Since = [](Clock::time_point T) {
      return std::chrono::duration<double, std::milli>(Clock::now() - T).count();
    };
    size_t Next = 0; // the first piece not yet finished
    auto Finish = [&]() {
      auto T = Timed ? Clock::now() : Clock::time_point();
      if (!D->copyOut(Next, Err))
        return false;
      D->combine(Next, Job);
      D->release(Next);
      if (!Resume.empty())
        Resume[J] = Pieces[Next].Hi; // only this lane touches chunk J now
      ++Next;
      if (Timed)
        FinishMs += Since(T);
      return true;
    };
    for (size_t I = 0; I < Pieces.size(); ++I) {
      auto T = Timed ? Clock::now() : Clock::time_point();
      Job.Lo = Pieces[I].Lo;
      Job.Hi = Pieces[I].Hi;
      if (!D->copyIn(I, Err) || !D->run(I, Job, Err))
        return false;
      if (Timed)
        StartMs += Since(T);
      while (I + 1 - Next > (Overlap ? 1u : 0u))
        if (!Finish())
          return false;
    }
    while (Next < Pieces.size())
      if (!Finish())
        return false;
    if (Timed) {
      char Buf[160];
      std::snprintf(Buf, sizeof(Buf),
                    " [%llu, %llu): %.3f ms allocating, copying in and launching, "
                    "%.3f ms computing and copying out",
                    static_cast<unsigned long long>(RunLo),
                    static_cast<unsigned long long>(P.Chunks[J].Hi), StartMs, FinishMs);
      logLine(LogLevel::Debug, loopLocation(Info) + ": " + Ln.Name + Buf);
    }
    return true;
  }

  void giveUp(size_t J) {
    std::lock_guard<std::mutex> G(M);
    GivenUp.push_back(J);
  }

  bool takeGivenUp(size_t &J) {
    std::lock_guard<std::mutex> G(M);
    if (GivenUp.empty())
      return false;
    J = GivenUp.back();
    GivenUp.pop_back();
    return true;
  }

  const LoopInfo &Info;
  const LoopArgs &Args;
  const Plan &P;
  std::vector<const Lane *> Lanes;
  const FaultPlan &Faults;
  std::unique_ptr<std::atomic<bool>[]> Retired;
  std::vector<PartialCell> Partials;
  std::vector<void *> PartialPtrs;
  std::vector<void *> Appends;
  std::vector<int> RanOn;
  std::vector<uint64_t> Resume; // per chunk, when a CUDA lane takes part
  std::atomic<size_t> NextDynamic{0};
  std::mutex M; // guards GivenUp, Failures, Errors
  std::vector<size_t> GivenUp;
  std::vector<Failure> Failures;
  std::vector<std::exception_ptr> Errors;
  unsigned Recovered = 0;
};

void laneTask(void *Ctx, unsigned Index) { static_cast<Execution *>(Ctx)->runLane(Index); }

RunStatus serial(const LoopInfo &Info, const std::string &Reason) {
  if (logEnabled(LogLevel::Info))
    logLine(LogLevel::Info, loopLocation(Info) + ": serial: " + Reason);
  return RunStatus::Serial;
}

std::string rangeText(const Chunk &C) {
  return "[" + std::to_string(C.Lo) + ", " + std::to_string(C.Hi) + ")";
}

/// The checks of what the descriptor itself promises; a failure is the generator's bug.
std::string checkDescriptor(const LoopInfo &Info, const LoopArgs &Args) {
  if (Info.AbiVersion != CLUSTRIX_RT_ABI_VERSION)
    return "the loop was compiled for runtime ABI " + std::to_string(Info.AbiVersion) +
           ", this runtime implements ABI " + std::to_string(CLUSTRIX_RT_ABI_VERSION);
  if (!Args.Host)
    return "the loop has no host chunk function";
  for (uint32_t R = 0; R < Info.NumRegions; ++R)
    if (Info.Regions[R].Rank < 1 || Info.Regions[R].Rank > 3)
      return "region " + std::to_string(R) + " has rank " +
             std::to_string(Info.Regions[R].Rank) + " (1 to 3 are supported)";
  for (uint32_t R = 0; R < Args.NumReductions; ++R)
    if (!reductionValid(Args.Reductions[R].Kind, Args.Reductions[R].Op))
      return "reduction " + std::to_string(R) + " has an operator its type does not support";
  return "";
}

} // namespace

RunStatus runLoop(const LoopInfo &Info, const LoopArgs &Args) {
  const RuntimeConfig &Config = activeConfig();
  if (std::string Bad = checkDescriptor(Info, Args); !Bad.empty()) {
    logOnce("descriptor:" + loopLocation(Info), LogLevel::Error, loopLocation(Info) + ": " + Bad);
    return serial(Info, Bad);
  }
  if (InChunk)
    return serial(Info, "nested inside another parallel loop");

  // Lanes that can run this loop: those of backends that have a form of it, devices not lost.
  const LaneSet &All = lanesFor(Config.Devices);
  std::vector<const Lane *> Usable;
  Usable.reserve(All.Lanes.size());
  std::string Why; // why an accelerator backend cannot run the loop
  const Backend *Asked = nullptr;
  bool CanRun = false;
  for (const Lane &L : All.Lanes) {
    if (L.Owner != Asked) {
      Asked = L.Owner;
      std::string Reason;
      CanRun = L.Owner->canRun(Info, Args, Reason);
      if (!CanRun && Why.empty())
        Why = Reason;
    }
    if (CanRun && !L.Owner->lost(L))
      Usable.push_back(&L);
  }
  bool OnlyHost = true;
  for (const Lane *L : Usable)
    OnlyHost &= L->Owner->isHost();
  if (Usable.empty() && All.hasAccelerators()) {
    // Only accelerators were configured and none can run this loop: the host's lanes run it.
    const LaneSet &Host = hostLanes();
    for (const Lane &L : Host.Lanes)
      Usable.push_back(&L);
    if (!Host.Lanes.empty()) {
      std::string Kind = Host.Lanes.front().Owner->name();
      for (char &C : Kind)
        C = static_cast<char>(std::toupper(static_cast<unsigned char>(C)));
      logOnce("nocuda:" + loopLocation(Info), LogLevel::Warn,
              loopLocation(Info) + ": runs on the " + Kind + ": " +
                  (Why.empty() ? "every configured device was lost earlier in this process"
                               : Why));
    }
  }

  const uint64_t Trip = Args.TripCount;
  Decision D = decide(Info, Trip, Config, static_cast<unsigned>(Usable.size()), OnlyHost);
  if (!D.Wide)
    return serial(Info, D.Reason);
  Usable.resize(D.NumLanes); // accelerators come first in a lane set, so they are kept

  Plan P;
  uint64_t Align = Args.BoxAlign;
  if (Align > 1 && Trip / Align >= Usable.size()) {
    std::vector<double> W;
    for (const Lane *L : Usable)
      W.push_back(L->Weight);
    P = planAligned(D.Sched, Trip, Align, W, D.ChunkSize);
  } else if (D.Sched == Schedule::Block) {
    std::vector<double> W;
    W.reserve(Usable.size());
    for (const Lane *L : Usable)
      W.push_back(L->Weight);
    P = planBlock(Trip, W);
  } else if (D.Sched == Schedule::Cyclic) {
    P = planCyclic(Trip, D.NumLanes, D.ChunkSize);
  } else {
    P = planDynamic(Trip, D.NumLanes, D.ChunkSize);
  }
  Usable.resize(P.NumLanes);

  // The checks left to run time, on the boxes the compiler's box function gives.
  if (Args.Boxes && Info.NumRegions > 0) {
    bool AnyAlias = false, AnyWrite = false;
    for (uint32_t R = 0; R < Info.NumRegions; ++R) {
      AnyAlias |= Info.Regions[R].MayAlias != 0;
      AnyWrite |= (Info.Regions[R].Access & AccessWrite) != 0;
    }
    if (AnyAlias && AnyWrite) {
      std::vector<Box> Whole(Info.NumRegions);
      Args.Boxes(Args.BoxEnv, 0, Trip, Whole.data());
      if (std::string Why = checkAliasing(Info, Whole.data()); !Why.empty())
        return serial(Info, Why);
    }
    if (AnyWrite && P.Chunks.size() > 1) {
      // Chunks that run in place write only what their writes reach; a device that copies a
      // region's box in and out writes the whole box back, what it only read included.
      bool InPlace = true;
      for (const Lane *L : Usable)
        InPlace &= L->Owner->isHost();
      BoxFn Written = InPlace && Args.WriteBoxes ? Args.WriteBoxes : Args.Boxes;
      std::vector<Box> Boxes(P.Chunks.size() * Info.NumRegions);
      for (size_t J = 0; J < P.Chunks.size(); ++J)
        Written(Args.BoxEnv, P.Chunks[J].Lo, P.Chunks[J].Hi, &Boxes[J * Info.NumRegions]);
      if (std::string Why = checkWriteDisjoint(Info, Boxes, P.Chunks.size()); !Why.empty())
        return serial(Info, Why);
    }
  }

  ThreadPool &Pool = ThreadPool::global();
  if (!Pool.tryAcquire())
    return serial(Info, "the worker pool is busy with a loop of another thread");
  Pool.setSpinMicroseconds(Config.WorkerSpinMicroseconds);

  if (logEnabled(LogLevel::Debug)) {
    std::string Where = loopLocation(Info);
    logLine(LogLevel::Debug, Where + ": plan: " + std::to_string(P.Chunks.size()) + " chunks, " +
                                 scheduleName(P.Sched) + " schedule, " +
                                 std::to_string(P.NumLanes) + " devices");
    const size_t Shown = 64;
    for (size_t J = 0; J < P.Chunks.size() && J < Shown; ++J)
      logLine(LogLevel::Debug,
              Where + ":   chunk " + std::to_string(J) + " " + rangeText(P.Chunks[J]) + " on " +
                  (P.isStatic() ? Usable[P.laneOf(J)]->Name : std::string("the first free device")));
    if (P.Chunks.size() > Shown)
      logLine(LogLevel::Debug,
              Where + ":   ... and " + std::to_string(P.Chunks.size() - Shown) + " more chunks");
  }

  bool Timed = logEnabled(LogLevel::Info);
  auto Start = Timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point();
  Execution E(Info, Args, P, Usable);
  Pool.run(P.NumLanes, laneTask, &E);
  Pool.release();
  E.finishOnCaller();

  std::string Where = loopLocation(Info);
  for (const Failure &F : E.failures())
    logLine(LogLevel::Warn, Where + ": chunk " + std::to_string(F.Chunk) + " " +
                                rangeText(P.Chunks[F.Chunk]) + " failed on " +
                                Usable[F.Lane]->Name + ": " + F.Reason + "; " +
                                Usable[F.Lane]->Name +
                                " is retired for this loop and the chunk is re-run elsewhere");
  if (std::exception_ptr Err = E.firstError())
    std::rethrow_exception(Err);
  E.merge();

  if (!E.ranOn().empty()) {
    for (size_t J = 0; J < P.Chunks.size() && J < 64; ++J)
      if (!P.isStatic() || E.ranOn()[J] != static_cast<int>(P.laneOf(J)))
        logLine(LogLevel::Debug, Where + ":   chunk " + std::to_string(J) + " ran on " +
                                     (E.ranOn()[J] < 0 ? std::string("the host")
                                                       : Usable[E.ranOn()[J]]->Name));
  }
  if (Timed) {
    double Ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                          Start)
                    .count();
    std::string Names;
    for (const Lane *L : Usable)
      Names += (Names.empty() ? "" : ", ") + L->Name;
    char Time[32];
    std::snprintf(Time, sizeof(Time), "%.3f ms", Ms);
    std::string Line = Where + ": parallel on " + std::to_string(P.NumLanes) + " devices (" +
                       Names + "): " + std::to_string(Trip) + " iterations, " +
                       scheduleName(P.Sched) + " schedule, " + std::to_string(P.Chunks.size()) +
                       " chunks, " + Time;
    if (!E.failures().empty()) {
      std::string Retired;
      for (unsigned L = 0; L < P.NumLanes; ++L)
        if (E.retired(L))
          Retired += (Retired.empty() ? "" : ", ") + Usable[L]->Name;
      Line += "; " + std::to_string(E.failures().size()) +
              " chunk failure(s) recovered, retired: " + Retired;
    }
    logLine(LogLevel::Info, Line);
  }
  return RunStatus::Done;
}

} // namespace rt
} // namespace clustrix
