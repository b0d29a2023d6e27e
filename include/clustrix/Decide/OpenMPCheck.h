//===- clustrix/Decide/OpenMPCheck.h - OpenMP loops, race or proof -*- C++ -*-===//
//
// The race check of the OpenMP front door: one worksharing loop, analysed as an annotated loop,
// judged under OpenMP's data-sharing rules (a variable declared outside the loop is shared
// unless a clause makes it private or a reduction). The verdict is one of three:
//   - a race, only with a witness: two iterations, the variable or element, and the line of
//     each access (an array dependence the exact test found between accesses that every point
//     of the nest makes, or a shared scalar that every iteration writes);
//   - race-free, proved (the analysis accepts the loop with nothing that OpenMP would share,
//     and no proof that needs a run-time check);
//   - unknown, with the reason.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_DECIDE_OPENMPCHECK_H
#define CLUSTRIX_DECIDE_OPENMPCHECK_H

#include "clustrix/Analysis/LoopModel.h"
#include "clustrix/Detect/OpenMPDoor.h"

#include "clang/AST/ASTContext.h"

#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace clustrix {

enum class RaceVerdict { Race, RaceFree, Unknown };

/// The report's word for a verdict: "race", "race-free", "unknown".
llvm::StringRef verdictName(RaceVerdict V);

struct OmpVerdict {
  RaceVerdict Verdict = RaceVerdict::Unknown;
  /// The race and its witness, or why the verdict is unknown, or what the proof covers.
  std::string Message;
  /// For a race: the two accesses (the same place for a scalar every iteration writes).
  clang::SourceLocation First, Second;
  std::string FirstNote, SecondNote;
  /// For a race the exact test found: the symbols its witness gives values (by key: the
  /// variable), with those values.
  std::vector<std::pair<const void *, int64_t>> Symbols;
  /// That witness's text in Message ("iterations 0 and 1 (with n = 2)").
  std::string Iterations;
  /// For an unknown verdict: the analysis proves the loop where the objects its pointers reach
  /// are apart, and that is all the proof lacks.
  bool NeedsApart = false;
};

/// The race check of one translation unit. The facts of the unit it reads (the globals that
/// keep their initial value, whether a variable is changed in its function) are computed once.
class OpenMPChecker {
public:
  /// WholeProgram: the unit is the whole program (PipelineOptions::WholeProgram), so a global
  /// of external linkage that the unit never changes keeps its initializer's value.
  OpenMPChecker(clang::ASTContext &Ctx, bool WholeProgram);
  ~OpenMPChecker();

  /// Judges the OpenMP loop L, whose `for` statement is Loop in function Fn, from the analysis
  /// result R. ThreadPrivate names the file's `threadprivate` variables (each thread's own).
  OmpVerdict check(const clang::Stmt *Loop, const clang::FunctionDecl *Fn, const OmpLoop &L,
                   const LoopResult &R, const std::set<std::string> &ThreadPrivate);

  struct Facts;

private:
  /// The verdict by the rules: shared scalars, the dependence test's witnesses and proofs,
  /// rows, linear variables, lookup tables.
  OmpVerdict checkRules(const clang::Stmt *Loop, const clang::FunctionDecl *Fn, const OmpLoop &L,
                        const LoopResult &R, const std::set<std::string> &ThreadPrivate);

  std::unique_ptr<Facts> F;
};

} // namespace clustrix

#endif // CLUSTRIX_DECIDE_OPENMPCHECK_H
