//===- ExactDependenceTest.cpp - The exact dependence test (isl) -----------===//
//
// Cases the cheap tests cannot decide: triangular inner loops, symmetric updates, collapsed
// nests with flattened subscripts, symbolic rows. A wrong "no conflict" is the worst answer, so
// every independent case has a dependent neighbour.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Analysis/ExactDependence.h"

#include <gtest/gtest.h>

using namespace clustrix;

namespace {
int KK, KK1, KJ, KL, KN, KR;
const PolyVar K{&KK, "__clx_k0", true};  // the parallel loop (i = k)
const PolyVar K1{&KK1, "__clx_k1", true}; // a collapsed second level
const PolyVar J{&KJ, "j", true};          // an inner loop variable
const PolyVar L{&KL, "l", true};          // another inner loop variable
const PolyVar N{&KN, "n", false};         // symbols
const PolyVar Row{&KR, "r", false};
Polynomial v(const PolyVar &V) { return Polynomial::variable(V); }
Polynomial c(int64_t C) { return Polynomial::constant(C); }

bool conflict(const std::vector<Polynomial> &A, const std::vector<Polynomial> &B,
              const RangeMap &R, const std::vector<PolyVar> &Nest = {K}) {
  std::optional<ExactAnswer> X = testExactly(A, B, Nest, R);
  EXPECT_TRUE(X.has_value());
  return X && X->Conflict;
}

TEST(ExactDependence, SymmetricUpdateOfTheUpperTriangle) {
  // for i < n: for j = i; j < n: c[i][j] = c[j][i] = ...
  RangeMap R;
  R[&KK] = {c(0), v(N) - c(1)};
  R[&KJ] = {v(K), v(N) - c(1)};
  EXPECT_FALSE(conflict({v(K), v(J)}, {v(J), v(K)}, R));
  // With j from 0, the lower triangle is written too: iterations meet.
  R[&KJ] = {c(0), v(N) - c(1)};
  EXPECT_TRUE(conflict({v(K), v(J)}, {v(J), v(K)}, R));
}

TEST(ExactDependence, RowsBelowTheFixedPivot) {
  // for i = r+1 .. n-1 (k = i - r - 1): a[i][j] -= a[r][j]: row r is never written.
  RangeMap R;
  R[&KK] = {c(0), v(N) - v(Row) - c(2)};
  R[&KJ] = {v(Row) + c(1), v(N) - c(1)};
  Polynomial I = v(K) + v(Row) + c(1);
  EXPECT_FALSE(conflict({I, v(J)}, {v(Row), v(J)}, R));
  // Reading row r+1 instead: iteration 0 writes it, the others read it.
  EXPECT_TRUE(conflict({I, v(J)}, {v(Row) + c(1), v(J)}, R));
}

TEST(ExactDependence, TriangularReadOfEarlierRows) {
  // Row i written, rows l < i read: iteration i reads what iteration l wrote.
  RangeMap R;
  R[&KK] = {c(0), v(N) - c(1)};
  R[&KJ] = {c(0), v(N) - c(1)};
  R[&KL] = {c(0), v(K) - c(1)};
  EXPECT_TRUE(conflict({v(K), v(J)}, {v(L), v(J)}, R));
  // Rows l > i of a read-only copy do not matter; rows l <= i - 1 of another level do: here
  // l ranges over i+1..n-1 and only row i is written: reads of later rows conflict as well.
  R[&KL] = {v(K) + c(1), v(N) - c(1)};
  EXPECT_TRUE(conflict({v(K), v(J)}, {v(L), v(J)}, R));
}

TEST(ExactDependence, CollapsedFlatSubscript) {
  // collapse(2) over i < n, j < 64 writing a[i*64 + j] and reading it: each element once.
  RangeMap R;
  R[&KK] = {c(0), v(N) - c(1)};
  R[&KK1] = {c(0), c(63)};
  Polynomial Flat = v(K).scaled(64) + v(K1);
  EXPECT_FALSE(conflict({Flat}, {Flat}, R, {K, K1}));
  // a row of 65 with 64 written per row overlaps nothing either; a row of 63 does.
  EXPECT_FALSE(conflict({v(K).scaled(65) + v(K1)}, {v(K).scaled(65) + v(K1)}, R, {K, K1}));
  EXPECT_TRUE(conflict({v(K).scaled(63) + v(K1)}, {v(K).scaled(63) + v(K1)}, R, {K, K1}));
}

TEST(ExactDependence, MirroredAccessesHaveAWitness) {
  // a[i] = a[n - i]: iterations meet in the middle.
  RangeMap R;
  R[&KK] = {c(0), v(N) - c(1)};
  std::optional<ExactAnswer> X = testExactly({v(K)}, {v(N) - v(K)}, {K}, R);
  ASSERT_TRUE(X);
  EXPECT_TRUE(X->Conflict);
  EXPECT_NE(X->Witness.find("iterations"), std::string::npos);
  EXPECT_NE(X->Witness.find("n = "), std::string::npos);
  // The first half swapping with the second half, with the half as its own bound h:
  // a[i] and a[2h - 1 - i] for i < h never meet.
  int KH;
  const PolyVar H{&KH, "h", false};
  R[&KK] = {c(0), v(H) - c(1)};
  EXPECT_FALSE(conflict({v(K)}, {v(H).scaled(2) - c(1) - v(K)}, R));
}

TEST(ExactDependence, NonAffineIsNotDecided) {
  RangeMap R;
  R[&KK] = {c(0), v(N) - c(1)};
  R[&KJ] = {c(0), v(N) - c(1)};
  EXPECT_FALSE(testExactly({v(J) * v(N) + v(K)}, {v(J) * v(N) + v(K)}, {K}, R).has_value());
  EXPECT_FALSE(testExactly({v(K)}, {v(K), v(J)}, {K}, R).has_value());
}

TEST(ExactDependence, StepAndResidueOfAnInnerLoop) {
  // Red-black: for i = 1 .. n-2 (k = i - 1): for j = 1 + (i+1) % 2; j < n-1; j += 2:
  // u[i][j] = f(u[i-1][j]). Row i's columns have the other parity than row i-1's.
  RangeMap R;
  R[&KK] = {c(0), v(N) - c(3)};
  PolyRange JR{c(1), v(N) - c(2)};
  JR.Step = 2;
  JR.Base = c(1);
  JR.ResidueNum = v(K) + c(2);
  JR.ResidueDiv = 2;
  R[&KJ] = JR;
  Polynomial I = v(K) + c(1);
  EXPECT_FALSE(conflict({I, v(J)}, {I - c(1), v(J)}, R));
  // Column j + 1 of the row above has the parity of (i, j).
  EXPECT_TRUE(conflict({I, v(J)}, {I - c(1), v(J) + c(1)}, R));
  // Without the residue the rows share their columns.
  R[&KJ].ResidueDiv = 1;
  EXPECT_TRUE(conflict({I, v(J)}, {I - c(1), v(J)}, R));
  // A step alone: columns 0, 3, 6, ...; the row above's column j + 1 is never written, its
  // column j + 3 is.
  PolyRange Every3{c(0), c(59)};
  Every3.Step = 3;
  Every3.Base = c(0);
  R[&KJ] = Every3;
  EXPECT_FALSE(conflict({I, v(J)}, {I - c(1), v(J) + c(1)}, R));
  EXPECT_TRUE(conflict({I, v(J)}, {I - c(1), v(J) + c(3)}, R));
}

TEST(ExactDependence, NegativeResidueTruncatesAsC) {
  // for i = 1 .. n-1 (k = i - 1): for j = 3 + (i-4) % 3; ...; j += 3: a[i][j] = a[i-1][1].
  // C's (i-4) % 3 is -2 at i = 2, so row 2 writes column 1, which row 3 reads; taken the
  // mathematical way (1) it would start at column 4.
  RangeMap R;
  R[&KK] = {c(0), v(N) - c(2)};
  PolyRange JR{c(1), c(61)};
  JR.Step = 3;
  JR.Base = c(3);
  JR.ResidueNum = v(K) - c(3);
  JR.ResidueDiv = 3;
  R[&KJ] = JR;
  Polynomial I = v(K) + c(1);
  EXPECT_TRUE(conflict({I, v(J)}, {I - c(1), c(1)}, R));
  // From i = 4 (k from 3) the residue is 0, 1, 2 and no row writes column 1.
  R[&KK] = {c(3), v(N) - c(2)};
  EXPECT_FALSE(conflict({I, v(J)}, {I - c(1), c(1)}, R));
}

} // namespace
