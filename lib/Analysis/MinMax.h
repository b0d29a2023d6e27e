//===- MinMax.h - The smaller or larger of two integers ------------*- C++ -*-===//
//
// Clamped bounds are written as std::min / std::max or as a conditional that picks one of its
// two compared operands (MIN and MAX macros). The canonical nest (a parallel loop's own start
// and bound) and the body walker (inner loops, locals defined as a min) recognise them here.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_LIB_ANALYSIS_MINMAX_H
#define CLUSTRIX_LIB_ANALYSIS_MINMAX_H

#include "clustrix/Analysis/Polynomial.h"

#include "clang/AST/Expr.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace clustrix {
namespace analysis {

/// Whether E is the larger (true) or the smaller (false) of two integers, none otherwise; A and
/// B are then its operands: `std::max(a, b)` or `std::min(a, b)` (through the temporaries its
/// reference parameters bind; the conversions to their type are kept, for Value to check), or a
/// conditional that picks one of its own two compared operands, compared by their values
/// (Value, exact polynomials).
std::optional<bool> minMaxOf(const clang::Expr *E, const clang::Expr *&A, const clang::Expr *&B,
                             llvm::function_ref<Polynomial(const clang::Expr *)> Value);

} // namespace analysis
} // namespace clustrix

#endif
