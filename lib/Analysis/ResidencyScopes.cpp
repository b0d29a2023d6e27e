//===- ResidencyScopes.cpp - Where data may stay on the devices -----------===//
//
// Part of the Clustrix project.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Analysis/ResidencyScopes.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <map>
#include <memory>

using namespace clang;

namespace clustrix {
namespace {

/// Whether every use of V in F's body is a read of its value, an assignment to it or an
/// increment: its address never escapes, so no device can hold it.
class EscapeFinder : public RecursiveASTVisitor<EscapeFinder> {
public:
  EscapeFinder(const ParentMap &PM, const VarDecl *V) : PM(PM), V(V) {}
  bool Escapes = false;

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (E->getDecl() != V)
      return true;
    if (E->refersToEnclosingVariableOrCapture()) {
      Escapes = true;
      return false;
    }
    // The use as its context sees it: through any parentheses.
    const Stmt *Use = E, *P = nullptr;
    for (;;) {
      P = PM.getParent(Use);
      if (!isa_and_nonnull<ParenExpr>(P))
        break;
      Use = P;
    }
    bool Ok = false;
    if (const auto *C = dyn_cast_or_null<ImplicitCastExpr>(P))
      Ok = C->getCastKind() == CK_LValueToRValue;
    else if (const auto *B = dyn_cast_or_null<BinaryOperator>(P))
      Ok = B->isAssignmentOp() && B->getLHS() == Use;
    else if (const auto *U = dyn_cast_or_null<UnaryOperator>(P))
      Ok = U->isIncrementDecrementOp();
    if (!Ok) {
      Escapes = true;
      return false;
    }
    return true;
  }
  bool TraverseLambdaCapture(LambdaExpr *L, const LambdaCapture *C, Expr *Init) {
    if (C->capturesVariable() && C->getCapturedVar() == V && C->getCaptureKind() == LCK_ByRef) {
      Escapes = true;
      return false;
    }
    return RecursiveASTVisitor::TraverseLambdaCapture(L, C, Init);
  }

private:
  const ParentMap &PM;
  const VarDecl *V;
};

class Prover {
public:
  Prover(ASTContext &Ctx, const FunctionDecl *F,
         const llvm::SmallPtrSetImpl<const Stmt *> &Accepted, const ParentMap &PM)
      : Ctx(Ctx), F(F), Accepted(Accepted), PM(PM) {}

  /// Whether S is an accepted loop (possibly with its attribute around it).
  bool isAccepted(const Stmt *S) const {
    if (const auto *A = dyn_cast_or_null<AttributedStmt>(S))
      S = A->getSubStmt();
    return S && Accepted.count(S);
  }

  /// Host code that touches no memory a device may hold. Decls: whether declarations of
  /// private scalars may appear.
  bool hostOnly(const Stmt *S, bool Decls) {
    if (!S)
      return true;
    if (isa<NullStmt, BreakStmt, ContinueStmt>(S))
      return true;
    if (const auto *C = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *X : C->body())
        if (!hostOnly(X, Decls))
          return false;
      return true;
    }
    if (const auto *I = dyn_cast<IfStmt>(S))
      return !I->getInit() && !I->getConditionVariable() && !I->isConsteval() &&
             value(I->getCond()) && hostOnly(I->getThen(), Decls) &&
             hostOnly(I->getElse(), Decls);
    if (const auto *R = dyn_cast<ReturnStmt>(S))
      return !R->getRetValue() ||
             (R->getRetValue()->getType()->isScalarType() && value(R->getRetValue()));
    if (const auto *D = dyn_cast<DeclStmt>(S)) {
      if (!Decls)
        return false;
      for (const Decl *X : D->decls()) {
        const auto *V = dyn_cast<VarDecl>(X);
        if (!V || !privateScalar(V) || (V->getInit() && !value(V->getInit())))
          return false;
      }
      return true;
    }
    if (const auto *E = dyn_cast<Expr>(S))
      return value(E);
    return false;
  }

  /// A loop header or body part of the same kind.
  bool header(const Stmt *S) { return hostOnly(S, /*Decls=*/true); }

  /// A statement of a scope's own block: host code on private scalars, or one that reads single
  /// elements with no other side effect than assigning the result to a private scalar or to one
  /// element. Such a statement's element reads and writes are added to Out.
  bool scopeStatement(const Stmt *S, bool Decls, std::vector<ResidencyScope::HostAccess> &Out) {
    std::vector<const ArraySubscriptExpr *> Found, Written;
    if (readingStatement(S, Decls, Found, Written)) {
      if (!Found.empty() || !Written.empty())
        Out.push_back({S, std::move(Found), std::move(Written)});
      return true;
    }
    return hostOnly(S, Decls);
  }

private:
  /// Runs Check with element reads collected into Found and no side effect allowed.
  template <typename CheckFn>
  bool reading(std::vector<const ArraySubscriptExpr *> &Found, CheckFn Check) {
    auto *SavedReads = Reads;
    bool SavedPure = Pure;
    Reads = &Found;
    Pure = true;
    bool Ok = Check();
    Reads = SavedReads;
    Pure = SavedPure;
    return Ok;
  }

  bool readingStatement(const Stmt *S, bool Decls, std::vector<const ArraySubscriptExpr *> &Found,
                        std::vector<const ArraySubscriptExpr *> &Written) {
    if (const auto *I = dyn_cast<IfStmt>(S))
      return !I->getInit() && !I->getConditionVariable() && !I->isConsteval() &&
             reading(Found, [&] { return value(I->getCond()); }) && hostOnly(I->getThen(), Decls) &&
             hostOnly(I->getElse(), Decls);
    if (const auto *R = dyn_cast<ReturnStmt>(S))
      return R->getRetValue() && R->getRetValue()->getType()->isScalarType() &&
             reading(Found, [&] { return value(R->getRetValue()); });
    if (const auto *D = dyn_cast<DeclStmt>(S)) {
      if (!Decls)
        return false;
      llvm::SmallPtrSet<const Decl *, 4> Declared;
      for (const Decl *X : D->decls()) {
        const auto *V = dyn_cast<VarDecl>(X);
        if (!V || !privateScalar(V) ||
            (V->getInit() && !reading(Found, [&] { return value(V->getInit()); })))
          return false;
        Declared.insert(V);
      }
      // The reads are evaluated before the statement: none may name what it declares.
      for (const ArraySubscriptExpr *A : Found)
        if (names(A, Declared))
          return false;
      return true;
    }
    if (const auto *E = dyn_cast<Expr>(S)) {
      const auto *B = dyn_cast<BinaryOperator>(E->IgnoreParens());
      if (B && B->isAssignmentOp()) {
        if (const auto *A = dyn_cast<ArraySubscriptExpr>(B->getLHS()->IgnoreParens())) {
          // An element written: found as a read would be, then moved to Written.
          if (!reading(Found, [&] { return elementRead(A) && value(B->getRHS()); }))
            return false;
          Found.erase(std::find(Found.begin(), Found.end(), A));
          Written.push_back(A);
          return true;
        }
        return assignable(B->getLHS()) && reading(Found, [&] { return value(B->getRHS()); });
      }
      return reading(Found, [&] { return value(E); });
    }
    return false;
  }

  static bool names(const Stmt *S, const llvm::SmallPtrSetImpl<const Decl *> &Vars) {
    if (const auto *D = dyn_cast<DeclRefExpr>(S))
      if (Vars.count(D->getDecl()))
        return true;
    for (const Stmt *C : S->children())
      if (C && names(C, Vars))
        return true;
    return false;
  }

  /// An element `p[e]` read where a synchronization just before the statement brings it back:
  /// a scalar element, `p` a private pointer variable, `e` a value without side effects, all
  /// spelled in the file.
  bool elementRead(const ArraySubscriptExpr *A) {
    QualType T = A->getType();
    if (!T->isScalarType() || T.isVolatileQualified() || T->isMemberPointerType() ||
        A->getBeginLoc().isMacroID() || A->getEndLoc().isMacroID())
      return false;
    const auto *Base = dyn_cast<DeclRefExpr>(A->getBase()->IgnoreParenImpCasts());
    const auto *V = Base ? dyn_cast<VarDecl>(Base->getDecl()) : nullptr;
    if (!V || !V->getType()->isPointerType() || !privateScalar(V))
      return false;
    if (!withoutReads(A->getIdx())) // no element read inside a subscript
      return false;
    Reads->push_back(A);
    return true;
  }

  /// Value(E) where no element read may be: inside a subscript, or where it would be evaluated
  /// only sometimes (under `&&`, `||`, `?:`), so that a synchronization before the statement
  /// could compute an address the statement never forms.
  bool withoutReads(const Expr *E) {
    auto *SavedReads = Reads;
    Reads = nullptr;
    bool Ok = value(E);
    Reads = SavedReads;
    return Ok;
  }

  bool privateScalar(const VarDecl *V) {
    if (!V->hasLocalStorage() || V->getType()->isReferenceType() ||
        !V->getType()->isScalarType() || V->getType().isVolatileQualified() ||
        V->getType()->isMemberPointerType())
      return false;
    auto It = Private.find(V);
    if (It != Private.end())
      return It->second;
    bool Ok = true;
    if (F && F->getBody()) {
      EscapeFinder Esc(PM, V);
      Esc.TraverseStmt(F->getBody());
      Ok = !Esc.Escapes;
    }
    Private[V] = Ok;
    return Ok;
  }

  bool assignable(const Expr *E) {
    E = E->IgnoreParens();
    const auto *D = dyn_cast<DeclRefExpr>(E);
    const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
    return V && privateScalar(V);
  }

  bool value(const Expr *E) {
    if (!E)
      return true;
    E = E->IgnoreParens();
    if (isa<IntegerLiteral, FloatingLiteral, CharacterLiteral, CXXBoolLiteralExpr,
            CXXNullPtrLiteralExpr>(E))
      return true;
    if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
      if (isa<EnumConstantDecl>(D->getDecl()))
        return true;
      const auto *V = dyn_cast<VarDecl>(D->getDecl());
      return V && privateScalar(V);
    }
    if (const auto *C = dyn_cast<CastExpr>(E)) {
      if (!isa<ImplicitCastExpr, CStyleCastExpr, CXXStaticCastExpr, CXXFunctionalCastExpr>(C))
        return false;
      if (Reads && C->getCastKind() == CK_LValueToRValue)
        if (const auto *A = dyn_cast<ArraySubscriptExpr>(C->getSubExpr()->IgnoreParens()))
          return elementRead(A);
      switch (C->getCastKind()) {
      case CK_LValueToRValue:
      case CK_NoOp:
      case CK_IntegralCast:
      case CK_FloatingCast:
      case CK_IntegralToFloating:
      case CK_FloatingToIntegral:
      case CK_IntegralToBoolean:
      case CK_FloatingToBoolean:
      case CK_PointerToBoolean:
      case CK_NullToPointer:
      case CK_BitCast:
      case CK_IntegralToPointer:
      case CK_PointerToIntegral:
        return value(C->getSubExpr());
      default:
        return false;
      }
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      if (B->isPtrMemOp())
        return false;
      if (B->isAssignmentOp())
        return !Pure && assignable(B->getLHS()) && value(B->getRHS());
      if (B->isLogicalOp())
        return value(B->getLHS()) && withoutReads(B->getRHS());
      return value(B->getLHS()) && value(B->getRHS());
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      switch (U->getOpcode()) {
      case UO_PostInc:
      case UO_PostDec:
      case UO_PreInc:
      case UO_PreDec:
        return !Pure && assignable(U->getSubExpr());
      case UO_Plus:
      case UO_Minus:
      case UO_Not:
      case UO_LNot:
        return value(U->getSubExpr());
      default:
        return false;
      }
    }
    if (const auto *C = dyn_cast<ConditionalOperator>(E))
      return value(C->getCond()) && withoutReads(C->getTrueExpr()) &&
             withoutReads(C->getFalseExpr());
    return false;
  }

  ASTContext &Ctx;
  const FunctionDecl *F;
  const llvm::SmallPtrSetImpl<const Stmt *> &Accepted;
  const ParentMap &PM;
  llvm::DenseMap<const VarDecl *, bool> Private;
  /// While a scope statement is checked: where its element reads go, and whether side effects
  /// are refused.
  std::vector<const ArraySubscriptExpr *> *Reads = nullptr;
  bool Pure = false;
};

/// The statement that holds S in its function's body. A map of the one body, not of the
/// translation unit: ASTContext::getParents builds the whole unit's map on first use, which
/// cost more than the rest of the analysis.
const Stmt *parentStmt(const ParentMap &PM, const Stmt *S) { return PM.getParent(S); }

/// The body of a serial loop statement, and whether its header is host code on private scalars.
const Stmt *serialLoopBody(Prover &P, const Stmt *S) {
  if (const auto *F = dyn_cast<ForStmt>(S))
    return P.header(F->getInit()) && !F->getConditionVariable() &&
                   (!F->getCond() || P.header(F->getCond())) && P.header(F->getInc())
               ? F->getBody()
               : nullptr;
  if (const auto *W = dyn_cast<WhileStmt>(S))
    return !W->getConditionVariable() && P.header(W->getCond()) ? W->getBody() : nullptr;
  if (const auto *D = dyn_cast<DoStmt>(S))
    return P.header(D->getCond()) ? D->getBody() : nullptr;
  return nullptr;
}

/// Whether a loop body holds only accepted loops, scopes already proved and host code on
/// private scalars, with at least one accepted loop or scope.
bool bodyKeepsData(Prover &P, const Stmt *Body, const llvm::SmallPtrSetImpl<const Stmt *> &Inner,
                   std::vector<ResidencyScope::HostAccess> &Accesses) {
  auto Ok = [&](const Stmt *S) { return P.isAccepted(S) || Inner.count(S); };
  if (Ok(Body))
    return true;
  const auto *C = dyn_cast_or_null<CompoundStmt>(Body);
  if (!C)
    return false;
  bool Any = false;
  for (const Stmt *X : C->body()) {
    if (Ok(X)) {
      Any = true;
      continue;
    }
    if (!P.scopeStatement(X, /*Decls=*/true, Accesses))
      return false;
  }
  return Any;
}

/// C has no destructor to end a scope however its block is left: the rewritten code calls
/// clustrix_leave_residency after the scope's statements, so none of them may leave it
/// another way. Whether S holds a `return`, a `goto` (or a label one could jump to from
/// outside), or, with Breaks, a `break` or `continue` (which, between two loops of a block,
/// leave the block).
bool leavesOtherwise(const Stmt *S, bool Breaks) {
  if (!S)
    return false;
  if (isa<ReturnStmt, GotoStmt, IndirectGotoStmt, LabelStmt, SwitchCase>(S))
    return true;
  if (Breaks && isa<BreakStmt, ContinueStmt>(S))
    return true;
  for (const Stmt *C : S->children())
    if (leavesOtherwise(C, Breaks))
      return true;
  return false;
}

} // namespace

std::vector<ResidencyScope>
findResidencyScopes(ASTContext &Ctx,
                    llvm::ArrayRef<std::pair<const Stmt *, const FunctionDecl *>> Accepted) {
  llvm::SmallPtrSet<const Stmt *, 16> Loops;
  for (auto [S, F] : Accepted)
    Loops.insert(S);
  const bool CPlusPlus = Ctx.getLangOpts().CPlusPlus;
  std::vector<ResidencyScope> Out;
  llvm::SmallPtrSet<const Stmt *, 16> Covered; // accepted loops inside a scope found
  std::map<const FunctionDecl *, std::unique_ptr<ParentMap>> Maps;
  for (auto [L, F] : Accepted) {
    if (Covered.count(L) || !F || !F->getBody())
      continue;
    std::unique_ptr<ParentMap> &PM = Maps[F];
    if (!PM)
      PM = std::make_unique<ParentMap>(const_cast<Stmt *>(F->getBody()));
    Prover P(Ctx, F, Loops, *PM);
    // The statement that stands for the loop in its block: the attributed statement.
    const Stmt *Self = L;
    if (const Stmt *A = parentStmt(*PM, L); A && isa<AttributedStmt>(A))
      Self = A;
    // 1. Time-step loops, outward while each one's body keeps data.
    llvm::SmallPtrSet<const Stmt *, 4> Inner;
    std::vector<ResidencyScope::HostAccess> Accesses;
    const Stmt *Scope = nullptr, *Cur = Self;
    while (const Stmt *Par = parentStmt(*PM, Cur)) {
      const Stmt *Enclosing = isa<CompoundStmt>(Par) ? parentStmt(*PM, Par) : Par;
      if (!Enclosing)
        break;
      const Stmt *Body = serialLoopBody(P, Enclosing);
      if (!Body || (Body != Cur && Body != Par))
        break;
      std::vector<ResidencyScope::HostAccess> Level;
      if (!bodyKeepsData(P, Body, Inner, Level))
        break;
      // In C, a `break` or `continue` in the time step's body ends or resumes that loop, inside
      // the scope; a `return` or a `goto` would skip its end.
      if (!CPlusPlus && leavesOtherwise(Enclosing, /*Breaks=*/false))
        break;
      Accesses.insert(Accesses.end(), Level.begin(), Level.end());
      Scope = Enclosing;
      Inner.insert(Enclosing);
      Cur = Enclosing;
    }
    if (Scope) {
      Out.push_back({Scope, Scope, std::move(Accesses)});
      for (auto [X, G] : Accepted) // every accepted loop in it
        for (const Stmt *Up = X; Up; Up = parentStmt(*PM, Up))
          if (Up == Scope) {
            Covered.insert(X);
            break;
          }
      continue;
    }
    // 2. Consecutive accepted loops in one block.
    const auto *Block = dyn_cast_or_null<CompoundStmt>(parentStmt(*PM, Self));
    if (!Block)
      continue;
    auto It = std::find(Block->body_begin(), Block->body_end(), Self);
    const Stmt *Last = nullptr;
    std::vector<ResidencyScope::HostAccess> Pending;
    for (auto J = std::next(It); J != Block->body_end(); ++J) {
      if (!CPlusPlus && !P.isAccepted(*J) && leavesOtherwise(*J, /*Breaks=*/true))
        break;
      if (P.isAccepted(*J)) {
        Last = *J;
        Accesses.insert(Accesses.end(), Pending.begin(), Pending.end());
        Pending.clear();
        const Stmt *Loop = *J;
        if (const auto *A = dyn_cast<AttributedStmt>(Loop))
          Loop = A->getSubStmt();
        Covered.insert(Loop);
        continue;
      }
      if (!P.scopeStatement(*J, /*Decls=*/false, Pending))
        break;
    }
    if (Last)
      Out.push_back({Self, Last, std::move(Accesses)});
  }
  // Outermost only (a scope inside another adds nothing), in source order.
  const SourceManager &SM = Ctx.getSourceManager();
  std::sort(Out.begin(), Out.end(), [&](const ResidencyScope &A, const ResidencyScope &B) {
    return SM.isBeforeInTranslationUnit(A.First->getBeginLoc(), B.First->getBeginLoc());
  });
  std::vector<ResidencyScope> Outer;
  for (const ResidencyScope &S : Out)
    if (Outer.empty() || !SM.isBeforeInTranslationUnit(S.First->getBeginLoc(),
                                                       Outer.back().Last->getEndLoc()))
      Outer.push_back(S);
  return Outer;
}

} // namespace clustrix
