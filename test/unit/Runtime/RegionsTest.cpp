//===- RegionsTest.cpp - Tests of the box arithmetic ----------------------===//
#include "Plan/Regions.h"

#include <gtest/gtest.h>

#include <vector>

using namespace clustrix::rt;

namespace {

Box box2(void *Base, int64_t Rows, int64_t Cols, int64_t R0, int64_t R1, int64_t C0, int64_t C1,
         size_t ES = 8) {
  return Box{Base, ES, {Rows, Cols, 0}, {R0, C0, 0}, {R1, C1, 0}};
}

TEST(RegionsTest, HullSpansFirstToLastElement) {
  std::vector<double> M(100);
  Box B = box2(M.data(), 10, 10, 2, 4, 3, 5); // rows 2-3, cols 3-4
  ByteRange H = boxHull(B, 2);
  EXPECT_EQ(H.Begin, reinterpret_cast<uintptr_t>(&M[23]));
  EXPECT_EQ(H.End, reinterpret_cast<uintptr_t>(&M[35]));
  EXPECT_EQ(boxElements(B, 2), 4u);
  EXPECT_EQ(boxHullBytes(B, 2), 12u * 8);
  EXPECT_TRUE(boxEmpty(box2(M.data(), 10, 10, 2, 2, 0, 10), 2));
}

TEST(RegionsTest, InterleavedBoxesAreDisjointThoughHullsOverlap) {
  std::vector<double> M(100);
  Box Left = box2(M.data(), 10, 10, 0, 10, 0, 5), Right = box2(M.data(), 10, 10, 0, 10, 5, 10);
  EXPECT_TRUE(boxHull(Left, 2).overlaps(boxHull(Right, 2)));
  EXPECT_FALSE(boxesIntersect(Left, Right, 2));
  EXPECT_TRUE(boxesIntersect(Left, box2(M.data(), 10, 10, 9, 10, 4, 6), 2));
  // Different arrays: decided by address.
  std::vector<double> Other(100);
  EXPECT_FALSE(boxesIntersect(Left, box2(Other.data(), 10, 10, 0, 10, 0, 5), 2));
  // A box whose column range leaves the row is compared by its hull, conservatively.
  EXPECT_TRUE(boxesIntersect(box2(M.data(), 10, 10, 0, 1, 0, 15),
                             box2(M.data(), 10, 10, 1, 2, 0, 2), 2));
}

TEST(RegionsTest, AliasCheckFlagsOverlappingWrittenRanges) {
  std::vector<int> Buf(300);
  RegionInfo Regions[] = {{"dst", AccessWrite, 1, 1, 1}, {"src", AccessRead, 1, 0, 1}};
  LoopInfo Info{};
  Info.Regions = Regions;
  Info.NumRegions = 2;
  Box Whole[2] = {{Buf.data() + 100, 4, {100, 0, 0}, {0, 0, 0}, {100, 0, 0}},
                  {Buf.data(), 4, {100, 0, 0}, {0, 0, 0}, {100, 0, 0}}};
  EXPECT_EQ(checkAliasing(Info, Whole), ""); // [100, 200) and [0, 100) only touch
  Whole[1].Hi[0] = 101;
  EXPECT_NE(checkAliasing(Info, Whole).find("'dst' and 'src' may alias"), std::string::npos);
  Regions[0].MayAlias = Regions[1].MayAlias = 0; // proved distinct by the compiler
  EXPECT_EQ(checkAliasing(Info, Whole), "");
  Regions[0].MayAlias = 1;
  Regions[0].Access = AccessRead; // two reads never conflict
  EXPECT_EQ(checkAliasing(Info, Whole), "");
}

TEST(RegionsTest, WriteDisjointnessUsesElementSets) {
  std::vector<double> M(64 * 64);
  RegionInfo Regions[] = {{"m", AccessReadWrite, 2, 1, 0}};
  LoopInfo Info{};
  Info.Regions = Regions;
  Info.NumRegions = 1;
  std::vector<Box> Boxes;
  for (int C = 0; C < 16; ++C) // column blocks of 4: all hulls overlap
    Boxes.push_back(box2(M.data(), 64, 64, 0, 64, C * 4, C * 4 + 4));
  EXPECT_EQ(checkWriteDisjoint(Info, Boxes, 16), "");
  Boxes[9] = box2(M.data(), 64, 64, 0, 64, 30, 37); // meets chunks 7 and 9's neighbours
  std::string Why = checkWriteDisjoint(Info, Boxes, 16);
  EXPECT_NE(Why.find("write boxes of 'm' overlap between chunks"), std::string::npos) << Why;
  Regions[0].Access = AccessRead; // read boxes may overlap
  EXPECT_EQ(checkWriteDisjoint(Info, Boxes, 16), "");
}

// for j1 in [0, 8): for j2 in [j1, m): a[j1][j2] = ...; a[j2][j1] = ... (covariance's mirrored
// write): variables k0 = j1 (0), j2 (1), m (2). Each chunk's hull of 'a' reaches from its first
// row to the last and overlaps the next chunk's; the two accesses' boxes do not.
TEST(RegionsTest, MirroredWritesAreDisjointPerAccess) {
  static const BoxTerm Terms[] = {
      {1, 1, {0, 0, 0, 0}},  // 0: k0
      {1, 1, {1, 0, 0, 0}},  // 1: j2
      {1, 1, {0, 0, 0, 0}},  // 2: k0
      {1, 1, {2, 0, 0, 0}},  // 3: m
      {-1, 0, {0, 0, 0, 0}}, // 4: -1
  };
  // 0: k0, 1: j2, 2: k0 (j2's lower bound, and a[j2][k0]'s column), 3: m - 1 (j2's upper bound)
  static const BoxExpr Exprs[] = {{0, 1}, {1, 1}, {2, 1}, {3, 2}};
  static const uint16_t Inner[] = {2, 3};
  static const BoxAccess Mirrored[] = {{0, 0, 1}, {0, 1, 1}}; // a[k0][j2], a[j2][k0]
  static const uint8_t Rank[] = {2};
  static const BoxProgram P = {1, 1, 1, Terms, Exprs, Inner, Mirrored, 2, Rank, 1, nullptr};
  const uint64_t Trips[] = {8};
  const int64_t Syms[] = {8};
  std::vector<double> A(64);
  const BoxFrame Frames[] = {{A.data(), sizeof(double), {8, 8, 1}, false, 0, 0}};
  const ProgramBoxes Env = {&P, Trips, Syms, Frames};
  RegionInfo Regions[] = {{"a", AccessWrite, 2, 0, 0}};
  LoopInfo Info{};
  Info.Regions = Regions;
  Info.NumRegions = 1;
  const uint64_t Chunks[][2] = {{0, 3}, {3, 5}, {5, 8}};
  std::vector<Box> Hulls(3), Access(3 * P.NumAccesses);
  for (int C = 0; C < 3; ++C) {
    programWriteBoxes(const_cast<ProgramBoxes *>(&Env), Chunks[C][0], Chunks[C][1], &Hulls[C]);
    ASSERT_TRUE(programWriteAccessBoxes(Env, Chunks[C][0], Chunks[C][1], &Access[C * 2]));
  }
  // Chunk 1 (rows 3 and 4): the row access a[3..4][3..7], the column access a[3..7][3..4].
  EXPECT_EQ(Access[2].Lo[0], 3);
  EXPECT_EQ(Access[2].Hi[0], 5);
  EXPECT_EQ(Access[2].Lo[1], 3);
  EXPECT_EQ(Access[2].Hi[1], 8);
  EXPECT_EQ(Access[3].Lo[0], 3);
  EXPECT_EQ(Access[3].Hi[0], 8);
  EXPECT_EQ(Access[3].Lo[1], 3);
  EXPECT_EQ(Access[3].Hi[1], 5);
  EXPECT_EQ(checkWriteDisjoint(Info, Hulls, 3), "write boxes of 'a' overlap between chunks 0 and 1");
  EXPECT_EQ(checkWriteAccessesDisjoint(Info, P, Access, 3), "");

  // The adversary: a[j2][j1 + 1] writes column j1 + 1, which the next chunk's first row reaches
  // (iterations 2 and 3 both write a[3][3]): per access, still an overlap.
  static const BoxTerm ShiftedTerms[] = {{1, 1, {0, 0, 0, 0}}, {1, 1, {1, 0, 0, 0}},
                                         {1, 1, {0, 0, 0, 0}}, {1, 1, {2, 0, 0, 0}},
                                         {-1, 0, {0, 0, 0, 0}}, {1, 1, {0, 0, 0, 0}},
                                         {1, 0, {0, 0, 0, 0}}};
  // 4: j2, 5: k0 + 1
  static const BoxExpr ShiftedExprs[] = {{0, 1}, {1, 1}, {2, 1}, {3, 2}, {1, 1}, {5, 2}};
  static const BoxAccess ShiftedAccesses[] = {{0, 0, 1}, {0, 4, 1}}; // a[k0][j2], a[j2][k0+1]
  static const BoxProgram Q = {1, 1, 1, ShiftedTerms, ShiftedExprs, Inner, ShiftedAccesses, 2,
                               Rank, 1, nullptr};
  const ProgramBoxes EnvQ = {&Q, Trips, Syms, Frames};
  for (int C = 0; C < 3; ++C)
    ASSERT_TRUE(programWriteAccessBoxes(EnvQ, Chunks[C][0], Chunks[C][1], &Access[C * 2]));
  EXPECT_EQ(checkWriteAccessesDisjoint(Info, Q, Access, 3),
            "write boxes of 'a' overlap between chunks 0 and 1");

  // A written region taken whole from its heap block: no box describes its accesses.
  const BoxFrame WholeFrames[] = {{A.data(), sizeof(double), {-1, 1, 1}, true, 0, 64}};
  const ProgramBoxes EnvWhole = {&P, Trips, Syms, WholeFrames};
  EXPECT_FALSE(programWriteAccessBoxes(EnvWhole, 0, 3, &Access[0]));
}

TEST(RegionsTest, BoxCopyMovesExactlyTheBoxElements) {
  // A 3-D array 4 x 5 x 6 of ints; the box [1,3) x [1,4) x [2,5).
  const int64_t D0 = 4, D1 = 5, D2 = 6;
  std::vector<int> Src(D0 * D1 * D2), Dst(D0 * D1 * D2, -1);
  for (size_t I = 0; I < Src.size(); ++I)
    Src[I] = static_cast<int>(I);
  Box B{Src.data(), sizeof(int), {D0, D1, D2}, {1, 1, 2}, {3, 4, 5}};
  BoxCopy C = describeBoxCopy(B, 3);
  EXPECT_EQ(C.OffsetBytes, static_cast<size_t>((1 * D1 + 1) * D2 + 2) * sizeof(int));
  EXPECT_EQ(C.WidthBytes, 3 * sizeof(int));
  EXPECT_EQ(C.Height, 3u);
  EXPECT_EQ(C.Depth, 2u);
  EXPECT_EQ(C.Pitch, D2 * sizeof(int));
  EXPECT_EQ(C.SlabRows, static_cast<size_t>(D1));
  copyBoxHost(C, Src.data(), Dst.data());
  for (int64_t I = 0; I < D0; ++I)
    for (int64_t J = 0; J < D1; ++J)
      for (int64_t K = 0; K < D2; ++K) {
        int64_t L = (I * D1 + J) * D2 + K;
        bool In = I >= 1 && I < 3 && J >= 1 && J < 4 && K >= 2 && K < 5;
        ASSERT_EQ(Dst[L], In ? Src[L] : -1) << I << "," << J << "," << K;
      }
  // Packing is dense and unpacking restores the same elements only.
  std::vector<int> Dense(18), Back(D0 * D1 * D2, -2);
  packBox(C, Src.data(), Dense.data());
  EXPECT_EQ(Dense[0], (1 * D1 + 1) * D2 + 2);
  EXPECT_EQ(Dense[3], (1 * D1 + 2) * D2 + 2);
  unpackBox(C, Dense.data(), Back.data());
  for (size_t I = 0; I < Back.size(); ++I)
    ASSERT_EQ(Back[I], Dst[I] == -1 ? -2 : Src[I]);
  // The device buffer holding the box in the array's layout is its hull.
  EXPECT_EQ(boxHullBytes(B, 3),
            static_cast<size_t>(((2 * D1 + 3) * D2 + 4) - ((1 * D1 + 1) * D2 + 2) + 1) *
                sizeof(int));
}

TEST(RegionsTest, OneDimensionalCopy) {
  std::vector<float> Src(50, 1.0f), Dst(50, 0.0f);
  Box B{Src.data(), sizeof(float), {50, 0, 0}, {10, 0, 0}, {20, 0, 0}};
  BoxCopy C = describeBoxCopy(B, 1);
  EXPECT_EQ(C.Height, 1u);
  EXPECT_EQ(C.Depth, 1u);
  copyBoxHost(C, Src.data(), Dst.data());
  for (int I = 0; I < 50; ++I)
    EXPECT_EQ(Dst[I], I >= 10 && I < 20 ? 1.0f : 0.0f);
}

} // namespace
