//===- Complexity.h - The complexity score of a loop body -------*- C++ -*-===//
//
// The cost model: the body walk reports what it meets (statements, branches, inner loops,
// calls, operations, accesses) and the model turns that into the complexity score and level
// (docs/score.md) and the estimated work per iteration that the runtime weighs against the cost
// of going wide. All weights live in Complexity.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_LIB_ANALYSIS_COMPLEXITY_H
#define CLUSTRIX_LIB_ANALYSIS_COMPLEXITY_H

#include "AnalysisUtil.h"

#include "clustrix/Analysis/LoopModel.h"

namespace clustrix {
namespace analysis {

/// Accumulates the score and the work of one loop body as the walk goes.
class CostModel {
public:
  /// What the walk meets. Statement: any statement but a compound, a case label or an
  /// attribute wrapper.
  enum class Event {
    Statement,     ///< one statement
    Branch,        ///< an if
    InnerLoop,     ///< a for, while, do or range-based for inside the body
    Switch,        ///< a switch
    MinMaxIf,      ///< `if (e > m) m = e;` recognized as a reduction
    CondUpdate,    ///< a reduction update under a condition
    Call,          ///< a call inlined into the walk
  };
  void note(Event E);
  /// Work items: an arithmetic operation, an element access, a math library call.
  void arithmetic() { Work += 1.0; }
  void access() { Work += 2.0; }
  void mathCall() { Work += 8.0; }
  /// The work counted since Mark runs Trips times (an inner loop's body).
  double mark() const { return Work; }
  void repeat(double Mark, double Trips) { Work = Mark + (Work - Mark) * Trips; }
  /// Trips assumed for an inner loop whose trip count is not a constant.
  static constexpr double UnknownTrips = 16;

  unsigned score() const { return Score; }
  double work() const { return Work; }

private:
  unsigned Score = 0;
  double Work = 1.0;
};

/// The complexity phase: sets R.Score, R.Level and R.WorkPerIter from the walk's cost model and
/// refuses a loop above the configured level.
void scoreComplexity(const CostModel &Cost, unsigned MaxLevel, LoopResult &R, RejectLog &Log);

} // namespace analysis
} // namespace clustrix

#endif
