//===- Exec/RunLoop.cpp - clustrix::rt::runLoop ---------------------------===//
//
// The runtime's entry point: decide, plan, check, execute on the lanes (Execution.h), recover
// from device faults, combine reductions in chunk order, merge appends in iteration order, log
// one line at info. A loop with a LoopSite takes one of two paths:
//  - the fast path, for a call that repeats the loop's last decision (same trip count, same
//    settings, not at info): serial runs in place at once; wide runs the cached plan with the
//    cached check result and the site's Execution; nothing is allocated, decided or logged;
//  - the slow path, which resolves lanes, decides, plans, checks, measures serial against wide
//    (Plan/Adaptive.h), logs, and publishes the decision for the fast path.
// A loop without a site (hand-written descriptors) is decided statically on every call, as a
// site without adaptivity, and told Serial when it stays serial.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Runtime.h"

#include "Data/Residency.h"
#include "Exec/Execution.h"
#include "Exec/Fault.h"
#include "Exec/Site.h"
#include "Exec/ThreadPool.h"
#include "Plan/Planner.h"
#include "Plan/Reduce.h"
#include "Support/ConfigState.h"
#include "Support/Log.h"
#include "Support/Trace.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>

namespace clustrix {
namespace rt {

namespace {

using Clock = std::chrono::steady_clock;

/// Calls a decision that needs no measurement is kept for before the slow path looks again.
constexpr uint64_t Forever = std::numeric_limits<uint64_t>::max() / 2;

/// The caller's errno across one runLoop call (design rule 8): the runtime's own work (files,
/// clocks, logging, threads) never changes it. The value to leave is the caller's, or what the
/// loop's body set: runSerial runs it on the caller's thread with the caller's errno; a wide
/// run sets the last value a chunk's body left (Execution::lastErrno).
class ErrnoKeeper {
public:
  ErrnoKeeper() : Saved(errno) {}
  ~ErrnoKeeper() { errno = Saved; }
  ErrnoKeeper(const ErrnoKeeper &) = delete;
  ErrnoKeeper &operator=(const ErrnoKeeper &) = delete;
  void runSerial(const LoopInfo &Info, const LoopArgs &Args);
  void chunksSet(int E) {
    if (E != 0)
      Saved = E;
  }

private:
  int Saved;
};

/// What a traced loop call turned out to be (its trace event's args), filled by the paths that
/// decide it; set only while the thread's runLoop call is traced.
struct CallNote {
  std::string Ran = "serial";
  std::string Why;
};
thread_local CallNote *Note = nullptr;

/// Records how the traced call ran (callers test trace::on() first).
void noteCall(std::string Ran, const std::string &Why) {
  if (Note) {
    Note->Ran = std::move(Ran);
    Note->Why = Why;
  }
}

double nsSince(Clock::time_point T) {
  return std::chrono::duration<double, std::nano>(Clock::now() - T).count();
}

RunStatus serial(const LoopInfo &Info, const std::string &Reason) {
  if (trace::on())
    noteCall("serial", Reason);
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

/// Runs every iteration on the calling thread, in order, with the reductions and appends
/// working on the loop's own variables: what runInPlace does in generated code.
void runSerialHere(const LoopArgs &Args) {
  uint32_t N = Args.NumReductions + Args.NumAppends;
  void *Small[16];
  std::unique_ptr<void *[]> Large;
  void **Own = Small;
  if (N > 16) {
    Large.reset(new void *[N]);
    Own = Large.get();
  }
  for (uint32_t R = 0; R < Args.NumReductions; ++R)
    Own[R] = Args.Reductions[R].Target;
  for (uint32_t A = 0; A < Args.NumAppends; ++A)
    Own[Args.NumReductions + A] = Args.Appends[A].Target;
  ChunkContext Ctx{Args.NumReductions ? Own : nullptr,
                   Args.NumAppends ? Own + Args.NumReductions : nullptr, 0, Args.TripCount, -1};
  Args.Host(Args.HostEnv, 0, Args.TripCount, Ctx);
}

void ErrnoKeeper::runSerial(const LoopInfo &Info, const LoopArgs &Args) {
  data::releaseBeforeHost(&Info);
  errno = Saved;
  struct Update {
    ErrnoKeeper &K;
    ~Update() { K.Saved = errno; } // also when the body throws
  } U{*this};
  runSerialHere(Args);
}

/// Whether a run on Lanes[0, N) keeps its data on the devices: the thread holds a residency
/// scope and every lane's backend keeps data.
bool runsResident(const Lane *const *Lanes, size_t N) {
  if (N == 0 || !data::residentHere())
    return false;
  for (size_t L = 0; L < N; ++L)
    if (!Lanes[L]->Owner->keepsData(*Lanes[L]))
      return false;
  return true;
}

/// Runs plan P (checks passed) on Lanes with the pool; false, with Why, when the pool is taken.
/// Rethrows the first exception of the loop body, by chunk order, after every chunk finished.
bool runWide(const LoopInfo &Info, const LoopArgs &Args, const RuntimeConfig &Config,
             const Plan &P, const Lane *const *Lanes, Execution &E, ErrnoKeeper &Errno,
             const std::vector<int64_t> *BoxesKey, std::string &Why) {
  ThreadPool &Pool = ThreadPool::global();
  if (!Pool.tryAcquire()) {
    Why = "the worker pool is busy with a loop of another thread";
    return false;
  }
  Pool.setSpinMicroseconds(Config.WorkerSpinMicroseconds);
  if (trace::on()) {
    std::string Names;
    for (unsigned L = 0; L < P.NumLanes; ++L)
      Names += (Names.empty() ? "" : ", ") + Lanes[L]->Name;
    noteCall("parallel on " + std::to_string(P.NumLanes) + " devices (" + Names + ")",
             std::to_string(P.Chunks.size()) + " chunks, " + scheduleName(P.Sched) +
                 " schedule");
  }
  const bool Debug = Config.Log >= LogLevel::Debug;
  if (Debug) {
    std::string Where = loopLocation(Info);
    logLine(LogLevel::Debug, Where + ": plan: " + std::to_string(P.Chunks.size()) + " chunks, " +
                                 scheduleName(P.Sched) + " schedule, " +
                                 std::to_string(P.NumLanes) + " devices");
    const size_t Shown = 64;
    for (size_t J = 0; J < P.Chunks.size() && J < Shown; ++J)
      logLine(LogLevel::Debug,
              Where + ":   chunk " + std::to_string(J) + " " + rangeText(P.Chunks[J]) + " on " +
                  (P.isStatic() ? Lanes[P.laneOf(J)]->Name : std::string("the first free device")));
    if (P.Chunks.size() > Shown)
      logLine(LogLevel::Debug,
              Where + ":   ... and " + std::to_string(P.Chunks.size() - Shown) + " more chunks");
  }
  // Resident when the thread holds a residency scope and every device of the plan keeps data;
  // otherwise what the devices hold comes back first, as this run reads the host's memory.
  RunOptions Opts;
  Opts.Resident = Args.NumAppends == 0 && runsResident(Lanes, P.NumLanes);
  Opts.BoxesKey = BoxesKey;
  if (!Opts.Resident)
    data::releaseBeforeHost(&Info);
  E.options(Opts);
  E.reset(Info, Args, P, Lanes, Debug);
  Pool.run(P.NumLanes, laneTask, &E);
  Pool.release();
  E.finishOnCaller();
  E.restoreFloatingPoint();
  Errno.chunksSet(E.lastErrno());
  if (!E.failures().empty()) {
    std::string Where = loopLocation(Info);
    for (const Failure &F : E.failures())
      logLine(LogLevel::Warn, Where + ": chunk " + std::to_string(F.Chunk) + " " +
                                  rangeText(P.Chunks[F.Chunk]) + " failed on " +
                                  Lanes[F.Lane]->Name + ": " + F.Reason + "; " +
                                  Lanes[F.Lane]->Name +
                                  " is retired for this loop and the chunk is re-run elsewhere");
  }
  if (std::exception_ptr Err = E.firstError()) {
    E.releaseAppends();
    std::rethrow_exception(Err);
  }
  E.merge();
  if (!E.ranOn().empty()) {
    std::string Where = loopLocation(Info);
    for (size_t J = 0; J < P.Chunks.size() && J < 64; ++J)
      if (!P.isStatic() || E.ranOn()[J] != static_cast<int>(P.laneOf(J)))
        logLine(LogLevel::Debug, Where + ":   chunk " + std::to_string(J) + " ran on " +
                                     (E.ranOn()[J] < 0 ? std::string("the host")
                                                       : Lanes[E.ranOn()[J]]->Name));
  }
  return true;
}

/// The info line of a wide run, with Suffix (what the adaptive choice says) appended.
void logWide(const LoopInfo &Info, const Plan &P, const Lane *const *Lanes, uint64_t Trip,
             double Ns, const Execution &E, const std::string &Suffix) {
  std::string Names;
  for (unsigned L = 0; L < P.NumLanes; ++L)
    Names += (Names.empty() ? "" : ", ") + Lanes[L]->Name;
  char Time[32];
  std::snprintf(Time, sizeof(Time), "%.3f ms", Ns / 1e6);
  std::string Line = loopLocation(Info) + ": parallel on " + std::to_string(P.NumLanes) +
                     " devices (" + Names + "): " + std::to_string(Trip) + " iterations, " +
                     scheduleName(P.Sched) + " schedule, " + std::to_string(P.Chunks.size()) +
                     " chunks, " + Time;
  if (!E.failures().empty()) {
    std::string Retired;
    for (unsigned L = 0; L < P.NumLanes; ++L)
      if (E.retired(L))
        Retired += (Retired.empty() ? "" : ", ") + Lanes[L]->Name;
    Line += "; " + std::to_string(E.failures().size()) +
            " chunk failure(s) recovered, retired: " + Retired;
  }
  logLine(LogLevel::Info, Line + Suffix);
}

/// Whether the fast path may run this site's wide decision: only host lanes (none can be lost
/// between calls) and no fault injection (whose log lines name every failure).
bool fastWideAllowed(const SiteState &S) {
  return S.OnlyHost && !S.CanLose && environmentFaults().empty();
}

/// The slow path: decides (statically, then by measurement), runs, logs, and publishes the
/// decision for the fast path when Keep (S is the loop's own site, not a temporary). Lock holds
/// S.M; it is let go while the loop runs serially.
RunStatus runAt(SiteState &S, const LoopInfo &Info, const LoopArgs &Args,
                const RuntimeConfig &Config, bool Keep, std::unique_lock<std::mutex> &Lock,
                ErrnoKeeper &Errno) {
  S.refresh(Info, Args, Config);
  const uint64_t Trip = Args.TripCount, Align = Args.BoxAlign;
  const bool Logged = Config.Log >= LogLevel::Info;
  // A loop whose header reads a guard region runs serially only after the check that its writes
  // do not reach the guard; when they do, only the loop as written is right.
  const bool Guarded = Info.GuardedHeader != 0;
  auto Serial = [&](const std::string &Why) {
    if (Guarded)
      if (std::string Alias = S.aliasing(Info, Args); !Alias.empty()) {
        serial(Info, Alias + "; the loop runs as written");
        return RunStatus::AsWritten;
      }
    return serial(Info, Why);
  };
  Decision D = decide(Info, Trip, Config, static_cast<unsigned>(S.Usable.size()), S.OnlyHost,
                      /*Explain=*/Logged || !Keep);
  if (!D.Wide && !D.BelowThreshold) {
    // Serial whatever a measurement would say: disabled, off, one worker, too few iterations.
    if (Keep && !Guarded)
      S.publish(Config, Trip, Align, SiteState::FastSerial, Forever);
    return Serial(D.Reason);
  }
  if (inChunk())
    return Serial("nested inside another parallel loop");

  // The adaptive choice, for this trip count's class. With serial_threshold 0 every loop that
  // can go wide does: that is what the setting asks for.
  // In a residency scope on devices that keep data, a serial measurement would bring every
  // array back to the host and a wide one returns before the kernel ends: the static decision
  // stands.
  const bool Adapt = Keep && !Guarded && Config.Adaptive && Config.SerialThreshold > 0 &&
                     !runsResident(S.Usable.data(), S.Usable.size());
  const RunMode Static = D.Wide ? RunMode::Wide : RunMode::Serial;
  const unsigned Class = tripClass(Trip);
  AdaptiveChoice *A = Adapt ? &S.Classes[Class] : nullptr;
  RunMode Mode = Static;
  bool Measuring = false; // every call of a round is reported, the first of a block uncounted
  if (A) {
    if (S.PublishedClass == Class && A->settled() && !A->measuring())
      A->setCountdown(S.callsLeft()); // the fast paths counted
    if (!A->measuring() && (!A->settled() || A->countdown() == 0))
      A->startRound(Static);
    Mode = A->next(Static);
    Measuring = A->measuring();
    if (!A->measuring())
      A->setCountdown(A->countdown() - 1);
  }
  // After the call: what the fast path may do with the next ones.
  auto Publish = [&](bool WideRan) {
    if (!Keep)
      return;
    SiteState::FastMode F = SiteState::FastNone;
    uint64_t Calls = Forever;
    if (!A) {
      F = D.Wide ? SiteState::FastWide : SiteState::FastSerial;
    } else if (!A->measuring()) {
      F = A->choice() == RunMode::Serial ? SiteState::FastSerial : SiteState::FastWide;
      Calls = A->countdown();
    }
    if (F == SiteState::FastWide && !(WideRan && fastWideAllowed(S)))
      F = SiteState::FastNone;
    if (F == SiteState::FastSerial && Guarded)
      F = SiteState::FastNone;
    S.publish(Config, Trip, Align, F, Calls, A ? Class : SiteState::NoClass);
  };

  if (Mode == RunMode::Serial) {
    if (!A) {
      Publish(false);
      return Serial(D.Reason);
    }
    // Timed in place, without the lock: the body may call this loop again.
    Lock.unlock();
    auto T0 = Clock::now();
    Errno.runSerial(Info, Args);
    double Ns = nsSince(T0);
    if (trace::on())
      noteCall("serial", "adaptive: serial measured or chosen against wide");
    if (!Lock.try_lock())
      return RunStatus::Done;
    if (Measuring)
      A->record(RunMode::Serial, Ns);
    Publish(false);
    if (Logged) {
      std::string Why;
      if (Measuring || !A->settled()) // this call was a measurement
        Why = (D.BelowThreshold ? D.Reason + "; " : std::string()) + "measuring serial against " +
              std::to_string(D.NumLanes) + " devices";
      else
        Why = A->describe(D.NumLanes);
      serial(Info, Why);
    }
    return RunStatus::Done;
  }

  const Plan &P = S.plan(D, Trip, Align, Args);
  if (const std::string &Why = S.checks(Info, Args); !Why.empty()) {
    S.publish(Config, Trip, Align, SiteState::FastNone, 0);
    return Serial(Why);
  }
  // The lock is held through the run: the plan and the Execution are this run's.
  std::string Busy;
  S.Exec.timeShare(Measuring);
  auto T0 = Clock::now();
  if (!runWide(Info, Args, Config, P, S.Usable.data(), S.Exec, Errno, S.boxesKey(), Busy))
    return Serial(Busy);
  double Ns = nsSince(T0);
  if (Measuring)
    A->record(RunMode::Wide, Ns, S.Exec.shareNs());
  Publish(true);
  if (Logged) {
    std::string Suffix;
    if (A && (Measuring || !A->settled()))
      Suffix = "; measuring wide against serial";
    else if (A)
      Suffix = "; " + A->describe(P.NumLanes);
    logWide(Info, P, S.Usable.data(), Trip, Ns, S.Exec, Suffix);
  }
  return RunStatus::Done;
}

/// The fast path of a site whose last decision was to go wide: under the site's lock, the
/// cached plan and check result, the site's Execution. False when anything differs from the
/// published decision; the slow path then takes the call.
bool runFastWide(SiteState &S, const LoopInfo &Info, const LoopArgs &Args,
                 const RuntimeConfig &Config, ErrnoKeeper &Errno) {
  if (inChunk())
    return false;
  std::unique_lock<std::mutex> Lock(S.M, std::try_to_lock);
  if (!Lock.owns_lock() || S.Fast.load(std::memory_order_relaxed) != SiteState::FastWide ||
      S.FastConfig.load(std::memory_order_relaxed) != &Config || S.Config != &Config ||
      S.FastTrip.load(std::memory_order_relaxed) != Args.TripCount ||
      S.FastAlign.load(std::memory_order_relaxed) != Args.BoxAlign || !S.hasPlan() ||
      S.CanLose) // lanes that may be lost are looked at again each call (refresh)
    return false;
  uint64_t N = S.Countdown.load(std::memory_order_relaxed);
  if (N == 0 || !S.checks(Info, Args).empty())
    return false;
  std::string Busy;
  S.Exec.timeShare(false);
  if (!runWide(Info, Args, Config, S.cachedPlan(), S.Usable.data(), S.Exec, Errno,
               S.boxesKey(), Busy))
    return false;
  S.Countdown.store(N - 1, std::memory_order_relaxed);
  return true;
}

/// runLoop, before what it leaves to the caller.
RunStatus runLoopHere(const LoopInfo &Info, const LoopArgs &Args) {
  ErrnoKeeper Errno;
  const RuntimeConfig &Config = activeConfig();
  // The ABI is checked first: a descriptor of another layout may have no Site.
  const bool HasSite = Info.AbiVersion == CLUSTRIX_RT_ABI_VERSION && Info.Site;
  if (HasSite) {
    if (SiteState *S = SiteState::find(*Info.Site);
        S && S->FastConfig.load(std::memory_order_relaxed) == &Config &&
        S->FastTrip.load(std::memory_order_relaxed) == Args.TripCount) {
      uint8_t Mode = S->Fast.load(std::memory_order_acquire);
      if (Mode == SiteState::FastSerial && keepSerial(Info, Args.TripCount)) {
        if (trace::on())
          noteCall("serial", "the loop's last decision");
        Errno.runSerial(Info, Args);
        return RunStatus::Done;
      }
      if (Mode == SiteState::FastWide && runFastWide(*S, Info, Args, Config, Errno))
        return RunStatus::Done;
    }
  }

  if (std::string Bad = checkDescriptor(Info, Args); !Bad.empty()) {
    logOnce("descriptor:" + loopLocation(Info), LogLevel::Error, loopLocation(Info) + ": " + Bad);
    return serial(Info, Bad);
  }
  if (HasSite) {
    SiteState &S = SiteState::of(*Info.Site);
    std::unique_lock<std::mutex> Lock(S.M, std::try_to_lock);
    if (Lock.owns_lock())
      return runAt(S, Info, Args, Config, /*Keep=*/true, Lock, Errno);
    // Another thread runs this loop now: decide this call on its own.
  }
  SiteState Temporary;
  std::unique_lock<std::mutex> Lock(Temporary.M);
  return runAt(Temporary, Info, Args, Config, /*Keep=*/false, Lock, Errno);
}

/// runLoop while tracing: the call is one event on the caller's host track, with its trip
/// count and how and why it ran. A call the runtime leaves serial runs here, inside its event,
/// as the caller's runInPlace would run it (Site.cpp publishes no serial decision for
/// keepSerial while tracing, so every call comes here).
RunStatus runLoopTraced(const LoopInfo &Info, const LoopArgs &Args) {
  trace::CallScope Call(trace::newCall());
  CallNote N;
  struct Restore {
    CallNote *Outer;
    ~Restore() { Note = Outer; }
  } R{Note};
  Note = &N;
  trace::Span Sp(trace::hostTrack(), loopLocation(Info), "loop");
  Sp.args().add("trip", Args.TripCount);
  RunStatus St = runLoopHere(Info, Args);
  if (St == RunStatus::Serial && checkDescriptor(Info, Args).empty()) {
    ErrnoKeeper Errno;
    Errno.runSerial(Info, Args);
    St = RunStatus::Done;
  }
  if (St == RunStatus::Serial)
    N.Ran = "serial, by the caller";
  else if (St == RunStatus::AsWritten)
    N.Ran = "as written, by the caller";
  Sp.args().add("ran", N.Ran).add("why", N.Why);
  if (St != RunStatus::Done)
    data::releaseBeforeHost(&Info);
  return St;
}

} // namespace

RunStatus runLoop(const LoopInfo &Info, const LoopArgs &Args) {
  // The settings first: the snapshot that names a trace file starts the trace.
  (void)activeConfig();
  if (trace::on())
    return runLoopTraced(Info, Args);
  RunStatus St = runLoopHere(Info, Args);
  // The caller runs the loop itself: it needs the host's copy of everything.
  if (St != RunStatus::Done)
    data::releaseBeforeHost(&Info);
  return St;
}

void noteAsWritten(const LoopInfo &Info) {
  // Called by generated code between the user's statements: the log line leaves errno alone
  // (design rule 8), as runLoop does.
  int SavedErrno = errno;
  if (logEnabled(LogLevel::Info))
    logLine(LogLevel::Info, loopLocation(Info) +
                                ": as written: the trip count cannot be represented (a zero "
                                "step, a wrap-around or a bound never met); the loop runs "
                                "exactly as written, serially");
  // The loop runs on the host: it needs the host's copy of everything (residency).
  data::releaseBeforeHost(&Info);
  if (trace::on()) {
    // The loop runs after this returns, in generated code: an event of no duration marks it.
    uint64_t Now = trace::nowNs();
    trace::complete(trace::hostTrack(), loopLocation(Info), "loop", Now, Now,
                    trace::Args().add("ran", "as written").add("why", "the trip count cannot be represented"));
  }
  errno = SavedErrno;
}

} // namespace rt
} // namespace clustrix
