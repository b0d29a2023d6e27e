//===- clustrix/Analysis/Dependence.h - Cross-iteration test ----*- C++ -*-===//
//
// The dependence test: may two accesses to the same array, made in two different iterations of
// the parallel loop, touch the same element? Also the delinearization of row-major subscripts
// (`i*m + j` with 0 <= j < m becomes the two dimensions [i][j]) and the symbolic range of a
// subscript. Pure arithmetic on polynomials: no Clang, unit-tested on its own.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_ANALYSIS_DEPENDENCE_H
#define CLUSTRIX_ANALYSIS_DEPENDENCE_H

#include "clustrix/Analysis/Polynomial.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clustrix {

/// Ranges of loop variables: inclusive [Lo, Hi] as polynomials (which may mention other loop
/// variables, e.g. a triangular inner loop's bound mentions the outer variable).
using RangeMap = std::map<const void *, PolyRange>;

/// The symbolic range of P over the ranges of its loop variables, when every loop-variable term
/// has a constant coefficient (its sign is then known). Loop variables without a range stay as
/// they are, so the result is only meaningful when all have one.
std::optional<PolyRange> symbolicRange(const Polynomial &P, const RangeMap &Ranges);

/// Splits a row-major linear subscript into dimensions, outermost first: P = Q*s + R becomes
/// [Q..., R] when R provably lies in [0, s-1] for the symbol s. Returns {P} when P needs no
/// splitting, and std::nullopt when a symbolic coefficient cannot be split soundly. When Extents
/// is given it receives the extent of every dimension but the outermost (the symbols split on).
std::optional<std::vector<Polynomial>> delinearize(const Polynomial &P, const RangeMap &Ranges,
                                                   std::vector<Polynomial> *Extents = nullptr);

/// Answer of the cross-iteration test.
enum class DepKind {
  Independent, ///< No element is touched by both accesses in two different iterations.
  Dependent,   ///< Some element provably is (Distance is set when it is constant).
  Unknown,     ///< The test cannot decide; the loop must be treated as dependent.
};

struct DepResult {
  DepKind Kind = DepKind::Unknown;
  std::optional<int64_t> Distance; ///< Iteration distance of a proven dependence.
  std::string Why;                 ///< One phrase for diagnostics.
};

/// Tests two accesses (per-dimension subscripts, already delinearized) to the same array for a
/// conflict between different iterations of the loop variable Outer (the normalized iteration,
/// ranging over [0, trip)). Inner loop variables are existentially quantified over Ranges
/// independently for each access. At least one of the two accesses is a write.
DepResult testCrossIteration(const std::vector<Polynomial> &A, const std::vector<Polynomial> &B,
                             const PolyVar &Outer, const RangeMap &Ranges);

/// Whether 0 <= P (first) and P <= Last (second) hold for every value of the loop variables in
/// Ranges (a range that names outer loop variables is widened through theirs): a subscript
/// that stays at or after the start of its row, and at or before its end.
std::pair<bool, bool> provablyInside(const Polynomial &P, const Polynomial &Last,
                                     const RangeMap &Ranges);

/// The offset of element Subs (outermost first) from its array's start, row-major, with the
/// extents of the dimensions after the first: ((s0*e1 + s1)*e2 + s2)... Invalid where an
/// extent is missing or invalid.
Polynomial flattenRowMajor(const std::vector<Polynomial> &Subs,
                           const std::vector<Polynomial> &Extents);

} // namespace clustrix

#endif // CLUSTRIX_ANALYSIS_DEPENDENCE_H
