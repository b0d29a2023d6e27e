//===- clustrix/Detect/ClauseParser.h - gpu_parallel clauses ----*- C++ -*-===//
//
// Parses the clause list of `[[cluster::gpu_parallel(...)]]`. The grammar is in
// docs/attribute.md; every error names the offending token.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_DETECT_CLAUSEPARSER_H
#define CLUSTRIX_DETECT_CLAUSEPARSER_H

#include "clustrix/Detect/Annotation.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace clustrix {

/// A clause syntax error at a token, with an optional replacement for that token.
struct ClauseError {
  clang::SourceLocation Loc;
  std::string Message;
  std::string FixItReplacement; ///< Empty when there is no fix-it.
  unsigned FixItLength = 0;     ///< Characters replaced at Loc.
};

/// Parses Tokens (the text between the parentheses). ArgsEnd locates errors at the end.
/// Returns the errors; on success the clauses are in Out.
std::vector<ClauseError> parseClauses(const std::vector<ClauseToken> &Tokens,
                                      clang::SourceLocation ArgsEnd, LoopClauses &Out);

/// The closest of Candidates to Word within a small edit distance, or empty.
std::string closestMatch(llvm::StringRef Word, llvm::ArrayRef<llvm::StringRef> Candidates);

} // namespace clustrix

#endif // CLUSTRIX_DETECT_CLAUSEPARSER_H
