//===- KernelClosure.cpp - What a kernel carries ---------------------------===//
//
// Walks the loop body and its callees, classifies every name (kernel local, region parameter,
// scalar parameter, device constant, device function, record type), and rewrites the few
// spellings that differ on the device.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Rewrite/KernelClosure.h"
#include "clustrix/AST/LoopNest.h"
#include "clustrix/AST/MathFunctions.h"
#include "clustrix/AST/StatementEnd.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Rewrite/Core/Rewriter.h"

#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>

using namespace clang;
using namespace clustrix;

namespace {

PrintingPolicy devicePolicy(const ASTContext &Ctx) {
  PrintingPolicy P(Ctx.getLangOpts());
  P.SuppressTagKeyword = true;
  P.FullyQualifiedName = true;
  P.SuppressScope = false;
  P.PrintCanonicalTypes = true;
  return P;
}

/// The element pointer type a region parameter has, from the base variable's type.
QualType regionPointerType(QualType T, ASTContext &Ctx) {
  T = T.getNonReferenceType();
  if (T->isPointerType())
    return T.getUnqualifiedType();
  if (const ArrayType *AT = Ctx.getAsArrayType(T))
    return Ctx.getPointerType(AT->getElementType());
  if (const auto *RD = T->getAsCXXRecordDecl())
    if (const auto *CTS = dyn_cast<ClassTemplateSpecializationDecl>(RD))
      if (CTS->getTemplateArgs().size() > 0 &&
          CTS->getTemplateArgs()[0].getKind() == TemplateArgument::Type) {
        QualType E = CTS->getTemplateArgs()[0].getAsType();
        if (RD->getName() == "span" && T.isConstQualified())
          E.addConst();
        return Ctx.getPointerType(E);
      }
  return QualType();
}

/// Walks the body and its callees and classifies every name the kernel needs; rewrites the few
/// spellings that differ on the device in its Rewriter.
class ClosureBuilder : public RecursiveASTVisitor<ClosureBuilder> {
public:
  ClosureBuilder(ASTContext &Ctx, const LoopResult &R)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), R(R), RW(Ctx.getSourceManager(), Ctx.getLangOpts()) {
    for (size_t I = 0; I < R.Regions.size(); ++I)
      if (!R.Regions[I].Scalar) // a guard region: the kernel takes the scalar by value
        RegionIndex[R.Regions[I].Name] = I;
    for (const Reduction &X : R.Reductions)
      Reductions.insert(X.Var);
    for (const CanonicalLoop &L : R.Nest)
      if (!L.RangeFor)
        IVs.insert(L.Var);
    // A private that nothing reads after the loop is each thread's own variable.
    for (const Private &P : R.Privates)
      if (!P.LiveOut)
        Locals.insert(P.Var);
  }

  bool fail(std::string Why) {
    if (Reason.empty())
      Reason = std::move(Why);
    return false;
  }
  bool ok() const { return Reason.empty(); }

  bool shouldVisitImplicitCode() const { return false; }

  bool VisitStmt(Stmt *S) {
    if (S->getBeginLoc().isMacroID()) {
      StringRef Macro = Lexer::getImmediateMacroName(S->getBeginLoc(), SM, Ctx.getLangOpts());
      return fail("the code uses macro '" + Macro.str() + "', which the kernel text cannot carry");
    }
    return true;
  }

  bool VisitVarDecl(VarDecl *VD) {
    Locals.insert(VD);
    if (VD->getType()->isVariablyModifiedType())
      return fail("'" + VD->getNameAsString() + "' has variably modified type '" +
                  VD->getType().getAsString() + "', which a kernel cannot declare");
    noteType(VD->getType());
    return ok();
  }

  /// C converts `void *` and integers implicitly where CUDA C++ does not.
  bool VisitImplicitCastExpr(ImplicitCastExpr *IC) {
    if (Ctx.getLangOpts().CPlusPlus)
      return true;
    QualType To = IC->getType(), From = IC->getSubExpr()->getType();
    if (IC->getCastKind() == CK_BitCast && From->isVoidPointerType() && !To->isVoidPointerType())
      return fail("the code converts 'void *' to '" + To.getAsString() +
                  "' implicitly, which the kernel's C++ does not");
    if (To->isEnumeralType() && !From->isEnumeralType())
      return fail("the code converts an integer to enumeration '" + To.getAsString() +
                  "' implicitly, which the kernel's C++ does not");
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *DR) {
    if (const auto *EC = dyn_cast<EnumConstantDecl>(DR->getDecl())) {
      noteType(Ctx.getTypeDeclType(cast<EnumDecl>(EC->getDeclContext())));
      return ok();
    }
    if (const auto *BD = dyn_cast<BindingDecl>(DR->getDecl())) {
      // A structured binding of the body or of a callee is declared with it; one declared
      // before the loop is passed by value, as a variable would be.
      if (const auto *D = dyn_cast_or_null<VarDecl>(BD->getDecomposedDecl()))
        if (Locals.count(D))
          return true;
      if (InCallee)
        return fail("'" + CalleeName + "' uses '" + BD->getNameAsString() +
                    "', which is not one of its parameters");
      return passByValue(BD->getNameAsString(), BD->getType());
    }
    const auto *VD = dyn_cast<VarDecl>(DR->getDecl());
    if (!VD)
      return true; // functions: handled at the call
    if (Locals.count(VD) || IVs.count(VD) || Reductions.count(VD))
      return true;
    if (InCallee && (isa<ParmVarDecl>(VD) || VD->hasLocalStorage()))
      return true;
    if (VD->hasGlobalStorage() && VD->getType().isConstQualified() && VD->getInit() &&
        (VD->getType()->isArithmeticType() || VD->getType()->isEnumeralType())) {
      if (std::find(Constants.begin(), Constants.end(), VD) == Constants.end())
        Constants.push_back(VD);
      return true;
    }
    if (InCallee)
      return fail("'" + CalleeName + "' uses '" + VD->getNameAsString() +
                  "', which is not one of its parameters");
    std::string Name = VD->getNameAsString();
    if (RegionIndex.count(Name)) {
      noteRegion(Name, VD->getType());
      return ok();
    }
    return passByValue(Name, VD->getType());
  }

  /// A variable of the enclosing function that the body reads: a kernel parameter of its type.
  bool passByValue(const std::string &Name, QualType Type) {
    QualType T = Type.getNonReferenceType().getUnqualifiedType();
    if (!(T->isArithmeticType() || T->isEnumeralType() || T->isRecordType()))
      return fail("'" + Name + "' of type '" + T.getAsString() +
                  "' cannot be passed to a kernel by value");
    noteType(T);
    addScalar(Name, T, Name);
    return ok();
  }

  bool VisitMemberExpr(MemberExpr *ME) {
    const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
    if (!isa<CXXThisExpr>(Base)) {
      noteType(ME->getBase()->getType()->isPointerType()
                   ? ME->getBase()->getType()->getPointeeType()
                   : ME->getBase()->getType());
      return ok();
    }
    if (InCallee)
      return fail("'" + CalleeName + "' uses a member of its object");
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD)
      return fail("the loop calls a member function");
    std::string Name = FD->getNameAsString();
    // `this->x` becomes the parameter `x`.
    if (!ME->isImplicitAccess())
      RW.RemoveText(CharSourceRange::getCharRange(ME->getBase()->getBeginLoc(),
                                                  ME->getMemberLoc()));
    if (RegionIndex.count("this->" + Name)) {
      noteRegion("this->" + Name, FD->getType(), Name);
      return ok();
    }
    QualType T = FD->getType().getNonReferenceType().getUnqualifiedType();
    if (!(T->isArithmeticType() || T->isEnumeralType() || T->isRecordType()))
      return fail("member '" + Name + "' of type '" + T.getAsString() +
                  "' cannot be passed to a kernel by value");
    noteType(T);
    addScalar(Name, T, "this->" + Name);
    return ok();
  }

  bool VisitCXXThisExpr(CXXThisExpr *) { return ok(); }

  bool VisitLambdaExpr(LambdaExpr *) { return fail("the loop uses a lambda"); }

  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    return fail("the loop calls '" + (MD ? MD->getQualifiedNameAsString() : std::string("?")) +
                "', a member function");
  }

  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
    if (Op->getOperator() == OO_Subscript)
      return ok(); // a container element: the region parameter is a pointer
    if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
        MD && MD->getParent()->isLambda())
      return fail("the loop calls a lambda");
    return fail("the loop uses overloaded operator '" +
                std::string(getOperatorSpelling(Op->getOperator())) + "'");
  }

  bool VisitCXXConstructExpr(CXXConstructExpr *C) {
    if (const auto *RD = C->getType()->getAsCXXRecordDecl(); RD && RD->isInStdNamespace())
      return fail("the loop constructs '" + C->getType().getAsString() + "'");
    return ok();
  }

  bool VisitCallExpr(CallExpr *CE) {
    if (isa<CXXMemberCallExpr>(CE) || isa<CXXOperatorCallExpr>(CE))
      return true;
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD)
      return fail("the loop calls through a pointer");
    std::string Name = FD->getIdentifier() ? FD->getName().str() : FD->getNameAsString();
    const FunctionDecl *Def = nullptr;
    bool HasBody = FD->hasBody(Def) && Def;
    if (isDeviceMathFunction(Name) && (FD->isInStdNamespace() || !HasBody || FD->getBuiltinID())) {
      // std::sqrt(x) -> sqrt(x): CUDA's math library has the unqualified names.
      const Expr *Callee = CE->getCallee()->IgnoreParenImpCasts();
      if (const auto *DR = dyn_cast<DeclRefExpr>(Callee))
        if (DR->getQualifierLoc())
          RW.RemoveText(CharSourceRange::getCharRange(
              DR->getQualifierLoc().getBeginLoc(), DR->getNameInfo().getBeginLoc()));
      return ok();
    }
    if (!HasBody || FD->isInStdNamespace())
      return fail("the loop calls '" + FD->getQualifiedNameAsString() +
                  "', which has no device version");
    if (isa<CXXMethodDecl>(Def))
      return fail("the loop calls member function '" + FD->getQualifiedNameAsString() + "'");
    if (!Def->getDeclContext()->getRedeclContext()->isTranslationUnit())
      return fail("the loop calls '" + FD->getQualifiedNameAsString() +
                  "', which is declared in a namespace");
    if (Def->isTemplateInstantiation() || Def->getTemplatedKind() != FunctionDecl::TK_NonTemplate)
      return fail("the loop calls function template '" + FD->getQualifiedNameAsString() + "'");
    if (SM.isInSystemHeader(Def->getLocation()))
      return fail("the loop calls '" + Name + "' from a system header");
    if (std::find(Functions.begin(), Functions.end(), Def) != Functions.end())
      return ok();
    Functions.push_back(Def);
    bool Saved = InCallee;
    std::string SavedName = CalleeName;
    InCallee = true;
    CalleeName = Name;
    for (const ParmVarDecl *P : Def->parameters()) {
      Locals.insert(P);
      noteType(P->getType());
    }
    noteType(Def->getReturnType());
    TraverseStmt(Def->getBody());
    InCallee = Saved;
    CalleeName = SavedName;
    return ok();
  }

  /// A record or enum type the kernel needs, with the types its fields need.
  void noteType(QualType T) {
    T = T.getNonReferenceType();
    while (true) {
      if (T->isPointerType())
        T = T->getPointeeType();
      else if (const ArrayType *AT = Ctx.getAsArrayType(T))
        T = AT->getElementType();
      else
        break;
    }
    const TagDecl *TD = T->getAsTagDecl();
    if (!TD)
      return;
    TD = TD->getDefinition();
    if (!TD || std::find(Types.begin(), Types.end(), TD) != Types.end())
      return;
    if (TD->isInStdNamespace() || SM.isInSystemHeader(TD->getLocation())) {
      fail("the loop uses type '" + T.getAsString() + "' from a system header");
      return;
    }
    if (!TD->getDeclContext()->getRedeclContext()->isTranslationUnit() || !TD->getIdentifier()) {
      fail("the loop uses type '" + T.getAsString() + "', which is not declared at file scope");
      return;
    }
    if (const auto *RD = dyn_cast<RecordDecl>(TD))
      for (const FieldDecl *F : RD->fields())
        noteType(F->getType());
    Types.push_back(TD);
  }

  void noteRegion(const std::string &Region, QualType T, std::string Param = "") {
    if (Param.empty())
      Param = Region;
    if (RegionParams.count(Region))
      return;
    QualType PT = regionPointerType(T, Ctx);
    if (PT.isNull()) {
      fail("region '" + Region + "' has no element type a kernel can use");
      return;
    }
    // `double (*C)[m]`: CUDA C++ has no variable array types.
    if (PT->isVariablyModifiedType()) {
      fail("region '" + Region + "' has variably modified type '" + T.getAsString() +
           "', which a kernel cannot declare");
      return;
    }
    noteType(PT->getPointeeType());
    RegionParams[Region] = deviceDeclarator(PT, Param, Ctx);
  }

  void addScalar(const std::string &Name, QualType T, const std::string &HostExpr) {
    for (const auto &S : Scalars)
      if (S.Name == Name)
        return;
    Scalars.push_back({Name, deviceDeclarator(T, Name, Ctx), HostExpr, T});
  }

  std::string text(SourceRange Range) {
    CharSourceRange R = CharSourceRange::getTokenRange(Range);
    return RW.getRewrittenText(R);
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  const LoopResult &R;
  Rewriter RW;
  std::string Reason;
  std::map<std::string, size_t> RegionIndex;
  std::map<std::string, std::string> RegionParams; ///< region name -> parameter declaration
  std::set<const VarDecl *> Reductions, IVs, Locals;
  std::vector<const VarDecl *> Constants;
  std::vector<const FunctionDecl *> Functions;
  std::vector<const TagDecl *> Types;
  struct ScalarParam {
    std::string Name, Decl, HostExpr;
    QualType Type;
  };
  std::vector<ScalarParam> Scalars;
  bool InCallee = false;
  std::string CalleeName;
};

} // namespace

/// `T Name` in declarator syntax (`double (*C)[50]` for a pointer to arrays).
std::string clustrix::deviceDeclarator(QualType T, const std::string &Name, const ASTContext &Ctx) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  T.print(OS, devicePolicy(Ctx), Name);
  return OS.str();
}


KernelClosure clustrix::collectKernelClosure(ASTContext &Ctx, const Stmt *Loop,
                                             const LoopResult &R) {
  KernelClosure Out;
  ClosureBuilder B(Ctx, R);
  for (const Private &P : R.Privates) {
    QualType T = P.Var->getType().getUnqualifiedType();
    B.noteType(T);
    Out.PrivateDecls.push_back(deviceDeclarator(T, P.Name, Ctx) + ";");
  }
  const SourceManager &SM = Ctx.getSourceManager();
  // The body, with the range-for element bound to the range's region.
  const CanonicalLoop &L0 = R.Nest[0];
  if (const auto *RF = dyn_cast<CXXForRangeStmt>(Loop)) {
    if (!B.RegionIndex.count(L0.RangeText)) {
      Out.Reason = "the range '" + L0.RangeText + "' is not a plain array or container";
      return Out;
    }
    const Expr *Init = RF->getRangeInit()->IgnoreParenImpCasts();
    if (const auto *DR = dyn_cast<DeclRefExpr>(Init))
      B.noteRegion(L0.RangeText, DR->getDecl()->getType());
    B.Locals.insert(RF->getLoopVariable());
    B.noteType(RF->getLoopVariable()->getType());
    Out.ElemDecl = L0.ElemDeclText + " = " + L0.RangeText + "[__clx_k0];";
  }
  const Stmt *Body = innermostBody(Loop, unsigned(R.Nest.size()));
  B.TraverseStmt(const_cast<Stmt *>(Body));
  if (!B.ok()) {
    Out.Reason = B.Reason;
    return Out;
  }
  for (const Region &Reg : R.Regions) {
    if (Reg.Scalar) {
      Out.RegionParams.push_back(""); // no parameter: see LoopModel.h, Region::Scalar
      continue;
    }
    auto It = B.RegionParams.find(Reg.Name);
    if (It == B.RegionParams.end()) {
      Out.Reason = "region '" + Reg.Name + "' is not named in the loop body";
      return Out;
    }
    Out.RegionParams.push_back(It->second);
  }
  // The body text including a trailing `;` of an expression body.
  Out.Body = B.text(Body->getSourceRange());
  if (trailingSemicolon(Body, SM, Ctx.getLangOpts()).isValid())
    Out.Body += ";";
  for (const TagDecl *TD : B.Types)
    Out.Types.push_back(B.text(TD->getSourceRange()));
  for (const VarDecl *VD : B.Constants)
    Out.Constants.push_back(
        deviceDeclarator(VD->getType().getUnqualifiedType(), VD->getNameAsString(), Ctx) + " = " +
        B.text(VD->getInit()->getSourceRange()));
  for (const FunctionDecl *FD : B.Functions) {
    Out.Signatures.push_back(
        Lexer::getSourceText(
            CharSourceRange::getCharRange(FD->getBeginLoc(), FD->getBody()->getBeginLoc()), SM,
            Ctx.getLangOpts())
            .rtrim()
            .str());
    Out.Functions.push_back(B.text(FD->getSourceRange()));
  }
  for (const auto &S : B.Scalars)
    Out.Scalars.push_back(
        {S.Decl, S.HostExpr, uint64_t(Ctx.getTypeSizeInChars(S.Type).getQuantity())});
  return Out;
}
