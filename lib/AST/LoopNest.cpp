//===- LoopNest.cpp - Walking to a nest's innermost body -------------------===//
#include "clustrix/AST/LoopNest.h"

#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

const Stmt *clustrix::loopBody(const Stmt *Loop) {
  if (const auto *F = dyn_cast_or_null<ForStmt>(Loop))
    return F->getBody();
  if (const auto *RF = dyn_cast_or_null<CXXForRangeStmt>(Loop))
    return RF->getBody();
  return nullptr;
}

const Stmt *clustrix::unwrapSoleStatement(const Stmt *S) {
  while (const auto *CS = dyn_cast_or_null<CompoundStmt>(S)) {
    if (CS->size() != 1)
      break;
    S = CS->body_front();
  }
  return S;
}

const Stmt *clustrix::innermostBody(const Stmt *Loop, unsigned Depth) {
  const Stmt *Body = loopBody(Loop);
  for (unsigned L = 1; L < Depth && Body; ++L)
    Body = loopBody(unwrapSoleStatement(Body));
  return Body;
}
