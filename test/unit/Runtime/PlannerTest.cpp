//===- PlannerTest.cpp - Tests of the chunk planner -----------------------===//
#include "Plan/Planner.h"

#include <gtest/gtest.h>

#include <numeric>

using namespace clustrix;
using namespace clustrix::rt;

namespace {

LoopInfo loop() {
  LoopInfo I{};
  I.AbiVersion = CLUSTRIX_RT_ABI_VERSION;
  I.File = "t.cpp";
  I.Line = 1;
  I.WorkPerIter = 1;
  return I;
}

/// Every iteration of [0, N) in exactly one chunk, chunks sorted and contiguous.
void expectCover(const Plan &P, uint64_t N) {
  uint64_t Next = 0;
  for (const Chunk &C : P.Chunks) {
    EXPECT_EQ(C.Lo, Next);
    EXPECT_LT(C.Lo, C.Hi);
    Next = C.Hi;
  }
  EXPECT_EQ(Next, N);
}

TEST(PlannerTest, SplitWeightedFollowsWeightsAndSumsExactly) {
  std::vector<uint64_t> S = splitWeighted(1000, {1, 1, 2});
  EXPECT_EQ(S, (std::vector<uint64_t>{250, 250, 500}));
  S = splitWeighted(10, {1, 1, 1});
  EXPECT_EQ(std::accumulate(S.begin(), S.end(), uint64_t(0)), 10u);
  EXPECT_EQ(S, (std::vector<uint64_t>{4, 3, 3})); // leftover to the lowest index on ties
  S = splitWeighted(7, {0, 3, 0, 1});
  EXPECT_EQ(S[0], 0u);
  EXPECT_EQ(S[2], 0u);
  EXPECT_EQ(S[1] + S[3], 7u);
  EXPECT_EQ(splitWeighted(5, {0, 0}), (std::vector<uint64_t>{3, 2})); // no information: equal
  // A GPU weighing 2000 CPU workers next to four workers.
  S = splitWeighted(1000000, {2000, 1, 1, 1, 1});
  EXPECT_GT(S[0], 997000u);
  EXPECT_EQ(std::accumulate(S.begin(), S.end(), uint64_t(0)), 1000000u);
}

TEST(PlannerTest, BlockPlansAreWeightedAndDropEmptyShares) {
  Plan P = planBlock(10, {1, 1, 1, 1});
  expectCover(P, 10);
  EXPECT_EQ(P.NumLanes, 4u);
  EXPECT_EQ(P.Chunks[0].Hi - P.Chunks[0].Lo, 3u);
  EXPECT_EQ(P.Chunks[3].Hi - P.Chunks[3].Lo, 2u);
  P = planBlock(3, {1, 1, 1, 1, 1});
  expectCover(P, 3);
  EXPECT_EQ(P.NumLanes, 3u);
  for (size_t J = 0; J < P.Chunks.size(); ++J)
    EXPECT_EQ(P.laneOf(J), J);
}

TEST(PlannerTest, CyclicAndDynamicCoverEveryIterationOnce) {
  for (uint64_t N : {1u, 2u, 7u, 64u, 1000u, 1023u})
    for (unsigned Lanes : {1u, 2u, 3u, 8u})
      for (uint64_t K : {1u, 3u, 16u, 2000u}) {
        Plan C = planCyclic(N, Lanes, K);
        expectCover(C, N);
        Plan D = planDynamic(N, Lanes, K);
        expectCover(D, N);
        EXPECT_LE(C.NumLanes, Lanes);
        EXPECT_EQ(C.NumLanes, std::min<uint64_t>(Lanes, C.Chunks.size()));
        // Per lane, the chunks a static plan gives it, counted: each iteration exactly once.
        std::vector<int> Seen(N, 0);
        for (unsigned L = 0; L < C.NumLanes; ++L)
          for (size_t J = L; J < C.Chunks.size(); J += C.NumLanes)
            for (uint64_t I = C.Chunks[J].Lo; I < C.Chunks[J].Hi; ++I)
              ++Seen[I];
        for (int S : Seen)
          ASSERT_EQ(S, 1);
      }
}

// One lane would take every chunk of a cyclic or dynamic plan, in order: the plan is one chunk
// of the whole range (one launch on a GPU). Two lanes still get chunks of the size asked for.
TEST(PlannerTest, OneLaneGetsOneChunk) {
  for (uint64_t N : {1u, 7u, 1000u, 1023u})
    for (uint64_t K : {1u, 16u, 2000u})
      for (Schedule S : {Schedule::Cyclic, Schedule::Dynamic}) {
        Plan P = S == Schedule::Cyclic ? planCyclic(N, 1, K) : planDynamic(N, 1, K);
        ASSERT_EQ(P.Chunks.size(), 1u) << N << " iterations, chunk size " << K;
        EXPECT_EQ(P.Chunks[0].Lo, 0u);
        EXPECT_EQ(P.Chunks[0].Hi, N);
        EXPECT_EQ(P.NumLanes, 1u);
        EXPECT_EQ(P.Sched, S);
        EXPECT_EQ(P.ChunkSize, N);
        // A collapsed nest on one lane: one chunk too, ending at the trip count.
        Plan A = planAligned(S, N, 10, {1.0}, K);
        ASSERT_EQ(A.Chunks.size(), 1u);
        EXPECT_EQ(A.Chunks[0].Lo, 0u);
        EXPECT_EQ(A.Chunks[0].Hi, N);
      }
  EXPECT_TRUE(planCyclic(0, 1, 16).Chunks.empty());
  EXPECT_TRUE(planDynamic(0, 1, 16).Chunks.empty());
  Plan Two = planCyclic(1000, 2, 16);
  EXPECT_EQ(Two.Chunks.size(), 63u);
  EXPECT_EQ(Two.NumLanes, 2u);
  EXPECT_EQ(Two.ChunkSize, 16u);
  EXPECT_EQ(planDynamic(1000, 2, 16).Chunks.size(), 63u);
}

TEST(PlannerTest, DecideHonoursThresholdsAndMinimumIterations) {
  RuntimeConfig C;
  LoopInfo I = loop();
  Decision D = decide(I, 1000, C, 8, true);
  EXPECT_FALSE(D.Wide); // 1000 x 1 below 32768
  EXPECT_NE(D.Reason.find("serial_threshold"), std::string::npos);
  I.WorkPerIter = 100;
  D = decide(I, 1000, C, 8, true);
  ASSERT_TRUE(D.Wide);
  EXPECT_EQ(D.NumLanes, 8u);
  C.SerialThreshold = 0;
  I.WorkPerIter = 1;
  EXPECT_EQ(decide(I, 240, C, 8, true).NumLanes, 8u);  // 8 x 30
  EXPECT_EQ(decide(I, 239, C, 8, true).NumLanes, 7u);
  EXPECT_EQ(decide(I, 60, C, 8, true).NumLanes, 2u);
  EXPECT_FALSE(decide(I, 59, C, 8, true).Wide);        // one CPU device: serial
  D = decide(I, 59, C, 8, false);                       // one GPU: still offloaded
  EXPECT_TRUE(D.Wide);
  EXPECT_EQ(D.NumLanes, 1u);
  I.MinItersPerDevice = 100; // the clause beats the configuration
  EXPECT_EQ(decide(I, 250, C, 8, true).NumLanes, 2u);
  I.MinItersPerDevice = 0;
  I.MaxDevices = 3;
  EXPECT_EQ(decide(I, 100000, C, 8, true).NumLanes, 3u);
  I.MaxDevices = 0;
  C.MaxGpuParallelJobs = 2;
  EXPECT_EQ(decide(I, 100000, C, 8, true).NumLanes, 2u);
  C.MaxGpuParallelJobs = 0;
  I.ForceDisabled = 1;
  EXPECT_FALSE(decide(I, 100000, C, 8, true).Wide);
  I.ForceDisabled = 0;
  C.AutoGpuParallel = false;
  EXPECT_FALSE(decide(I, 100000, C, 8, true).Wide);
  C.AutoGpuParallel = true;
  EXPECT_FALSE(decide(I, 100000, C, 0, true).Wide);
}

TEST(PlannerTest, DecidePicksScheduleAndBoundsChunkCount) {
  RuntimeConfig C;
  C.SerialThreshold = 0;
  LoopInfo I = loop();
  EXPECT_EQ(decide(I, 1000, C, 4, true).Sched, Schedule::Block);
  C.DefaultSchedule = Schedule::Dynamic;
  Decision D = decide(I, 1000, C, 4, true);
  EXPECT_EQ(D.Sched, Schedule::Dynamic);
  EXPECT_EQ(D.ChunkSize, defaultChunkSize(Schedule::Dynamic, 1000, 4));
  I.Sched = Schedule::Cyclic;
  I.ChunkSize = 7;
  D = decide(I, 1000, C, 4, true);
  EXPECT_EQ(D.Sched, Schedule::Cyclic);
  EXPECT_EQ(D.ChunkSize, 7u);
  I.ChunkSize = 1;
  D = decide(I, uint64_t(1) << 30, C, 4, true);
  EXPECT_GE(D.ChunkSize * MaxChunks, uint64_t(1) << 30);
}

TEST(PlannerTest, MemorySplitKeepsEachPieceWithinBudget) {
  // 8 bytes per iteration plus 100 fixed.
  auto Bytes = [](uint64_t Lo, uint64_t Hi) { return 100 + 8 * (Hi - Lo); };
  std::vector<Chunk> Out;
  ASSERT_TRUE(splitForMemory(0, 1000, Bytes, 100000, Out));
  ASSERT_EQ(Out.size(), 1u);
  ASSERT_TRUE(splitForMemory(10, 1010, Bytes, 900, Out));
  ASSERT_EQ(Out.size(), 10u); // 100 iterations of 8 bytes + 100 = 900
  uint64_t Next = 10;
  for (const Chunk &C : Out) {
    EXPECT_EQ(C.Lo, Next);
    EXPECT_LE(Bytes(C.Lo, C.Hi), 900u);
    Next = C.Hi;
  }
  EXPECT_EQ(Next, 1010u);
  EXPECT_FALSE(splitForMemory(0, 10, Bytes, 107, Out)); // one iteration needs 108
  EXPECT_TRUE(Out.empty());
  // A footprint that grows unevenly (a 2-D box growing by whole rows).
  auto Rows = [](uint64_t Lo, uint64_t Hi) { return ((Hi + 9) / 10 - Lo / 10) * 80; };
  ASSERT_TRUE(splitForMemory(0, 95, Rows, 250, Out));
  for (const Chunk &C : Out)
    EXPECT_LE(Rows(C.Lo, C.Hi), 250u);
}

} // namespace

// A collapsed nest of 7 rows x 10 columns (70 iterations, the last row short when the trip count
// is not a multiple): every chunk starts and ends on a row, and all iterations are covered once.
TEST(PlannerTest, AlignedPlansCutOnWholeRows) {
  for (Schedule S : {Schedule::Block, Schedule::Cyclic, Schedule::Dynamic})
    for (uint64_t Trip : {70ull, 65ull, 10ull}) {
      Plan P = planAligned(S, Trip, 10, {1.0, 1.0, 2.0}, S == Schedule::Block ? 0 : 15);
      std::vector<int> Seen(Trip, 0);
      for (const Chunk &C : P.Chunks) {
        EXPECT_EQ(C.Lo % 10, 0u) << "chunk starts inside a row";
        EXPECT_TRUE(C.Hi % 10 == 0 || C.Hi == Trip) << "chunk ends inside a row";
        for (uint64_t I = C.Lo; I < C.Hi; ++I)
          ++Seen[I];
      }
      for (uint64_t I = 0; I < Trip; ++I)
        ASSERT_EQ(Seen[I], 1) << "iteration " << I << " of " << Trip;
      if (S != Schedule::Block) {
        EXPECT_EQ(P.ChunkSize % 10, 0u); // 15 iterations round up to 2 rows
      }
    }
}

// A triangular nest: iteration i does 100 - i units. Two equal lanes split the work, not the
// iterations: the first ends near 29 (100 * (1 - 1/sqrt 2)); unequal weights move the split;
// every lane keeps an iteration; work that does not vary gives planBlock's plan.
TEST(PlannerTest, BalancedBlockSharesTheWork) {
  std::vector<double> Work;
  for (int S = 0; S < 100; ++S)
    Work.push_back(100 - S);
  Plan P = planBlockBalanced(100, {1, 1}, Work);
  ASSERT_EQ(P.Chunks.size(), 2u);
  EXPECT_EQ(P.Chunks[0].Lo, 0u);
  EXPECT_EQ(P.Chunks[0].Hi, 30u);
  EXPECT_EQ(P.Chunks[1].Lo, 30u);
  EXPECT_EQ(P.Chunks[1].Hi, 100u);
  P = planBlockBalanced(100, {3, 1}, Work); // three quarters of the work first (50.8)
  ASSERT_EQ(P.Chunks.size(), 2u);
  EXPECT_EQ(P.Chunks[0].Hi, 51u);
  // Eight samples of the same line: the same split, interpolated.
  std::vector<double> Few;
  for (int S = 0; S < 8; ++S)
    Few.push_back(100 - S * 99.0 / 7);
  P = planBlockBalanced(100, {1, 1}, Few);
  EXPECT_EQ(P.Chunks[0].Hi, 30u);
  // All the work at the end: each lane still gets an iteration.
  std::vector<double> Late(100, 0.0);
  Late[99] = 1e9;
  P = planBlockBalanced(100, {1, 1, 1}, Late);
  ASSERT_EQ(P.Chunks.size(), 3u);
  EXPECT_EQ(P.Chunks[2].Lo, 99u);
  EXPECT_EQ(P.Chunks[2].Hi, 100u);
  EXPECT_GE(P.Chunks[1].Hi - P.Chunks[1].Lo, 1u);
  // Uniform work, one sample, too few iterations: planBlock.
  for (const auto &[W, Trip] : {std::make_pair(std::vector<double>(10, 5.0), 100ull),
                                std::make_pair(std::vector<double>{7.0}, 100ull),
                                std::make_pair(Work, 3ull)}) {
    Plan A = planBlockBalanced(Trip, {1, 1}, W), B = planBlock(Trip, {1, 1});
    ASSERT_EQ(A.Chunks.size(), B.Chunks.size());
    for (size_t C = 0; C < A.Chunks.size(); ++C) {
      EXPECT_EQ(A.Chunks[C].Lo, B.Chunks[C].Lo);
      EXPECT_EQ(A.Chunks[C].Hi, B.Chunks[C].Hi);
    }
  }
}

