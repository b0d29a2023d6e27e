//===- clustrix/Decide/Decision.h - From analysis result to decision -*- C++ -*-===//
//
// Decide owns what the user is told about each loop. An analysis result becomes one report
// record and at most one diagnostic: a remark naming the schedule, level and regions of an
// accepted loop (with a note when it has no GPU form), or the refusal, whose severity follows
// the options, with a note per further reason and a fix-it per suggested clause.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_DECIDE_DECISION_H
#define CLUSTRIX_DECIDE_DECISION_H

#include "clustrix/Analysis/LoopAnalysis.h"
#include "clustrix/Decide/Diagnostics.h"
#include "clustrix/Decide/Report.h"
#include "clustrix/Detect/LoopMatcher.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace clustrix {

/// Whether the loop has a GPU form, and why not.
struct GpuForm {
  bool Ok = false;
  std::string Reason; ///< Why there is none.
};

/// Turns analysis results into report records and diagnostics.
class Decider {
public:
  Decider(const clang::SourceManager &SM, DiagOptions Opts) : SM(SM), Opts(Opts) {}

  /// Decides one loop: appends its record to Records and its diagnostic, if any, to Diags.
  void decide(const MatchedLoop &L, const LoopResult &R, const GpuForm &GPU,
              std::vector<LoopRecord> &Records, std::vector<PendingDiag> &Diags) const;

  /// The result of a loop that lies inside the parallelized loop Outer: refused, not analyzed.
  LoopResult refuseNested(const MatchedLoop &Outer) const;

private:
  LoopRecord record(const MatchedLoop &L, const LoopResult &R, const GpuForm &GPU) const;
  PendingDiag refusal(const MatchedLoop &L, const LoopResult &R,
                      clang::DiagnosticsEngine::Level Level) const;

  const clang::SourceManager &SM;
  DiagOptions Opts;
};

/// The remark of an accepted loop: "loop parallelized across devices: schedule ...".
std::string acceptedText(const LoopResult &R, const LoopClauses &C, bool Automatic);

} // namespace clustrix

#endif // CLUSTRIX_DECIDE_DECISION_H
