//===- UseScan.cpp - Which variables are rewritten or escape --------------===//
#include "UseScan.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace clustrix {
namespace analysis {

namespace {

/// Marks variables named in S; ReadContext: S's value is read as an rvalue by its parent.
void rewritten(const Stmt *S, bool ReadContext, std::set<const VarDecl *> &Out) {
  if (!S)
    return;
  if (const auto *DR = dyn_cast<DeclRefExpr>(S)) {
    if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()); VD && !ReadContext)
      Out.insert(VD);
    return;
  }
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(S)) {
    CastKind K = ICE->getCastKind();
    bool Read = K == CK_LValueToRValue || (K == CK_ArrayToPointerDecay && ReadContext);
    rewritten(ICE->getSubExpr(), Read, Out);
    return;
  }
  if (const auto *PE = dyn_cast<ParenExpr>(S)) {
    rewritten(PE->getSubExpr(), ReadContext, Out);
    return;
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(S)) {
    // C++'s `a < b ? a : b` of two lvalues is an lvalue: read as a whole (a MIN macro), it
    // reads a and b; assigned, it may write either.
    rewritten(CO->getCond(), false, Out);
    rewritten(CO->getTrueExpr(), ReadContext, Out);
    rewritten(CO->getFalseExpr(), ReadContext, Out);
    return;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(S); ME && !ME->isArrow()) {
    // Using a reference member only reads the object that holds it.
    bool RefMember = ME->getMemberDecl()->getType()->isReferenceType();
    rewritten(ME->getBase(), ReadContext || RefMember, Out);
    return;
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S)) {
    // Reading an element of an array reads the array; writing it rewrites the array.
    rewritten(AS->getBase(), ReadContext, Out);
    rewritten(AS->getIdx(), false, Out);
    return;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D)) {
        rewritten(VD->getInit(), false, Out);
        if (const auto *DD = dyn_cast<DecompositionDecl>(VD))
          for (const BindingDecl *B : DD->bindings())
            if (B->getHoldingVar())
              rewritten(B->getHoldingVar()->getInit(), false, Out);
      }
    return;
  }
  for (const Stmt *C : S->children())
    rewritten(C, false, Out);
}

bool keepsReference(const FunctionDecl *FD) {
  if (!FD)
    return true;
  if (!FD->isInStdNamespace())
    return true;
  if (!FD->getIdentifier())
    return false;
  StringRef N = FD->getName();
  return N == "ref" || N == "cref" || N == "tie" || N == "forward_as_tuple" || N == "bind" ||
         N == "addressof";
}

/// The escape scan of one function body.
class EscapeScanner {
public:
  EscapeScanner(const Stmt *Loop, const ASTContext &Ctx, EscapeInfo &Out)
      : Loop(Loop), SM(Ctx.getSourceManager()), Out(Out) {}

  void scan(const Stmt *S, unsigned LoopDepth) {
    if (!S)
      return;
    if (S == Loop)
      Out.Repeats |= LoopDepth > 0;
    if (isa<LabelStmt>(S) || isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S))
      Out.Repeats = true;
    bool IsLoop = isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) ||
                  isa<CXXForRangeStmt>(S);
    visit(S);
    if (const auto *RF = dyn_cast<CXXForRangeStmt>(S)) {
      // The hidden `auto &&__range = x` lives only as long as the statement: not an escape.
      if (const auto *RS = RF->getRangeStmt())
        for (const Decl *D : RS->decls())
          if (const auto *VD = dyn_cast<VarDecl>(D))
            scan(VD->getInit(), LoopDepth);
      const Stmt *Parts[] = {RF->getInit(), RF->getBeginStmt(), RF->getEndStmt(), RF->getCond(),
                             RF->getInc(),  RF->getLoopVarStmt(), RF->getBody()};
      for (const Stmt *C : Parts)
        scan(C, LoopDepth + 1);
      return;
    }
    for (const Stmt *C : S->children())
      scan(C, LoopDepth + (IsLoop ? 1 : 0));
  }

  void finish() {
    for (auto &[V, E] : Pending) {
      if (Out.Repeats || !after(E))
        Out.Escaping[V].push_back(E);
      Out.EscapingAnywhere[V].push_back(E);
    }
  }

private:
  bool after(const Expr *E) const {
    return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Loop->getEndLoc()),
                                        SM.getExpansionLoc(E->getBeginLoc()));
  }

  void escape(const Expr *Of, const Expr *At) {
    if (const VarDecl *V = rootVariable(Of))
      Pending.push_back({V, At});
  }

  void bindArgs(const FunctionDecl *FD, llvm::ArrayRef<const Expr *> Args, unsigned Skip,
                const Expr *At) {
    bool Keeps = keepsReference(FD);
    for (unsigned I = 0; I < Args.size(); ++I) {
      const Expr *A = Args[I];
      if (!A->isGLValue())
        continue;
      bool ByRef = true; // unknown callee or variadic position: assume a reference
      if (FD && I >= Skip && I - Skip < FD->getNumParams())
        ByRef = FD->getParamDecl(I - Skip)->getType()->isReferenceType();
      if (ByRef && Keeps)
        escape(A, At);
    }
  }

  void visit(const Stmt *S) {
    if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->getOpcode() == UO_AddrOf) {
      escape(UO->getSubExpr(), UO);
      return;
    }
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(S);
        ICE && ICE->getCastKind() == CK_ArrayToPointerDecay) {
      // An array used as a pointer: the pointer may be kept. A subscript is only an element.
      if (!SubscriptBases.count(ICE))
        escape(ICE->getSubExpr(), ICE);
      return;
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S)) {
      SubscriptBases.insert(AS->getBase()->IgnoreParens());
      return;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->getType()->isReferenceType())
          if (const Expr *Init = VD->getInit())
            escape(Init, Init);
      return;
    }
    if (const auto *LE = dyn_cast<LambdaExpr>(S)) {
      for (const LambdaCapture &C : LE->captures())
        if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef)
          if (const auto *V = dyn_cast<VarDecl>(C.getCapturedVar()))
            Pending.push_back({V, LE});
      for (const LambdaCapture &C : LE->captures())
        if (C.capturesVariable())
          if (const auto *V = dyn_cast<VarDecl>(C.getCapturedVar());
              V && V->isInitCapture() && V->getType()->isReferenceType() && V->getInit())
            escape(V->getInit(), LE);
      return;
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S)) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      // A user's method may keep `this`; the standard library's do not.
      if (const Expr *Obj = MC->getImplicitObjectArgument();
          Obj && (!MD || !MD->getParent()->isInStdNamespace()) && !Obj->getType()->isPointerType())
        escape(Obj, MC);
      bindArgs(MD, {MC->getArgs(), MC->getNumArgs()}, 0, MC);
      return;
    }
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S)) {
      const FunctionDecl *FD = OC->getDirectCallee();
      const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
      if (MD && MD->isInstance()) {
        if (!MD->getParent()->isInStdNamespace() && OC->getNumArgs() > 0)
          escape(OC->getArg(0), OC);
        bindArgs(FD, {OC->getArgs() + 1, OC->getNumArgs() - 1}, 0, OC);
      } else {
        bindArgs(FD, {OC->getArgs(), OC->getNumArgs()}, 0, OC);
      }
      return;
    }
    if (const auto *CE = dyn_cast<CallExpr>(S)) {
      bindArgs(CE->getDirectCallee(), {CE->getArgs(), CE->getNumArgs()}, 0, CE);
      return;
    }
    if (const auto *CC = dyn_cast<CXXConstructExpr>(S)) {
      const CXXConstructorDecl *Ctor = CC->getConstructor();
      // Copying or moving an object reads it; any other constructor may keep a reference.
      if (Ctor && (Ctor->isCopyOrMoveConstructor() || Ctor->isTrivial()))
        return;
      bindArgs(Ctor, {CC->getArgs(), CC->getNumArgs()}, 0, CC);
      return;
    }
    if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
      if (const Expr *V = RS->getRetValue(); V && V->isGLValue())
        escape(V, V);
      return;
    }
  }

  const Stmt *Loop;
  const SourceManager &SM;
  EscapeInfo &Out;
  std::vector<std::pair<const VarDecl *, const Expr *>> Pending;
  std::set<const Expr *> SubscriptBases;
};

} // namespace

void collectRewritten(const Stmt *S, std::set<const VarDecl *> &Out) { rewritten(S, false, Out); }

void collectNames(const Stmt *S, std::set<const VarDecl *> &Out) {
  if (!S)
    return;
  if (const auto *DR = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
      Out.insert(VD);
  for (const Stmt *C : S->children())
    collectNames(C, Out);
}

const VarDecl *rootVariable(const Expr *E) {
  while (E) {
    E = E->IgnoreParens();
    if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *B = dyn_cast<BindingDecl>(DR->getDecl()))
        return B->getDecomposedDecl() ? dyn_cast<VarDecl>(B->getDecomposedDecl()) : nullptr;
      return dyn_cast<VarDecl>(DR->getDecl());
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (ME->isArrow())
        return nullptr;
      E = ME->getBase();
      continue;
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      const Expr *B = AS->getBase()->IgnoreParens();
      const auto *ICE = dyn_cast<ImplicitCastExpr>(B);
      if (!ICE || ICE->getCastKind() != CK_ArrayToPointerDecay)
        return nullptr;
      E = ICE->getSubExpr();
      continue;
    }
    if (const auto *CE = dyn_cast<CastExpr>(E)) {
      CastKind K = CE->getCastKind();
      if (K == CK_NoOp || K == CK_DerivedToBase || K == CK_UncheckedDerivedToBase ||
          K == CK_ArrayToPointerDecay || K == CK_LValueToRValue)
        if (K != CK_LValueToRValue) {
          E = CE->getSubExpr();
          continue;
        }
      return nullptr;
    }
    if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E)) {
      E = MT->getSubExpr();
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

EscapeInfo scanEscapes(const FunctionDecl *F, const Stmt *Loop, const ASTContext &Ctx) {
  EscapeInfo Out;
  if (!F || !F->getBody())
    return Out;
  EscapeScanner S(Loop, Ctx, Out);
  S.scan(F->getBody(), 0);
  S.finish();
  return Out;
}

} // namespace analysis
} // namespace clustrix
