//===- WalkExprs.cpp - The walk of expressions ----------------------------===//
//
// Operators, casts, and the implicit nodes of C++: temporaries, default arguments, default
// member initializers, initializer lists and lambda captures. Implicit code runs like written
// code, so it is walked like written code.
//
//===----------------------------------------------------------------------===//
#include "BodyWalker.h"

#include <functional>

using namespace clang;

namespace clustrix {
namespace analysis {

void BodyWalker::walkNoEffect(const Expr *, Use) {}

void BodyWalker::walkParen(const ParenExpr *E, Use U) { walkExpr(E->getSubExpr(), U); }

void BodyWalker::walkFullExpr(const Expr *E, Use U) {
  walkExpr(cast<FullExpr>(E)->getSubExpr(), U);
}

void BodyWalker::walkMaterialize(const MaterializeTemporaryExpr *E, Use U) {
  walkExpr(E->getSubExpr(), U);
}

void BodyWalker::walkImplicitCast(const ImplicitCastExpr *E, Use U) {
  switch (E->getCastKind()) {
  case CK_LValueToRValue:
    walkExpr(E->getSubExpr(), Use::Read);
    return;
  case CK_ArrayToPointerDecay:
    // An array used as a pointer outside of a subscript: a use of the whole object.
    noteWholeObject(E->getSubExpr(), U);
    return;
  default:
    walkExpr(E->getSubExpr(), U);
    return;
  }
}

void BodyWalker::walkExplicitCast(const ExplicitCastExpr *E, Use U) {
  walkExpr(E->getSubExpr(), U);
}

void BodyWalker::walkBinary(const BinaryOperator *BO, Use U) {
  Facts.Cost.arithmetic();
  if (BO->isAssignmentOp()) {
    walkExpr(BO->getLHS(), BO->getOpcode() == BO_Assign ? Use::Write : Use::ReadWrite);
    walkExpr(BO->getRHS(), Use::Read);
    // The value a shared scalar is assigned (flags: Scalars.cpp).
    if (BO->getOpcode() == BO_Assign)
      if (const auto *DR = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens()))
        if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
          if (auto It = Facts.Scalars.find(VD); It != Facts.Scalars.end())
            It->second.Assigned.push_back(BO->getRHS());
    return;
  }
  if (BO->isLogicalOp()) {
    walkExpr(BO->getLHS(), Use::Read);
    ++CondDepth;
    walkExpr(BO->getRHS(), Use::Read);
    --CondDepth;
    return;
  }
  if (BO->getOpcode() == BO_Comma) {
    walkExpr(BO->getLHS(), Use::Read);
    walkExpr(BO->getRHS(), U);
    return;
  }
  if (BO->isPtrMemOp()) {
    refuse(RejectKind::UnsupportedConstruct,
           "a pointer-to-member access cannot be followed by the analysis", BO->getBeginLoc(),
           "access here");
    return;
  }
  walkExpr(BO->getLHS(), Use::Read);
  walkExpr(BO->getRHS(), Use::Read);
}

void BodyWalker::walkUnary(const UnaryOperator *UO, Use U) {
  switch (UO->getOpcode()) {
  case UO_PreInc:
  case UO_PreDec:
  case UO_PostInc:
  case UO_PostDec:
    walkExpr(UO->getSubExpr(), Use::ReadWrite);
    return;
  case UO_Deref:
    walkLValue(UO, U);
    return;
  case UO_AddrOf:
    walkAddressOf(UO->getSubExpr(), UO);
    return;
  case UO_Real:
  case UO_Imag:
  case UO_Extension:
    walkExpr(UO->getSubExpr(), U);
    return;
  case UO_Coawait:
    refuse(RejectKind::EarlyExit, "coroutines cannot run on a device", UO->getBeginLoc());
    return;
  default:
    walkExpr(UO->getSubExpr(), Use::Read);
    return;
  }
}

void BodyWalker::walkConditional(const ConditionalOperator *CO, Use U) {
  walkExpr(CO->getCond(), Use::Read);
  ++CondDepth;
  walkExpr(CO->getTrueExpr(), U);
  walkExpr(CO->getFalseExpr(), U);
  --CondDepth;
}

void BodyWalker::walkLValueExpr(const Expr *E, Use U) { walkLValue(E, U); }

void BodyWalker::walkBindTemporary(const CXXBindTemporaryExpr *E, Use U) {
  // A temporary whose destructor runs at the end of the full expression.
  refuse(RejectKind::UnsupportedConstruct,
         "a temporary of type '" + typeString(E->getType(), Ctx) +
             "' has a destructor, which cannot run on a device",
         E->getBeginLoc(), "temporary here");
  walkExpr(E->getSubExpr(), U);
}

void BodyWalker::walkDefaultArg(const CXXDefaultArgExpr *E, Use U) {
  // A default argument is evaluated at the call, like an argument written there.
  walkExpr(E->getExpr(), U);
}

void BodyWalker::walkDefaultInit(const CXXDefaultInitExpr *E, Use U) {
  // A default member initializer runs as part of constructing an object the body creates,
  // which is private to the iteration: `this` in it is that object.
  Frame Init;
  Init.Parent = Cur;
  Init.Fn = Cur->Fn;
  Init.ThisBound = Init.ThisPrivate = true;
  inFrame(&Init, [&] {
    walkExpr(E->getExpr(), U);
    return 0;
  });
}

void BodyWalker::walkInitList(const Expr *E, Use) {
  if (const auto *IL = dyn_cast<InitListExpr>(E)) {
    const InitListExpr *Sem = IL->isSemanticForm() ? IL : IL->getSemanticForm();
    if (!Sem)
      Sem = IL;
    for (const Expr *I : Sem->inits())
      walkExpr(I, Use::Read);
    if (const Expr *F = Sem->getArrayFiller())
      walkExpr(F, Use::Read);
    return;
  }
  const auto *PL = cast<CXXParenListInitExpr>(E);
  for (const Expr *I : PL->getInitExprs())
    walkExpr(I, Use::Read);
  if (const Expr *F = PL->getArrayFiller())
    walkExpr(F, Use::Read);
}

void BodyWalker::walkCompoundLiteral(const CompoundLiteralExpr *E, Use) {
  // A temporary object the body creates: private; its initializer is evaluated.
  walkExpr(E->getInitializer(), Use::Read);
}

void BodyWalker::walkChildrenRead(const Expr *E, Use) {
  for (const Stmt *C : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(C))
      walkExpr(CE, Use::Read);
}

void BodyWalker::walkLambda(const LambdaExpr *LE, Use) {
  // The lambda object is created here: by-copy captures read their variables now, and
  // init-captures evaluate their initializers now. By-reference captures are resolved where the
  // lambda's body uses them; its body is walked where it is called.
  auto Init = LE->capture_init_begin();
  for (const LambdaCapture &C : LE->captures()) {
    const Expr *IE = Init != LE->capture_init_end() ? *Init : nullptr;
    ++Init;
    if (!C.capturesVariable())
      continue;
    const auto *V = dyn_cast<VarDecl>(C.getCapturedVar());
    if (V && V->isInitCapture()) {
      if (V->getType()->isReferenceType()) {
        InitCaptures[V] = {V->getInit(), Cur};
        continue;
      }
      Locals.insert(V); // a member of the lambda object, which is private to this iteration
      if (IE)
        walkExpr(IE, Use::Read);
      continue;
    }
    if (C.getCaptureKind() == LCK_ByCopy && IE)
      walkExpr(IE, Use::Read);
  }
}

void BodyWalker::walkStmtExpr(const StmtExpr *E, Use) { walkStmt(E->getSubStmt()); }

void BodyWalker::walkThis(const CXXThisExpr *E, Use U) {
  if (!Cur->ThisBound && U != Use::Read)
    refuse(RejectKind::Escape, "'this' escapes from the loop", E->getBeginLoc());
}

void BodyWalker::walkChoose(const ChooseExpr *E, Use U) {
  if (E->isConditionDependent()) {
    refuseNode(E, RejectKind::Template, "dependent code");
    return;
  }
  walkExpr(E->getChosenSubExpr(), U);
}

void BodyWalker::walkGenericSelection(const GenericSelectionExpr *E, Use U) {
  if (E->isResultDependent()) {
    refuseNode(E, RejectKind::Template, "dependent code");
    return;
  }
  walkExpr(E->getResultExpr(), U);
}

void BodyWalker::walkArrayInitLoop(const ArrayInitLoopExpr *E, Use) {
  // Copies a whole array (a by-copy capture, an implicit copy of a struct): a read of every
  // element of the source.
  const Expr *Src = E->getCommonExpr()->getSourceExpr();
  if (!Src)
    return;
  Access A;
  PointerRef P = resolveObject(Src);
  if (!P.Ok) {
    walkExpr(Src, Use::Read);
    if (!holdsOwnData(Src->getType(), Ctx))
      refuse(RejectKind::UnboundedAccess,
             "copies '" + spell(Src, Ctx) + "', whose elements the analysis cannot follow",
             Src->getBeginLoc(), "copy here");
    return;
  }
  if (P.Private)
    return;
  A.Key = P.Key;
  A.Name = P.Name;
  A.Decl = P.Decl;
  A.BaseType = P.BaseType;
  A.MayAlias = P.MayAlias;
  A.Subs = {Polynomial::invalid()};
  recordAccess(A, Use::Read, false, Src);
}

void BodyWalker::walkSubstTemplateParm(const SubstNonTypeTemplateParmExpr *E, Use U) {
  walkExpr(E->getReplacement(), U);
}

void BodyWalker::walkRewrittenBinary(const CXXRewrittenBinaryOperator *E, Use U) {
  walkExpr(E->getSemanticForm(), U);
}

/// sizeof and alignof evaluate nothing, but their operand's type may still depend on where the
/// body is: `sizeof(__func__)`.
void BodyWalker::walkUnevaluated(const UnaryExprOrTypeTraitExpr *E, Use) {
  std::function<void(const Stmt *)> Scan = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *PE = dyn_cast<PredefinedExpr>(S))
      walkPredefined(PE, Use::Read);
    for (const Stmt *C : S->children())
      Scan(C);
  };
  if (!E->isArgumentType())
    Scan(E->getArgumentExpr());
}

void BodyWalker::walkPredefined(const PredefinedExpr *E, Use) {
  // In a callee, __func__ names the callee, which stays what it is; in the loop's own body it
  // names the enclosing function, and would name the function the body is moved to.
  if (!Cur->Fn)
    refuse(RejectKind::Context,
           std::string("the body uses '") + PredefinedExpr::getIdentKindName(E->getIdentKind()).str() +
               "', which would name the function the body is moved to instead of its own",
           E->getBeginLoc(), "used here");
}

} // namespace analysis
} // namespace clustrix
