//===- BoxCodeGenTest.cpp - Boxes of regions of more than three dimensions --===//
#include "clustrix/Rewrite/BoxCodeGen.h"

#include "gtest/gtest.h"

using namespace clustrix;

namespace {

const char KeyK = 0, KeyJ = 0, KeyI = 0, KeyM = 0;

Polynomial var(const char &Key, const char *Name, bool Loop = true) {
  return Polynomial::variable({&Key, Name, Loop});
}

/// `rhs[k][j][i][m]` of `double rhs[6][7][8][5]`, written, with m over [MLo, MHi].
struct Grid {
  LoopResult R;
  Grid(int64_t MLo, int64_t MHi, int64_t MOffset = 0) {
    R.Nest.resize(1);
    for (auto [Key, Name, Hi] : {std::tuple(&KeyJ, "j", 6), std::tuple(&KeyI, "i", 7)})
      R.InnerRanges.push_back({PolyVar{Key, Name, true},
                               PolyRange(Polynomial::constant(0), Polynomial::constant(Hi))});
    R.InnerRanges.push_back({PolyVar{&KeyM, "m", true},
                             PolyRange(Polynomial::constant(MLo), Polynomial::constant(MHi))});
    Region Reg;
    Reg.Name = "rhs";
    Reg.Access = RegionWrite;
    Reg.Rank = 4;
    Reg.ConstDims = {6, 7, 8, 5};
    Reg.FullWrite = true;
    Reg.Subscripts = {{Polynomial::variable({normalizedVarKey(0), "__clx_k0", true}),
                       var(KeyJ, "j"), var(KeyI, "i"),
                       var(KeyM, "m") + Polynomial::constant(MOffset)}};
    Reg.Writes = {true};
    R.Regions.push_back(Reg);
  }
};

TEST(BoxCodeGenTest, RowsOfConstantExtentFold) {
  Grid G(0, 4);
  EXPECT_EQ(foldedRows(G.R.Regions[0]), (std::vector<int64_t>{7, 8, 5}));
  Region Three = G.R.Regions[0];
  Three.Rank = 3;
  Three.ConstDims = {6, 7, 40};
  EXPECT_TRUE(foldedRows(Three).empty()); // three dimensions need no fold
  Region Symbolic = G.R.Regions[0];
  Symbolic.ConstDims.clear();
  Symbolic.DimExtents = {Polynomial::constant(7), var(KeyJ, "n", false), Polynomial::constant(5)};
  EXPECT_TRUE(foldedRows(Symbolic).empty()); // a row of unknown length: the whole object
  Symbolic.DimExtents[1] = Polynomial::constant(8);
  EXPECT_EQ(foldedRows(Symbolic), (std::vector<int64_t>{7, 8, 5}));
}

TEST(BoxCodeGenTest, TheFoldedBoxHasThreeDimensions) {
  Grid G(0, 4);
  std::string Code = boxProgramCode(G.R);
  // The frame: the first two extents, then the product of the rest (8 * 5).
  EXPECT_NE(Code.find("{6, 7, 40}, false, 0, 0}"), std::string::npos) << Code;
  EXPECT_NE(Code.find("__clx_rank[] = {3}"), std::string::npos) << Code;
  // One write access: i * 5 + m is the third subscript.
  EXPECT_NE(Code.find("__clx_accs[] = {{0, 6, 1}}"), std::string::npos) << Code;
  EXPECT_NE(Code.find("{5ll, 1, {2, 0, 0, 0}}"), std::string::npos) << Code;
}

TEST(BoxCodeGenTest, AFoldedRowIsWrittenWholeOnlyWhenEveryFoldedSubscriptSpansItsRow) {
  EXPECT_TRUE(boxFullWrite(Grid(0, 4).R.Regions[0], Grid(0, 4).R));
  Grid Part(1, 3); // m in [1, 3]: the elements 0 and 4 of each row of five are holes
  EXPECT_FALSE(boxFullWrite(Part.R.Regions[0], Part.R));
  Grid Shifted(0, 4, 1); // m + 1 reaches the next row's first element and skips this one's
  EXPECT_FALSE(boxFullWrite(Shifted.R.Regions[0], Shifted.R));
  Grid Lattice(0, 4);
  Lattice.R.InnerRanges[2].second.Step = 2; // m = 0, 2, 4
  EXPECT_FALSE(boxFullWrite(Lattice.R.Regions[0], Lattice.R));
  Grid Unclaimed(0, 4);
  Unclaimed.R.Regions[0].FullWrite = false;
  EXPECT_FALSE(boxFullWrite(Unclaimed.R.Regions[0], Unclaimed.R));
}

} // namespace
