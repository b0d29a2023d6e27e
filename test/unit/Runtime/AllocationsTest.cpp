//===- AllocationsTest.cpp - The extents of heap blocks -------------------===//
//
// allocationLo/allocationHi over the runtime's malloc family: exact and interior pointers,
// blocks that are unknown (small, freed, stack, static), every allocation function, operator
// new[], threads allocating while another looks up, and fork with other threads allocating.
//
//===----------------------------------------------------------------------===//
#include "Support/Allocations.h"

#include "clustrix/Runtime.h"

#include "gtest/gtest.h"

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <malloc.h>
#include <random>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace clustrix::rt;

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CLUSTRIX_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||                      \
    __has_feature(memory_sanitizer)
#define CLUSTRIX_TEST_SANITIZED 1
#endif
#endif
#ifndef CLUSTRIX_TEST_SANITIZED
#define CLUSTRIX_TEST_SANITIZED 0
#endif

namespace {

// Under a sanitizer its malloc is the program's, and every extent is unknown (tested below).
#define REQUIRE_REGISTRY()                                                                         \
  do {                                                                                             \
    if (!allocationRegistryActive())                                                               \
      GTEST_SKIP() << "the runtime's malloc is not the program's";                                 \
  } while (0)

// A pointer value that may no longer point at a live object (after free or realloc), hidden
// from the compiler's use-after-free warnings.
const void *at(uintptr_t Addr) {
  volatile uintptr_t V = Addr;
  return reinterpret_cast<const void *>(V);
}

uintptr_t addr(const void *P) { return reinterpret_cast<uintptr_t>(P); }

bool unknown(const void *P, size_t ElemSize = 1) {
  return allocationLo(P, ElemSize) == 0 && allocationHi(P, ElemSize) == -1;
}

// Sizes the compiler cannot see, so that it warns about no huge or overflowing request.
size_t opaque(size_t N) {
  volatile size_t V = N;
  return V;
}

TEST(Allocations, ActiveUnlessSanitized) {
  EXPECT_EQ(allocationRegistryActive(), !CLUSTRIX_TEST_SANITIZED);
}

TEST(Allocations, InactiveRegistryAnswersUnknown) {
  if (allocationRegistryActive())
    GTEST_SKIP() << "the registry is active";
  void *P = malloc(opaque(4096));
  EXPECT_TRUE(unknown(P));
  free(P);
}

TEST(Allocations, ExactStart) {
  REQUIRE_REGISTRY();
  char *P = static_cast<char *>(malloc(opaque(1000)));
  ASSERT_NE(P, nullptr);
  EXPECT_EQ(allocationLo(P, 1), 0);
  EXPECT_EQ(allocationHi(P, 1), 1000);
  EXPECT_EQ(allocationLo(P, 8), 0);
  EXPECT_EQ(allocationHi(P, 8), 125);
  EXPECT_EQ(allocationHi(P, 3), 333); // the last byte is no whole element
  HeapBlock B{};
  EXPECT_TRUE(findAllocation(P, B));
  EXPECT_EQ(B.Start, addr(P));
  EXPECT_EQ(B.Size, 1000u);
  free(P);
}

TEST(Allocations, InteriorPointer) {
  REQUIRE_REGISTRY();
  char *P = static_cast<char *>(malloc(opaque(1000)));
  ASSERT_NE(P, nullptr);
  EXPECT_EQ(allocationLo(P + 400, 8), -50);
  EXPECT_EQ(allocationHi(P + 400, 8), 75);
  EXPECT_EQ(allocationLo(P + 999, 1), -999); // the last byte
  EXPECT_EQ(allocationHi(P + 999, 1), 1);
  EXPECT_EQ(allocationHi(P + 999, 4), 0); // known, but no whole element from there
  free(P);
}

TEST(Allocations, ElemSizeNotDividingTheOffset) {
  REQUIRE_REGISTRY();
  char *P = static_cast<char *>(malloc(opaque(1000)));
  ASSERT_NE(P, nullptr);
  // 10 bytes in: two whole 4-byte elements before, (1000 - 10) / 4 = 247 from there.
  EXPECT_EQ(allocationLo(P + 10, 4), -2);
  EXPECT_EQ(allocationHi(P + 10, 4), 247);
  // Element Lo of P + 10 starts at P + 2, inside the block; element Lo - 1 would not.
  EXPECT_EQ(allocationLo(P + 10, 24), 0);
  EXPECT_EQ(allocationHi(P + 10, 24), 41);
  EXPECT_EQ(allocationLo(P + 7, 3), -2);
  EXPECT_EQ(allocationHi(P + 7, 3), 331);
  free(P);
}

TEST(Allocations, OnePastTheEndIsUnknown) {
  REQUIRE_REGISTRY();
  char *P = static_cast<char *>(malloc(opaque(1000)));
  ASSERT_NE(P, nullptr);
  EXPECT_TRUE(unknown(P + 1000));
  EXPECT_TRUE(unknown(P + 1000, 8));
  free(P);
}

TEST(Allocations, NullAndZeroElemSizeAreUnknown) {
  REQUIRE_REGISTRY();
  char *P = static_cast<char *>(malloc(opaque(1000)));
  ASSERT_NE(P, nullptr);
  EXPECT_TRUE(unknown(nullptr));
  EXPECT_TRUE(unknown(nullptr, 8));
  EXPECT_EQ(allocationLo(P + 8, 0), 0);
  EXPECT_EQ(allocationHi(P + 8, 0), -1);
  free(P);
}

char GlobalArray[4096];

TEST(Allocations, StackAndStaticMemoryAreUnknown) {
  REQUIRE_REGISTRY();
  char Local[4096] = {};
  static double Static[1000];
  EXPECT_TRUE(unknown(Local));
  EXPECT_TRUE(unknown(Local + 100, 4));
  EXPECT_TRUE(unknown(GlobalArray));
  EXPECT_TRUE(unknown(Static + 10, sizeof(double)));
}

TEST(Allocations, SmallBlocksAreUnknown) {
  REQUIRE_REGISTRY();
  void *Small = malloc(opaque(AllocationThreshold - 1));
  void *Exact = malloc(opaque(AllocationThreshold));
  ASSERT_NE(Small, nullptr);
  ASSERT_NE(Exact, nullptr);
  EXPECT_TRUE(unknown(Small));
  EXPECT_EQ(allocationHi(Exact, 1), static_cast<int64_t>(AllocationThreshold));
  free(Small);
  free(Exact);
}

TEST(Allocations, FreedBlocksAreUnknown) {
  REQUIRE_REGISTRY();
  char *P = static_cast<char *>(malloc(opaque(1000)));
  ASSERT_NE(P, nullptr);
  uintptr_t Old = addr(P);
  free(P);
  EXPECT_TRUE(unknown(at(Old)));
  EXPECT_TRUE(unknown(at(Old + 500)));
  // glibc hands the same chunk out again for a request of its size class (its thread cache is
  // last in, first out): the new block reports its own size.
  char *Q = static_cast<char *>(malloc(opaque(990)));
  ASSERT_NE(Q, nullptr);
  EXPECT_EQ(addr(Q), Old) << "glibc did not reuse the chunk; the check below still holds";
  EXPECT_EQ(allocationHi(Q, 1), 990);
  EXPECT_TRUE(unknown(Q + 995));
  free(Q);
}

TEST(Allocations, ReallocGrowShrinkMove) {
  REQUIRE_REGISTRY();
  // Sizes above glibc's thread cache, taken one after the other from the heap's top: P's next
  // chunk is in use, so P cannot grow in place.
  char *P = static_cast<char *>(malloc(opaque(3000)));
  char *Blocker = static_cast<char *>(malloc(opaque(3000)));
  ASSERT_NE(P, nullptr);
  EXPECT_EQ(allocationHi(P, 1), 3000);
  EXPECT_EQ(allocationHi(Blocker, 1), 3000); // also keeps the compiler from removing it
  uintptr_t Before = addr(P);
  P = static_cast<char *>(realloc(P, opaque(6000)));
  ASSERT_NE(P, nullptr);
  EXPECT_NE(addr(P), Before) << "glibc grew the block in place; the checks below still hold";
  if (addr(P) != Before) {
    EXPECT_TRUE(unknown(at(Before)));
  }
  EXPECT_EQ(allocationHi(P, 1), 6000);
  EXPECT_EQ(allocationLo(P + 5999, 1), -5999);
  P = static_cast<char *>(realloc(P, opaque(600)));
  ASSERT_NE(P, nullptr);
  EXPECT_EQ(allocationHi(P, 1), 600);
  P = static_cast<char *>(realloc(P, opaque(280))); // shrinks in place
  ASSERT_NE(P, nullptr);
  EXPECT_EQ(allocationHi(P, 1), 280);
  EXPECT_TRUE(unknown(P + 300));
  P = static_cast<char *>(realloc(P, opaque(100))); // under the threshold
  ASSERT_NE(P, nullptr);
  EXPECT_TRUE(unknown(P));
  // Past glibc's mmap threshold: the block moves to a mapping of its own.
  Before = addr(P);
  P = static_cast<char *>(realloc(P, opaque(1 << 20)));
  ASSERT_NE(P, nullptr);
  ASSERT_NE(addr(P), Before);
  EXPECT_TRUE(unknown(at(Before)));
  EXPECT_EQ(allocationHi(P, 1), 1 << 20);
  EXPECT_EQ(allocationLo(P + (1 << 19), 8), -(1 << 16));
  // Shrunk (glibc remaps it in place): what was cut off is unknown.
  uintptr_t Mapped = addr(P);
  P = static_cast<char *>(realloc(P, opaque(700)));
  ASSERT_NE(P, nullptr);
  EXPECT_EQ(allocationHi(P, 1), 700);
  EXPECT_TRUE(unknown(P + 700));
  EXPECT_TRUE(unknown(at(Mapped + 1000)));
  free(Blocker);
  free(P);
}

TEST(Allocations, ReallocToZeroFrees) {
  REQUIRE_REGISTRY();
  void *P = malloc(opaque(1000));
  ASSERT_NE(P, nullptr);
  uintptr_t Old = addr(P);
  EXPECT_EQ(realloc(P, opaque(0)), nullptr); // glibc frees and returns null
  EXPECT_TRUE(unknown(at(Old)));
}

TEST(Allocations, ReallocOfNullAllocates) {
  REQUIRE_REGISTRY();
  void *P = realloc(nullptr, opaque(700));
  ASSERT_NE(P, nullptr);
  EXPECT_EQ(allocationHi(P, 1), 700);
  free(P);
}

TEST(Allocations, FailedReallocKeepsTheBlock) {
  REQUIRE_REGISTRY();
  char *P = static_cast<char *>(malloc(opaque(1000)));
  ASSERT_NE(P, nullptr);
  errno = 0;
  if (void *R = realloc(P, opaque(SIZE_MAX / 2))) {
    free(R);
    FAIL() << "a realloc of SIZE_MAX / 2 bytes succeeded";
  }
  // P is still the program's: the failed realloc left it alone.
  EXPECT_EQ(errno, ENOMEM);
  EXPECT_EQ(allocationLo(P + 100, 1), -100);
  EXPECT_EQ(allocationHi(P + 100, 1), 900);
  errno = 0;
  if (void *R = reallocarray(P, opaque(SIZE_MAX / 2), 4)) { // overflows
    free(R);
    FAIL() << "reallocarray did not see the overflow";
  }
  EXPECT_EQ(errno, ENOMEM);
  EXPECT_EQ(allocationHi(P, 1), 1000);
  free(P);
}

TEST(Allocations, Reallocarray) {
  REQUIRE_REGISTRY();
  auto *P = static_cast<double *>(reallocarray(nullptr, opaque(100), sizeof(double)));
  ASSERT_NE(P, nullptr);
  EXPECT_EQ(allocationHi(P, sizeof(double)), 100);
  uintptr_t Old = addr(P);
  P = static_cast<double *>(reallocarray(P, opaque(50000), sizeof(double)));
  ASSERT_NE(P, nullptr);
  EXPECT_EQ(allocationHi(P + 10, sizeof(double)), 49990);
  if (addr(P) != Old) {
    EXPECT_TRUE(unknown(at(Old)));
  }
  free(P);
}

TEST(Allocations, Calloc) {
  REQUIRE_REGISTRY();
  auto *P = static_cast<int *>(calloc(opaque(100), sizeof(int)));
  ASSERT_NE(P, nullptr);
  EXPECT_EQ(allocationLo(P + 30, sizeof(int)), -30);
  EXPECT_EQ(allocationHi(P + 30, sizeof(int)), 70);
  void *Small = calloc(opaque(10), 10);
  EXPECT_TRUE(unknown(Small));
  errno = 0;
  EXPECT_EQ(calloc(opaque(SIZE_MAX / 2), 4), nullptr);
  EXPECT_EQ(errno, ENOMEM);
  free(Small);
  free(P);
}

TEST(Allocations, AlignedAllocations) {
  REQUIRE_REGISTRY();
  void *P = nullptr;
  ASSERT_EQ(posix_memalign(&P, 64, opaque(1000)), 0);
  EXPECT_EQ(addr(P) % 64, 0u);
  EXPECT_EQ(allocationHi(P, 1), 1000);
  free(P);
  // A bad alignment: EINVAL returned, errno and the output untouched.
  errno = 0;
  void *Untouched = &P;
  void *Out = Untouched;
  EXPECT_EQ(posix_memalign(&Out, 24, opaque(1000)), EINVAL);
  EXPECT_EQ(posix_memalign(&Out, 4, opaque(1000)), EINVAL);
  EXPECT_EQ(posix_memalign(&Out, 0, opaque(1000)), EINVAL);
  EXPECT_EQ(Out, Untouched);
  EXPECT_EQ(errno, 0);
  EXPECT_EQ(posix_memalign(&Out, 64, opaque(SIZE_MAX / 2)), ENOMEM);

  void *A = aligned_alloc(opaque(128), opaque(512));
  ASSERT_NE(A, nullptr);
  EXPECT_EQ(addr(A) % 128, 0u);
  EXPECT_EQ(allocationHi(static_cast<char *>(A) + 12, 4), 125);
  free(A);
  errno = 0;
  EXPECT_EQ(aligned_alloc(opaque(48), opaque(512)), nullptr);
  EXPECT_EQ(errno, EINVAL);

  void *M = memalign(opaque(4096), opaque(300));
  ASSERT_NE(M, nullptr);
  EXPECT_EQ(addr(M) % 4096, 0u);
  EXPECT_EQ(allocationHi(M, 1), 300);
  free(M);

  long Page = sysconf(_SC_PAGESIZE);
  void *V = valloc(opaque(1000));
  ASSERT_NE(V, nullptr);
  EXPECT_EQ(addr(V) % Page, 0u);
  EXPECT_EQ(allocationHi(V, 1), 1000);
  free(V);
  void *PV = pvalloc(opaque(1000)); // whole pages
  ASSERT_NE(PV, nullptr);
  EXPECT_EQ(addr(PV) % Page, 0u);
  EXPECT_EQ(allocationHi(PV, 1), Page);
  EXPECT_GE(malloc_usable_size(PV), static_cast<size_t>(Page));
  uintptr_t Old = addr(PV);
  free(PV);
  EXPECT_TRUE(unknown(at(Old)));
}

TEST(Allocations, OperatorNewArray) {
  REQUIRE_REGISTRY();
  auto *D = new double[200];
  EXPECT_EQ(allocationLo(D + 50, sizeof(double)), -50);
  EXPECT_EQ(allocationHi(D + 50, sizeof(double)), 150);
  uintptr_t Old = addr(D);
  delete[] D;
  EXPECT_TRUE(unknown(at(Old)));
  // An array cookie (the count) precedes the elements of a type with a destructor: the block
  // starts before the first element, which is no whole element.
  auto *S = new std::string[20];
  EXPECT_EQ(allocationLo(S, 1), -static_cast<int64_t>(sizeof(size_t)));
  EXPECT_EQ(allocationLo(S, sizeof(std::string)), 0);
  EXPECT_EQ(allocationHi(S, sizeof(std::string)), 20);
  delete[] S;
  auto *V = new std::vector<int>(1000);
  EXPECT_EQ(allocationHi(V->data(), sizeof(int)), 1000);
  delete V;
}

TEST(Allocations, ErrnoIsKept) {
  REQUIRE_REGISTRY();
  errno = EDOM;
  void *P = malloc(opaque(5000));
  void *Q = realloc(P, opaque(9000));
  free(Q);
  EXPECT_EQ(errno, EDOM);
}

// Four threads allocate, reallocate and free blocks (some mapped) while a fifth looks up a
// long-lived block and a stack array: every answer about a live block is exact, throughout.
// The workers wait for the looker every 1,000 operations, so that its look-ups overlap the
// whole churn even when the machine is busy and would otherwise schedule it only at the end.
TEST(Allocations, ThreadsAllocateWhileAnotherLooksUp) {
  REQUIRE_REGISTRY();
  constexpr size_t LongSize = 5000;
  char *Long = static_cast<char *>(malloc(opaque(LongSize)));
  ASSERT_NE(Long, nullptr);
  std::atomic<bool> Stop{false};
  std::atomic<int> Wrong{0};
  // Look-ups made while a worker was between operations: counted only when some worker was
  // allocating both before and after the look-up.
  std::atomic<int> Allocating{0};
  std::atomic<long> LooksWhileAllocating{0};
  std::vector<std::thread> Workers;
  for (unsigned T = 0; T < 4; ++T)
    Workers.emplace_back([&, T] {
      std::mt19937 Rng(T + 1);
      std::vector<std::pair<char *, size_t>> Live;
      auto Size = [&] { return Rng() % 64 == 0 ? size_t(300000) : 256 + Rng() % 20000; };
      ++Allocating;
      long Seen = 0;
      for (int I = 0; I < 3000; ++I) {
        if (I % 1000 == 0) {
          while (LooksWhileAllocating.load() == Seen)
            std::this_thread::yield();
          Seen = LooksWhileAllocating.load();
        }
        unsigned Op = Rng() % 4;
        if (Live.empty() || (Op == 0 && Live.size() < 24)) {
          size_t N = Size();
          Live.push_back({static_cast<char *>(malloc(N)), N});
        } else if (Op == 1) {
          size_t K = Rng() % Live.size(), N = Size();
          if (char *P = static_cast<char *>(realloc(Live[K].first, N)))
            Live[K] = {P, N};
        } else if (Op == 2) {
          size_t K = Rng() % Live.size();
          free(Live[K].first);
          Live.erase(Live.begin() + K);
        }
        for (auto [P, N] : Live)
          if (allocationLo(P + N / 2, 1) != -int64_t(N / 2) ||
              allocationHi(P + N / 2, 1) != int64_t(N - N / 2))
            ++Wrong;
      }
      --Allocating;
      for (auto [P, N] : Live)
        free(P);
    });
  std::thread Looker([&] {
    char Local[512] = {};
    while (!Stop.load()) {
      bool Before = Allocating.load() > 0;
      if (allocationHi(Long + 100, 1) != int64_t(LongSize - 100) || !unknown(Local))
        ++Wrong;
      if (Before && Allocating.load() > 0)
        ++LooksWhileAllocating;
    }
  });
  for (auto &W : Workers)
    W.join();
  Stop = true;
  Looker.join();
  // (The waits above make at least three look-ups overlap the churn; Wrong is the check.)
  EXPECT_EQ(Wrong.load(), 0);
  free(Long);
}

// fork while three threads allocate and free large blocks (so that one may hold the
// registry's lock): the child's allocations and look-ups work, and it sees the parent's blocks.
TEST(Allocations, ForkWhileThreadsAllocate) {
  REQUIRE_REGISTRY();
  char *Long = static_cast<char *>(malloc(opaque(4000)));
  ASSERT_NE(Long, nullptr);
  std::atomic<bool> Stop{false};
  std::vector<std::thread> Churn;
  for (unsigned T = 0; T < 3; ++T)
    Churn.emplace_back([&, T] {
      for (size_t I = T; !Stop.load(); ++I) {
        void *P = malloc(300 + I % 7000);
        allocationHi(P, 1);
        free(P);
      }
    });
  for (int Round = 0; Round < 40; ++Round) {
    pid_t Pid = fork();
    ASSERT_GE(Pid, 0);
    if (Pid == 0) {
      alarm(10); // a deadlock fails the test instead of hanging it
      bool Ok = allocationHi(Long + 1000, 1) == 3000;
      for (int I = 0; I < 100; ++I) {
        char *Q = static_cast<char *>(malloc(6000 + I));
        Ok &= allocationLo(Q + 10, 2) == -5 && allocationHi(Q + 10, 2) == (5990 + I) / 2;
        uintptr_t Old = addr(Q);
        free(Q);
        Ok &= unknown(at(Old));
      }
      _exit(Ok ? 0 : 1);
    }
    int Status = 0;
    ASSERT_EQ(waitpid(Pid, &Status, 0), Pid);
    EXPECT_TRUE(WIFEXITED(Status)) << "round " << Round << ": the child was killed (signal "
                                   << (WIFSIGNALED(Status) ? WTERMSIG(Status) : 0) << ")";
    EXPECT_EQ(WIFEXITED(Status) ? WEXITSTATUS(Status) : -1, 0) << "round " << Round;
  }
  Stop = true;
  for (auto &T : Churn)
    T.join();
  free(Long);
}

} // namespace
