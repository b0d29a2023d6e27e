//===- KernelEmitter.cpp - CUDA kernel text for accepted loops -------------===//
//
// Walks the loop body and its callees, classifies every name (kernel local, region parameter,
// scalar parameter, device constant, device function, record type), rewrites the few spellings
// that differ on the device (`std::sqrt` -> `sqrt`, `this->x` -> `x`), and assembles the kernel.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Rewrite/KernelEmitter.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Rewrite/Core/Rewriter.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>

using namespace clang;
using namespace clustrix;

namespace {

/// Math functions CUDA's device library provides under the same name.
bool isDeviceMath(StringRef N) {
  static const llvm::StringSet<> Names = {
      "sqrt",  "sqrtf", "cbrt",  "cbrtf", "exp",   "expf",  "exp2",  "expm1", "log",   "logf",
      "log2",  "log10", "log1p", "pow",   "powf",  "sin",   "sinf",  "cos",   "cosf",  "tan",
      "tanf",  "asin",  "acos",  "atan",  "atan2", "sinh",  "cosh",  "tanh",  "fabs",  "fabsf",
      "abs",   "labs",  "llabs", "floor", "floorf", "ceil", "ceilf", "round", "roundf", "trunc",
      "fmod",  "fmin",  "fmax",  "fminf", "fmaxf", "min",   "max",   "hypot", "erf",   "erfc",
      "tgamma", "lgamma", "copysign", "fma", "isnan", "isinf", "isfinite", "signbit", "rsqrt"};
  return Names.contains(N);
}

PrintingPolicy devicePolicy(const ASTContext &Ctx) {
  PrintingPolicy P(Ctx.getLangOpts());
  P.SuppressTagKeyword = true;
  P.FullyQualifiedName = true;
  P.SuppressScope = false;
  P.PrintCanonicalTypes = true;
  return P;
}

/// `T Name` in declarator syntax (`double (*C)[50]` for a pointer to arrays).
std::string declare(QualType T, const std::string &Name, const ASTContext &Ctx) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  T.print(OS, devicePolicy(Ctx), Name);
  return OS.str();
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

class Builder : public RecursiveASTVisitor<Builder> {
public:
  Builder(ASTContext &Ctx, const LoopResult &R)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), R(R), RW(Ctx.getSourceManager(), Ctx.getLangOpts()) {
    for (size_t I = 0; I < R.Regions.size(); ++I)
      if (!R.Regions[I].Scalar) // a guard region: the kernel takes the scalar by value
        RegionIndex[R.Regions[I].Name] = I;
    for (const Reduction &X : R.Reductions)
      Reductions.insert(X.Var);
    for (const CanonicalLoop &L : R.Nest)
      if (!L.RangeFor)
        IVs.insert(L.Var);
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
    noteType(VD->getType());
    return ok();
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
    if (isDeviceMath(Name) && (FD->isInStdNamespace() || !HasBody || FD->getBuiltinID())) {
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
    noteType(PT->getPointeeType());
    RegionParams[Region] = declare(PT, Param, Ctx);
  }

  void addScalar(const std::string &Name, QualType T, const std::string &HostExpr) {
    for (const auto &S : Scalars)
      if (S.Name == Name)
        return;
    Scalars.push_back({Name, declare(T, Name, Ctx), HostExpr, T});
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

std::string identity(const Reduction &X, QualType T, const ASTContext &Ctx) {
  bool F = T->isRealFloatingType();
  if (X.Op == "+" || X.Op == "|" || X.Op == "^")
    return "0";
  if (X.Op == "*")
    return "1";
  if (X.Op == "&")
    return "~(" + T.getAsString() + ")0";
  bool Max = X.Op == "max";
  if (F) {
    bool Single = Ctx.getTypeSize(T) == 32;
    // Max starts at -infinity, min at +infinity: no header is needed for the bit patterns.
    if (Single)
      return Max ? "__int_as_float(0xff800000)" : "__int_as_float(0x7f800000)";
    return Max ? "__longlong_as_double(0xfff0000000000000LL)"
               : "__longlong_as_double(0x7ff0000000000000LL)";
  }
  unsigned Bits = Ctx.getIntWidth(T);
  bool Signed = T->isSignedIntegerType();
  std::string Ty = T.getAsString();
  if (!Signed)
    return Max ? "(" + Ty + ")0" : "(" + Ty + ")~(" + Ty + ")0";
  // Signed: max starts at the minimum, min at the maximum.
  std::string MaxV = "(" + Ty + ")(~0ULL >> " + std::to_string(65 - Bits) + ")";
  return Max ? "(" + Ty + ")(-" + MaxV + " - 1)" : MaxV;
}

std::string combine(const std::string &Op, const std::string &A, const std::string &B) {
  if (Op == "min")
    return "(" + B + " < " + A + " ? " + B + " : " + A + ")";
  if (Op == "max")
    return "(" + B + " > " + A + " ? " + B + " : " + A + ")";
  return A + " " + Op + " " + B;
}

} // namespace

Kernel clustrix::emitKernel(ASTContext &Ctx, const Stmt *Loop, const LoopResult &R,
                            const std::string &Name) {
  Kernel K;
  K.Name = Name;
  if (!R.Appends.empty()) {
    K.Reason = "ordered appends run on CPU devices";
    return K;
  }
  for (const Reduction &X : R.Reductions)
    if (X.OrderedMinMax) {
      K.Reason = "floating-point '" + X.Op + "' of '" + X.Name +
                 "' without a reduce clause keeps the first of equal values only when partials "
                 "combine in iteration order, as CPU chunks do";
      return K;
    }
  Builder B(Ctx, R);
  const SourceManager &SM = Ctx.getSourceManager();
  // The body, with the range-for element bound to the range's region.
  const Stmt *Body = nullptr;
  const CanonicalLoop &L0 = R.Nest[0];
  std::string ElemDecl;
  if (const auto *RF = dyn_cast<CXXForRangeStmt>(Loop)) {
    Body = RF->getBody();
    if (!B.RegionIndex.count(L0.RangeText)) {
      K.Reason = "the range '" + L0.RangeText + "' is not a plain array or container";
      return K;
    }
    const Expr *Init = RF->getRangeInit()->IgnoreParenImpCasts();
    if (const auto *DR = dyn_cast<DeclRefExpr>(Init))
      B.noteRegion(L0.RangeText, DR->getDecl()->getType());
    B.Locals.insert(RF->getLoopVariable());
    B.noteType(RF->getLoopVariable()->getType());
    ElemDecl = L0.ElemDeclText + " = " + L0.RangeText + "[__clx_k0];";
  } else {
    const Stmt *S = Loop;
    for (size_t L = 0; L < R.Nest.size(); ++L) {
      Body = cast<ForStmt>(S)->getBody();
      while (L + 1 < R.Nest.size() && isa<CompoundStmt>(Body))
        Body = cast<CompoundStmt>(Body)->body_front();
      S = Body;
    }
  }
  B.TraverseStmt(const_cast<Stmt *>(Body));
  if (!B.ok()) {
    K.Reason = B.Reason;
    return K;
  }
  for (size_t I = 0; I < R.Regions.size(); ++I)
    if (!R.Regions[I].Scalar && !B.RegionParams.count(R.Regions[I].Name)) {
      K.Reason = "region '" + R.Regions[I].Name + "' is not named in the loop body";
      return K;
    }
  // The body text including a trailing `;` of an expression body.
  SourceLocation BodyEnd = Body->getEndLoc();
  std::string BodyText = B.text(Body->getSourceRange());
  if (!isa<CompoundStmt>(Body)) {
    std::optional<Token> Next = Lexer::findNextToken(BodyEnd, SM, Ctx.getLangOpts());
    if (Next && Next->is(tok::semi))
      BodyText += ";";
  }

  std::string S;
  llvm::raw_string_ostream OS(S);
  PresumedLoc P = SM.getPresumedLoc(Loop->getBeginLoc());
  OS << "// GPU form of the loop at " << (P.isValid() ? P.getFilename() : "?") << ":"
     << (P.isValid() ? P.getLine() : 0) << ", generated by Clustrix.\n";
  // NVRTC has no standard headers: the fixed-width and size types, as the host defines them,
  // so that shared records have the host's layout.
  {
    auto Int = [&](unsigned Bits, bool Signed) {
      return Ctx.getIntTypeForBitwidth(Bits, Signed).getAsString();
    };
    OS << "namespace __clx_std {\n";
    for (unsigned Bits : {8u, 16u, 32u, 64u})
      OS << "typedef " << Int(Bits, true) << " int" << Bits << "_t; typedef " << Int(Bits, false)
         << " uint" << Bits << "_t;\n";
    OS << "typedef " << QualType(Ctx.getSizeType()).getAsString() << " size_t; typedef "
       << QualType(Ctx.getPointerDiffType()).getAsString() << " ptrdiff_t; typedef "
       << QualType(Ctx.getIntPtrType()).getAsString() << " intptr_t; typedef "
       << Ctx.getUIntPtrType().getAsString() << " uintptr_t;\n}\n"
       << "namespace std { using namespace __clx_std; }\nusing namespace __clx_std;\n";
  }
  for (size_t L = 0; L < R.Nest.size(); ++L) {
    const CanonicalLoop &CL = R.Nest[L];
    if (CL.RangeFor)
      continue;
    QualType T = CL.Var->getType().getCanonicalType().getUnqualifiedType();
    QualType U = Ctx.getCorrespondingUnsignedType(T);
    OS << "typedef " << T.getAsString() << " __clx_iv" << L << ";\n"
       << "typedef " << U.getAsString() << " __clx_uv" << L << ";\n";
  }
  for (const TagDecl *TD : B.Types)
    OS << B.text(TD->getSourceRange()) << ";\n";
  for (const VarDecl *VD : B.Constants)
    OS << "__device__ const " << declare(VD->getType().getUnqualifiedType(), VD->getNameAsString(), Ctx)
       << " = " << B.text(VD->getInit()->getSourceRange()) << ";\n";
  for (const FunctionDecl *FD : B.Functions) {
    std::string Sig = Lexer::getSourceText(CharSourceRange::getCharRange(FD->getBeginLoc(),
                                                                          FD->getBody()->getBeginLoc()),
                                           SM, Ctx.getLangOpts())
                          .rtrim()
                          .str();
    OS << "__device__ " << Sig << ";\n";
  }
  for (const FunctionDecl *FD : B.Functions)
    OS << "__device__ " << B.text(FD->getSourceRange()) << "\n";

  // Parameters.
  OS << "extern \"C\" __global__ void " << Name
     << "(unsigned long long __clx_lo, unsigned long long __clx_hi";
  K.Args.push_back({KernelArg::Lo, 0, ""});
  K.Args.push_back({KernelArg::Hi, 0, ""});
  for (size_t I = 0; I < R.Regions.size(); ++I) {
    if (R.Regions[I].Scalar)
      continue;
    OS << ", " << B.RegionParams[R.Regions[I].Name];
    K.Args.push_back({KernelArg::Region, unsigned(I), ""});
  }
  unsigned NS = 0;
  auto Scalar = [&](const std::string &Decl, const std::string &Host, QualType T) {
    OS << ", " << Decl;
    K.Args.push_back({KernelArg::Scalar, NS++, Host,
                      uint64_t(Ctx.getTypeSizeInChars(T).getQuantity())});
  };
  for (size_t L = 0; L < R.Nest.size(); ++L) {
    if (R.Nest[L].RangeFor)
      continue;
    std::string I = std::to_string(L);
    QualType T = R.Nest[L].Var->getType().getCanonicalType().getUnqualifiedType();
    Scalar("__clx_iv" + I + " __clx_init" + I, "__clx_init" + I, T);
    Scalar("__clx_uv" + I + " __clx_mag" + I, "__clx_mag" + I, Ctx.getCorrespondingUnsignedType(T));
    Scalar("bool __clx_up" + I, "__clx_up" + I, Ctx.BoolTy);
    if (L > 0)
      Scalar("unsigned long long __clx_ext" + I, "__clx_trip" + I + ".Count",
             Ctx.UnsignedLongLongTy);
  }
  for (const auto &Sc : B.Scalars)
    Scalar(Sc.Decl, Sc.HostExpr, Sc.Type);
  std::vector<QualType> RedTypes;
  for (size_t I = 0; I < R.Reductions.size(); ++I) {
    QualType T = R.Reductions[I].Var->getType().getNonReferenceType().getCanonicalType()
                     .getUnqualifiedType();
    RedTypes.push_back(T);
    OS << ", " << T.getAsString() << " *__clx_part" << I;
    K.Args.push_back({KernelArg::Partial, unsigned(I), ""});
  }
  K.NumScalars = NS;
  OS << ") {\n";
  for (size_t I = 0; I < R.Reductions.size(); ++I)
    OS << "  " << RedTypes[I].getAsString() << " " << R.Reductions[I].Name << " = "
       << identity(R.Reductions[I], RedTypes[I], Ctx) << ";\n";
  OS << "  for (unsigned long long __clx_k = __clx_lo + (unsigned long long)blockIdx.x * "
        "blockDim.x + threadIdx.x; __clx_k < __clx_hi; __clx_k += (unsigned long long)gridDim.x "
        "* blockDim.x) {\n";
  size_t N = R.Nest.size();
  if (N == 1) {
    OS << "    unsigned long long __clx_k0 = __clx_k;\n";
  } else {
    OS << "    unsigned long long __clx_rest = __clx_k;\n";
    for (size_t L = N; L-- > 1;)
      OS << "    unsigned long long __clx_k" << L << " = __clx_rest % __clx_ext" << L
         << "; __clx_rest /= __clx_ext" << L << ";\n";
    OS << "    unsigned long long __clx_k0 = __clx_rest;\n";
  }
  if (L0.RangeFor) {
    OS << "    " << ElemDecl << "\n";
  } else {
    for (size_t L = 0; L < N; ++L) {
      std::string I = std::to_string(L);
      OS << "    __clx_iv" << I << " " << R.Nest[L].VarName << " = (__clx_iv" << I << ")(__clx_up"
         << I << " ? (__clx_uv" << I << ")((__clx_uv" << I << ")__clx_init" << I << " + (__clx_uv"
         << I << ")__clx_k" << I << " * __clx_mag" << I << ") : (__clx_uv" << I << ")((__clx_uv"
         << I << ")__clx_init" << I << " - (__clx_uv" << I << ")__clx_k" << I << " * __clx_mag"
         << I << "));\n";
    }
  }
  OS << "    " << BodyText << "\n  }\n";
  // Reductions: combine the block in shared memory, in a fixed order, and store its cell.
  for (size_t I = 0; I < R.Reductions.size(); ++I) {
    std::string T = RedTypes[I].getAsString(), Sh = "__clx_sh" + std::to_string(I);
    OS << "  {\n    __shared__ " << T << " " << Sh << "[256];\n"
       << "    " << Sh << "[threadIdx.x] = " << R.Reductions[I].Name << ";\n"
       << "    __syncthreads();\n"
       << "    for (unsigned __clx_s = blockDim.x / 2; __clx_s > 0; __clx_s >>= 1) {\n"
       << "      if (threadIdx.x < __clx_s)\n        " << Sh << "[threadIdx.x] = "
       << combine(R.Reductions[I].Op, Sh + "[threadIdx.x]", Sh + "[threadIdx.x + __clx_s]")
       << ";\n      __syncthreads();\n    }\n"
       << "    if (threadIdx.x == 0)\n      __clx_part" << I << "[blockIdx.x] = " << Sh
       << "[0];\n  }\n";
  }
  OS << "}\n";
  K.Source = OS.str();
  K.Ok = true;
  return K;
}
