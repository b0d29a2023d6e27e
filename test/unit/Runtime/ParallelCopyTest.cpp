//===- ParallelCopyTest.cpp - Row copies on several threads ---------------===//
#include "Support/ParallelCopy.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace clustrix::rt;

namespace {

/// Copies Rows x Width bytes of a pitched source into a pitched destination with copyRows,
/// and checks every byte: copied where it belongs, untouched between the rows.
/// With DstShift, the destination starts that many bytes past a 64-byte boundary (streaming
/// stores write aligned 16-byte blocks: the ragged ends go another way).
void check(size_t Rows, size_t Width, size_t SrcPitch, size_t DstPitch, unsigned Threads,
           size_t MinParallel, Stores How = Stores::Cached, size_t DstShift = 0) {
  std::vector<char> Src(Rows * SrcPitch), Space(Rows * DstPitch + 128, 'x');
  char *Dst = Space.data() + ((64 - reinterpret_cast<uintptr_t>(Space.data()) % 64) % 64) + DstShift;
  for (size_t I = 0; I < Src.size(); ++I)
    Src[I] = static_cast<char>((I * 131 + 7) % 251);
  copyRows(Dst, DstPitch, Src.data(), SrcPitch, Rows, Width, Threads, MinParallel, How);
  for (size_t R = 0; R < Rows; ++R)
    for (size_t C = 0; C < DstPitch; ++C) {
      char Want = C < Width ? Src[R * SrcPitch + C] : 'x';
      ASSERT_EQ(Dst[R * DstPitch + C], Want) << "row " << R << " column " << C;
    }
  for (const char *P = Space.data(); P < Dst; ++P)
    ASSERT_EQ(*P, 'x') << "written before the destination";
  for (const char *P = Dst + Rows * DstPitch; P < Space.data() + Space.size(); ++P)
    ASSERT_EQ(*P, 'x') << "written past the destination";
}

TEST(ParallelCopyTest, ManyRowsSplitAmongThreads) { check(4096, 1000, 1024, 1000, 4, 1); }

TEST(ParallelCopyTest, OneWideRowSplitByBytes) { check(1, 5u << 20, 5u << 20, 5u << 20, 3, 1); }

TEST(ParallelCopyTest, PartsEndInsideRows) { check(7, (3u << 20) + 13, (3u << 20) + 29, (3u << 20) + 13, 4, 1); }

TEST(ParallelCopyTest, SmallCopiesStayOnTheCallingThread) { check(3, 10, 16, 12, 8, 1u << 20); }

TEST(ParallelCopyTest, CallersOnSeveralThreadsShareThePool) {
  std::vector<std::thread> Callers;
  for (int T = 0; T < 4; ++T)
    Callers.emplace_back([T] {
      for (int Round = 0; Round < 5; ++Round)
        check(64 + T, (1u << 16) + 3 * T, (1u << 16) + 64, (1u << 16) + 3 * T, 3 + T, 1);
    });
  for (std::thread &C : Callers)
    C.join();
}

TEST(ParallelCopyTest, AChildOfForkCopiesWithThreadsOfItsOwn) {
  check(8, 3u << 20, 3u << 20, 3u << 20, 4, 1); // the parent's pool is running
  pid_t Child = fork();
  ASSERT_GE(Child, 0);
  if (Child == 0) {
    alarm(20); // a child waiting on its parent's threads would hang: it dies instead
    std::vector<char> Src(8u << 20, 'a'), Dst(8u << 20, 'b');
    copyRows(Dst.data(), 1u << 20, Src.data(), 1u << 20, 8, 1u << 20, 4, 1);
    _exit(Dst == Src ? 0 : 1);
  }
  int Status = 0;
  ASSERT_EQ(waitpid(Child, &Status, 0), Child);
  EXPECT_TRUE(WIFEXITED(Status) && WEXITSTATUS(Status) == 0) << "child status " << Status;
}

// Streaming stores (what packs pinned staging): every alignment of the destination, widths
// that are not multiples of 16, rows shorter than one block, one thread and several.
TEST(ParallelCopyTest, StreamingStoresAtEveryAlignment) {
  for (size_t Shift = 0; Shift < 17; ++Shift) {
    check(1, 5000, 5000, 5000, 1, 1, Stores::Streaming, Shift);
    check(9, 77, 80, 77, 1, 1, Stores::Streaming, Shift);
    check(5, 15, 31, 15, 1, 1, Stores::Streaming, Shift);
    check(3, 64, 64, 100, 1, 1, Stores::Streaming, Shift);
    check(2, 0x10000 + 5, 0x10000 + 9, 0x10000 + 5, 4, 1, Stores::Streaming, Shift);
  }
  check(7, (3u << 20) + 13, (3u << 20) + 29, (3u << 20) + 13, 4, 1, Stores::Streaming, 3);
}

TEST(ParallelCopyTest, NothingToCopy) {
  char D = 'x';
  copyRows(&D, 1, nullptr, 1, 0, 1, 4);
  copyRows(&D, 1, nullptr, 1, 4, 0, 4);
  EXPECT_EQ(D, 'x');
}

} // namespace
