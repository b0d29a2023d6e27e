//===- Exec/ThreadPool.h - Persistent workers for fork-join ------*- C++ -*-===//
//
// The runtime's worker threads: created once, reused by every loop. A fork-join costs one atomic
// increment to start and one counter to finish; idle workers spin briefly before they sleep so
// that back-to-back loops do not pay a wake-up each.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_RT_EXEC_THREADPOOL_H
#define CLUSTRIX_RT_EXEC_THREADPOOL_H

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace clustrix {
namespace rt {

/// A fork-join pool. One run() at a time: callers take it with tryAcquire().
class ThreadPool {
public:
  using TaskFn = void (*)(void *Ctx, unsigned Index);

  /// The process's pool. Never destroyed: its threads may outlive static destructors.
  static ThreadPool &global();

  /// Takes the pool for one run(); false when another loop holds it.
  bool tryAcquire();
  void release();

  /// Runs Fn(Ctx, I) for I in [0, N): I = 0 on the calling thread, the others on workers
  /// (started on first need). Returns when all have returned. Fn must not throw.
  void run(unsigned N, TaskFn Fn, void *Ctx);

  /// How long idle workers (and a waiting caller) spin before sleeping.
  void setSpinMicroseconds(uint64_t Us) { SpinNs.store(Us * 1000, std::memory_order_relaxed); }

  /// Whether the current thread is one of this pool's workers.
  static bool onWorkerThread();

private:
  ThreadPool() = default;
  void ensureWorkers(unsigned Count);
  void workerMain(unsigned Id);
  void finishOne();

  std::atomic<bool> Busy{false};
  std::vector<std::thread> Workers;

  // The current job: Fn and Ctx are written before Job is bumped and read only by workers the
  // job needs. Job holds a sequence number (high bits) and the task count (low 16 bits).
  TaskFn Fn = nullptr;
  void *Ctx = nullptr;
  std::atomic<uint64_t> Job{0};
  std::atomic<unsigned> Remaining{0};
  std::atomic<uint64_t> SpinNs{200000};

  std::mutex M;
  std::condition_variable WorkCV, DoneCV;
  std::atomic<int> Sleepers{0};
  std::atomic<bool> CallerSleeping{false};
};

} // namespace rt
} // namespace clustrix

#endif
