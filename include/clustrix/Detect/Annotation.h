//===- clustrix/Detect/Annotation.h - Captured cluster attributes -*- C++ -*-===//
//
// What the detector captured of one `[[cluster::NAME(clauses)]]` attribute while the analysis
// parse lexed it, and the clauses parsed from it. Clang 19 cannot attach a plugin attribute to a
// statement, so the attribute's tokens are captured through the preprocessor's token watcher and
// matched to the statement or function after it.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_DETECT_ANNOTATION_H
#define CLUSTRIX_DETECT_ANNOTATION_H

#include "clustrix/Support/Kinds.h"

#include "clang/Basic/SourceLocation.h"
#include "clang/Basic/TokenKinds.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clustrix {

/// One token of a clause list, as spelled.
struct ClauseToken {
  clang::tok::TokenKind Kind;
  std::string Spelling;
  clang::SourceLocation Loc;
};

/// A reduction named by a `reduce(op: vars)` clause.
struct ReduceClause {
  std::string Op; ///< The operator's spelling (spelling(ReduceOp)): "+", "min", ...
  std::string Var;
  clang::SourceLocation Loc;
};

/// An `extent(ptr, count)` clause: the number of elements behind a pointer.
struct ExtentClause {
  std::string Var;
  std::string Count; ///< The count expression as spelled; evaluated at run time.
  clang::SourceLocation Loc;
};

/// The parsed clauses of one gpu_parallel attribute.
struct LoopClauses {
  std::optional<bool> Enable;       ///< enable / disable
  std::optional<int64_t> MaxDevices;
  ScheduleKind Schedule = ScheduleKind::Default;
  int64_t ChunkSize = 0;
  std::optional<int64_t> MinIters;
  int64_t Collapse = 1;
  std::vector<ReduceClause> Reductions;
  std::vector<ExtentClause> Extents;
};

/// One captured `cluster::` attribute.
struct Annotation {
  std::string Name;                 ///< The attribute name after `cluster::`.
  clang::SourceLocation NameLoc;    ///< Location of the name token (may be a macro location).
  clang::SourceLocation Begin;      ///< The `[[` token.
  clang::SourceLocation End;        ///< The final `]` token.
  clang::SourceLocation NextLoc;    ///< The first token after the attribute-specifier(s).
  clang::tok::TokenKind NextKind = clang::tok::unknown;
  bool HasArgs = false;
  std::vector<ClauseToken> Args;    ///< Tokens between the parentheses.
  clang::SourceLocation ArgsEnd;    ///< The closing parenthesis.
  bool OtherAttrsInSpecifier = false; ///< `[[nodiscard, cluster::x]]`: others share the brackets.
  LoopClauses Clauses;
  bool ClausesOk = true;
  bool Matched = false;             ///< Matched to a loop or function.
};

} // namespace clustrix

#endif // CLUSTRIX_DETECT_ANNOTATION_H
