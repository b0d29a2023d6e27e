//===- StatementEnd.cpp - Where a statement's text ends --------------------===//
#include "clustrix/AST/StatementEnd.h"
#include "clustrix/AST/LoopNest.h"

#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

/// The last token of S in the file: where S ends inside a macro's expansion, the last token of
/// the invocation (its `)`), not the macro's name.
static SourceLocation lastToken(const Stmt *S, const SourceManager &SM) {
  return SM.getExpansionRange(S->getEndLoc()).getEnd();
}

SourceLocation clustrix::trailingSemicolon(const Stmt *S, const SourceManager &SM,
                                           const LangOptions &LO) {
  const Stmt *Last = S;
  while (const Stmt *Body = loopBody(Last))
    Last = Body;
  if (isa<CompoundStmt>(Last))
    return SourceLocation();
  std::optional<Token> Next = Lexer::findNextToken(lastToken(S, SM), SM, LO);
  if (Next && Next->is(tok::semi))
    return Next->getLocation();
  return SourceLocation();
}

std::pair<unsigned, unsigned> clustrix::statementOffsets(const Stmt *S, const SourceManager &SM,
                                                         const LangOptions &LO) {
  unsigned B = SM.getFileOffset(SM.getExpansionLoc(S->getBeginLoc()));
  SourceLocation E = Lexer::getLocForEndOfToken(lastToken(S, SM), 0, SM, LO);
  if (SourceLocation Semi = trailingSemicolon(S, SM, LO); Semi.isValid())
    E = Semi.getLocWithOffset(1);
  return {B, SM.getFileOffset(E)};
}
