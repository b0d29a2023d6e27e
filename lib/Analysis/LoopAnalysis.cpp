//===- LoopAnalysis.cpp - Analyze one annotated loop -----------------------===//
//
// The analysis as a list of phases (docs/architecture.md describes each):
//   Context        where the loop is, and whether moving its body changes its meaning
//   CanonicalNest  the canonical nest, collapse(n) levels deep
//   UseScan        which variables of the function escape where the loop can observe them
//   Privatize      scalars of the function that every iteration writes before reading
//   BodyWalker     the closed-world walk of the body and its callees: accesses and scalar uses
//   CanonicalNest  bounds, initializers and steps that stay invariant; rectangular collapse
//   Scalars        reductions, carried scalars, reduce clauses; ordered appends
//   Regions        regions, extents and delinearized subscripts
//   Dependences    the pairwise test of every write, and which write boxes are written in full
//   Regions        guard regions for scalars that pointers the loop writes through might reach
//   Complexity     the score, the level and the work per iteration
//
//===----------------------------------------------------------------------===//
#include "clustrix/Analysis/LoopAnalysis.h"

#include "Phases.h"

using namespace clang;
using namespace clustrix::analysis;

namespace clustrix {

LoopResult LoopAnalyzer::analyze(const Stmt *Loop, const LoopClauses &Clauses,
                                 const FunctionDecl *Enclosing) {
  LoopResult R;
  RejectLog Log(R.Reasons);
  if (!checkContext(Ctx, Loop, Enclosing, Opts, Log))
    return R;
  NestInfo Nest;
  LoopScope Scope(Enclosing, Loop);
  if (!buildNest(Ctx, Loop, Clauses, Scope, R, Log, Nest))
    return R;
  EscapeInfo Escapes = scanEscapes(Enclosing, Loop, Ctx);
  R.Privates = findPrivates(Nest, R, Enclosing, Loop, Escapes, &R.PrivateMisses);
  BodyWalker Walker(Ctx, R, Log, Escapes, Scope);
  Walker.run(Nest.Body, Nest.NormVars);
  BodyFacts &Facts = Walker.Facts;
  checkInvariance(Ctx, Nest, Escapes, Scope, Facts, R, Log);
  classifyScalars(Ctx, Nest, Clauses, Facts, Escapes, R, Log);
  for (const auto &[VD, Use] : Facts.Scalars)
    if (!Use.Writes.empty())
      R.WrittenScalars.push_back(VD);
  checkAppends(Ctx, Facts, Escapes, R, Log);
  RangeMap Ranges;
  RegionAccesses ByRegion = buildRegions(Ctx, Nest, Clauses, Facts, R, Log, Ranges);
  testDependences(Nest, ByRegion, Ranges, R, Log);
  addGuardRegions(Ctx, Facts, R);
  scoreComplexity(Facts.Cost, Opts.MaxLevel, R, Log);
  if (Clauses.Enable && !*Clauses.Enable)
    Log.add(RejectKind::Disabled, "disabled by 'gpu_parallel(disable)'");
  R.Accepted = R.Reasons.empty();
  return R;
}

} // namespace clustrix
