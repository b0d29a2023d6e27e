//===- BoxProgramTest.cpp - Box programs evaluated by the runtime ----------===//
#include "clustrix/Runtime.h"

#include <gtest/gtest.h>

using namespace clustrix::rt;

// for i: x[i-1] and x[i+1] read, a[i][j] written for j in [0, m-1]: variables are k0 (index 0),
// j (1), m (2).
TEST(BoxProgramTest, HullsOfAccessesOverAChunk) {
  static const BoxTerm Terms[] = {
      {1, 1, {0, 0, 0, 0}},  // 0: k0
      {-1, 0, {0, 0, 0, 0}}, // 1: -1
      {1, 1, {0, 0, 0, 0}},  // 2: k0
      {1, 0, {0, 0, 0, 0}},  // 3: +1
      {1, 1, {0, 0, 0, 0}},  // 4: k0
      {1, 1, {1, 0, 0, 0}},  // 5: j
      {0, 0, {0, 0, 0, 0}},  // 6: 0 (j's lower bound)
      {1, 1, {2, 0, 0, 0}},  // 7: m
      {-1, 0, {0, 0, 0, 0}}, // 8: -1 (j's upper bound m-1)
  };
  static const BoxExpr Exprs[] = {{0, 2}, {2, 2}, {4, 1}, {5, 1}, {6, 1}, {7, 2}};
  static const uint16_t Inner[] = {4, 5};
  static const BoxAccess Accesses[] = {{0, 0, 0}, {0, 1, 0}, {1, 2, 1}};
  static const uint8_t Rank[] = {1, 2};
  static const BoxProgram P = {1, 1, 1, Terms, Exprs, Inner, Accesses, 3, Rank, 2, nullptr};
  const uint64_t Trips[] = {100};
  const int64_t Syms[] = {8};
  Box Out[2];
  evalBoxHulls(P, Trips, Syms, 10, 20, Out);
  EXPECT_EQ(Out[0].Lo[0], 9);
  EXPECT_EQ(Out[0].Hi[0], 21); // x[9] .. x[20]
  EXPECT_EQ(Out[1].Lo[0], 10);
  EXPECT_EQ(Out[1].Hi[0], 20);
  EXPECT_EQ(Out[1].Lo[1], 0);
  EXPECT_EQ(Out[1].Hi[1], 8);
  EXPECT_EQ(Out[0].Hi[1], 1); // unused dimensions are [0, 1)

  // m == 0: the inner loop never runs, so a[][] is untouched; x is still read.
  const int64_t Zero[] = {0};
  evalBoxHulls(P, Trips, Zero, 10, 20, Out);
  EXPECT_EQ(Out[1].Lo[0], Out[1].Hi[0]);
  EXPECT_EQ(Out[0].Hi[0], 21);
}

// collapse(2) over 5 x 10: rows whole when the chunk covers several, exact within one row.
TEST(BoxProgramTest, CollapsedNestRowsAndColumns) {
  static const BoxTerm Terms[] = {{1, 1, {0, 0, 0, 0}}, {1, 1, {1, 0, 0, 0}}};
  static const BoxExpr Exprs[] = {{0, 1}, {1, 1}};
  static const BoxAccess Accesses[] = {{0, 0, 1}};
  static const uint8_t Rank[] = {2};
  static const BoxProgram P = {2, 0, 0, Terms, Exprs, nullptr, Accesses, 1, Rank, 1, nullptr};
  const uint64_t Trips[] = {5, 10};
  Box Out[1];
  evalBoxHulls(P, Trips, nullptr, 20, 40, Out); // rows 2 and 3, whole
  EXPECT_EQ(Out[0].Lo[0], 2);
  EXPECT_EQ(Out[0].Hi[0], 4);
  EXPECT_EQ(Out[0].Lo[1], 0);
  EXPECT_EQ(Out[0].Hi[1], 10);
  evalBoxHulls(P, Trips, nullptr, 23, 27, Out); // row 2, columns 3..6
  EXPECT_EQ(Out[0].Lo[0], 2);
  EXPECT_EQ(Out[0].Hi[0], 3);
  EXPECT_EQ(Out[0].Lo[1], 3);
  EXPECT_EQ(Out[0].Hi[1], 7);
}

// programBoxes: the hulls of the program, completed with each region's frame; a region read
// whole gets [WholeLo, WholeHi) whatever the chunk.
TEST(BoxProgramTest, ProgramBoxesAppliesFrames) {
  static const BoxTerm Terms[] = {{2, 1, {0, 0, 0, 0}}, {1, 0, {0, 0, 0, 0}}};
  static const BoxExpr Exprs[] = {{0, 2}}; // 2*k0 + 1
  static const BoxAccess Accesses[] = {{0, 0, 1}};
  static const uint8_t Rank[] = {1, 1};
  static const BoxProgram P = {1, 0, 0, Terms, Exprs, nullptr, Accesses, 1, Rank, 2, nullptr};
  const uint64_t Trips[] = {50};
  double A[101];
  int Table[7];
  const BoxFrame Frames[] = {{A, sizeof(double), {101, 1, 1}, false, 0, 0},
                             {Table, sizeof(int), {7, 1, 1}, true, 0, 7}};
  const ProgramBoxes Env = {&P, Trips, nullptr, Frames};
  Box Out[2];
  programBoxes(const_cast<ProgramBoxes *>(&Env), 10, 20, Out);
  EXPECT_EQ(Out[0].Base, static_cast<void *>(A));
  EXPECT_EQ(Out[0].ElemSize, sizeof(double));
  EXPECT_EQ(Out[0].Extent[0], 101);
  EXPECT_EQ(Out[0].Lo[0], 21);
  EXPECT_EQ(Out[0].Hi[0], 40); // A[21] .. A[39]
  EXPECT_EQ(Out[1].Base, static_cast<void *>(Table));
  EXPECT_EQ(Out[1].ElemSize, sizeof(int));
  EXPECT_EQ(Out[1].Lo[0], 0);
  EXPECT_EQ(Out[1].Hi[0], 7);
  EXPECT_EQ(Out[1].Extent[1], 1);
}

// A region read whole from the heap block that holds its base: the block may start before the
// base (an interior pointer), and the box then reaches below element 0; its affine accesses
// still widen it (`p[2*k + 1]` beyond the block is the program's own read).
TEST(BoxProgramTest, WholeBlockAroundAnInteriorPointer) {
  static const BoxTerm Terms[] = {{2, 1, {0, 0, 0, 0}}, {1, 0, {0, 0, 0, 0}}};
  static const BoxExpr Exprs[] = {{0, 2}}; // 2*k0 + 1
  static const BoxAccess Accesses[] = {{0, 0, 0}};
  static const uint8_t Rank[] = {1};
  static const BoxProgram P = {1, 0, 0, Terms, Exprs, nullptr, Accesses, 1, Rank, 1, nullptr};
  const uint64_t Trips[] = {50};
  double Block[40];
  const BoxFrame Frames[] = {{Block + 8, sizeof(double), {-1, 1, 1}, true, -8, 32}};
  const ProgramBoxes Env = {&P, Trips, nullptr, Frames};
  Box Out[1];
  programBoxes(const_cast<ProgramBoxes *>(&Env), 0, 4, Out); // reads 1 .. 7
  EXPECT_EQ(Out[0].Lo[0], -8);
  EXPECT_EQ(Out[0].Hi[0], 32);
  programBoxes(const_cast<ProgramBoxes *>(&Env), 10, 20, Out); // reads 21 .. 39
  EXPECT_EQ(Out[0].Lo[0], -8);
  EXPECT_EQ(Out[0].Hi[0], 40);
}

// The writes' hulls alone: an LU step's row i written over columns [k, n), row k read. Over
// rows [10, 20) the write box is rows 10..19; with the read of row k = 3, the box of every
// access reaches down to row 3, over the rows of earlier chunks.
TEST(BoxProgramTest, WriteBoxesLeaveReadsOut) {
  // Variables: k0 (0), j (1), k (2).
  static const BoxTerm Terms[] = {
      {1, 1, {0, 0, 0, 0}}, // 0: k0 (row i, the nest's start folded in the symbol below)
      {1, 1, {1, 0, 0, 0}}, // 1: j
      {1, 1, {2, 0, 0, 0}}, // 2: k (row k)
      {1, 1, {2, 0, 0, 0}}, // 3: k (j's lower bound)
      {9, 0, {0, 0, 0, 0}}, // 4: 9 (j's upper bound)
  };
  static const BoxExpr Exprs[] = {{0, 1}, {1, 1}, {2, 1}, {3, 1}, {4, 1}};
  static const uint16_t Inner[] = {3, 4};
  static const BoxAccess Accesses[] = {{0, 0, 1}, {0, 2, 0}}; // a[k0][j] written, a[k][j] read
  static const uint8_t Rank[] = {2};
  static const BoxProgram P = {1, 1, 1, Terms, Exprs, Inner, Accesses, 2, Rank, 1, nullptr};
  const uint64_t Trips[] = {64};
  const int64_t Syms[] = {3};
  double A[64][10];
  const BoxFrame Frames[] = {{A, sizeof(double), {64, 10, 1}, false, 0, 0}};
  const ProgramBoxes Env = {&P, Trips, Syms, Frames};
  Box All[1], Written[1];
  programBoxes(const_cast<ProgramBoxes *>(&Env), 10, 20, All);
  programWriteBoxes(const_cast<ProgramBoxes *>(&Env), 10, 20, Written);
  EXPECT_EQ(All[0].Lo[0], 3);
  EXPECT_EQ(All[0].Hi[0], 20);
  EXPECT_EQ(Written[0].Lo[0], 10);
  EXPECT_EQ(Written[0].Hi[0], 20);
  EXPECT_EQ(Written[0].Lo[1], 3);
  EXPECT_EQ(Written[0].Hi[1], 10);
  EXPECT_EQ(Written[0].Base, static_cast<void *>(A));
  // A region nothing writes has an empty write box.
  static const BoxAccess ReadOnly[] = {{0, 2, 0}};
  static const BoxProgram Q = {1, 1, 1, Terms, Exprs, Inner, ReadOnly, 1, Rank, 1, nullptr};
  const ProgramBoxes EnvQ = {&Q, Trips, Syms, Frames};
  programWriteBoxes(const_cast<ProgramBoxes *>(&EnvQ), 10, 20, Written);
  EXPECT_EQ(Written[0].Lo[0], Written[0].Hi[0]);
}

// A tiled loop: for ii (step 4, normalized k0 = ii / 4), for i in [4*k0, min(4*k0 + 3, n - 1)]:
// a[i] written. The clamp keeps the last tile's box inside the array; without the clamp the box
// would reach 4*k0 + 3.
TEST(BoxProgramTest, ClampedInnerBoundStopsAtTheSmallerEnd) {
  static const BoxTerm Terms[] = {
      {4, 1, {0, 0, 0, 0}},  // 0: 4*k0 (i's start)
      {4, 1, {0, 0, 0, 0}},  // 1: 4*k0 (i's end ...
      {3, 0, {0, 0, 0, 0}},  // 2:   ... + 3)
      {1, 1, {2, 0, 0, 0}},  // 3: n (the clamp ...
      {-1, 0, {0, 0, 0, 0}}, // 4:   ... - 1)
      {1, 1, {1, 0, 0, 0}},  // 5: i
  };
  static const BoxExpr Exprs[] = {{0, 1}, {1, 2}, {3, 2}, {5, 1}};
  static const uint16_t Inner[] = {0, 1};
  static const uint16_t Clamp[] = {0xFFFF, 2};
  static const BoxAccess Accesses[] = {{0, 3, 1}};
  static const uint8_t Rank[] = {1};
  static const BoxProgram P = {1, 1, 1, Terms, Exprs, Inner, Accesses, 1, Rank, 1, Clamp};
  const uint64_t Trips[] = {3}; // n = 10: tiles 0, 4, 8
  const int64_t Syms[] = {10};
  Box Out[1];
  evalBoxHulls(P, Trips, Syms, 0, 3, Out);
  EXPECT_EQ(Out[0].Lo[0], 0);
  EXPECT_EQ(Out[0].Hi[0], 10); // a[0] .. a[9], not a[11]
  evalBoxHulls(P, Trips, Syms, 1, 2, Out);
  EXPECT_EQ(Out[0].Lo[0], 4);
  EXPECT_EQ(Out[0].Hi[0], 8); // the clamp does not bind for the middle tile
  static const BoxProgram Unclamped = {1, 1, 1, Terms, Exprs, Inner, Accesses, 1, Rank, 1, nullptr};
  evalBoxHulls(Unclamped, Trips, Syms, 0, 3, Out);
  EXPECT_EQ(Out[0].Hi[0], 12);
}
