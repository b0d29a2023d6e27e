//===- Exec/ThreadPool.cpp - Persistent workers for fork-join --------------===//
//
// Wake-ups follow the usual Dekker pattern with sequentially consistent atomics: the side that
// publishes (a new job, the last task done) stores first and then checks for a sleeper; the
// side that sleeps registers first and then re-checks the condition before it waits on a futex
// whose value the publisher changes. One of the two always sees the other, so no wake-up is lost.
//
//===----------------------------------------------------------------------===//
#include "Exec/ThreadPool.h"

#include <chrono>
#include <climits>
#include <mutex>

#include <pthread.h>

#if defined(__linux__)
#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CLUSTRIX_PAUSE() _mm_pause()
#else
#define CLUSTRIX_PAUSE() std::this_thread::yield()
#endif

namespace clustrix {
namespace rt {

namespace {

thread_local bool IsWorker = false;

/// Sleeps while *Word == Expected (or spuriously); returns at once when it differs.
void futexWait(std::atomic<uint32_t> &Word, uint32_t Expected) {
#if defined(__linux__)
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(&Word), FUTEX_WAIT_PRIVATE, Expected, nullptr,
          nullptr, 0);
#else
  if (Word.load(std::memory_order_relaxed) == Expected)
    std::this_thread::yield();
#endif
}

void futexWake(std::atomic<uint32_t> &Word, int Count) {
#if defined(__linux__)
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(&Word), FUTEX_WAKE_PRIVATE, Count, nullptr,
          nullptr, 0);
#else
  (void)Word;
  (void)Count;
#endif
}

/// Spins until Done() holds or the spin time is over; true when Done() held. Every few
/// microseconds of spinning it yields the core, as libomp's waits do: on a machine with more
/// runnable threads than cores, the thread it waits for may need that core to run at all (on
/// an idle machine the yield returns at once).
template <class Pred> bool spinUntil(Pred Done, uint64_t SpinNs) {
  if (Done())
    return true;
  auto Start = std::chrono::steady_clock::now();
  for (unsigned I = 1;; ++I) {
    CLUSTRIX_PAUSE();
    if (Done())
      return true;
    if ((I & 255) == 0)
      std::this_thread::yield();
    if ((I & 63) == 0 &&
        static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                  std::chrono::steady_clock::now() - Start)
                                  .count()) >= SpinNs)
      return false;
  }
}

/// The CPU the calling thread runs on, or -1.
int currentCpu() {
#if defined(__linux__)
  return sched_getcpu();
#else
  return -1;
#endif
}

/// Moves the calling thread off CPU Cpu, if its affinity allows another: it narrows the mask
/// to exclude Cpu, which migrates the thread at once, and then restores the mask, which does
/// not move it back. False when the mask allows no other CPU.
bool moveOffCpu(int Cpu) {
#if defined(__linux__)
  cpu_set_t Mask, Others;
  if (Cpu < 0 || Cpu >= CPU_SETSIZE || sched_getaffinity(0, sizeof(Mask), &Mask) != 0)
    return false;
  Others = Mask;
  CPU_CLR(Cpu, &Others);
  if (CPU_COUNT(&Others) == 0 || sched_setaffinity(0, sizeof(Others), &Others) != 0)
    return false;
  sched_setaffinity(0, sizeof(Mask), &Mask);
  return true;
#else
  (void)Cpu;
  return false;
#endif
}

} // namespace

namespace {
std::atomic<ThreadPool *> GlobalPool{nullptr};

/// In the child of fork(), which has only the thread that forked: the parent's workers do not
/// exist there, so the child gets a pool of its own, whose workers start on first need. The
/// parent's pool is left as it was (its thread objects cannot be destroyed without threads).
void afterForkInChild() { GlobalPool.store(nullptr, std::memory_order_relaxed); }
} // namespace

ThreadPool &ThreadPool::global() {
  ThreadPool *P = GlobalPool.load(std::memory_order_acquire);
  if (P)
    return *P;
  static std::once_flag Registered;
  std::call_once(Registered, [] { pthread_atfork(nullptr, nullptr, afterForkInChild); });
  ThreadPool *Fresh = new ThreadPool();
  if (!GlobalPool.compare_exchange_strong(P, Fresh, std::memory_order_acq_rel)) {
    delete Fresh;
    return *P;
  }
  return *Fresh;
}

bool ThreadPool::onWorkerThread() { return IsWorker; }

bool ThreadPool::tryAcquire() {
  bool Expected = false;
  return Busy.compare_exchange_strong(Expected, true, std::memory_order_acquire);
}

void ThreadPool::release() { Busy.store(false, std::memory_order_release); }

void ThreadPool::ensureWorkers(unsigned Needed) {
  while (Workers.size() < Needed) {
    unsigned Id = static_cast<unsigned>(Workers.size());
    Workers.emplace_back([this, Id] { workerMain(Id); });
  }
}

void ThreadPool::run(unsigned N, TaskFn F, void *C) {
  if (N == 0)
    return;
  if (N == 1) {
    F(C, 0);
    return;
  }
  ensureWorkers(N - 1);
  Fn = F;
  Ctx = C;
  CallerCpu = currentCpu();
  Remaining.store(N - 1, std::memory_order_relaxed);
  uint64_t Old = Job.load(std::memory_order_relaxed);
  Job.store((((Old >> 16) + 1) << 16) | N, std::memory_order_seq_cst);
  if (Sleepers.load(std::memory_order_seq_cst) > 0) {
    Doorbell.fetch_add(1, std::memory_order_seq_cst);
    futexWake(Doorbell, INT_MAX);
  }
  F(C, 0);
  auto AllDone = [this] { return Remaining.load(std::memory_order_acquire) == 0; };
  if (!spinUntil(AllDone, SpinNs.load(std::memory_order_relaxed))) {
    CallerSleeping.store(true, std::memory_order_seq_cst);
    for (uint32_t R; (R = Remaining.load(std::memory_order_seq_cst)) != 0;)
      futexWait(Remaining, R);
    CallerSleeping.store(false, std::memory_order_relaxed);
  }
}

void ThreadPool::finishOne() {
  if (Remaining.fetch_sub(1, std::memory_order_seq_cst) == 1 &&
      CallerSleeping.load(std::memory_order_seq_cst))
    futexWake(Remaining, 1);
}

void ThreadPool::workerMain(unsigned Id) {
  IsWorker = true;
  uint64_t Seen = 0;
  for (;;) {
    auto NewJob = [&] { return Job.load(std::memory_order_acquire) != Seen; };
    if (!spinUntil(NewJob, SpinNs.load(std::memory_order_relaxed))) {
      Sleepers.fetch_add(1, std::memory_order_seq_cst);
      for (;;) {
        uint32_t Bell = Doorbell.load(std::memory_order_seq_cst);
        if (Job.load(std::memory_order_seq_cst) != Seen)
          break;
        futexWait(Doorbell, Bell);
      }
      Sleepers.fetch_sub(1, std::memory_order_relaxed);
    }
    Seen = Job.load(std::memory_order_acquire);
    // A worker a job needs is waited for, so the job word cannot move on before it gets here.
    if (Id + 1 < (Seen & 0xffff)) {
      // A worker on the caller's CPU runs only when the caller waits: the job would run
      // serially, late, and so would every job until the scheduler parts the two (which a
      // futex wake-up, placing the woken thread beside its waker, can undo).
      if (CallerCpu >= 0 && currentCpu() == CallerCpu)
        moveOffCpu(CallerCpu);
      Fn(Ctx, Id + 1);
      finishOne();
    }
  }
}

} // namespace rt
} // namespace clustrix
