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
  // The first job pins the worker to the caller's CPU; it then widens its own mask again
  // (the next job's task sees the whole mask), but the worker stays on that CPU, where only
  // a yielding caller lets it run.
  Seen Pin;
  Pin.PinTo = Here;
  Pool.run(2, task, &Pin);
  Seen Widen;
  Pool.run(2, [](void *Ctx, unsigned Index) {
    if (Index == 1) {
      cpu_set_t All;
      CPU_ZERO(&All);
      for (int C = 0; C < CPU_SETSIZE; ++C)
        CPU_SET(C, &All);
      sched_setaffinity(0, sizeof(All), &All);
      static_cast<Seen *>(Ctx)->WorkerCpu.store(sched_getcpu());
    }
  }, &Widen);
  EXPECT_EQ(Widen.WorkerCpu.load(), Here) << "the worker should still be on the caller's CPU";
  Seen Next;
  Pool.run(2, task, &Next);
  Pool.release();
  sched_setaffinity(0, sizeof(Old), &Old);
  // (The scheduler may also have parted them in the few microseconds between the jobs; the
  // move count is therefore not checked, only where the task ran.)
  EXPECT_NE(Next.WorkerCpu.load(), Here);
}
#endif
