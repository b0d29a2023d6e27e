//===- clustrix/Detect/LoopMatcher.h - Attributes to loops ------*- C++ -*-===//
//
// Where an attribute may stand is answered here. The matcher checks each captured attribute's
// name and clauses, binds it to the `for` or range-`for` that starts at the token after it, or
// to a function definition (automatic mode: every outermost loop of the function), and reports
// an error at every attribute that binds to neither. NestingTracker says which loop lies inside
// one already parallelized.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_DETECT_LOOPMATCHER_H
#define CLUSTRIX_DETECT_LOOPMATCHER_H

#include "clustrix/Detect/Annotation.h"
#include "clustrix/Support/PendingDiag.h"

#include "clang/Basic/SourceLocation.h"

#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
class Stmt;
} // namespace clang

namespace clustrix {

/// A loop of a template definition as one instantiation has it.
struct LoopInstance {
  const clang::Stmt *Loop = nullptr;
  const clang::FunctionDecl *Fn = nullptr;
};

/// One loop to analyze, with the attribute that asked for it.
struct MatchedLoop {
  Annotation *Ann = nullptr;             ///< On the loop, or on its function (automatic mode).
  const clang::Stmt *Loop = nullptr;     ///< ForStmt or CXXForRangeStmt.
  const clang::FunctionDecl *Fn = nullptr; ///< The function (or lambda) the loop is in.
  bool Automatic = false;                ///< Found through a function's attribute.
  LoopClauses Clauses;
  unsigned Begin = 0, End = 0; ///< Byte range in its file, trailing `;` included.
  clang::FileID File;          ///< The file of that range.
  /// The loop is in a template definition: it runs only as its instantiations' copies, each
  /// analysed on its own (clustrix/AST/Instantiation.h).
  bool InTemplate = false;
  std::vector<LoopInstance> Instances; ///< In the order the AST lists the instantiations.
  /// Set on the copy of a template's loop made for one instantiation: its name, and where it
  /// was requested (for the note that diagnostics carry).
  std::string Instantiation;
  clang::SourceLocation InstantiatedAt;
};

/// Binds the attributes of one translation unit to loops and functions.
class LoopMatcher {
public:
  /// Errors at attributes go to Errors.
  LoopMatcher(clang::ASTContext &Ctx, std::vector<PendingDiag> &Errors)
      : Ctx(Ctx), Errors(Errors) {}

  /// The loops that Anns ask for, in source order; reports every attribute that is misspelled,
  /// has bad clauses, is doubled, or stands where no loop or function follows.
  std::vector<MatchedLoop> match(std::vector<Annotation> &Anns);

private:
  std::vector<Annotation *> checkNamesAndClauses(std::vector<Annotation> &Anns);
  void error(clang::SourceLocation L, std::string Msg, std::vector<PendingFixIt> Fix = {});

  clang::ASTContext &Ctx;
  std::vector<PendingDiag> &Errors;
};

/// The loops accepted so far, for the loops inside them: those run serially within each
/// iteration of the outer one and are not analyzed. Loops must come in source order.
class NestingTracker {
public:
  /// The accepted loop that contains L, if any (the innermost).
  const MatchedLoop *enclosing(const MatchedLoop &L) const;
  /// Records an accepted loop.
  void accept(const MatchedLoop &L) { Accepted.push_back(&L); }

private:
  std::vector<const MatchedLoop *> Accepted;
};

} // namespace clustrix

#endif // CLUSTRIX_DETECT_LOOPMATCHER_H
