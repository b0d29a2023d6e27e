//===- Dependence.cpp - Cross-iteration dependence test --------------------===//
//
// Separation test, GCD test and exact single-index test over delinearized subscripts.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Analysis/Dependence.h"

#include "llvm/ADT/STLExtras.h"

#include <cstdlib>
#include <numeric>

using namespace clustrix;

std::optional<PolyRange> clustrix::symbolicRange(const Polynomial &P, const RangeMap &Ranges) {
  if (!P.isValid() || !P.isAffineInLoopVars())
    return std::nullopt;
  Polynomial Lo = P.invariantPart(), Hi = P.invariantPart();
  for (const PolyVar &V : P.loopVars()) {
    std::optional<int64_t> C = P.coefficientOf(V).asConstant();
    if (!C)
      return std::nullopt; // symbolic coefficient: sign unknown
    auto It = Ranges.find(V.Key);
    if (It == Ranges.end())
      return std::nullopt;
    // The variable's own bounds may mention enclosing loop variables (triangular nests). A
    // clamped end without loop variables (`j < min(jt + 16, n)`: n) is a bound of its own.
    PolyRange Own = It->second;
    if (Own.ClampLo && Own.ClampLo->loopVars().empty())
      Own.Lo = *Own.ClampLo;
    if (Own.ClampHi && Own.ClampHi->loopVars().empty())
      Own.Hi = *Own.ClampHi;
    std::optional<PolyRange> VR{Own};
    if (!Own.Lo.loopVars().empty() || !Own.Hi.loopVars().empty()) {
      RangeMap Rest = Ranges;
      Rest.erase(V.Key);
      std::optional<PolyRange> L = symbolicRange(Own.Lo, Rest);
      std::optional<PolyRange> H = symbolicRange(Own.Hi, Rest);
      if (!L || !H)
        return std::nullopt;
      VR = PolyRange{L->Lo, H->Hi};
    }
    if (*C > 0) {
      Lo = Lo + VR->Lo.scaled(*C);
      Hi = Hi + VR->Hi.scaled(*C);
    } else {
      Lo = Lo + VR->Hi.scaled(*C);
      Hi = Hi + VR->Lo.scaled(*C);
    }
  }
  if (!Lo.isValid() || !Hi.isValid())
    return std::nullopt;
  return PolyRange{Lo, Hi};
}

namespace {
/// A symbol (not a loop variable) that multiplies some loop variable.
std::optional<PolyVar> symbolicStride(const Polynomial &P) {
  for (const auto &[M, C] : P.terms()) {
    bool HasLoopVar = false;
    for (const PolyVar &V : M)
      HasLoopVar |= V.IsLoopVar;
    if (!HasLoopVar)
      continue;
    for (const PolyVar &V : M)
      if (!V.IsLoopVar)
        return V;
  }
  return std::nullopt;
}
} // namespace

std::optional<std::vector<Polynomial>> clustrix::delinearize(const Polynomial &P,
                                                             const RangeMap &Ranges,
                                                             std::vector<Polynomial> *Extents) {
  if (!P.isValid() || !P.isAffineInLoopVars())
    return std::nullopt;
  std::optional<PolyVar> S = symbolicStride(P);
  if (!S)
    return std::vector<Polynomial>{P};
  // P = Q*S + R, where R holds the monomials without S.
  Polynomial Q = P.coefficientOf(*S);
  Polynomial R = P - Q * Polynomial::variable(*S);
  if (!Q.isValid() || !R.isValid() || R.mentions(S->Key))
    return std::nullopt;
  // Q may still hold S (k*S*S + i*S + j): the recursion splits it again.
  std::optional<PolyRange> RR = symbolicRange(R, Ranges);
  if (!RR)
    return std::nullopt;
  Polynomial SMinus1 = Polynomial::variable(*S) - Polynomial::constant(1);
  // Clamp symbols (a loop from max(a, b) to min(c, d)) are bounded by either operand.
  auto AtLeastZero = [&](const Polynomial &P) {
    return provablyLessEq(Polynomial::constant(0), P);
  };
  auto BelowStride = [&](const Polynomial &P) { return provablyLessEq(P, SMinus1); };
  if (!llvm::any_of(clampAlternatives(RR->Lo, /*Lower=*/true), AtLeastZero) ||
      !llvm::any_of(clampAlternatives(RR->Hi, /*Lower=*/false), BelowStride))
    return std::nullopt;
  std::optional<std::vector<Polynomial>> Outer = delinearize(Q, Ranges, Extents);
  if (!Outer)
    return std::nullopt;
  Outer->push_back(R);
  if (Extents)
    Extents->push_back(Polynomial::variable(*S));
  return Outer;
}

namespace {
int64_t gcd64(int64_t A, int64_t B) { return std::gcd(A < 0 ? -A : A, B < 0 ? -B : B); }

/// Whether P mentions Outer, or a loop variable whose range (its ends, clamped ends and start)
/// depends on it, Depth levels of inner loops deep at most.
bool dependsOn(const Polynomial &P, const PolyVar &Outer, const RangeMap &Ranges, int Depth) {
  if (!P.isValid() || P.mentions(Outer.Key))
    return true;
  if (Depth > 8)
    return true;
  for (const PolyVar &V : P.loopVars()) {
    auto It = Ranges.find(V.Key);
    if (It == Ranges.end())
      continue;
    const PolyRange &R = It->second;
    for (const Polynomial *E : {&R.Lo, &R.Hi, &R.Base})
      if (E->isValid() && dependsOn(*E, Outer, Ranges, Depth + 1))
        return true;
    for (const std::optional<Polynomial> *C : {&R.ClampLo, &R.ClampHi})
      if (*C && dependsOn(**C, Outer, Ranges, Depth + 1))
        return true;
  }
  return false;
}

/// The dimension forces equal iterations when both subscripts are C*Outer + (rest) with the same
/// constant C != 0 and the rests can differ by less than |C|.
bool separates(const Polynomial &A, const Polynomial &B, const PolyVar &Outer,
               const RangeMap &Ranges) {
  std::optional<int64_t> CA = A.coefficientOf(Outer).asConstant();
  std::optional<int64_t> CB = B.coefficientOf(Outer).asConstant();
  if (!CA || !CB || *CA != *CB || *CA == 0)
    return false;
  Polynomial OuterTerm = Polynomial::variable(Outer).scaled(*CA);
  Polynomial RestA = A - OuterTerm, RestB = B - OuterTerm;
  if (RestA == RestB && RestA.loopVars().empty())
    return true;
  // Inner variables of the two accesses range independently.
  std::optional<PolyRange> RA = symbolicRange(RestA, Ranges), RB = symbolicRange(RestB, Ranges);
  if (!RA || !RB)
    return false;
  std::optional<int64_t> MaxDiff = (RA->Hi - RB->Lo).asConstant();
  std::optional<int64_t> MinDiff = (RA->Lo - RB->Hi).asConstant();
  int64_t Abs = *CA < 0 ? -*CA : *CA;
  return MaxDiff && MinDiff && *MaxDiff < Abs && *MinDiff > -Abs;
}
} // namespace

DepResult clustrix::testCrossIteration(const std::vector<Polynomial> &A,
                                       const std::vector<Polynomial> &B, const PolyVar &Outer,
                                       const RangeMap &Ranges) {
  if (A.size() != B.size())
    return {DepKind::Unknown, std::nullopt, "the accesses have different shapes"};
  for (size_t D = 0; D < A.size(); ++D)
    if (!A[D].isAffineInLoopVars() || !B[D].isAffineInLoopVars())
      return {DepKind::Unknown, std::nullopt, "a subscript is not affine"};

  // Separation: one dimension alone proves the iterations equal.
  for (size_t D = 0; D < A.size(); ++D)
    if (separates(A[D], B[D], Outer, Ranges))
      return {DepKind::Independent, std::nullopt, ""};

  // GCD test per dimension, with all loop-variable coefficients constant. Each access has its
  // own copy of every loop variable, so the coefficients of both enter the gcd.
  bool AllConstant = true;
  for (size_t D = 0; D < A.size(); ++D) {
    int64_t G = 0;
    bool Constant = true;
    for (const Polynomial *P : {&A[D], &B[D]})
      for (const PolyVar &V : P->loopVars()) {
        std::optional<int64_t> C = P->coefficientOf(V).asConstant();
        if (!C) {
          Constant = false;
          break;
        }
        G = gcd64(G, *C);
      }
    std::optional<int64_t> Diff = (B[D].invariantPart() - A[D].invariantPart()).asConstant();
    if (!Constant || !Diff) {
      AllConstant = false;
      continue;
    }
    if (G == 0) {
      if (*Diff != 0)
        return {DepKind::Independent, std::nullopt, ""}; // two different constant elements
      continue;
    }
    if (*Diff % G != 0)
      return {DepKind::Independent, std::nullopt, ""};
  }

  // Exact single-index case: every dimension is c*Outer + k with constants; a dependence exists
  // when some dimension needs a nonzero iteration distance and all dimensions agree on it.
  bool SingleIndex = AllConstant;
  for (size_t D = 0; D < A.size() && SingleIndex; ++D)
    for (const Polynomial *P : {&A[D], &B[D]})
      for (const PolyVar &V : P->loopVars())
        if (!(V == Outer))
          SingleIndex = false;
  if (SingleIndex) {
    std::optional<int64_t> Distance;
    bool AnyOuter = false;
    for (size_t D = 0; D < A.size(); ++D) {
      int64_t CA = *A[D].coefficientOf(Outer).asConstant();
      int64_t CB = *B[D].coefficientOf(Outer).asConstant();
      int64_t Diff = *(B[D].invariantPart() - A[D].invariantPart()).asConstant();
      if (CA == 0 && CB == 0)
        continue; // equal constants: no constraint on the iterations
      AnyOuter = true;
      if (CA != CB)
        return {DepKind::Dependent, std::nullopt,
                "iterations with different strides reach the same element"};
      // CA*i1 + kA = CA*i2 + kB  =>  i1 - i2 = Diff / CA
      int64_t Dist = Diff / CA;
      if (Distance && *Distance != Dist)
        return {DepKind::Independent, std::nullopt, ""};
      Distance = Dist;
    }
    if (!AnyOuter)
      return {DepKind::Dependent, std::nullopt, "every iteration touches the same element"};
    if (Distance && *Distance == 0)
      return {DepKind::Independent, std::nullopt, ""};
    return {DepKind::Dependent, Distance, "iterations " + std::to_string(*Distance < 0 ? -*Distance : *Distance) +
                                              " apart touch the same element"};
  }
  // Directly, or through an inner variable whose range does (a tile's `i` from `it`).
  bool MentionsOuter = false;
  for (size_t D = 0; D < A.size(); ++D)
    MentionsOuter |= dependsOn(A[D], Outer, Ranges, 0) || dependsOn(B[D], Outer, Ranges, 0);
  if (!MentionsOuter)
    return {DepKind::Dependent, std::nullopt,
            "the subscripts do not depend on the loop variable, so every iteration touches the "
            "same elements"};
  return {DepKind::Unknown, std::nullopt, "the dependence test cannot prove the accesses disjoint"};
}

std::pair<bool, bool> clustrix::provablyInside(const Polynomial &P, const Polynomial &Last,
                                               const RangeMap &Ranges) {
  if (!P.isValid() || !Last.isValid())
    return {false, false};
  Polynomial Lo = P, Hi = P;
  for (unsigned Round = 0; Round < 4; ++Round) {
    if (Lo.loopVars().empty() && Hi.loopVars().empty())
      break;
    std::optional<PolyRange> RL = symbolicRange(Lo, Ranges), RH = symbolicRange(Hi, Ranges);
    if (!RL || !RH)
      return {false, false};
    Lo = RL->Lo;
    Hi = RH->Hi;
  }
  return {Lo.loopVars().empty() && provablyLessEq(Polynomial::constant(0), Lo),
          Hi.loopVars().empty() && provablyLessEq(Hi, Last)};
}

Polynomial clustrix::flattenRowMajor(const std::vector<Polynomial> &Subs,
                                     const std::vector<Polynomial> &Extents) {
  if (Subs.empty() || Extents.size() + 1 < Subs.size())
    return Polynomial::invalid();
  Polynomial P = Subs[0];
  for (size_t D = 1; D < Subs.size(); ++D)
    P = P * Extents[D - 1] + Subs[D];
  return P;
}
