//===- TripCountTest.cpp - tripCount and inductionValue of Runtime.h ------===//
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
