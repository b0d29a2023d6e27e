//===- Privatize.cpp - Scalars of the function that each iteration owns ----===//
//
// A scalar declared before the loop (C89 style: `int j; double t;` at the top of the function)
// needs no value from another iteration when every iteration writes it before any read, on every
// path, and has written it when the iteration ends. It is then private: each chunk has its own,
// and the chunk that runs the last iteration leaves its value in the variable, which is what the
// serial loop leaves. The test is structural and conservative: a plain `v = e;` statement (e not
// naming v) is the only write that counts; every other mention is a read; branches must both
// write; loops inside the body may not run; a `continue` ends an iteration where it stands.
//
//===----------------------------------------------------------------------===//
#include "Phases.h"

#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace clustrix {
namespace analysis {

namespace {

/// Follows whether V is written along the body, in order.
class WriteFlow {
public:
  explicit WriteFlow(const VarDecl *V) : V(V) {}

  /// Whether every iteration writes V before reading it and ends with it written.
  bool privatizable(const Stmt *Body) {
    bool W = stmt(Body, false, 0);
    return Ok && W;
  }

private:
  bool mentions(const Stmt *S) const {
    if (!S)
      return false;
    if (const auto *DR = dyn_cast<DeclRefExpr>(S))
      if (DR->getDecl() == V)
        return true;
    for (const Stmt *C : S->children())
      if (mentions(C))
        return true;
    return false;
  }

  /// An expression evaluated in state W: a mention before a write is a read.
  void read(const Stmt *E, bool W) {
    if (!W && mentions(E))
      Ok = false;
  }

  /// Depth: loops and switches of the body enclosing S (a `continue` inside them is theirs).
  bool stmt(const Stmt *S, bool W, unsigned Depth) {
    if (!S || !Ok)
      return W;
    if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *C : CS->body())
        W = stmt(C, W, Depth);
      return W;
    }
    if (const auto *E = dyn_cast<Expr>(S)) {
      const Expr *X = E->IgnoreImplicit()->IgnoreParens();
      if (const auto *BO = dyn_cast<BinaryOperator>(X); BO && BO->getOpcode() == BO_Assign)
        if (const auto *L = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
            L && L->getDecl() == V) {
          read(BO->getRHS(), W);
          return true;
        }
      read(E, W);
      return W;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D))
          read(VD->getInit(), W);
      return W;
    }
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      W = stmt(If->getInit(), W, Depth);
      if (const DeclStmt *CV = If->getConditionVariableDeclStmt())
        W = stmt(CV, W, Depth);
      read(If->getCond(), W);
      bool Then = stmt(If->getThen(), W, Depth);
      bool Else = If->getElse() ? stmt(If->getElse(), W, Depth) : W;
      return Then && Else;
    }
    if (const auto *F = dyn_cast<ForStmt>(S)) {
      W = stmt(F->getInit(), W, Depth);
      read(F->getCond(), W);
      stmt(F->getBody(), W, Depth + 1);
      read(F->getInc(), W);
      return W; // the body may not run
    }
    if (const auto *Wh = dyn_cast<WhileStmt>(S)) {
      read(Wh->getCond(), W);
      stmt(Wh->getBody(), W, Depth + 1);
      return W;
    }
    if (const auto *D = dyn_cast<DoStmt>(S)) {
      W = stmt(D->getBody(), W, Depth + 1); // runs at least once
      read(D->getCond(), W);
      return W;
    }
    if (const auto *RF = dyn_cast<CXXForRangeStmt>(S)) {
      read(RF->getRangeInit(), W);
      stmt(RF->getBody(), W, Depth + 1);
      return W;
    }
    if (const auto *Sw = dyn_cast<SwitchStmt>(S)) {
      read(Sw->getCond(), W);
      stmt(Sw->getBody(), W, Depth + 1); // which cases run is not followed
      return W;
    }
    if (isa<ContinueStmt>(S)) {
      if (Depth == 0 && !W)
        Ok = false; // this iteration ends without writing V
      return W;
    }
    if (isa<NullStmt>(S) || isa<BreakStmt>(S))
      return W;
    if (const auto *L = dyn_cast<LabelStmt>(S))
      return stmt(L->getSubStmt(), W, Depth);
    if (const auto *A = dyn_cast<AttributedStmt>(S))
      return stmt(A->getSubStmt(), W, Depth);
    if (const auto *C = dyn_cast<SwitchCase>(S))
      return stmt(C->getSubStmt(), W, Depth);
    // Anything else (return, goto, try, asm): whatever the body walk says of it, V is not
    // followed through it.
    Ok = false;
    return W;
  }

  const VarDecl *V;
  bool Ok = true;
};

void collectNames(const Stmt *S, std::set<const VarDecl *> &Out) {
  if (!S)
    return;
  if (const auto *DR = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
      Out.insert(VD);
  for (const Stmt *C : S->children())
    collectNames(C, Out);
}

} // namespace

std::vector<Private> findPrivates(const NestInfo &Nest, const LoopResult &R,
                                  const clang::FunctionDecl *Enclosing,
                                  const EscapeInfo &Escapes) {
  std::vector<Private> Out;
  if (!Enclosing || !Nest.Body)
    return Out;
  std::set<const VarDecl *> Written, InBounds;
  collectRewritten(Nest.Body, Written);
  for (const NestInfo::Level &L : Nest.Levels)
    for (const Expr *E : {L.Bound, L.Init, L.Step})
      collectNames(E, InBounds);
  for (const VarDecl *VD : Written) {
    QualType T = VD->getType();
    if (!VD->hasLocalStorage() || T->isReferenceType() || T.isVolatileQualified() ||
        !(T->isArithmeticType() || T->isEnumeralType()) || isa<DecompositionDecl>(VD) ||
        VD->isInitCapture() || InBounds.count(VD) || Escapes.escapeOf(VD))
      continue;
    // Declared before the loop, in the enclosing function itself.
    if (VD->getDeclContext() != Enclosing ||
        !Enclosing->getBody()->getSourceRange().fullyContains(VD->getSourceRange()))
      continue;
    bool IsNest = false;
    for (const CanonicalLoop &L : R.Nest)
      IsNest |= L.Var == VD;
    if (IsNest || Nest.Body->getSourceRange().fullyContains(VD->getSourceRange()))
      continue;
    if (WriteFlow(VD).privatizable(Nest.Body))
      Out.push_back({VD, VD->getNameAsString()});
  }
  std::sort(Out.begin(), Out.end(), [](const Private &A, const Private &B) {
    return A.Var->getLocation() < B.Var->getLocation();
  });
  return Out;
}

} // namespace analysis
} // namespace clustrix
