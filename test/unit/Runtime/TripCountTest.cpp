//===- TripCountTest.cpp - Trip counts, induction values, runInPlace ------===//
//
// Exhaustive over 8-bit induction variables: every start, bound, comparison, direction and a
// set of step sizes, against the loop itself simulated in the type's own arithmetic. tripCount
// must be sound (when Ok, exactly the iterations the loop runs, visiting the values
// inductionValue gives) and complete where the loop ends without wrapping around.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Runtime.h"

#include <gtest/gtest.h>

#include <limits>
#include <vector>

using namespace clustrix::rt;

namespace {

bool holds(long V, long B, Cmp C) {
  switch (C) {
  case Cmp::LT: return V < B;
  case Cmp::LE: return V <= B;
  case Cmp::GT: return V > B;
  case Cmp::GE: return V >= B;
  case Cmp::NE: return V != B;
  }
  return false;
}

template <class T> void checkAll() {
  const long Min = std::numeric_limits<T>::min(), Max = std::numeric_limits<T>::max();
  const long Steps[] = {1, 2, 3, 7, 64, 127, Max - Min};
  const Cmp Cmps[] = {Cmp::LT, Cmp::LE, Cmp::GT, Cmp::GE, Cmp::NE};
  // A loop that wraps around visits at most every value once before it repeats itself.
  const long Cap = Max - Min + 2;
  long Checked = 0;
  for (long Init = Min; Init <= Max; ++Init)
    for (long Bound = Min; Bound <= Max; ++Bound)
      for (Cmp C : Cmps)
        for (long Step : Steps)
          for (bool Up : {true, false}) {
            auto Mag = static_cast<std::make_unsigned_t<T>>(Step);
            Trip R = tripCount<T>(static_cast<T>(Init), static_cast<T>(Bound), C, Mag, Up);
            // The loop as written: values in T; a step past T's range wraps (unsigned) or is
            // undefined (signed).
            long V = Init, N = 0;
            bool Wrapped = false;
            while (holds(V, Bound, C) && N < Cap) {
              if (R.Ok && static_cast<uint64_t>(N) < R.Count) {
                ASSERT_EQ(static_cast<long>(inductionValue<T>(static_cast<T>(Init), Mag, Up,
                                                               static_cast<uint64_t>(N))),
                          V);
              }
              ++N;
              V += Up ? Step : -Step;
              if (V < Min || V > Max) {
                Wrapped = true;
                // Signed: undefined behaviour, no count is right. Unsigned with an ordering
                // comparison: tripCount promises Ok only for loops that never wrap.
                if (std::is_signed<T>::value || C != Cmp::NE)
                  break;
                V = ((V - Min) % (Max - Min + 1) + (Max - Min + 1)) % (Max - Min + 1) + Min;
              }
            }
            bool Ends = !Wrapped ? !holds(V, Bound, C) : C == Cmp::NE && !std::is_signed<T>::value &&
                                                             !holds(V, Bound, C);
            ++Checked;
            if (R.Ok) {
              ASSERT_TRUE(Ends) << "Ok for a loop that does not end: init " << Init << " bound "
                                << Bound << " step " << Step << " up " << Up;
              ASSERT_EQ(R.Count, static_cast<uint64_t>(N))
                  << "init " << Init << " bound " << Bound << " cmp " << int(C) << " step "
                  << Step << " up " << Up;
            } else if (Ends && !Wrapped) {
              ADD_FAILURE() << "not Ok for a clean loop: init " << Init << " bound " << Bound
                            << " cmp " << int(C) << " step " << Step << " up " << Up;
              return;
            }
          }
  EXPECT_EQ(Checked, 256L * 256 * 5 * 7 * 2);
}

TEST(TripCountTest, ExhaustiveInt8) { checkAll<int8_t>(); }
TEST(TripCountTest, ExhaustiveUint8) { checkAll<uint8_t>(); }

TEST(TripCountTest, ZeroStepAndWideCounts) {
  EXPECT_FALSE((tripCount<int>(0, 10, Cmp::LT, 0u, true).Ok));
  Trip T = tripCount<int64_t>(std::numeric_limits<int64_t>::min(),
                              std::numeric_limits<int64_t>::max(), Cmp::LT, 1u, true);
  ASSERT_TRUE(T.Ok);
  EXPECT_EQ(T.Count, std::numeric_limits<uint64_t>::max());
  EXPECT_FALSE((tripCount<uint64_t>(0, std::numeric_limits<uint64_t>::max(), Cmp::LE, 1u, true).Ok));
  EXPECT_EQ((inductionValue<int>(10, 3u, false, 4)), -2);
  EXPECT_EQ((stepMagnitude<int, int>(-5)), 5u);
  EXPECT_FALSE(stepUp(-1));
}

} // namespace

// runInPlace: the whole range, once, in order, on the caller's own variables.
TEST(RunInPlaceTest, RunsEverythingInOrderOnTheCallersVariables) {
  double Sum = 0.25;
  std::vector<int> Picked = {-1};
  std::vector<uint64_t> Seen;
  int Device = 7;
  auto Chunk = [&](uint64_t Lo, uint64_t Hi, ChunkContext &Ctx) {
    Device = Ctx.Device;
    double &S = partial<double>(Ctx, 0);
    auto &P = appendBuffer<std::vector<int>>(Ctx, 0);
    for (uint64_t K = Lo; K < Hi; ++K) {
      Seen.push_back(K);
      S += 0.1 * double(K);
      if (K % 3 == 0)
        P.push_back(int(K));
    }
  };
  void *Own[] = {ownAddress(Sum), ownAddress(Picked)};
  runInPlace(Chunk, 10, Own, 1);
  double Expected = 0.25;
  for (uint64_t K = 0; K < 10; ++K)
    Expected += 0.1 * double(K);
  EXPECT_EQ(Sum, Expected); // the same additions in the same order: bit for bit
  EXPECT_EQ(Picked, (std::vector<int>{-1, 0, 3, 6, 9}));
  EXPECT_EQ(Seen.size(), 10u);
  for (uint64_t K = 0; K < Seen.size(); ++K)
    EXPECT_EQ(Seen[K], K);
  EXPECT_EQ(Device, -1);
}

TEST(RunInPlaceTest, WithoutReductionsOrAppends) {
  int Calls = 0;
  uint64_t Range = 0;
  auto Chunk = [&](uint64_t Lo, uint64_t Hi, ChunkContext &Ctx) {
    ++Calls;
    Range = Hi - Lo;
    EXPECT_EQ(Ctx.Partials, nullptr);
    EXPECT_EQ(Ctx.AppendBuffers, nullptr);
  };
  runInPlace(Chunk, 42, nullptr, 0);
  EXPECT_EQ(Calls, 1);
  EXPECT_EQ(Range, 42u);
}

// ownAddress sees through an overloaded operator&.
struct Odd {
  int V = 0;
  Odd *operator&() { return nullptr; }
};
TEST(RunInPlaceTest, OwnAddressIgnoresOverloadedAddressOf) {
  Odd O;
  EXPECT_EQ(ownAddress(O), static_cast<void *>(reinterpret_cast<char *>(&O.V)));
}
