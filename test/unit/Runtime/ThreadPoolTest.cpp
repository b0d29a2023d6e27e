//===- ThreadPoolTest.cpp - The fork-join pool of CPU workers -------------===//
#include "Exec/ThreadPool.h"

#include "gtest/gtest.h"

#include <atomic>
#include <thread>

#if defined(__linux__)
#include <sched.h>
#endif

using namespace clustrix::rt;

namespace {

struct Seen {
  std::atomic<int> Runs{0};
  std::atomic<int> WorkerCpu{-1};
  int PinTo = -1; ///< When >= 0, task 1 pins its worker to this CPU.
};

void task(void *Ctx, unsigned Index) {
  auto &S = *static_cast<Seen *>(Ctx);
  S.Runs.fetch_add(1);
  if (Index != 1)
    return;
#if defined(__linux__)
  S.WorkerCpu.store(sched_getcpu());
  if (S.PinTo >= 0) {
    cpu_set_t One;
    CPU_ZERO(&One);
    CPU_SET(S.PinTo, &One);
    sched_setaffinity(0, sizeof(One), &One);
  }
#endif
}

} // namespace

TEST(ThreadPoolTest, RunsEveryTaskOnce) {
  ThreadPool &Pool = ThreadPool::global();
  ASSERT_TRUE(Pool.tryAcquire());
  for (unsigned N : {1u, 2u, 3u}) {
    Seen S;
    Pool.run(N, task, &S);
    EXPECT_EQ(S.Runs.load(), static_cast<int>(N));
  }
  Pool.release();
}

#if defined(__linux__)
// A worker that the scheduler put on its caller's CPU would run only while the caller waits:
// the job would run serially, late. The worker moves itself to another CPU of its mask
// before it runs its task, and keeps the mask it had.
TEST(ThreadPoolTest, AWorkerOnTheCallersCpuMovesOff) {
  cpu_set_t Old;
  ASSERT_EQ(sched_getaffinity(0, sizeof(Old), &Old), 0);
  if (CPU_COUNT(&Old) < 2)
    GTEST_SKIP() << "needs two CPUs";
  int Here = sched_getcpu();
  ASSERT_GE(Here, 0);
  // The caller stays on this CPU for the test.
  cpu_set_t One;
  CPU_ZERO(&One);
  CPU_SET(Here, &One);
  ASSERT_EQ(sched_setaffinity(0, sizeof(One), &One), 0);

  ThreadPool &Pool = ThreadPool::global();
  ASSERT_TRUE(Pool.tryAcquire());
  // The first job pins the worker to the caller's CPU; the second gives it back the process's
  // mask, which does not move it: it stays on that CPU, where only a waiting caller lets it
  // run.
  Seen Pin;
  Pin.PinTo = Here;
  Pool.run(2, task, &Pin);
  struct Widen {
    cpu_set_t Mask;
    int Cpu = -1;
  } W{Old};
  Pool.run(2, [](void *Ctx, unsigned Index) {
    if (Index == 1) {
      auto &X = *static_cast<Widen *>(Ctx);
      sched_setaffinity(0, sizeof(X.Mask), &X.Mask);
      X.Cpu = sched_getcpu();
    }
  }, &W);
  EXPECT_EQ(W.Cpu, Here) << "the worker should still be on the caller's CPU";
  Seen Next;
  Pool.run(2, task, &Next);
  Pool.release();
  sched_setaffinity(0, sizeof(Old), &Old);
  // (The scheduler may also have parted them in the few microseconds between the jobs; the
  // move count is therefore not checked, only where the task ran.)
  EXPECT_NE(Next.WorkerCpu.load(), Here);
}
#endif
