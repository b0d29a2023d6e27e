//===- Exec/ThreadPool.cpp - Persistent workers for fork-join --------------===//
//
// Wake-ups follow the usual Dekker pattern with sequentially consistent atomics: the side that
// publishes (new epoch, last task done) stores first and then checks for a sleeper; the side
// that sleeps registers under the mutex and then re-checks the condition. One of the two always
// sees the other, so no wake-up is lost.
//
//===----------------------------------------------------------------------===//
#include "Exec/ThreadPool.h"

#include <chrono>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CLUSTRIX_PAUSE() _mm_pause()
#else
#define CLUSTRIX_PAUSE() std::this_thread::yield()
#endif

namespace clustrix {
namespace rt {

static thread_local bool IsWorker = false;

ThreadPool &ThreadPool::global() {
  static ThreadPool *P = new ThreadPool();
  return *P;
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

/// Spins until Done() holds or the spin time is over; true when Done() held.
template <class Pred> static bool spinUntil(Pred Done, uint64_t SpinNs) {
  if (Done())
    return true;
  auto Start = std::chrono::steady_clock::now();
  for (unsigned I = 1;; ++I) {
    CLUSTRIX_PAUSE();
    if (Done())
      return true;
    if ((I & 63) == 0 &&
        static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                  std::chrono::steady_clock::now() - Start)
                                  .count()) >= SpinNs)
      return false;
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
  Remaining.store(N - 1, std::memory_order_relaxed);
  // The job word carries the task count, so that a worker decides whether it takes part from
  // the same value that told it a job exists.
  uint64_t Old = Job.load(std::memory_order_relaxed);
  Job.store((((Old >> 16) + 1) << 16) | N, std::memory_order_seq_cst);
  if (Sleepers.load(std::memory_order_seq_cst) > 0) {
    std::lock_guard<std::mutex> G(M);
    WorkCV.notify_all();
  }
  F(C, 0);
  auto AllDone = [this] { return Remaining.load(std::memory_order_seq_cst) == 0; };
  if (!spinUntil(AllDone, SpinNs.load(std::memory_order_relaxed))) {
    std::unique_lock<std::mutex> L(M);
    CallerSleeping.store(true, std::memory_order_seq_cst);
    DoneCV.wait(L, AllDone);
    CallerSleeping.store(false, std::memory_order_relaxed);
  }
}

void ThreadPool::finishOne() {
  if (Remaining.fetch_sub(1, std::memory_order_acq_rel) == 1 &&
      CallerSleeping.load(std::memory_order_seq_cst)) {
    std::lock_guard<std::mutex> G(M);
    DoneCV.notify_all();
  }
}

void ThreadPool::workerMain(unsigned Id) {
  IsWorker = true;
  uint64_t Seen = 0;
  for (;;) {
    auto NewJob = [&] { return Job.load(std::memory_order_seq_cst) != Seen; };
    if (!spinUntil(NewJob, SpinNs.load(std::memory_order_relaxed))) {
      std::unique_lock<std::mutex> L(M);
      Sleepers.fetch_add(1, std::memory_order_seq_cst);
      WorkCV.wait(L, NewJob);
      Sleepers.fetch_sub(1, std::memory_order_relaxed);
    }
    Seen = Job.load(std::memory_order_acquire);
    // A worker a job needs is waited for, so the job word cannot move on before it gets here.
    if (Id + 1 < (Seen & 0xffff)) {
      Fn(Ctx, Id + 1);
      finishOne();
    }
  }
}

} // namespace rt
} // namespace clustrix
