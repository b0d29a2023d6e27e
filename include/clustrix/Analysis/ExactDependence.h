//===- clustrix/Analysis/ExactDependence.h - The exact dependence test -*- C++ -*-===//
//
// The exact integer test behind the cheap ones of Dependence.h: may two accesses touch the same
// element in two different iterations of the nest, with the inner loop variables of each access
// ranging over their (possibly triangular) ranges and the symbols taking any value? Decided with
// isl (the integer set library under Polly and PPCG) when every subscript and range is affine
// with constant coefficients. Pure arithmetic on polynomials: no Clang.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_ANALYSIS_EXACTDEPENDENCE_H
#define CLUSTRIX_ANALYSIS_EXACTDEPENDENCE_H

#include "clustrix/Analysis/Dependence.h"

#include <optional>
#include <string>
#include <vector>

namespace clustrix {

/// What the exact test found.
struct ExactAnswer {
  bool Conflict = false;
  /// For a conflict, a witness: the two iterations of the nest and the symbols' values, e.g.
  /// "iterations 0 and 1 (with n = 2)". Iterations are counted from 0 in the order the loop
  /// runs them.
  std::string Witness;
  /// The witness's symbols (their polynomial keys: the variables) with their values.
  std::vector<std::pair<const void *, int64_t>> Symbols;
};

/// Tests accesses A and B (delinearized subscripts, same rank) for a conflict between two
/// different iterations of the nest (its normalized variables, outermost first). Loop variables
/// range over Ranges; each access has its own copy of every loop variable. std::nullopt when
/// the problem is not affine or isl cannot decide within its budget. CondA and CondB, when
/// given, are conditions (each P >= 0) under which each access is made, over its instance.
std::optional<ExactAnswer> testExactly(const std::vector<Polynomial> &A,
                                       const std::vector<Polynomial> &B,
                                       const std::vector<PolyVar> &Nest, const RangeMap &Ranges,
                                       const std::vector<Polynomial> *CondA = nullptr,
                                       const std::vector<Polynomial> *CondB = nullptr);

} // namespace clustrix

#endif // CLUSTRIX_ANALYSIS_EXACTDEPENDENCE_H
