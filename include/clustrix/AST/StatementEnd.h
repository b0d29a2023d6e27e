//===- clustrix/AST/StatementEnd.h - Where a statement's text ends -*- C++ -*-===//
//
// Clang's source range of an expression statement, or of a loop whose body is one, stops before
// the `;` that ends it. Code that copies a statement's text needs that `;`: the rewriter, the
// kernel emitter and the matcher (which compares loops by their text ranges) find it here.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_AST_STATEMENTEND_H
#define CLUSTRIX_AST_STATEMENTEND_H

#include "clang/Basic/SourceLocation.h"

#include <utility>

namespace clang {
class LangOptions;
class SourceManager;
class Stmt;
} // namespace clang

namespace clustrix {

/// The `;` that ends S outside its source range, or an invalid location when S ends with its
/// last token (a `}`). Loops are followed into their bodies: `for (...) x += 1;` ends at the
/// `;`. Locations are expansion locations.
clang::SourceLocation trailingSemicolon(const clang::Stmt *S, const clang::SourceManager &SM,
                                        const clang::LangOptions &LO);

/// The byte range [Begin, End) of S in the file that holds its expansion, its trailing `;`
/// included.
std::pair<unsigned, unsigned> statementOffsets(const clang::Stmt *S,
                                               const clang::SourceManager &SM,
                                               const clang::LangOptions &LO);

} // namespace clustrix

#endif // CLUSTRIX_AST_STATEMENTEND_H
