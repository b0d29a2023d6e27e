//===- Exec/Execution.cpp - One wide run of a loop over its lanes ----------===//
//
// Devices are reached only through Backend.h: a chunk on any lane is the same pipeline of
// pieces (copy in, run, copy out, combine), and a lane whose device fails is retired. A lane of
// a host backend (isHost: it runs the host chunk function in place, one piece, no copies) is
// called directly, so that a CPU chunk costs one call.
//
//===----------------------------------------------------------------------===//
#include "Exec/Execution.h"

#include "Data/Residency.h"

#include <cerrno>

#include "Support/Log.h"
#include "Support/Trace.h"

#include <chrono>
#include <cstdio>
#include <cstring>

namespace clustrix {
namespace rt {

namespace {
/// Set while a thread runs a chunk, so that a loop inside a chunk stays serial.
thread_local bool InChunk = false;
/// The floating-point control modes of the calling thread that a body can observe: the
/// rounding mode and the exceptions that trap (glibc's fegetexcept tells them).
unsigned floatingPointControl() {
#if defined(__GLIBC__)
  return static_cast<unsigned>(std::fegetround()) |
         static_cast<unsigned>(fegetexcept()) << 16;
#else
  return static_cast<unsigned>(std::fegetround());
#endif
}

/// Whether the calling thread's control modes are Caller's. Without glibc the trapping
/// exceptions cannot be read cheaply: never assumed equal.
bool sameControl(unsigned Caller) {
#if defined(__GLIBC__)
  return floatingPointControl() == Caller;
#else
  (void)Caller;
  return false;
#endif
}
} // namespace

bool inChunk() { return InChunk; }

void laneTask(void *Ctx, unsigned Index) { static_cast<Execution *>(Ctx)->runLane(Index); }

void Execution::reset(const LoopInfo &I, const LoopArgs &A, const Plan &Pl,
                      const Lane *const *Ls, bool Debug) {
  releaseAppends();
  Info = &I;
  Args = &A;
  P = &Pl;
  Lanes = Ls;
  Faults = &environmentFaults();
  TraceCall = trace::on() ? trace::currentCall() : 0;
  size_t N = Pl.Chunks.size();
  if (RetiredCapacity < Pl.NumLanes) {
    Retired.reset(new std::atomic<bool>[Pl.NumLanes]);
    RetiredCapacity = Pl.NumLanes;
  }
  for (unsigned L = 0; L < Pl.NumLanes; ++L)
    Retired[L].store(false, std::memory_order_relaxed);
  if (A.NumReductions) {
    // Identities are set when a chunk starts (prepare); a chunk's partials share no cache line
    // with another chunk's.
    Stride = (A.NumReductions + 7) / 8 * 8;
    Partials.resize(N * Stride);
    PartialPtrs.resize(N * A.NumReductions);
    for (size_t J = 0; J < N; ++J)
      for (uint32_t R = 0; R < A.NumReductions; ++R)
        PartialPtrs[J * A.NumReductions + R] = &Partials[J * Stride + R];
  }
  NumAppendTargets = A.NumAppends;
  AppendTargets = A.Appends;
  if (A.NumAppends)
    Appends.assign(N * A.NumAppends, nullptr);
  RanOn.clear();
  if (Debug)
    RanOn.assign(N, -1);
  AllHost = true;
  for (unsigned L = 0; L < Pl.NumLanes; ++L)
    AllHost &= Ls[L]->Owner->isHost();
  // Devices that copy may fail part-way through a chunk: where each chunk resumes.
  Resume.clear();
  if (!AllHost) {
    Resume.resize(N);
    for (size_t J = 0; J < N; ++J)
      Resume[J] = Pl.Chunks[J].Lo;
  }
  ShareNs = 0;
  NextDynamic.store(0, std::memory_order_relaxed);
  NumGivenUp.store(0, std::memory_order_relaxed);
  GivenUp.clear();
  Failures.clear();
  Errors.clear();
  Recovered = 0;
  std::fegetenv(&CallerEnv);
  CallerControl = floatingPointControl();
  CallerExcept = std::fetestexcept(FE_ALL_EXCEPT);
  if (CallerExcept)
    std::fegetexceptflag(&CallerFlags, FE_ALL_EXCEPT);
  ChunkErrno.assign(N, 0);
  ChunkExcept.assign(N, 0);
  ChunkFlags.resize(N);
}

void Execution::releaseAppends() {
  for (size_t I = 0; I < Appends.size(); ++I)
    if (Appends[I]) {
      AppendTargets[I % NumAppendTargets].Destroy(Appends[I]);
      Appends[I] = nullptr;
    }
}

void Execution::runLane(unsigned L) {
  const bool Timed = L == 0 && TimeShare;
  auto T0 = Timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point();
  // A worker's chunks, copies and launches belong to the caller's loop call.
  std::optional<trace::CallScope> Call;
  if (TraceCall)
    Call.emplace(TraceCall);
  InChunk = true;
  size_t N = P->Chunks.size();
  if (P->isStatic()) {
    for (size_t J = L; J < N; J += P->NumLanes) {
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
  if (Timed)
    ShareNs = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - T0)
                  .count();
}

void Execution::finishOnCaller() {
  // Dynamic chunks nobody took because every lane retired first.
  if (!P->isStatic())
    for (size_t J; (J = NextDynamic.fetch_add(1)) < P->Chunks.size();)
      giveUp(J);
  size_t J;
  while (takeGivenUp(J)) {
    bool Done = false;
    InChunk = true;
    for (unsigned L = 0; L < P->NumLanes && !Done; ++L)
      if (!Retired[L].load(std::memory_order_relaxed))
        Done = step(L, J, /*GiveUpOnFailure=*/false);
    if (!Done) {
      // The host runs it: what the devices hold comes back first (residency).
      data::releaseBeforeHost(Info);
      prepare(J);
      std::optional<trace::Span> Sp;
      if (trace::on())
        chunkSpan(Sp, trace::hostTrack(), "host", J);
      runHost(J, -1);
      ++Recovered;
    }
    InChunk = false;
  }
}

void Execution::merge() {
  for (uint32_t R = 0; R < Args->NumReductions; ++R) {
    const ReductionSlot &S = Args->Reductions[R];
    for (size_t J = 0; J < P->Chunks.size(); ++J)
      combine(S.Kind, S.Op, S.Target, &Partials[J * Stride + R]);
  }
  for (size_t J = 0; J < P->Chunks.size(); ++J)
    for (uint32_t A = 0; A < Args->NumAppends; ++A) {
      void *&B = Appends[J * Args->NumAppends + A];
      Args->Appends[A].Merge(Args->Appends[A].Target, B);
      Args->Appends[A].Destroy(B);
      B = nullptr;
    }
}

std::exception_ptr Execution::firstError() const {
  for (const std::exception_ptr &E : Errors)
    if (E)
      return E;
  return nullptr;
}

/// Resets chunk J's partials to their identities and gives it fresh append buffers, unless a
/// prefix of it is complete (then its partials hold that prefix's result).
void Execution::prepare(size_t J) {
  if (from(J) != P->Chunks[J].Lo)
    return;
  for (uint32_t R = 0; R < Args->NumReductions; ++R)
    setIdentity(Args->Reductions[R].Kind, Args->Reductions[R].Op, &Partials[J * Stride + R]);
  for (uint32_t A = 0; A < Args->NumAppends; ++A) {
    void *&B = Appends[J * Args->NumAppends + A];
    if (B)
      Args->Appends[A].Destroy(B);
    B = Args->Appends[A].Create();
  }
}

void Execution::noteError(size_t J) {
  std::lock_guard<std::mutex> G(M);
  if (Errors.empty())
    Errors.resize(P->Chunks.size());
  Errors[J] = std::current_exception();
}

void Execution::runHost(size_t J, int Device) {
  ChunkContext Ctx;
  Ctx.Partials = partials(J);
  Ctx.AppendBuffers = Args->NumAppends ? &Appends[J * Args->NumAppends] : nullptr;
  Ctx.Lo = from(J);
  Ctx.Hi = P->Chunks[J].Hi;
  Ctx.Device = Device;
  // The body sees the caller's rounding mode and exception masks, and starts with no errno
  // and no flags of its own, so that what it sets can be told apart.
  // (Each call costs tens of nanoseconds: only what differs is set.)
  if (!sameControl(CallerControl))
    std::fesetenv(&CallerEnv);
  if (std::fetestexcept(FE_ALL_EXCEPT))
    std::feclearexcept(FE_ALL_EXCEPT);
  errno = 0;
  try {
    Args->Host(Args->HostEnv, Ctx.Lo, Ctx.Hi, Ctx);
  } catch (...) {
    noteError(J);
  }
  ChunkErrno[J] = errno;
  ChunkExcept[J] = std::fetestexcept(FE_ALL_EXCEPT);
  if (ChunkExcept[J])
    std::fegetexceptflag(&ChunkFlags[J], FE_ALL_EXCEPT);
}

/// The chunks whose thread state the serial loop would show: all, or up to the first that threw.
static size_t chunksThatCount(const std::vector<std::exception_ptr> &Errors, size_t N) {
  for (size_t J = 0; J < Errors.size(); ++J)
    if (Errors[J])
      return J + 1;
  return N;
}

int Execution::lastErrno() const {
  for (size_t J = chunksThatCount(Errors, ChunkErrno.size()); J-- > 0;) {
    if (ChunkErrno[J] != 0)
      return ChunkErrno[J];
    // A chunk's kernels note their math calls' last error in the last partial
    // (LoopArgs::MathErrors); a host chunk leaves it 0. Where a host resumed a chunk a device
    // began, the host ran the later iterations, so its errno goes first.
    if (Args->MathErrors && Args->NumReductions) {
      uint64_t Last;
      std::memcpy(&Last, &Partials[J * Stride + Args->NumReductions - 1], sizeof Last);
      if (Last != 0)
        return (Last & 3) == 1 ? EDOM : ERANGE;
    }
  }
  return 0;
}

void Execution::restoreFloatingPoint() {
  // The caller's thread ran chunks too: its control modes are its own again (they only
  // differ when it runs in another mode than at reset), its flags those it had, with every
  // chunk's added.
  if (!sameControl(CallerControl))
    std::fesetenv(&CallerEnv);
  if (CallerExcept)
    std::fesetexceptflag(&CallerFlags, CallerExcept);
  for (size_t J = 0, N = chunksThatCount(Errors, ChunkExcept.size()); J < N; ++J)
    if (ChunkExcept[J])
      std::fesetexceptflag(&ChunkFlags[J], ChunkExcept[J]);
}

/// Opens chunk J's trace event on Track (Device names where it runs): what is left of the chunk,
/// [from(J), Hi), as a resumed chunk runs only that.
void Execution::chunkSpan(std::optional<trace::Span> &Sp, int Track, const std::string &Device,
                          size_t J) {
  Sp.emplace(Track, "chunk " + std::to_string(J), "chunk");
  Sp->args()
      .add("chunk", static_cast<uint64_t>(J))
      .add("lo", from(J))
      .add("hi", P->Chunks[J].Hi)
      .add("device", Device);
}

/// Runs chunk J on lane L; on a device failure retires L, gives J up (for another lane to
/// take) when asked, and returns false.
bool Execution::step(unsigned L, size_t J, bool GiveUpOnFailure) {
  const Lane &Ln = *Lanes[L];
  prepare(J);
  std::optional<trace::Span> Sp;
  if (trace::on())
    chunkSpan(Sp, trace::deviceTrack(Ln.Name), Ln.Name, J);
  std::string Err;
  bool Ok;
  if (!Faults->empty() && Faults->shouldFail(L, Ln.Name, J)) {
    Ok = false;
    Err = "injected fault (CLUSTRIX_FAULT)";
  } else if (Ln.Owner->isHost()) {
    // The chunk runs in place: the host chunk function, once, on the chunk's partials.
    runHost(J, static_cast<int>(L));
    Ok = true;
  } else {
    try {
      Ok = runOnDevice(Ln, J, static_cast<int>(L), Err);
    } catch (...) {
      // The loop body threw: the chunk ran, as it would have serially; runLoop rethrows.
      noteError(J);
      Ok = true;
    }
  }
  if (Sp)
    Sp->args().add("ok", Ok ? 1 : 0);
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
bool Execution::runOnDevice(const Lane &Ln, size_t J, int Device, std::string &Err) {
  ChunkJob Job;
  Job.Lo = from(J);
  Job.Hi = P->Chunks[J].Hi;
  Job.Partials = partials(J);
  Job.AppendBuffers = Args->NumAppends ? &Appends[J * Args->NumAppends] : nullptr;
  Job.Device = Device;
  const uint64_t RunLo = Job.Lo;
  std::unique_ptr<PreparedLoop> D = Ln.Owner->prepare(Ln, *Info, *Args, Opts, Err);
  if (!D)
    return false;
  // Kept per thread with its capacity: a device lane's thread runs one chunk at a time, and no
  // user code runs between split and the last piece.
  thread_local std::vector<Chunk> Pieces;
  bool Overlap = false;
  if (!D->split(Job.Lo, Job.Hi, Pieces, Overlap, Err))
    return false;
  using Clock = std::chrono::steady_clock;
  const bool Timed = logEnabled(LogLevel::Debug);
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
                  static_cast<unsigned long long>(P->Chunks[J].Hi), StartMs, FinishMs);
    logLine(LogLevel::Debug, loopLocation(*Info) + ": " + Ln.Name + Buf);
  }
  return true;
}

void Execution::giveUp(size_t J) {
  std::lock_guard<std::mutex> G(M);
  GivenUp.push_back(J);
  NumGivenUp.fetch_add(1, std::memory_order_release);
}

bool Execution::takeGivenUp(size_t &J) {
  // Without a failure, the common case, the lanes finish without touching the lock.
  if (NumGivenUp.load(std::memory_order_acquire) == 0)
    return false;
  std::lock_guard<std::mutex> G(M);
  if (GivenUp.empty())
    return false;
  J = GivenUp.back();
  GivenUp.pop_back();
  NumGivenUp.fetch_sub(1, std::memory_order_relaxed);
  return true;
}

} // namespace rt
} // namespace clustrix
