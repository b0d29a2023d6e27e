//===- CanonicalNest.cpp - The loop nest in canonical form -----------------===//
//
// A parallel loop is `for (init; var CMP bound; step)` over an integer induction variable, or a
// range-based `for` over a contiguous container; collapse(n) takes n perfectly nested ones.
// Bounds, initializers and steps must not change while the loop runs, and a collapsed nest must
// be rectangular (inner trip counts evaluated once).
//
//===----------------------------------------------------------------------===//
#include "MinMax.h"
#include "Phases.h"

#include "clustrix/AST/LoopNest.h"
#include "clustrix/AST/Spelling.h"

#include "clang/AST/Attr.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace clustrix {
namespace analysis {

namespace {

/// An outer integer variable as a symbol of a bound, named as generated code at the loop names
/// it (a bound's variables are in scope there: the user wrote them in the loop's header).
Polynomial symbolOf(const VarDecl *VD, const LoopScope &Scope) {
  std::string Name = Scope.spellingAt(VD);
  return Name.empty() ? Polynomial::invalid() : Polynomial::variable({VD, Name, false});
}

class CanonicalChecker {
public:
  CanonicalChecker(ASTContext &Ctx, const LoopScope &Scope, RejectLog &Log)
      : Ctx(Ctx), Scope(Scope), Log(Log) {}

  void refuse(std::string Msg, SourceLocation Loc, std::string Note = "") {
    Log.add(RejectKind::NotCanonical, std::move(Msg), Loc, std::move(Note));
  }

  bool check(const ForStmt *F, CanonicalLoop &L) {
    L.Loop = F;
    const Expr *InitE = nullptr;
    const Stmt *Init = F->getInit();
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(Init)) {
      if (!DS->isSingleDecl()) {
        refuse("the loop initializes more than one variable", DS->getBeginLoc());
        return false;
      }
      L.Var = dyn_cast<VarDecl>(DS->getSingleDecl());
      InitE = L.Var ? L.Var->getInit() : nullptr;
      L.DeclaredInLoop = true;
    } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Init)) {
      if (BO->getOpcode() == BO_Assign)
        if (const auto *DR = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts())) {
          L.Var = dyn_cast<VarDecl>(DR->getDecl());
          InitE = BO->getRHS();
          L.DeclaredInLoop = false;
        }
    }
    if (!L.Var || !InitE) {
      refuse("the loop does not start by initializing one induction variable",
             Init ? Init->getBeginLoc() : F->getForLoc(),
             Init ? "initialization here" : "");
      return false;
    }
    if (!L.Var->getType()->isIntegerType() || L.Var->getType()->isBooleanType() ||
        L.Var->getType()->isEnumeralType()) {
      Log.add(RejectKind::NonIntegerInduction,
              "induction variable '" + L.Var->getNameAsString() + "' has type '" +
                  L.Var->getType().getAsString() + "', not an integer type",
              L.Var->getLocation(), "declared here");
      return false;
    }
    if (L.Var->getType().isVolatileQualified() || !L.Var->hasLocalStorage()) {
      refuse("induction variable '" + L.Var->getNameAsString() + "' is not a local variable",
             L.Var->getLocation());
      return false;
    }
    L.VarName = L.Var->getNameAsString();
    L.VarType = typeString(L.Var->getType().getUnqualifiedType(), Ctx);
    L.InitText = spell(InitE, Ctx);
    L.InitPoly = polyOfSimple(InitE);
    L.InitValue = exactValue(InitE);

    const auto *Cond = dyn_cast_or_null<BinaryOperator>(
        F->getCond() ? F->getCond()->IgnoreParenImpCasts() : nullptr);
    if (!Cond || !Cond->isComparisonOp() || Cond->getOpcode() == BO_EQ ||
        Cond->getOpcode() == BO_Cmp) {
      refuse("the condition is not a comparison of the induction variable with a bound",
             F->getCond() ? F->getCond()->getBeginLoc() : F->getForLoc(),
             F->getCond() ? "condition here" : "");
      return false;
    }
    const Expr *LHS = Cond->getLHS(), *RHS = Cond->getRHS();
    BinaryOperatorKind Op = Cond->getOpcode();
    const Expr *BoundE;
    if (isVar(LHS, L.Var)) {
      BoundE = RHS;
    } else if (isVar(RHS, L.Var)) {
      BoundE = LHS;
      Op = BinaryOperator::reverseComparisonOp(Op);
    } else {
      refuse("the condition does not compare the induction variable '" + L.VarName + "'",
             Cond->getBeginLoc(), "condition here");
      return false;
    }
    if (isVar(BoundE, L.Var)) {
      refuse("the bound depends on the induction variable", BoundE->getBeginLoc());
      return false;
    }
    switch (Op) {
    case BO_LT: L.Cmp = LoopCmp::LT; break;
    case BO_LE: L.Cmp = LoopCmp::LE; break;
    case BO_GT: L.Cmp = LoopCmp::GT; break;
    case BO_GE: L.Cmp = LoopCmp::GE; break;
    case BO_NE: L.Cmp = LoopCmp::NE; break;
    default: break;
    }
    L.BoundText = spell(BoundE, Ctx);
    L.BoundValue = exactValue(BoundE);
    CondExpr = Cond;
    // The comparison happens in the type both sides convert to.
    const Expr *VarSide = isVar(LHS, L.Var) ? LHS : RHS;
    L.CmpType = typeString(VarSide->getType().getUnqualifiedType(), Ctx);
    BoundExpr = BoundE;

    const Expr *Inc = F->getInc() ? F->getInc()->IgnoreParenImpCasts() : nullptr;
    const Expr *StepE = nullptr;
    bool Neg = false;
    if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Inc)) {
      if (UO->isIncrementDecrementOp() && isVar(UO->getSubExpr(), L.Var)) {
        L.StepText = "1";
        Neg = UO->isDecrementOp();
        L.StepPoly = Polynomial::constant(Neg ? -1 : 1);
        L.StepNegated = Neg;
        StepExpr = nullptr;
        return true;
      }
    } else if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc)) {
      if (isVar(CA->getLHS(), L.Var) &&
          (CA->getOpcode() == BO_AddAssign || CA->getOpcode() == BO_SubAssign)) {
        StepE = CA->getRHS();
        Neg = CA->getOpcode() == BO_SubAssign;
      }
    } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Inc)) {
      if (BO->getOpcode() == BO_Assign && isVar(BO->getLHS(), L.Var))
        if (const auto *Add = dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts())) {
          if (Add->getOpcode() == BO_Add && isVar(Add->getLHS(), L.Var))
            StepE = Add->getRHS();
          else if (Add->getOpcode() == BO_Add && isVar(Add->getRHS(), L.Var))
            StepE = Add->getLHS();
          else if (Add->getOpcode() == BO_Sub && isVar(Add->getLHS(), L.Var)) {
            StepE = Add->getRHS();
            Neg = true;
          }
        }
    }
    if (!StepE) {
      refuse("the increment is not '++', '--', '+=' or '-=' of the induction variable",
             Inc ? Inc->getBeginLoc() : F->getForLoc(), Inc ? "increment here" : "");
      return false;
    }
    if (!StepE->getType()->isIntegerType()) {
      refuse("the step is not an integer", StepE->getBeginLoc());
      return false;
    }
    L.StepText = spell(StepE, Ctx);
    L.StepNegated = Neg;
    Polynomial S = polyOfSimple(StepE);
    L.StepPoly = S.isValid() ? (Neg ? -S : S) : Polynomial::invalid();
    StepExpr = StepE;
    return true;
  }

  static bool isVar(const Expr *E, const VarDecl *V) {
    const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DR && DR->getDecl() == V;
  }

  /// The value of a bound or an initial value as a polynomial over outer integer variables,
  /// only where it is exact: conversions keep every value and no unsigned arithmetic (which
  /// wraps, as in `n - 1` with n == 0) is involved. Invalid otherwise.
  Polynomial exactValue(const Expr *E) {
    E = E->IgnoreParens();
    // `int j = std::max(a, b)`: the initializer binds temporaries to the references std::max
    // takes, so it is a full-expression with cleanups.
    if (const auto *FE = dyn_cast<FullExpr>(E))
      return exactValue(FE->getSubExpr());
    Expr::EvalResult ER;
    if (!E->isValueDependent() && E->getType()->isIntegerType() && E->EvaluateAsInt(ER, Ctx)) {
      const llvm::APSInt &V = ER.Val.getInt();
      if (V.isSigned() ? V.getSignificantBits() <= 64 : V.getActiveBits() <= 63)
        return Polynomial::constant(V.getExtValue());
      return Polynomial::invalid();
    }
    if (const auto *CE = dyn_cast<CastExpr>(E)) {
      if (CE->getCastKind() == CK_LValueToRValue || CE->getCastKind() == CK_NoOp)
        return exactValue(CE->getSubExpr());
      if (CE->getCastKind() == CK_IntegralCast &&
          preservesValue(CE->getSubExpr()->getType(), CE->getType(), Ctx))
        return exactValue(CE->getSubExpr());
      return Polynomial::invalid();
    }
    if (const auto *DR = dyn_cast<DeclRefExpr>(E))
      if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()); VD && VD->getType()->isIntegerType())
        return symbolOf(VD, Scope);
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) && ME->getType()->isIntegerType())
        if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl()))
          return Polynomial::variable({FD, "this->" + FD->getNameAsString(), false});
    if (isa<CallExpr>(E) || isa<ConditionalOperator>(E))
      return clampValue(E);
    if (!E->getType()->isSignedIntegerType())
      return Polynomial::invalid();
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      Polynomial A = exactValue(BO->getLHS()), B = exactValue(BO->getRHS());
      if (BO->getOpcode() == BO_Add) return A + B;
      if (BO->getOpcode() == BO_Sub) return A - B;
      if (BO->getOpcode() == BO_Mul) return A * B;
      // `n / 2`: a symbol the exact dependence test relates to n (Polynomial.h, Quotient).
      if (BO->getOpcode() == BO_Div && A.isValid() && A.loopVars().empty())
        if (std::optional<int64_t> D = B.asConstant(); D && *D > 0)
          return Polynomial::variable(quotientSymbol(A, *D));
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_Minus)
      return -exactValue(UO->getSubExpr());
    return Polynomial::invalid();
  }

  /// A min or max of exact values (minMaxOf): one clamp symbol (Polynomial.h), so that a loop
  /// starting at a max or ending at a min keeps affine subscripts. Invalid otherwise.
  Polynomial clampValue(const Expr *E) {
    const Expr *X = nullptr, *Y = nullptr;
    std::optional<bool> IsMax =
        minMaxOf(E, X, Y, [&](const Expr *V) { return exactValue(V); });
    if (!IsMax)
      return Polynomial::invalid();
    Polynomial A = exactValue(X), B = exactValue(Y);
    if (!A.isValid() || !B.isValid() || !A.loopVars().empty() || !B.loopVars().empty())
      return Polynomial::invalid();
    if (A == B)
      return A;
    return Polynomial::variable(clampSymbol(*IsMax, A, B));
  }

  /// Polynomial of a bound or step: constants and outer integer variables only.
  Polynomial polyOfSimple(const Expr *E) {
    Expr::EvalResult ER;
    if (!E->isValueDependent() && E->getType()->isIntegerType() && E->EvaluateAsInt(ER, Ctx) &&
        ER.Val.getInt().getSignificantBits() <= 64)
      return Polynomial::constant(ER.Val.getInt().getSExtValue());
    E = E->IgnoreParens();
    if (isa<CallExpr>(E->IgnoreImplicit()) || isa<ConditionalOperator>(E->IgnoreImplicit()))
      return clampValue(E);
    if (const auto *CE = dyn_cast<CastExpr>(E)) {
      if (CE->getCastKind() == CK_LValueToRValue || CE->getCastKind() == CK_NoOp ||
          (CE->getCastKind() == CK_IntegralCast &&
           keepsDistinct(CE->getSubExpr()->getType(), CE->getType(), Ctx)))
        return polyOfSimple(CE->getSubExpr());
      return Polynomial::invalid();
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) && ME->getType()->isIntegerType())
        if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl()))
          return Polynomial::variable({FD, "this->" + FD->getNameAsString(), false});
    if (const auto *DR = dyn_cast<DeclRefExpr>(E))
      if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()); VD && VD->getType()->isIntegerType())
        return symbolOf(VD, Scope);
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      Polynomial A = polyOfSimple(BO->getLHS()), B = polyOfSimple(BO->getRHS());
      if (BO->getOpcode() == BO_Add) return A + B;
      if (BO->getOpcode() == BO_Sub) return A - B;
      if (BO->getOpcode() == BO_Mul) return A * B;
      // `n / 2`: a symbol the exact dependence test relates to n (Polynomial.h, Quotient).
      if (BO->getOpcode() == BO_Div && A.isValid() && A.loopVars().empty())
        if (std::optional<int64_t> D = B.asConstant(); D && *D > 0)
          return Polynomial::variable(quotientSymbol(A, *D));
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_Minus)
      return -polyOfSimple(UO->getSubExpr());
    return Polynomial::invalid();
  }

  const Expr *BoundExpr = nullptr;
  const Expr *StepExpr = nullptr;
  const Expr *CondExpr = nullptr;

  /// A constant step must move the induction variable towards the bound, and the condition
  /// must be able to become false; otherwise the loop only ends by overflow or wrap-around.
  bool checkDirection(const ForStmt *F, const CanonicalLoop &L) {
    SourceLocation CondLoc = CondExpr ? CondExpr->getBeginLoc() : F->getForLoc();
    std::optional<int64_t> S = L.StepPoly.asConstant();
    if (S && *S == 0) {
      refuse("the step is zero, so the loop never ends", StepExpr ? StepExpr->getBeginLoc()
                                                                  : F->getForLoc(),
             "step here");
      return false;
    }
    if (S && L.Cmp != LoopCmp::NE) {
      bool Up = *S > 0;
      bool Less = L.Cmp == LoopCmp::LT || L.Cmp == LoopCmp::LE;
      if (Up != Less) {
        refuse("induction variable '" + L.VarName + "' moves away from the bound: it " +
                   (Up ? "increases" : "decreases") + " while the condition needs it to " +
                   (Up ? "decrease" : "increase"),
               CondLoc, "condition here");
        return false;
      }
    }
    if (L.Cmp == LoopCmp::GE && CondExpr && BoundExpr) {
      const auto *Cmp = cast<BinaryOperator>(CondExpr);
      QualType CT = Cmp->getLHS()->getType();
      Expr::EvalResult ER;
      if (CT->isUnsignedIntegerType() && !BoundExpr->isValueDependent() &&
          BoundExpr->EvaluateAsInt(ER, Ctx) && ER.Val.getInt().isZero()) {
        refuse("the condition '" + spell(CondExpr, Ctx) + "' is always true for unsigned '" +
                   L.VarName + "', so the loop only ends by wrapping around",
               CondLoc, "condition here");
        return false;
      }
    }
    return true;
  }

private:
  ASTContext &Ctx;
  const LoopScope &Scope;
  RejectLog &Log;
};

/// Names of variables an expression reads, and whether it has side effects beyond const calls.
void collectVars(const Stmt *S, std::set<const ValueDecl *> &Out, bool &SideEffects) {
  if (!S)
    return;
  if (const auto *DR = dyn_cast<DeclRefExpr>(S))
    Out.insert(DR->getDecl());
  if (const auto *ME = dyn_cast<MemberExpr>(S))
    Out.insert(ME->getMemberDecl());
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
    SideEffects = true;
  if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->isIncrementDecrementOp())
    SideEffects = true;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (!MD || !MD->isConst())
      SideEffects = true;
  } else if (const auto *CE = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD || !(FD->hasAttr<ConstAttr>() || FD->hasAttr<PureAttr>() || FD->isConstexpr()))
      if (!isa<CXXOperatorCallExpr>(S))
        SideEffects = true;
  }
  for (const Stmt *C : S->children())
    collectVars(C, Out, SideEffects);
}

} // namespace


bool buildNest(ASTContext &Ctx, const Stmt *Loop, const LoopClauses &Clauses,
               const LoopScope &Scope, LoopResult &R, RejectLog &Log, NestInfo &Nest) {
  if (const auto *RF = dyn_cast<CXXForRangeStmt>(Loop)) {
    if (Clauses.Collapse > 1) {
      Log.add(RejectKind::Collapse, "'collapse' needs 'for' loops with an induction variable");
      return false;
    }
    QualType RT = RF->getRangeInit()->getType().getNonReferenceType();
    bool Contiguous = isStdContainer(RT) || RT->isConstantArrayType();
    if (!Contiguous) {
      Log.add(RejectKind::NotCanonical,
              "range-based 'for' over '" + RT.getAsString() +
                  "', which is not a contiguous container (std::vector, std::array, std::span "
                  "or an array)",
              RF->getRangeInit()->getBeginLoc(), "range here");
      return false;
    }
    CanonicalLoop L;
    L.Loop = RF;
    L.RangeFor = true;
    L.Var = RF->getLoopVariable();
    L.VarName = L.Var->getNameAsString();
    L.RangeText = spell(RF->getRangeInit(), Ctx);
    L.VarType = "std::size_t";
    L.CmpType = "std::size_t";
    L.InitPoly = Polynomial::constant(0);
    L.StepPoly = Polynomial::constant(1);
    L.InitText = "0";
    L.StepText = "1";
    CharSourceRange DR = CharSourceRange::getCharRange(
        L.Var->getBeginLoc(), L.Var->getLocation().getLocWithOffset(L.VarName.size()));
    L.ElemDeclText = Lexer::getSourceText(DR, Ctx.getSourceManager(), Ctx.getLangOpts()).str();
    R.Nest.push_back(L);
    Nest.Body = RF->getBody();
    Nest.Levels.push_back({RF->getRangeInit(), nullptr, nullptr});
  } else {
    CanonicalChecker Canon(Ctx, Scope, Log);
    const Stmt *S = Loop;
    for (int64_t Level = 0; Level < Clauses.Collapse; ++Level) {
      const auto *F = dyn_cast<ForStmt>(S);
      if (!F) {
        Log.add(RejectKind::Collapse,
                "'collapse(" + std::to_string(Clauses.Collapse) + ")' needs " +
                    std::to_string(Clauses.Collapse) + " perfectly nested 'for' loops",
                S->getBeginLoc(), "this statement is not a 'for' loop");
        return false;
      }
      CanonicalLoop L;
      if (!Canon.check(F, L) || !Canon.checkDirection(F, L))
        return false;
      Nest.Levels.push_back({Canon.BoundExpr,
                             L.DeclaredInLoop ? cast<VarDecl>(L.Var)->getInit() : nullptr,
                             Canon.StepExpr});
      R.Nest.push_back(L);
      Nest.Body = F->getBody();
      if (Level + 1 < Clauses.Collapse) {
        // The next loop must be the only statement of this body.
        const Stmt *Inner = unwrapSoleStatement(Nest.Body);
        if (isa<CompoundStmt>(Inner)) {
          Log.add(RejectKind::Collapse,
                  "'collapse' needs perfectly nested loops, but this loop's body has other "
                  "statements",
                  Nest.Body->getBeginLoc(), "body here");
          return false;
        }
        S = Inner;
      }
    }
  }
  static const char *const NormNames[] = {"__clx_k0", "__clx_k1", "__clx_k2"};
  for (size_t L = 0; L < R.Nest.size(); ++L)
    Nest.NormVars.push_back({normalizedVarKey(unsigned(L)), NormNames[L], true});
  R.Outer = Nest.NormVars[0];
  return true;
}

/// Whether the loop may change V: written, updated, or its address escapes in the body.
static bool loopModifies(const VarDecl *VD, const BodyFacts &Facts) {
  auto It = Facts.Scalars.find(VD);
  bool Written = It != Facts.Scalars.end() &&
                 (!It->second.Writes.empty() || !It->second.Updates.empty());
  return Written || Facts.Appended.count(VD);
}

/// Variables and members of `this` that a bound reads and that a pointer may reach: the
/// runtime checks that the loop's writes through pointers cannot change them.
static void noteReachableBoundReads(const Expr *B, const EscapeInfo &Escapes,
                                    const LoopScope &Scope, BodyFacts &Facts) {
  if (!B)
    return;
  auto Note = [&](std::string Name, QualType T, const VarDecl *Local, SourceLocation Loc) {
    for (const ReachableRead &Old : Facts.ReachableReads)
      if (Old.Name == Name)
        return;
    Facts.ReachableReads.push_back({std::move(Name), T, Local, Loc});
  };
  // An array's name (a range-for's range) gives its bounds by its type: nothing is read.
  if (const auto *DR = dyn_cast<DeclRefExpr>(B))
    if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl());
        VD && !VD->getType().getNonReferenceType()->isConstantArrayType())
      if (!(VD->hasGlobalStorage() && VD->getType().isConstQualified()) &&
          (VD->hasGlobalStorage() || VD->getType()->isReferenceType() || Escapes.escapeOf(VD))) {
        // No spelling of its own: the header's text names it at the loop, where it stands.
        std::string Name = Scope.spellingAt(VD);
        Note(Name.empty() ? spell(DR, VD->getASTContext()) : Name,
             VD->getType().getNonReferenceType(), Escapes.escapeOf(VD) ? VD : nullptr,
             DR->getBeginLoc());
      }
  if (const auto *ME = dyn_cast<MemberExpr>(B);
      ME && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
    if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl()))
      Note("this->" + FD->getNameAsString(), FD->getType(), nullptr, ME->getBeginLoc());
  for (const Stmt *C : B->children())
    if (const auto *E = dyn_cast_or_null<Expr>(C))
      noteReachableBoundReads(E, Escapes, Scope, Facts);
}

void checkInvariance(ASTContext &Ctx, const NestInfo &Nest, const EscapeInfo &Escapes,
                     const LoopScope &Scope,
                     BodyFacts &Facts, LoopResult &R, RejectLog &Log) {
  for (const NestInfo::Level &X : Nest.Levels)
    for (const Expr *E : {X.Bound, X.Init, X.Step})
      noteReachableBoundReads(E, Escapes, Scope, Facts);
  // Bounds and initializers: no variable they read is written by the loop, and they have no
  // side effects of their own.
  std::vector<const Expr *> Bounds;
  for (const NestInfo::Level &X : Nest.Levels)
    for (const Expr *E : {X.Bound, X.Init})
      if (E)
        Bounds.push_back(E);
  for (const Expr *B : Bounds) {
    std::set<const ValueDecl *> Vars;
    bool SideEffects = false;
    collectVars(B, Vars, SideEffects);
    if (SideEffects) {
      Log.add(RejectKind::BoundNotInvariant, "a loop bound has side effects", B->getBeginLoc(),
              "bound here");
      continue;
    }
    for (const ValueDecl *V : Vars)
      if (const auto *VD = dyn_cast<VarDecl>(V); VD && loopModifies(VD, Facts))
        Log.add(RejectKind::BoundNotInvariant,
                "the bound '" + spell(B, Ctx) + "' reads '" + VD->getNameAsString() +
                    "', which the loop modifies",
                B->getBeginLoc(), "bound here");
  }
  // collapse: inner bounds, initializers and steps must not depend on outer induction
  // variables (a rectangular nest, whose inner trip counts are evaluated once).
  for (size_t L = 1; L < R.Nest.size(); ++L)
    for (size_t O = 0; O < L; ++O) {
      const std::pair<const Expr *, const char *> Parts[] = {{Nest.Levels[L].Bound, "bound"},
                                                             {Nest.Levels[L].Init, "start"},
                                                             {Nest.Levels[L].Step, "step"}};
      for (auto [E, What] : Parts) {
        if (!E)
          continue;
        std::set<const ValueDecl *> Vars;
        bool SE = false;
        collectVars(E, Vars, SE);
        if (Vars.count(R.Nest[O].Var))
          Log.add(RejectKind::Collapse,
                  "'collapse' needs a rectangular nest, but the " + std::string(What) +
                      " of the loop over '" + R.Nest[L].VarName + "' depends on '" +
                      R.Nest[O].VarName + "'",
                  E->getBeginLoc(), std::string(What) + " here");
      }
    }
  for (const NestInfo::Level &X : Nest.Levels) {
    const Expr *S = X.Step;
    if (!S)
      continue;
    std::set<const ValueDecl *> Vars;
    bool SE = false;
    collectVars(S, Vars, SE);
    for (const ValueDecl *V : Vars)
      if (const auto *VD = dyn_cast<VarDecl>(V)) {
        auto It = Facts.Scalars.find(VD);
        if (SE || (It != Facts.Scalars.end() && !It->second.Writes.empty()))
          Log.add(RejectKind::BoundNotInvariant, "the step '" + spell(S, Ctx) + "' may change",
                  S->getBeginLoc(), "step here");
      }
  }
}

} // namespace analysis
} // namespace clustrix
