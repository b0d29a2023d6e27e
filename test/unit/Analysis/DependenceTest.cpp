//===- DependenceTest.cpp - Cross-iteration test and region math -----------===//
//
// The dependence test over normalized iterations k (0 <= k <= K, with K a symbol or a bound),
// delinearization of row-major subscripts and the symbolic range of a subscript. A wrong
// "Independent" is the worst answer, so the dependent cases matter most.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Analysis/Dependence.h"

#include <gtest/gtest.h>

using namespace clustrix;

namespace {
int KK, KJ, KL, KN, KM, KT;
const PolyVar K{&KK, "k", true};  // the parallel loop's normalized iteration
const PolyVar J{&KJ, "j", true};  // an inner loop variable
const PolyVar L{&KL, "l", true};  // another inner loop variable
const PolyVar N{&KN, "n", false}; // symbols
const PolyVar M{&KM, "m", false};
const PolyVar T{&KT, "trip", false};
Polynomial v(const PolyVar &V) { return Polynomial::variable(V); }
Polynomial c(int64_t C) { return Polynomial::constant(C); }

/// k in [0, n-1], j in [0, m-1].
RangeMap ranges() {
  RangeMap R;
  R[&KK] = {c(0), v(N) - c(1)};
  R[&KJ] = {c(0), v(M) - c(1)};
  return R;
}

DepResult test1(const Polynomial &A, const Polynomial &B, const RangeMap &R = ranges()) {
  return testCrossIteration({A}, {B}, K, R);
}

TEST(Dependence, SameElementPerIterationIsIndependent) {
  EXPECT_EQ(test1(v(K), v(K)).Kind, DepKind::Independent);             // a[i] = a[i] + 1
  EXPECT_EQ(test1(v(K) * c(3) + c(2), v(K) * c(3) + c(2)).Kind, DepKind::Independent);
  EXPECT_EQ(test1(v(K) * c(-1) + v(N), v(K) * c(-1) + v(N)).Kind, DepKind::Independent);
}

TEST(Dependence, ConstantDistanceIsDependent) {
  DepResult R = test1(v(K), v(K) + c(1)); // a[i] = a[i+1]
  EXPECT_EQ(R.Kind, DepKind::Dependent);
  ASSERT_TRUE(R.Distance);
  EXPECT_EQ(*R.Distance, 1);
  R = test1(v(K) * c(2), v(K) * c(2) - c(4)); // a[2i] = a[2i-4]
  EXPECT_EQ(R.Kind, DepKind::Dependent);
  EXPECT_EQ(*R.Distance, -2);
}

TEST(Dependence, GcdProvesStridedAccessesApart) {
  // i += 2 writing a[i] and reading a[i+1]: even against odd elements.
  EXPECT_EQ(test1(v(K) * c(2), v(K) * c(2) + c(1)).Kind, DepKind::Independent);
  // a[4i] against a[6i + 3]: gcd 2 does not divide 3.
  EXPECT_EQ(test1(v(K) * c(4), v(K) * c(6) + c(3)).Kind, DepKind::Independent);
  // a[4i] against a[6i + 2]: gcd 2 divides 2 and the strides differ: dependent.
  EXPECT_NE(test1(v(K) * c(4), v(K) * c(6) + c(2)).Kind, DepKind::Independent);
}

TEST(Dependence, SameElementEveryIteration) {
  DepResult R = test1(c(0), c(0)); // s[0] += x[i]
  EXPECT_EQ(R.Kind, DepKind::Dependent);
  EXPECT_FALSE(R.Distance);
  EXPECT_EQ(test1(v(N), v(N)).Kind, DepKind::Dependent); // a[n] written by every iteration
  EXPECT_EQ(test1(c(0), c(1)).Kind, DepKind::Independent); // a[0] and a[1]
}

TEST(Dependence, ReversedIndexIsNotProvable) {
  // a[i] against a[n-1-i]: iterations i and n-1-i meet.
  EXPECT_NE(test1(v(K), v(N) - c(1) - v(K)).Kind, DepKind::Independent);
}

TEST(Dependence, SymbolicStrideIsNotProvable) {
  // a[m*i] against a[m*i + 1]: m may be 1.
  EXPECT_NE(test1(v(K) * v(M), v(K) * v(M) + c(1)).Kind, DepKind::Independent);
}

TEST(Dependence, InnerLoopWithinTheRowIsIndependent) {
  // a[8i + j] with j in [0, 7] on both sides: rows of 8 are disjoint.
  RangeMap R = ranges();
  R[&KJ] = {c(0), c(7)};
  EXPECT_EQ(test1(v(K) * c(8) + v(J), v(K) * c(8) + v(J), R).Kind, DepKind::Independent);
  // j in [0, 8] spills into the next row: not provable.
  R[&KJ] = {c(0), c(8)};
  EXPECT_NE(test1(v(K) * c(8) + v(J), v(K) * c(8) + v(J), R).Kind, DepKind::Independent);
}

TEST(Dependence, MultiDimensional) {
  // a[i][j] = a[i][j+1]: the first dimension separates the iterations.
  EXPECT_EQ(testCrossIteration({v(K), v(J)}, {v(K), v(J) + c(1)}, K, ranges()).Kind,
            DepKind::Independent);
  // a[j][i] = a[j][i+1]: column i+1 is the next iteration's column.
  EXPECT_NE(testCrossIteration({v(J), v(K)}, {v(J), v(K) + c(1)}, K, ranges()).Kind,
            DepKind::Independent);
  // a[0][i] against a[1][i]: different rows.
  EXPECT_EQ(testCrossIteration({c(0), v(K)}, {c(1), v(K)}, K, ranges()).Kind,
            DepKind::Independent);
  // Single-index, all dimensions must agree on one distance: a[i][i] against a[i+1][i+2].
  EXPECT_EQ(testCrossIteration({v(K), v(K)}, {v(K) + c(1), v(K) + c(2)}, K, ranges()).Kind,
            DepKind::Independent);
  EXPECT_EQ(testCrossIteration({v(K), v(K)}, {v(K) + c(1), v(K) + c(1)}, K, ranges()).Kind,
            DepKind::Dependent);
}

TEST(Dependence, ShapeMismatchAndNonAffineAreUnknown) {
  EXPECT_EQ(testCrossIteration({v(K)}, {v(K), v(J)}, K, ranges()).Kind, DepKind::Unknown);
  EXPECT_EQ(test1(v(K) * v(K), v(K)).Kind, DepKind::Unknown);
  EXPECT_EQ(test1(Polynomial::invalid(), v(K)).Kind, DepKind::Unknown);
}

TEST(Delinearize, RowMajorSplitsIntoDimensions) {
  std::vector<Polynomial> Ext;
  auto D = delinearize(v(K) * v(M) + v(J), ranges(), &Ext); // a[i*m + j], 0 <= j < m
  ASSERT_TRUE(D);
  ASSERT_EQ(D->size(), 2u);
  EXPECT_EQ((*D)[0], v(K));
  EXPECT_EQ((*D)[1], v(J));
  ASSERT_EQ(Ext.size(), 1u);
  EXPECT_EQ(Ext[0], v(M));
}

TEST(Delinearize, ColumnWriteUsesTheOuterRange) {
  // a[j*n + i] with 0 <= i < n (the parallel loop) and inner j: column i of an n-wide matrix.
  auto D = delinearize(v(J) * v(N) + v(K), ranges());
  ASSERT_TRUE(D);
  ASSERT_EQ(D->size(), 2u);
  EXPECT_EQ((*D)[0], v(J));
  EXPECT_EQ((*D)[1], v(K));
  EXPECT_EQ(testCrossIteration(*D, *D, K, ranges()).Kind, DepKind::Independent);
  // With the outer range unrelated to n (an opaque trip count), nothing can be split.
  RangeMap R = ranges();
  R[&KK] = {c(0), v(T) - c(1)};
  auto U = delinearize(v(J) * v(N) + v(K), R);
  EXPECT_FALSE(U);
}

TEST(Delinearize, RemainderOutsideTheRowIsNotSplit) {
  // a[i*m + j + 1] with j in [0, m-1]: j + 1 reaches m.
  EXPECT_FALSE(delinearize(v(K) * v(M) + v(J) + c(1), ranges()));
  // a[i*m*m]: the stride's own square is not a row-major form.
  EXPECT_FALSE(delinearize(v(K) * v(M) * v(M), ranges()));
  // No symbolic stride: unchanged.
  auto D = delinearize(v(K) * c(4) + c(1), ranges());
  ASSERT_TRUE(D);
  EXPECT_EQ(D->size(), 1u);
}

TEST(SymbolicRange, AffineSubscripts) {
  auto R = symbolicRange(v(K) * c(2) + c(1), ranges());
  ASSERT_TRUE(R);
  EXPECT_EQ(R->Lo, c(1));
  EXPECT_EQ(R->Hi, v(N) * c(2) - c(1));
  // Negative coefficient swaps the ends.
  R = symbolicRange(v(N) - v(K), ranges());
  ASSERT_TRUE(R);
  EXPECT_EQ(R->Lo, c(1));
  EXPECT_EQ(R->Hi, v(N));
  // Symbolic coefficient: the sign is unknown.
  EXPECT_FALSE(symbolicRange(v(K) * v(M), ranges()));
  // A loop variable without a range.
  EXPECT_FALSE(symbolicRange(v(L), ranges()));
}

TEST(SymbolicRange, TriangularInnerLoop) {
  // for j in [0, k]: j's bound mentions the outer variable; its range is taken over k's.
  RangeMap R = ranges();
  R[&KJ] = {c(0), v(K)};
  auto X = symbolicRange(v(J), R);
  ASSERT_TRUE(X);
  EXPECT_EQ(X->Lo, c(0));
  EXPECT_EQ(X->Hi, v(N) - c(1));
}
} // namespace
