//===- CCaptures.cpp - What an outlined C body reaches ---------------------===//
//
// One walk over the loop's innermost body finds every name it uses: variables of the enclosing
// function (captures), file-scope declarations (visible from the outlined function when one of
// their declarations precedes the enclosing function), and types, enumerators and functions
// declared inside the enclosing function outside the body (invisible from file scope). A
// variable is copied only when every reference reads its value (an lvalue-to-rvalue conversion)
// or names it in `sizeof`/`_Alignof`; any other reference needs the variable itself.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Rewrite/CCaptures.h"
#include "clustrix/AST/LoopNest.h"
#include "clustrix/AST/StatementEnd.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>
#include <set>

using namespace clang;
using namespace clustrix;

PrintingPolicy clustrix::cPolicy(const ASTContext &Ctx) {
  PrintingPolicy P(Ctx.getLangOpts());
  P.SuppressUnwrittenScope = true;
  return P;
}

std::string clustrix::cDeclaration(QualType T, const std::string &Name,
                                   const std::vector<std::string> &Bounds,
                                   const ASTContext &Ctx) {
  // Declarators are written inside out: each pointer or array level wraps the name.
  std::string Declarator = Name;
  size_t Next = 0;
  while (T->isVariablyModifiedType()) {
    if (const auto *PT = T->getAs<PointerType>()) {
      std::string Quals = T.getQualifiers().getAsString();
      Declarator = "*" + (Quals.empty() ? "" : Quals + (Declarator.empty() ? "" : " ")) +
                   Declarator;
      T = PT->getPointeeType();
      if (T->isArrayType())
        Declarator = "(" + Declarator + ")";
      continue;
    }
    if (const ArrayType *AT = Ctx.getAsArrayType(T)) {
      std::string Bound;
      if (const auto *CAT = dyn_cast<ConstantArrayType>(AT))
        Bound = std::to_string(CAT->getSize().getZExtValue());
      else if (isa<VariableArrayType>(AT) && Next < Bounds.size())
        Bound = Bounds[Next++];
      Declarator += "[" + Bound + "]";
      T = AT->getElementType();
      continue;
    }
    break; // not a pointer or array chain: the scan refuses such a capture
  }
  std::string S;
  llvm::raw_string_ostream OS(S);
  T.print(OS, cPolicy(Ctx), Declarator);
  return S;
}

std::vector<std::string> clustrix::variableBounds(QualType T, const std::string &E,
                                                  const ASTContext &Ctx) {
  std::vector<std::string> Out;
  std::string At = E;
  while (T->isVariablyModifiedType()) {
    if (const auto *PT = T->getAs<PointerType>()) {
      At = "(*" + At + ")";
      T = PT->getPointeeType();
      continue;
    }
    const ArrayType *AT = Ctx.getAsArrayType(T);
    if (!AT)
      break;
    if (isa<VariableArrayType>(AT))
      Out.push_back("sizeof(" + At + ") / sizeof((" + At + ")[0])");
    At = "(" + At + ")[0]";
    T = AT->getElementType();
  }
  return Out;
}

bool clustrix::isPointerArrayChain(QualType T, const ASTContext &Ctx) {
  while (T->isVariablyModifiedType()) {
    if (const auto *PT = T->getAs<PointerType>())
      T = PT->getPointeeType();
    else if (const ArrayType *AT = Ctx.getAsArrayType(T))
      T = AT->getElementType();
    else
      return false;
  }
  return true;
}

CLoopTypes clustrix::cLoopTypes(const CanonicalLoop &L, const ASTContext &Ctx) {
  QualType Var = L.Var->getType().getCanonicalType().getUnqualifiedType();
  CLoopTypes T{Var, Var, Ctx.IntTy};
  const auto *F = dyn_cast<ForStmt>(L.Loop);
  if (!F)
    return T;
  auto IsVar = [&](const Expr *E) {
    const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DR && DR->getDecl() == L.Var;
  };
  // The side of the condition that holds the variable, converted to the comparison's type.
  if (const auto *Cond = dyn_cast_or_null<BinaryOperator>(
          F->getCond() ? F->getCond()->IgnoreParenImpCasts() : nullptr))
    T.Cmp = (IsVar(Cond->getLHS()) ? Cond->getLHS() : Cond->getRHS())
                ->getType()
                .getCanonicalType()
                .getUnqualifiedType();
  // The step as written: `i += s`, `i = i + s`, `i = s + i`, `i = i - s` (`++`/`--`: int).
  const Expr *Inc = F->getInc() ? F->getInc()->IgnoreParenImpCasts() : nullptr;
  const Expr *Step = nullptr;
  if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc))
    Step = CA->getRHS();
  else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Inc))
    if (const auto *Add = dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts()))
      Step = IsVar(Add->getLHS()) ? Add->getRHS() : Add->getLHS();
  if (Step)
    T.Step = Step->IgnoreImpCasts()->getType().getCanonicalType().getUnqualifiedType();
  return T;
}

std::string clustrix::cScalarKind(QualType T, const ASTContext &Ctx) {
  T = T.getCanonicalType();
  if (T->isRealFloatingType()) {
    if (T->isSpecificBuiltinType(BuiltinType::Float))
      return "F32";
    if (T->isSpecificBuiltinType(BuiltinType::Double))
      return "F64";
    return "";
  }
  if (!T->isIntegerType() || T->isEnumeralType())
    return "";
  uint64_t Bits = Ctx.getTypeSize(T);
  if (Bits != 8 && Bits != 16 && Bits != 32 && Bits != 64)
    return "";
  return (T->isSignedIntegerType() ? "I" : "U") + std::to_string(Bits);
}

namespace {

/// The variables whose address S takes (`&x`): the loop may write them through a pointer.
void addressTaken(const Stmt *S, std::set<const VarDecl *> &Out) {
  if (!S)
    return;
  if (const auto *UO = dyn_cast<UnaryOperator>(S))
    if (UO->getOpcode() == UO_AddrOf)
      if (const auto *DR = dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParens()))
        if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
          Out.insert(VD);
  for (const Stmt *C : S->children())
    addressTaken(C, Out);
}

} // namespace

namespace clustrix {

/// The walk over the body.
class CCaptureScan : public RecursiveASTVisitor<CCaptureScan> {
public:
  CCaptureScan(const FunctionDecl *Fn, const Stmt *Loop, const LoopResult &R, CCaptures &Out)
      : Fn(Fn), Ctx(Fn->getASTContext()), SM(Ctx.getSourceManager()), Out(Out) {
    for (const CanonicalLoop &L : R.Nest)
      Own.insert(L.Var);
    for (const Reduction &X : R.Reductions)
      Own.insert(X.Var);
    for (const Private &X : R.Privates)
      Own.insert(X.Var);
    Body = innermostBody(Loop, unsigned(R.Nest.size()));
    std::tie(BodyBegin, BodyEnd) = statementOffsets(Body, SM, Ctx.getLangOpts());
    FnBegin = SM.getExpansionLoc(Fn->getBeginLoc());
  }

  void run();
  void checkTypes(const LoopResult &R);

  bool VisitImplicitCastExpr(ImplicitCastExpr *E) {
    if (E->getCastKind() == CK_LValueToRValue)
      if (const auto *DR = dyn_cast<DeclRefExpr>(E->getSubExpr()->IgnoreParens()))
        ReadOnly.insert(DR);
    return true;
  }

  bool VisitUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *E) {
    if (!E->isArgumentType())
      if (const auto *DR = dyn_cast<DeclRefExpr>(E->getArgumentExpr()->IgnoreParens()))
        ReadOnly.insert(DR);
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *DR);
  bool VisitTypedefType(TypedefType *T) { return checkDecl(T->getDecl(), "type"); }
  bool VisitTagType(TagType *T) { return checkDecl(T->getDecl(), "type"); }

private:
  bool fail(std::string Why, SourceLocation Loc, std::string Note = "declared here") {
    if (Out.Problem.empty()) {
      Out.Problem = std::move(Why);
      Out.ProblemLoc = Loc;
      Out.ProblemNote = Loc.isValid() ? std::move(Note) : "";
    }
    return false;
  }
  bool inBody(SourceLocation L) const {
    L = SM.getExpansionLoc(L);
    if (SM.getFileID(L) != SM.getFileID(SM.getExpansionLoc(Body->getBeginLoc())))
      return false;
    unsigned Off = SM.getFileOffset(L);
    return Off >= BodyBegin && Off < BodyEnd;
  }
  /// A declaration the body names: one inside the enclosing function but outside the body is
  /// invisible from file scope; one at file scope must be declared before the function.
  /// Named, when given, is what the message names (an enumerator of D).
  bool checkDecl(const NamedDecl *D, const char *What, const NamedDecl *Named = nullptr);
  void classify();

  const FunctionDecl *Fn;
  ASTContext &Ctx;
  const SourceManager &SM;
  CCaptures &Out;
  const Stmt *Body = nullptr;
  unsigned BodyBegin = 0, BodyEnd = 0;
  SourceLocation FnBegin;
  std::set<const VarDecl *> Own; ///< Induction variables, reductions, privates.
  std::set<const DeclRefExpr *> ReadOnly;
  std::map<const VarDecl *, std::vector<const DeclRefExpr *>> Refs;
};

} // namespace clustrix

bool CCaptureScan::checkDecl(const NamedDecl *D, const char *What, const NamedDecl *Named) {
  if (!D || inBody(D->getLocation()))
    return true; // declared in the body: it moves with it
  const DeclContext *DC = D->getDeclContext();
  if (DC->isFunctionOrMethod())
    return fail(std::string("the body uses ") + What + " '" +
                    (Named ? Named : D)->getNameAsString() +
                    "', declared inside function '" + Fn->getNameAsString() +
                    "', which the body's outlined C function cannot name",
                (Named ? Named : D)->getLocation());
  return true;
}

bool CCaptureScan::VisitDeclRefExpr(DeclRefExpr *DR) {
  const ValueDecl *D = DR->getDecl();
  if (const auto *EC = dyn_cast<EnumConstantDecl>(D))
    return checkDecl(cast<EnumDecl>(EC->getDeclContext()), "enumerator", EC);
  const auto *VD = dyn_cast<VarDecl>(D);
  if (VD && VD->isLocalVarDeclOrParm() && !VD->hasExternalStorage()) {
    if (!inBody(VD->getLocation()) && !Own.count(VD))
      Refs[VD].push_back(DR);
    return true;
  }
  if (!isa<VarDecl>(D) && !isa<FunctionDecl>(D))
    return true;
  // A global or a function: visible from file scope when one of its declarations there comes
  // before the enclosing function.
  for (const Decl *RD : D->redecls())
    if (RD->getLexicalDeclContext()->isFileContext() &&
        SM.isBeforeInTranslationUnit(SM.getExpansionLoc(RD->getLocation()), FnBegin))
      return true;
  if (inBody(D->getLocation()))
    return true;
  return fail("the body uses '" + D->getNameAsString() + "', declared inside function '" +
                  Fn->getNameAsString() + "', which the body's outlined C function cannot name",
              D->getLocation());
}

void CCaptureScan::run() {
  if (Fn->isInlined() && Fn->getFormalLinkage() == Linkage::External &&
      !Fn->isInlineDefinitionExternallyVisible()) {
    fail("the loop is in inline function '" + Fn->getNameAsString() +
             "' with external linkage, which may not call the static function its body "
             "becomes; declare it 'static inline'",
         Fn->getLocation());
    return;
  }
  TraverseStmt(const_cast<Stmt *>(Body));
  if (Out.Problem.empty())
    classify();
}

/// The induction variables, comparisons and reductions need a ScalarKind; the privates are
/// declared in the outlined function.
void CCaptureScan::checkTypes(const LoopResult &R) {
  for (const CanonicalLoop &L : R.Nest) {
    CLoopTypes T = cLoopTypes(L, Ctx);
    for (QualType Q : {T.Var, T.Cmp})
      if (cScalarKind(Q, Ctx).empty() || !Q->isIntegerType())
        fail("the loop '" + L.VarName + "' counts or compares in type '" +
                 Q.getAsString(cPolicy(Ctx)) + "', which C translation units do not support",
             L.Loop->getBeginLoc(), "");
  }
  for (const Reduction &X : R.Reductions)
    if (cScalarKind(X.Var->getType(), Ctx).empty())
      fail("reduction variable '" + X.Name + "' has type '" +
               X.Var->getType().getAsString(cPolicy(Ctx)) +
               "', which C translation units do not support",
           X.Var->getLocation());
  for (const Private &X : R.Privates) {
    TraverseType(X.Var->getType());
    if (cDeclaration(X.Var->getType(), X.Name, {}, Ctx).find("(unnamed") != std::string::npos)
      fail("the type of private '" + X.Name + "' has no name the outlined C function can use",
           X.Var->getLocation());
  }
}

void CCaptureScan::classify() {
  std::set<const VarDecl *> AddressTaken;
  addressTaken(Fn->getBody(), AddressTaken);
  std::vector<const VarDecl *> Vars;
  for (const auto &[VD, Uses] : Refs)
    Vars.push_back(VD);
  std::sort(Vars.begin(), Vars.end(), [&](const VarDecl *A, const VarDecl *B) {
    return SM.isBeforeInTranslationUnit(A->getLocation(), B->getLocation());
  });
  for (const VarDecl *VD : Vars) {
    CCapture C;
    C.Var = VD;
    QualType T = VD->getType();
    bool OnlyRead = std::all_of(Refs[VD].begin(), Refs[VD].end(),
                                [&](const DeclRefExpr *DR) { return ReadOnly.count(DR) > 0; });
    // A copy would not see a write through a pointer to the variable: a variable whose address
    // the function takes anywhere is reached through a pointer, as the C++ lambda reaches it.
    C.K = T->isScalarType() && OnlyRead && !AddressTaken.count(VD) ? CCapture::Copy
                                                                    : CCapture::Pointer;
    C.VariablyModified = T->isVariablyModifiedType();
    std::string Name = VD->getNameAsString();
    if (C.VariablyModified && !isPointerArrayChain(T, Ctx)) {
      fail("the type of '" + Name + "' is variably modified in a way the outlined C function "
                                    "cannot declare",
           VD->getLocation());
      return;
    }
    if (C.K == CCapture::Pointer && VD->getStorageClass() == SC_Register) {
      fail("'" + Name + "' is declared 'register', so the outlined C function cannot reach it "
                        "through its address",
           VD->getLocation());
      return;
    }
    if (C.VariablyModified) {
      QualType Captured = C.K == CCapture::Copy ? T : Ctx.getPointerType(T);
      C.Bounds = variableBounds(Captured, C.K == CCapture::Copy ? Name : "&" + Name, Ctx);
    }
    // The type must be nameable at file scope.
    TraverseType(T);
    if (!Out.Problem.empty())
      return;
    std::string Decl = cDeclaration(T, Name, C.Bounds, Ctx);
    if (Decl.find("(unnamed") != std::string::npos ||
        Decl.find("(anonymous") != std::string::npos) {
      fail("the type of '" + Name + "' has no name the outlined C function can use",
           VD->getLocation());
      return;
    }
    for (const DeclRefExpr *DR : Refs[VD]) {
      SourceLocation L = DR->getLocation();
      if (C.K == CCapture::Pointer && !L.isFileID()) {
        fail("the body names '" + Name + "' inside macro '" +
                 Lexer::getImmediateMacroName(L, SM, Ctx.getLangOpts()).str() +
                 "', and the outlined C function reaches it through a pointer, which needs "
                 "the reference rewritten",
           SM.getExpansionLoc(L), "named here");
        return;
      }
      if (L.isFileID())
        C.RefOffsets.push_back(SM.getFileOffset(L));
    }
    std::sort(C.RefOffsets.begin(), C.RefOffsets.end());
    C.RefOffsets.erase(std::unique(C.RefOffsets.begin(), C.RefOffsets.end()),
                       C.RefOffsets.end());
    Out.Captures.push_back(std::move(C));
  }
}

CCaptures::CCaptures(const FunctionDecl *Enclosing, const Stmt *Loop, const LoopResult &R) {
  CCaptureScan Scan(Enclosing, Loop, R, *this);
  Scan.run();
  if (Problem.empty())
    Scan.checkTypes(R);
}

void clustrix::refuseUnlessOutlinable(const FunctionDecl *Enclosing, const Stmt *Loop,
                                      LoopResult &R) {
  if (!R.Accepted || !Enclosing)
    return;
  CCaptures Caps(Enclosing, Loop, R);
  if (Caps.problem().empty())
    return;
  R.Accepted = false;
  R.Reasons.insert(R.Reasons.begin(),
                   {RejectKind::Context, Caps.problem(), Caps.problemLoc(), Caps.problemNote(),
                    ""});
}
