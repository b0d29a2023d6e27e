//===- Exec/ThreadPool.h - Persistent workers for fork-join ------*- C++ -*-===//
//
// The runtime's worker threads: created once, reused by every loop. A fork-join is one store
// to a job word the idle workers spin on (a generation counter that also carries the task
// count) and one counter they count down; a worker that spun for worker_spin_us without work
// sleeps on a futex, and only then does starting a job cost a system call. A worker that finds
// itself on the CPU of the thread that started the job moves to another CPU of its mask.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_RT_EXEC_THREADPOOL_H
#define CLUSTRIX_RT_EXEC_THREADPOOL_H

#include <atomic>
#include <cstdint>
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

  alignas(64) std::atomic<bool> Busy{false};
  std::vector<std::thread> Workers;
  std::atomic<uint64_t> SpinNs{200000};

  // The current job: Fn and Ctx are written before Job is bumped and read only by workers the
  // job needs. Job holds a generation (high bits) and the task count (low 16 bits), so that a
  // worker decides whether it takes part from the same value that told it a job exists.
  alignas(64) std::atomic<uint64_t> Job{0};
  TaskFn Fn = nullptr;
  void *Ctx = nullptr;
  int CallerCpu = -1; ///< The CPU run() was called on, or -1.
  std::atomic<int> Sleepers{0};
  std::atomic<uint32_t> Doorbell{0}; ///< The futex sleeping workers wait on.

  alignas(64) std::atomic<uint32_t> Remaining{0}; ///< Also the futex a sleeping caller waits on.
  std::atomic<bool> CallerSleeping{false};
};

} // namespace rt
} // namespace clustrix

#endif
