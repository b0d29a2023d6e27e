//===- clustrix/AST/LoopNest.h - Walking to a nest's innermost body -*- C++ -*-===//
//
// The one walk from an annotated loop to the body that runs once per iteration of its
// (possibly collapsed) nest, shared by the analysis, the rewriter and the kernel emitter.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_AST_LOOPNEST_H
#define CLUSTRIX_AST_LOOPNEST_H

namespace clang {
class Stmt;
} // namespace clang

namespace clustrix {

/// The body of a `for` or range-`for` statement; null for any other statement.
const clang::Stmt *loopBody(const clang::Stmt *Loop);

/// S without the braces around a single statement: `{ { for (...) ... } }` is the `for`. A
/// compound statement with no or several statements is returned as it is, which is how a
/// nest that is not perfect shows.
const clang::Stmt *unwrapSoleStatement(const clang::Stmt *S);

/// The body of the innermost of Depth perfectly nested loops that start at Loop (Depth 1: Loop's
/// own body). The nest must be perfect, as the analysis checks for `collapse(Depth)`.
const clang::Stmt *innermostBody(const clang::Stmt *Loop, unsigned Depth);

} // namespace clustrix

#endif // CLUSTRIX_AST_LOOPNEST_H
