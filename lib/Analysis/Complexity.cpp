//===- Complexity.cpp - The complexity score of a loop body ---------------===//
//
// Weights of docs/score.md: a statement counts 1; an if 2 more, a switch 2 more, an inner loop
// 5 more; a call counts 1 plus its callee's statements; a recognized `if` min/max 2 more; a
// reduction update under a condition 1 more.
//
//===----------------------------------------------------------------------===//
#include "Complexity.h"

namespace clustrix {
namespace analysis {

void CostModel::note(Event E) {
  switch (E) {
  case Event::Statement: Score += 1; break;
  case Event::Branch: Score += 2; break;
  case Event::InnerLoop: Score += 5; break;
  case Event::Switch: Score += 2; break;
  case Event::MinMaxIf: Score += 2; break;
  case Event::CondUpdate: Score += 1; break;
  case Event::Call: Score += 1; break;
  }
}

void scoreComplexity(const CostModel &Cost, unsigned MaxLevel, LoopResult &R, RejectLog &Log) {
  R.Score = Cost.score();
  R.Level = complexityLevel(R.Score);
  R.WorkPerIter = Cost.work();
  if (R.Level > MaxLevel)
    Log.add(RejectKind::TooComplex, "complexity level " + std::to_string(R.Level) + " (score " +
                                        std::to_string(R.Score) +
                                        ") is above the configured maximum " +
                                        std::to_string(MaxLevel));
}

} // namespace analysis
} // namespace clustrix
