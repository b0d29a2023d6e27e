//===- Exec/Execution.h - One wide run of a loop over its lanes --*- C++ -*-===//
//
// What the lanes of one wide run share: the plan, each chunk's reduction partials and append
// buffers, which lanes retired, chunks given up by a failing device, the body's exceptions.
// An Execution is reused from run to run (a loop site keeps one), so that a run allocates
// nothing once the storage has grown to the loop's plan.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_RT_EXEC_EXECUTION_H
#define CLUSTRIX_RT_EXEC_EXECUTION_H

#include "Backend/Backend.h"
#include "Exec/Fault.h"
#include "Plan/Planner.h"
#include "Plan/Reduce.h"
#include "Support/Trace.h"
#include "clustrix/Runtime.h"

#include <atomic>
#include <cfenv>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace clustrix {
namespace rt {

/// Whether the current thread is running a chunk (a loop started there stays serial).
bool inChunk();

/// A chunk a device gave up, for the log.
struct Failure {
  size_t Chunk;
  unsigned Lane;
  std::string Reason;
};

/// The shared state of one wide run of a loop, reusable for the next run.
class Execution {
public:
  Execution() = default;
  Execution(const Execution &) = delete;
  Execution &operator=(const Execution &) = delete;
  ~Execution() { releaseAppends(); }

  /// Prepares a run of plan P on Lanes[0, P.NumLanes): every partial to its identity on first
  /// use, no lane retired. Storage of earlier runs is reused.
  void reset(const LoopInfo &Info, const LoopArgs &Args, const Plan &P, const Lane *const *Lanes,
             bool Debug);
  /// Whether the run times the calling thread's share of the work (lane 0), for shareNs().
  void timeShare(bool On) { TimeShare = On; }
  /// How the next runs' chunks run on devices (residency).
  void options(const RunOptions &O) { Opts = O; }
  double shareNs() const { return ShareNs; }

  /// The body of lane L: its static chunks (or dynamic ones), then chunks given up by others.
  void runLane(unsigned L);
  /// After the lanes joined: chunks still given up run on the first live lane, else on the host.
  void finishOnCaller();
  /// Folds the partials into the user's variables in chunk order and merges the appends in
  /// iteration order (chunks are sorted by Lo).
  void merge();
  /// Destroys the append buffers a run left (after an exception, merge() never ran).
  void releaseAppends();

  /// The first exception a chunk's host function threw, by chunk order.
  std::exception_ptr firstError() const;

  /// Thread state (design rule 8). Every host chunk runs in the floating-point environment the
  /// caller had at reset(), with errno and the exception flags cleared, and leaves what its body
  /// set. What the serial loop would leave, up to the chunk that threw first: errno as the last
  /// chunk (in iteration order) that set it left it, or 0 when none did (bodies can only set
  /// errno through library functions, which never set it to 0). A chunk that kernels ran
  /// reports its math calls' last error in the last partial (LoopArgs::MathErrors).
  int lastErrno() const;
  /// On the calling thread (the caller's): its floating-point environment as at reset(), with
  /// the exception flags every chunk raised raised too.
  void restoreFloatingPoint();
  const std::vector<Failure> &failures() const { return Failures; }
  unsigned recoveredOnHost() const { return Recovered; }
  const std::vector<int> &ranOn() const { return RanOn; }
  bool retired(unsigned L) const { return Retired[L].load(std::memory_order_relaxed); }

private:
  uint64_t from(size_t J) const { return Resume.empty() ? P->Chunks[J].Lo : Resume[J]; }
  void **partials(size_t J) {
    return Args->NumReductions ? &PartialPtrs[J * Args->NumReductions] : nullptr;
  }
  void prepare(size_t J);
  void runHost(size_t J, int Device);
  void chunkSpan(std::optional<trace::Span> &Sp, int Track, const std::string &Device, size_t J);
  bool step(unsigned L, size_t J, bool GiveUpOnFailure = true);
  bool runOnDevice(const Lane &Ln, size_t J, int Device, std::string &Err);
  void noteError(size_t J);
  void giveUp(size_t J);
  bool takeGivenUp(size_t &J);

  const LoopInfo *Info = nullptr;
  const LoopArgs *Args = nullptr;
  const Plan *P = nullptr;
  const Lane *const *Lanes = nullptr;
  const FaultPlan *Faults = nullptr;
  bool AllHost = true;
  RunOptions Opts;
  bool TimeShare = false;
  uint64_t TraceCall = 0; // the loop call this run belongs to, when tracing (Support/Trace.h)
  double ShareNs = 0;
  std::unique_ptr<std::atomic<bool>[]> Retired;
  unsigned RetiredCapacity = 0;
  /// The partials of chunk J start at J * Stride: a cache line of their own per chunk.
  std::vector<PartialCell> Partials;
  size_t Stride = 0;
  std::vector<void *> PartialPtrs;
  std::vector<void *> Appends;
  uint32_t NumAppendTargets = 0; ///< Args->NumAppends of the run that made Appends.
  const AppendSlot *AppendTargets = nullptr;
  std::vector<int> RanOn;
  std::vector<uint64_t> Resume; // per chunk, when a lane that copies takes part
  std::atomic<size_t> NextDynamic{0};
  std::mutex M; // guards GivenUp, Failures, Errors
  std::vector<size_t> GivenUp;
  std::atomic<size_t> NumGivenUp{0};
  std::vector<Failure> Failures;
  std::vector<std::exception_ptr> Errors;
  unsigned Recovered = 0;
  std::fenv_t CallerEnv;
  unsigned CallerControl = 0; ///< floatingPointControl() of the caller at reset().
  int CallerExcept = 0;       ///< The flags the caller had raised at reset(),
  std::fexcept_t CallerFlags; ///< as fegetexceptflag represents them.
  /// Per chunk: errno its body left, the exception flags it raised (and fegetexceptflag's
  /// representation of them).
  std::vector<int> ChunkErrno, ChunkExcept;
  std::vector<std::fexcept_t> ChunkFlags;
};

/// The pool task of one lane: Ctx is the Execution.
void laneTask(void *Ctx, unsigned Index);

} // namespace rt
} // namespace clustrix

#endif
