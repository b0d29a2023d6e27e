//===- PolynomialTest.cpp - Subscript polynomial arithmetic ----------------===//
#include "clustrix/Analysis/Polynomial.h"

#include <gtest/gtest.h>

#include <cstdint>

using namespace clustrix;

namespace {
// Keys are addresses of these objects; the names only show in str().
int KI, KJ, KN, KM;
const PolyVar I{&KI, "i", true}, J{&KJ, "j", true}, N{&KN, "n", false}, M{&KM, "m", false};
Polynomial v(const PolyVar &V) { return Polynomial::variable(V); }
Polynomial c(int64_t C) { return Polynomial::constant(C); }

TEST(Polynomial, ArithmeticAndPrinting) {
  Polynomial P = v(I) * c(2) + v(M) * v(J) - c(1);
  // Printing: highest degree first, the constant last (the order within a degree follows keys).
  std::string S = P.str();
  EXPECT_TRUE(S == "m*j + 2*i - 1" || S == "j*m + 2*i - 1") << S;
  EXPECT_EQ((v(I) * c(2) - c(1)).str(), "2*i - 1");
  EXPECT_EQ((P - P).str(), "0");
  EXPECT_TRUE((P - P).isZero());
  EXPECT_EQ((-v(I)).str(), "-i");
  EXPECT_EQ(c(7).asConstant(), 7);
  EXPECT_FALSE(v(I).asConstant());
  EXPECT_EQ((v(I) + c(3)).constantTerm(), 3);
}

TEST(Polynomial, AffineInLoopVariables) {
  EXPECT_TRUE((v(I) * v(M) + v(J)).isAffineInLoopVars()); // symbols multiply freely
  EXPECT_FALSE((v(I) * v(J)).isAffineInLoopVars());
  EXPECT_FALSE((v(I) * v(I)).isAffineInLoopVars());
  EXPECT_FALSE(Polynomial::invalid().isAffineInLoopVars());
}

TEST(Polynomial, CoefficientsAndParts) {
  Polynomial P = v(I) * v(M) + v(I) * c(3) + v(J) + v(N);
  EXPECT_EQ(P.coefficientOf(I), v(M) + c(3));
  EXPECT_EQ(P.coefficientOf(J).asConstant(), 1);
  EXPECT_TRUE(P.coefficientOf(PolyVar{&KN, "n", false}).asConstant() == 1);
  EXPECT_EQ(P.invariantPart().str(), "n");
  ASSERT_EQ(P.loopVars().size(), 2u);
  EXPECT_TRUE(P.mentions(&KM));
  EXPECT_FALSE(v(I).mentions(&KM));
  EXPECT_EQ(P.substitute(I, c(2)), v(J) + v(M) * c(2) + v(N) + c(6));
}

TEST(Polynomial, OverflowMakesInvalid) {
  Polynomial Big = c(INT64_MAX);
  EXPECT_FALSE((Big + c(1)).isValid());
  EXPECT_FALSE((Big * c(2)).isValid());
  EXPECT_FALSE(Big.scaled(-2).isValid());
  EXPECT_FALSE((Polynomial::invalid() + c(1)).isValid());
  EXPECT_EQ(Polynomial::invalid().str(), "<invalid>");
  // Invalid never compares equal to a valid polynomial.
  EXPECT_NE(Polynomial::invalid(), c(0));
}

TEST(Polynomial, ProvablyLessEq) {
  EXPECT_TRUE(provablyLessEq(v(N) - c(1), v(N)));
  EXPECT_TRUE(provablyLessEq(c(3), c(3)));
  EXPECT_FALSE(provablyLessEq(v(N), v(N) - c(1)));
  EXPECT_FALSE(provablyLessEq(v(N), v(M))); // unrelated symbols: unknown, so false
  EXPECT_FALSE(provablyLessEq(Polynomial::invalid(), c(0)));
}
} // namespace
