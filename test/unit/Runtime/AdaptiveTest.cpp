//===- AdaptiveTest.cpp - Tests of the measured serial/wide choice --------===//
#include "Plan/Adaptive.h"
#include "Plan/Planner.h"

#include <gtest/gtest.h>

using namespace clustrix;
using namespace clustrix::rt;

namespace {

/// Runs one call: the mode the choice asks for, reported with the time Times gives for it.
template <class F> RunMode call(AdaptiveChoice &A, RunMode Static, F Times) {
  RunMode M = A.next(Static);
  if (A.measuring()) {
    auto [Ns, Share] = Times(M);
    A.record(M, Ns, Share);
  }
  return M;
}

/// Times of a loop: SerialNs serially, WideNs wide with the caller's share WideShareNs.
struct Costs {
  double SerialNs, WideNs, WideShareNs;
  std::pair<double, double> operator()(RunMode M) const {
    return M == RunMode::Serial ? std::make_pair(SerialNs, 0.0)
                                : std::make_pair(WideNs, WideShareNs);
  }
};

/// A whole round from its start; returns the modes of its calls.
std::vector<RunMode> round(AdaptiveChoice &A, RunMode Static, Costs C) {
  std::vector<RunMode> Modes;
  A.startRound(Static);
  while (A.measuring())
    Modes.push_back(call(A, Static, C));
  return Modes;
}

} // namespace

TEST(AdaptiveTest, TripClassesDoubleInSize) {
  EXPECT_EQ(tripClass(0), 0u);
  EXPECT_EQ(tripClass(1), 1u);
  EXPECT_EQ(tripClass(2), 2u);
  EXPECT_EQ(tripClass(3), 2u);
  EXPECT_EQ(tripClass(4), 3u);
  EXPECT_EQ(tripClass(4095), 12u);
  EXPECT_EQ(tripClass(4096), 13u);
  EXPECT_EQ(tripClass(~uint64_t(0)), 64u);
  EXPECT_LT(tripClass(~uint64_t(0)), NumTripClasses);
}

TEST(AdaptiveTest, UnmeasuredFollowsTheStaticDecision) {
  AdaptiveChoice A;
  EXPECT_FALSE(A.settled());
  EXPECT_FALSE(A.measuring());
  EXPECT_EQ(A.next(RunMode::Wide), RunMode::Wide);
  EXPECT_EQ(A.next(RunMode::Serial), RunMode::Serial);
  EXPECT_EQ(A.describe(2), "");
}

TEST(AdaptiveTest, KeepsTheFasterModeByMedian) {
  AdaptiveChoice A;
  // Serial 4.1 us, wide 6.3 us: the round alternates blocks, the static decision (wide) first.
  std::vector<RunMode> Modes = round(A, RunMode::Wide, {4100, 6300, 3000});
  const RunMode S = RunMode::Serial, W = RunMode::Wide;
  EXPECT_EQ(Modes, (std::vector<RunMode>{W, W, W, S, S, S, W, W, W, S, S, S}));
  ASSERT_TRUE(A.settled());
  EXPECT_EQ(A.choice(), RunMode::Serial);
  EXPECT_EQ(A.basis(), AdaptiveChoice::Basis::Measured);
  EXPECT_DOUBLE_EQ(A.serialNs(), 4100);
  EXPECT_DOUBLE_EQ(A.wideNs(), 6300);
  EXPECT_EQ(A.describe(2), "measured 4.10 us serial, 6.30 us on 2 devices");
  EXPECT_EQ(A.next(RunMode::Wide), RunMode::Serial);

  AdaptiveChoice B;
  round(B, RunMode::Serial, {9000, 5000, 4000});
  EXPECT_EQ(B.choice(), RunMode::Wide);
  EXPECT_EQ(B.describe(2), "measured 5.00 us on 2 devices, 9.00 us serial");
}

TEST(AdaptiveTest, WideMustWinByAMargin) {
  // Wide 2.5 % faster than serial: within the noise, and it would take both cores for it.
  AdaptiveChoice A;
  round(A, RunMode::Wide, {4000, 3900, 2000});
  EXPECT_EQ(A.choice(), RunMode::Serial);
  EXPECT_EQ(A.describe(2), "measured 4.00 us serial, 3.90 us on 2 devices, less than 5 % faster");
  // 10 % faster: wide.
  AdaptiveChoice B;
  round(B, RunMode::Serial, {4000, 3600, 1800});
  EXPECT_EQ(B.choice(), RunMode::Wide);
}

TEST(AdaptiveTest, FirstCallOfEachBlockIsNotCounted) {
  AdaptiveChoice A;
  A.startRound(RunMode::Serial);
  // Block 1 (serial): a cold first call of 1 ms, then 5 us twice.
  EXPECT_FALSE(A.recordsNext());
  A.record(RunMode::Serial, 1e6);
  EXPECT_TRUE(A.recordsNext());
  A.record(RunMode::Serial, 5000);
  A.record(RunMode::Serial, 5000);
  // Block 2 (wide): a cold first call, then 4 us.
  EXPECT_EQ(A.next(RunMode::Serial), RunMode::Wide);
  A.record(RunMode::Wide, 1e6, 1000);
  A.record(RunMode::Wide, 4000, 2000);
  A.record(RunMode::Wide, 4000, 2000);
  for (int I = 0; I < 3; ++I)
    A.record(RunMode::Serial, I == 0 ? 1e6 : 5000);
  for (int I = 0; I < 3; ++I)
    A.record(RunMode::Wide, I == 0 ? 1e6 : 4000, 2000);
  ASSERT_FALSE(A.measuring());
  EXPECT_EQ(A.choice(), RunMode::Wide);
  EXPECT_DOUBLE_EQ(A.serialNs(), 5000);
  EXPECT_DOUBLE_EQ(A.wideNs(), 4000);
}

TEST(AdaptiveTest, ACallInTheWrongModeIsNoSample) {
  AdaptiveChoice A;
  A.startRound(RunMode::Wide);
  // The pool was busy: the wide call ran serially, in 1 ns; it must not count for either mode.
  A.record(RunMode::Wide, 7000, 3000);
  A.record(RunMode::Serial, 1);
  A.record(RunMode::Serial, 1);
  for (int I = 0; I < 3; ++I)
    A.record(RunMode::Serial, 6000);
  for (int I = 0; I < 3; ++I)
    A.record(RunMode::Wide, 7000, 3000);
  for (int I = 0; I < 3; ++I)
    A.record(RunMode::Serial, 6000);
  ASSERT_FALSE(A.measuring());
  EXPECT_EQ(A.choice(), RunMode::Serial);
  EXPECT_DOUBLE_EQ(A.serialNs(), 6000);
  EXPECT_DOUBLE_EQ(A.wideNs(), 7000); // the third block's
}

TEST(AdaptiveTest, TinySerialCallsStaySerialWithoutAWideCall) {
  AdaptiveChoice A;
  std::vector<RunMode> Modes = round(A, RunMode::Serial, {400, 5000, 2000});
  EXPECT_EQ(Modes.size(), AdaptiveChoice::BlockCalls);
  for (RunMode M : Modes)
    EXPECT_EQ(M, RunMode::Serial);
  EXPECT_EQ(A.choice(), RunMode::Serial);
  EXPECT_EQ(A.basis(), AdaptiveChoice::Basis::Tiny);
  EXPECT_EQ(A.describe(2), "measured 0.40 us serial, under the 1.00 us that any launch costs");
}

TEST(AdaptiveTest, LongScalingWideCallsStayWideWithoutASerialCall) {
  AdaptiveChoice A;
  std::vector<RunMode> Modes = round(A, RunMode::Wide, {0, 2.2e6, 2e6});
  EXPECT_EQ(Modes.size(), AdaptiveChoice::BlockCalls);
  EXPECT_EQ(A.choice(), RunMode::Wide);
  EXPECT_EQ(A.basis(), AdaptiveChoice::Basis::Long);
  EXPECT_EQ(A.describe(2), "measured 2.200 ms on 2 devices, long enough that a launch costs little");
  // Long but the caller waited for the other lanes (a busy machine): measured against serial,
  // which is decisively faster at its first counted call (its block's second).
  AdaptiveChoice B;
  Modes = round(B, RunMode::Wide, {1.5e6, 4e6, 1e6});
  const RunMode S = RunMode::Serial, W = RunMode::Wide;
  EXPECT_EQ(Modes, (std::vector<RunMode>{W, W, W, S, S}));
  EXPECT_EQ(B.choice(), RunMode::Serial);
  EXPECT_EQ(B.basis(), AdaptiveChoice::Basis::Measured);
  // Close (1.5 ms serial, 1.2 ms wide): the whole round.
  AdaptiveChoice C;
  Modes = round(C, RunMode::Wide, {1.5e6, 1.2e6, 0.3e6});
  EXPECT_EQ(Modes.size(), AdaptiveChoice::BlockCalls * AdaptiveChoice::RoundBlocks);
  EXPECT_EQ(C.choice(), RunMode::Wide);
}

TEST(AdaptiveTest, ADecisiveGapEndsTheRound) {
  // Particlefilter's resampling loop: 37 ms wide, but unbalanced (the caller's share 10 ms, so
  // not trusted), 74 ms serially. Calls that long count as the first of their block: one
  // serial call decides, where the whole round would have run three of nine calls serially.
  AdaptiveChoice A;
  std::vector<RunMode> Modes = round(A, RunMode::Wide, {74e6, 37e6, 10e6});
  const RunMode S = RunMode::Serial, W = RunMode::Wide;
  EXPECT_EQ(Modes, (std::vector<RunMode>{W, W, W, S}));
  EXPECT_EQ(A.choice(), RunMode::Wide);
  EXPECT_EQ(A.basis(), AdaptiveChoice::Basis::Measured);
  EXPECT_DOUBLE_EQ(A.serialNs(), 74e6);
  EXPECT_DOUBLE_EQ(A.wideNs(), 37e6);
  EXPECT_EQ(A.countdown(), AdaptiveChoice::FirstInterval);
  // Short calls wait for their block's second call; a gap just short of decisive does not end
  // the round (serial 10 us, wide 6.1 us: 0.61).
  AdaptiveChoice B;
  Modes = round(B, RunMode::Serial, {10000, 5000, 2500});
  EXPECT_EQ(Modes, (std::vector<RunMode>{S, S, S, W, W}));
  EXPECT_EQ(B.choice(), RunMode::Wide);
  AdaptiveChoice C;
  Modes = round(C, RunMode::Serial, {10000, 6100, 3000});
  EXPECT_EQ(Modes.size(), AdaptiveChoice::BlockCalls * AdaptiveChoice::RoundBlocks);
  EXPECT_EQ(C.choice(), RunMode::Wide);
  // A slow first call of a short loop is still no sample: a cold 1 ms first serial call and
  // 5 us ones against 4 us wide stay a whole round (FirstCallOfEachBlockIsNotCounted).
}

TEST(AdaptiveTest, MeasuresAgainLessOftenWhenConfirmed) {
  AdaptiveChoice A;
  round(A, RunMode::Wide, {4000, 4100, 2000}); // 2.5 % apart: the first interval
  EXPECT_EQ(A.countdown(), AdaptiveChoice::FirstInterval);
  round(A, RunMode::Wide, {4000, 4100, 2000});
  EXPECT_EQ(A.countdown(), 2 * AdaptiveChoice::FirstInterval);
  round(A, RunMode::Wide, {4000, 4100, 2000});
  EXPECT_EQ(A.countdown(), 4 * AdaptiveChoice::FirstInterval);
  // The other mode wins: back to the first interval.
  round(A, RunMode::Wide, {5000, 4000, 2000});
  EXPECT_EQ(A.choice(), RunMode::Wide);
  EXPECT_EQ(A.countdown(), AdaptiveChoice::FirstInterval);
  // Far apart: the round's slower calls are spread over more calls, to stay near 1 %.
  round(A, RunMode::Wide, {20000, 4000, 2000});
  EXPECT_EQ(A.countdown(), 2400u); // 100 x 6 slower calls x 4 (the loss, 400 %)
  EXPECT_EQ(A.rounds(), 5u);
  // A later round leads with the choice, whatever the static decision says.
  A.startRound(RunMode::Serial);
  EXPECT_EQ(A.next(RunMode::Serial), RunMode::Wide);
}

TEST(AdaptiveTest, AFarApartVerdictIsSpacedOnlyOnceConfirmed) {
  // One round that saw every wide call slow (a worker sharing the caller's CPU for a few
  // milliseconds) must not hold serial for thousands of calls: it is checked again after the
  // first interval, and spaced by its gap only when the next round agrees.
  AdaptiveChoice A;
  round(A, RunMode::Wide, {2000, 20000, 1000});
  EXPECT_EQ(A.choice(), RunMode::Serial);
  EXPECT_EQ(A.countdown(), AdaptiveChoice::FirstInterval);
  round(A, RunMode::Wide, {2000, 20000, 1000});
  EXPECT_EQ(A.choice(), RunMode::Serial);
  EXPECT_EQ(A.countdown(), 5400u); // 100 x 6 slower calls x 9 (the loss, 900 %)
  // The machine is itself again: the next round puts it right and starts over.
  round(A, RunMode::Wide, {2000, 1200, 1000});
  EXPECT_EQ(A.choice(), RunMode::Wide);
  EXPECT_EQ(A.countdown(), AdaptiveChoice::FirstInterval);
}

TEST(AdaptiveTest, BelowThresholdStillPlansAWideRun) {
  RuntimeConfig C;
  LoopInfo I{};
  I.AbiVersion = CLUSTRIX_RT_ABI_VERSION;
  I.WorkPerIter = 1;
  Decision D = decide(I, 3000, C, 2, true);
  EXPECT_FALSE(D.Wide);
  EXPECT_TRUE(D.BelowThreshold);
  EXPECT_EQ(D.NumLanes, 2u);
  EXPECT_NE(D.Reason.find("below serial_threshold"), std::string::npos);
  // Too few iterations for two devices: not a candidate for measuring.
  D = decide(I, 40, C, 2, true);
  EXPECT_FALSE(D.Wide);
  EXPECT_FALSE(D.BelowThreshold);
  // Without Explain, no reason is written.
  EXPECT_EQ(decide(I, 3000, C, 2, true, /*Explain=*/false).Reason, "");
}
