//===- Phases.h - The phases of the loop analysis ---------------*- C++ -*-===//
//
// One entry point per phase; LoopAnalysis.cpp calls them in order. Private to lib/Analysis.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_LIB_ANALYSIS_PHASES_H
#define CLUSTRIX_LIB_ANALYSIS_PHASES_H

#include "BodyWalker.h"

#include "clustrix/Analysis/LoopAnalysis.h"
#include "clustrix/Detect/Annotation.h"

namespace clustrix {
namespace analysis {

/// The loop nest in canonical form (CanonicalNest.cpp).
struct NestInfo {
  const clang::Stmt *Body = nullptr;
  std::vector<PolyVar> NormVars; ///< One normalized iteration variable per level.
  /// Per level, the expressions that must be loop-invariant: the bound (a range-for's range),
  /// the initializer of an induction variable declared in the loop, and the step.
  struct Level {
    const clang::Expr *Bound = nullptr, *Init = nullptr, *Step = nullptr;
  };
  std::vector<Level> Levels;
};

/// Where the loop is: not in a template, a macro or a file that is not rewritten, not in a constexpr
/// function, no __COUNTER__ in its text (Context.cpp). False when refused.
bool checkContext(clang::ASTContext &Ctx, const clang::Stmt *Loop,
                  const clang::FunctionDecl *Enclosing, const AnalysisOptions &Opts,
                  RejectLog &Log);

/// The canonical nest, collapse(n) levels deep (CanonicalNest.cpp). False when refused.
bool buildNest(clang::ASTContext &Ctx, const clang::Stmt *Loop, const LoopClauses &Clauses,
               const LoopScope &Scope, LoopResult &R, RejectLog &Log, NestInfo &Nest);

/// Scalars and small arrays of the enclosing function, declared before the loop, that every
/// iteration writes before reading (Privatize.cpp). Misses: the arrays it considered and did
/// not take, with what stopped each.
std::vector<Private> findPrivates(const NestInfo &Nest, const LoopResult &R,
                                  const clang::FunctionDecl *Enclosing, const clang::Stmt *Loop,
                                  const EscapeInfo &Escapes,
                                  std::vector<PrivateMiss> *Misses = nullptr);

/// Bounds, initializers and steps do not change during the loop, and a collapsed nest is
/// rectangular (CanonicalNest.cpp).
void checkInvariance(clang::ASTContext &Ctx, const NestInfo &Nest, const EscapeInfo &Escapes,
                     const LoopScope &Scope, BodyFacts &Facts, LoopResult &R, RejectLog &Log);

/// Shared scalars: read-only, reduction or carried; reduce clauses (Scalars.cpp).
void classifyScalars(clang::ASTContext &Ctx, const NestInfo &Nest, const LoopClauses &Clauses,
                     const BodyFacts &Facts, const EscapeInfo &Escapes, LoopResult &R,
                     RejectLog &Log);

/// Ordered appends: a container used only through push_back/emplace_back that nothing else can
/// reach; and whole uses of containers (Scalars.cpp).
void checkAppends(clang::ASTContext &Ctx, const BodyFacts &Facts, const EscapeInfo &Escapes,
                  LoopResult &R, RejectLog &Log);

/// The accesses of one region, in the order of R.Regions.
using RegionAccesses = std::vector<std::vector<const Access *>>;

/// Regions from the accesses: extents, delinearized subscripts (Regions.cpp).
RegionAccesses buildRegions(clang::ASTContext &Ctx, const NestInfo &Nest,
                            const LoopClauses &Clauses, const BodyFacts &Facts, LoopResult &R,
                            RejectLog &Log, RangeMap &Ranges);

/// Scalars the loop reads that a pointer it writes through might reach become regions the
/// runtime checks (Regions.cpp).
void addGuardRegions(clang::ASTContext &Ctx, const BodyFacts &Facts, LoopResult &R);

/// Every write against every access of the same region; and which write boxes are written in
/// full (Dependences.cpp).
void testDependences(const NestInfo &Nest, const RegionAccesses &ByRegion,
                     const RangeMap &Ranges, LoopResult &R, RejectLog &Log);

} // namespace analysis
} // namespace clustrix

#endif
