//===- KernelClosure.cpp - What a kernel carries ---------------------------===//
//
// Walks the loop body and its callees, classifies every name (kernel local, region parameter,
// scalar parameter, device constant, device function, record type), and rewrites the few
// spellings that differ on the device.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Rewrite/KernelClosure.h"
#include "clustrix/Rewrite/BoxCodeGen.h"
#include "clustrix/AST/LoopNest.h"
#include "clustrix/AST/MathFunctions.h"
#include "clustrix/AST/SkippedText.h"
#include "clustrix/AST/Spelling.h"
#include "clustrix/AST/StatementEnd.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Rewrite/Core/Rewriter.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <optional>
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

/// The namespaces that enclose D, outermost first; false where D is not at namespace scope (a
/// member of a class or a function), or where an unnamed namespace holds it and the name that
/// skips that namespace (`::N::T`) would find another declaration of D's name first (then
/// Shadowed, when given, is set).
bool namespacePath(const Decl *D, std::vector<const NamespaceDecl *> &Path,
                   bool *Shadowed = nullptr) {
  Path.clear();
  if (Shadowed)
    *Shadowed = false;
  const auto *Named = dyn_cast<NamedDecl>(D);
  for (const DeclContext *DC = D->getDeclContext()->getRedeclContext();
       !DC->isTranslationUnit(); DC = DC->getParent()->getRedeclContext()) {
    const auto *ND = dyn_cast<NamespaceDecl>(DC);
    if (!ND)
      return false;
    if (ND->isAnonymousNamespace() &&
        (!Named || !ND->getParent()->getRedeclContext()->lookup(Named->getDeclName()).empty())) {
      if (Shadowed)
        *Shadowed = Named != nullptr;
      return false;
    }
    Path.insert(Path.begin(), ND);
  }
  return true;
}

/// The qualifier that names a member of Path from anywhere: `::phys::` (an unnamed namespace
/// is left out: a qualified name reaches into it).
std::string namespaceQualifier(ArrayRef<const NamespaceDecl *> Path) {
  std::string Q = "::";
  for (const NamespaceDecl *ND : Path)
    if (!ND->isAnonymousNamespace())
      Q += ND->getNameAsString() + "::";
  return Q;
}

/// Text, a declaration of a namespace's member without its final `;`, inside its namespaces as
/// the kernel declares it (`namespace phys { struct P { ... }; }`); for a member of the file's
/// scope, Text, with the `;` when Semi.
std::string inNamespaces(const Decl *D, const std::string &Text, bool Semi) {
  std::vector<const NamespaceDecl *> Path;
  if (!namespacePath(D, Path) || Path.empty())
    return Semi ? Text + ";" : Text;
  std::string Open, Close;
  for (const NamespaceDecl *ND : Path) {
    Open += (ND->isInline() ? "inline namespace " : "namespace ") +
            (ND->isAnonymousNamespace() ? "" : ND->getNameAsString() + " ") + "{ ";
    Close += " }";
  }
  return Open + Text + ";" + Close;
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
  ClosureBuilder(ASTContext &Ctx, const LoopResult &R, Preprocessor *PP)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), R(R), PP(PP),
        RW(Ctx.getSourceManager(), Ctx.getLangOpts()) {
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

  /// Macros are found by lexing each text the kernel takes (noteMacrosIn); without the
  /// preprocessor their definitions cannot be read.
  bool VisitStmt(Stmt *S) {
    if (!PP && S->getBeginLoc().isMacroID()) {
      StringRef Macro = Lexer::getImmediateMacroName(S->getBeginLoc(), SM, Ctx.getLangOpts());
      return fail("the code uses macro '" + Macro.str() + "', which the kernel text cannot carry");
    }
    return true;
  }

  /// Macro Name as defined at Use, with the macros its definition uses, for the kernel text. A
  /// built-in macro (`__LINE__`) has no definition to carry.
  bool noteMacro(StringRef Name, SourceLocation Use) {
    // The pragma operator is the language's, the device compiler's too: a loop hint
    // (`_Pragma("omp simd")`, `_Pragma("clang loop vectorize(enable)")`) it does not know, it
    // ignores.
    if (MacroNames.count(Name.str()) || Name == "_Pragma")
      return true;
    IdentifierInfo *II = PP->getIdentifierInfo(Name);
    const MacroInfo *MI = II ? PP->getMacroDefinitionAtLoc(II, Use).getMacroInfo() : nullptr;
    if (!MI) // the argument of a function-like macro, or a macro undefined since
      return true;
    if (MI->isBuiltinMacro() || MI->getDefinitionLoc().isInvalid() || Name == "__cplusplus" ||
        Name.starts_with("__STDC"))
      return fail("the code uses built-in macro '" + Name.str() +
                  "', which the kernel text cannot carry");
    MacroNames.insert(Name.str());
    CharSourceRange Def = CharSourceRange::getTokenRange(MI->getDefinitionLoc(),
                                                         MI->getDefinitionEndLoc());
    std::string Text = Lexer::getSourceText(Def, SM, Ctx.getLangOpts()).str();
    if (Text.empty())
      return fail("the definition of macro '" + Name.str() + "' cannot be read");
    // A macro the compiler predefines (`__DBL_EPSILON__` behind DBL_EPSILON) may have another
    // value in the device compiler: the host's replaces it.
    Macros.push_back({Name.str(), std::move(Text), SM.getDecomposedLoc(Def.getBegin()),
                      SM.isWrittenInBuiltinFile(MI->getDefinitionLoc())});
    for (const Token &T : MI->tokens())
      if (const IdentifierInfo *TI = T.getIdentifierInfo(); TI && TI != II)
        if (!noteMacro(TI->getName(), Use))
          return false;
    return true;
  }

  bool VisitVarDecl(VarDecl *VD) {
    Locals.insert(VD);
    if (!InCallee)
      BodyDecls.insert(VD);
    if (VD->getType()->isVariablyModifiedType())
      return fail("'" + VD->getNameAsString() + "' has variably modified type '" +
                  VD->getType().getAsString() + "', which a kernel cannot declare");
    noteType(VD->getType());
    return ok();
  }

  /// Types written in expressions, which the kernel's text names as the host's does: casts
  /// (`Real_t(0.0)`, `(F2)i`, `static_cast<T>(x)`), `sizeof(T)`, `T()`, compound literals.
  /// A typedef named only there must be declared in the kernel too.
  bool VisitExplicitCastExpr(ExplicitCastExpr *CE) {
    noteType(CE->getTypeAsWritten());
    return ok();
  }
  bool VisitUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *E) {
    if (E->isArgumentType())
      noteType(E->getArgumentType());
    return ok();
  }
  bool VisitCXXScalarValueInitExpr(CXXScalarValueInitExpr *E) {
    if (const TypeSourceInfo *TSI = E->getTypeSourceInfo())
      noteType(TSI->getType());
    return ok();
  }
  bool VisitCompoundLiteralExpr(CompoundLiteralExpr *E) {
    if (const TypeSourceInfo *TSI = E->getTypeSourceInfo())
      noteType(TSI->getType());
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
    if (Consumed.count(DR))
      return true; // the root of a member region, which the kernel takes as a parameter
    if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()); VD && !InCallee)
      RootUses.push_back(DR);
    if (const auto *EC = dyn_cast<EnumConstantDecl>(DR->getDecl())) {
      const auto *ED = cast<EnumDecl>(EC->getDeclContext());
      noteType(Ctx.getTypeDeclType(ED));
      if (ok() && isMemberType(ED))
        return respellMemberEnumerator(DR);
      // A namespace's enumerator, spelled with its whole qualifier as its type is.
      std::vector<const NamespaceDecl *> Path;
      if (ok() && ED->getIdentifier() && namespacePath(ED, Path) && !Path.empty()) {
        SourceLocation Begin = DR->getQualifierLoc() ? DR->getQualifierLoc().getBeginLoc()
                                                     : DR->getLocation();
        if (!respellName(Begin, DR->getLocation(),
                         namespaceQualifier(Path) + ED->getNameAsString() +
                             "::" + EC->getNameAsString()))
          return fail("the code names enumerator '" + EC->getQualifiedNameAsString() +
                      "' of a namespace inside a macro, where the kernel cannot spell it");
      }
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
    if (!VD) {
      // Functions are handled at the call; one named otherwise (its address taken) must keep
      // its signature.
      if (const auto *FD = dyn_cast<FunctionDecl>(DR->getDecl()); FD && !CalleeRefs.count(DR)) {
        std::string Flat;
        if (!FD->isInStdNamespace() && !SM.isInSystemHeader(FD->getLocation()) &&
            (FD->getPrimaryTemplate() || (flatName(FD, Flat) && !Flat.empty())))
          return fail("the code names '" + FD->getQualifiedNameAsString() +
                      "' other than in a call, and the kernel carries it under another name");
        NamedFunctions.push_back(FD);
      }
      return true;
    }
    if (Locals.count(VD) || IVs.count(VD) || Reductions.count(VD))
      return true;
    if (InCallee && (isa<ParmVarDecl>(VD) || VD->hasLocalStorage()))
      return true;
    // A constant is declared in the kernel with the value the host computed for it, so that
    // its initializer (other constants, calls) need not be carried.
    std::string ConstantValue;
    if (VD->hasGlobalStorage() && VD->getType().isConstQualified() && VD->getInit() &&
        (VD->getType()->isArithmeticType() || VD->getType()->isEnumeralType()))
      ConstantValue = constantLiteral(VD);
    bool Constant = !ConstantValue.empty();
    // A callee's global is a parameter that the callee, and every function on the way to it,
    // takes after its own (addHiddenParameters): the kernel passes its own parameter. It must
    // be named at the loop as the analysis checked it, not by an identifier that the loop's
    // function may declare for something else.
    bool Hidden = !Constant && InCallee;
    bool Named = R.Spellings.count(VD->getCanonicalDecl());
    if (Hidden && (InMethod || !CurFn || !VD->hasGlobalStorage() || VD->isStaticLocal() || !Named))
      return fail("'" + CalleeName + "' uses '" + VD->getNameAsString() +
                  "', which is not one of its parameters");
    if (!Constant && VD->hasGlobalStorage() && !Named)
      return fail("'" + VD->getNameAsString() +
                  "' cannot be named at the loop, where the kernel's arguments are written");
    if (!Constant && VD->hasGlobalStorage())
      for (const LambdaExpr *LE : LambdaStack)
        if (LE->getCaptureDefault() == LCD_None)
          return fail("a lambda that captures nothing uses '" + VD->getNameAsString() +
                      "', which the kernel passes as a parameter");
    // In the kernel the variable is a parameter (or a constant) named by its identifier:
    // `cfg::limit` becomes `limit`, which must then name nothing else.
    std::string Name = VD->getNameAsString();
    if (!claimName(Name, VD))
      return fail("the kernel would name two variables '" + Name + "'");
    if (NestedNameSpecifierLoc Q = DR->getQualifierLoc()) {
      if (Q.getBeginLoc().isMacroID())
        return fail("'" + Name + "' is named with a qualifier inside a macro");
      RW.RemoveText(CharSourceRange::getCharRange(Q.getBeginLoc(),
                                                  DR->getNameInfo().getBeginLoc()));
    }
    if (Constant) {
      if (std::find_if(Constants.begin(), Constants.end(),
                       [&](const auto &C) { return C.first == VD; }) == Constants.end())
        Constants.push_back({VD, ConstantValue});
      return true;
    }
    std::string Host = hostSpelling(VD);
    if (RegionIndex.count(Host)) {
      noteRegion(Host, VD->getType(), Name, VD);
      if (Flat.count(VD) && !FlatBases.count(DR))
        return fail("region '" + Name +
                    "' has rows of variable length, which the kernel reaches element by "
                    "element only, and here it is used whole");
      if (usedWhole(DR))
        return failUsedWhole(Name);
      if (Hidden && ok())
        noteHidden(Name, RegionParams[Host]);
      return ok();
    }
    if (!passByValue(Name, VD->getType(), Host))
      return false;
    if (Hidden)
      noteHidden(Name, deviceDeclarator(VD->getType().getNonReferenceType().getUnqualifiedType(),
                                        Name, Ctx));
    return ok();
  }

  /// The value of constant VD as a literal of its type, or empty where the host has no value
  /// for it at compile time (`const int n = atoi(...)`): the kernel then takes it as a
  /// parameter.
  std::string constantLiteral(const VarDecl *VD) const {
    const APValue *V = VD->evaluateValue();
    if (!V)
      return "";
    std::string Lit = valueLiteral(*V, /*NonFinite=*/false);
    if (Lit.empty())
      return "";
    QualType T = VD->getType().getUnqualifiedType();
    return deviceDeclarator(T, VD->getNameAsString(), Ctx) + " = static_cast<" +
           deviceDeclarator(T, "", Ctx) + ">(" + Lit + ")";
  }

  /// V, an integer or a floating value, as a literal of the kernel with the host's bits; empty
  /// where it has none. Infinities and NaNs only where NonFinite (device intrinsics, which a
  /// constant expression cannot hold).
  static std::string valueLiteral(const APValue &V, bool NonFinite) {
    std::string Lit;
    if (V.isInt()) {
      const llvm::APSInt &I = V.getInt();
      if (I.isSigned() && I.getSignificantBits() > 64)
        return "";
      if (!I.isSigned() && I.getActiveBits() > 64)
        return "";
      if (I.isSigned() && I.isNegative())
        Lit = I.getSExtValue() == INT64_MIN ? "(-9223372036854775807LL - 1)"
                                            : "(" + std::to_string(I.getSExtValue()) + "LL)";
      else
        Lit = std::to_string(I.isSigned() ? uint64_t(I.getSExtValue()) : I.getZExtValue()) +
              (I.isSigned() ? "LL" : "ULL");
    } else if (V.isFloat()) {
      const llvm::APFloat &F = V.getFloat();
      const llvm::fltSemantics &S = F.getSemantics();
      bool Single = &S == &llvm::APFloat::IEEEsingle(), Double = &S == &llvm::APFloat::IEEEdouble();
      if (!F.isFinite() && NonFinite && (Single || Double)) {
        llvm::APInt Bits = F.bitcastToAPInt();
        return Single ? "__int_as_float(0x" + llvm::utohexstr(Bits.getZExtValue()) + ")"
                      : "__longlong_as_double(0x" + llvm::utohexstr(Bits.getZExtValue()) + "ll)";
      }
      if (!F.isFinite() || !(Single || Double || &S == &llvm::APFloat::x87DoubleExtended()))
        return "";
      char Hex[64];
      unsigned N = F.convertToHexString(Hex, 0, false, llvm::APFloat::rmNearestTiesToEven);
      Lit = std::string(Hex, N) + (&S == &llvm::APFloat::x87DoubleExtended() ? "L" : "");
    }
    return Lit;
  }

  /// A call of a constexpr function of the standard library without arguments whose value is a
  /// constant of an arithmetic type the device has (`std::numeric_limits<double>::max()`,
  /// `infinity()`): that value, as the kernel's literal with the host's bits; none otherwise.
  std::optional<std::string> standardConstant(const CallExpr *CE, const FunctionDecl *FD) {
    const DeclContext *NS = FD->getEnclosingNamespaceContext();
    QualType T = CE->getType().getCanonicalType().getUnqualifiedType();
    if (!FD->isConstexpr() || CE->getNumArgs() != 0 || !NS || !NS->isStdNamespace() ||
        CE->isValueDependent() || T->isEnumeralType() ||
        !(T->isIntegerType() || T->isSpecificBuiltinType(BuiltinType::Float) ||
          T->isSpecificBuiltinType(BuiltinType::Double)))
      return std::nullopt;
    Expr::EvalResult Res;
    if (!CE->EvaluateAsRValue(Res, Ctx) || Res.HasSideEffects)
      return std::nullopt;
    std::string Lit = valueLiteral(Res.Val, /*NonFinite=*/true);
    if (Lit.empty())
      return std::nullopt;
    return "static_cast<" + deviceDeclarator(T, "", Ctx) + ">(" + Lit + ")";
  }

  /// Whether E, a region's variable, is used other than through its elements where the host's
  /// type is not a pointer (`sizeof(a)`, `&a`, a reference bound to an array or a container):
  /// the kernel's parameter is a pointer to the elements, of another type and size.
  bool usedWhole(const Expr *E) {
    if (E->getType().getNonReferenceType()->isPointerType())
      return false;
    const Expr *Cur = E;
    while (true) {
      DynTypedNodeList Parents = Ctx.getParents(*Cur);
      if (Parents.size() != 1)
        return true;
      if (const auto *P = Parents[0].get<ParenExpr>()) {
        Cur = P;
        continue;
      }
      if (const auto *IC = Parents[0].get<ImplicitCastExpr>()) {
        if (IC->getCastKind() == CK_NoOp) {
          Cur = IC;
          continue;
        }
        return IC->getCastKind() != CK_ArrayToPointerDecay;
      }
      if (const auto *Op = Parents[0].get<CXXOperatorCallExpr>())
        return !(Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2 &&
                 Op->getArg(0) == Cur);
      return true;
    }
  }

  bool failUsedWhole(const std::string &Name) {
    return fail("region '" + Name +
                "' is used whole here, and the kernel reaches it through a pointer to its "
                "elements");
  }

  /// Global Name, which the callee being walked uses, is its parameter Decl.
  void noteHidden(const std::string &Name, const std::string &Decl) {
    HiddenDecls.emplace(Name, Decl);
    auto &Uses = DirectGlobals[CurFn];
    if (std::find(Uses.begin(), Uses.end(), Name) == Uses.end())
      Uses.push_back(Name);
  }

  /// How the host names VD at the loop: as the analysis checked it (LoopResult::Spellings).
  std::string hostSpelling(const VarDecl *VD) const {
    auto It = R.Spellings.find(VD->getCanonicalDecl());
    return It != R.Spellings.end() ? It->second : VD->getNameAsString();
  }

  /// A global the kernel names by its identifier (`cfg::lim` becomes `lim`, a parameter or a
  /// constant of the kernel) must not be hidden there by a variable of the same identifier that
  /// the body declares, nor be one the kernel declares itself (the loop's variable, a
  /// reduction, a private): the host's qualified name reached the global, where the kernel's
  /// identifier would reach the other variable, or not compile.
  bool checkHiddenGlobals() {
    std::set<std::string> Declared = loopDeclaredNames();
    for (const auto &[Name, D] : KernelNames) {
      const auto *V = dyn_cast<VarDecl>(D);
      if (V && V->hasGlobalStorage() && Declared.count(Name))
        return fail("the kernel names global '" + V->getQualifiedNameAsString() + "' as '" +
                    Name + "', which a variable the loop declares would hide there");
    }
    return ok();
  }

  /// The identifiers of the variables the kernel declares where the body's text runs: the
  /// body's own (and its lambdas'), the loop's variables (a range-for's element too), the
  /// reductions and the privates.
  std::set<std::string> loopDeclaredNames() const {
    std::set<std::string> Names;
    for (const std::set<const VarDecl *> *Set : {&BodyDecls, &IVs, &Reductions})
      for (const VarDecl *V : *Set)
        Names.insert(V->getNameAsString());
    for (const Private &P : R.Privates)
      Names.insert(P.Name);
    return Names;
  }

  /// Whether the kernel may use Name for D: no other declaration has it.
  bool claimName(const std::string &Name, const Decl *D) {
    auto [It, New] = KernelNames.emplace(Name, D->getCanonicalDecl());
    return New || It->second == D->getCanonicalDecl();
  }

  /// A variable of the enclosing function that the body reads: a kernel parameter of its type,
  /// which the host passes as HostExpr (its name by default).
  bool passByValue(const std::string &Name, QualType Type, std::string HostExpr = "") {
    QualType T = Type.getNonReferenceType().getUnqualifiedType();
    if (!(T->isArithmeticType() || T->isEnumeralType() || T->isRecordType()))
      return fail("'" + Name + "' of type '" + T.getAsString() +
                  "' cannot be passed to a kernel by value");
    if (T->isRecordType() && !T.isTriviallyCopyableType(Ctx))
      return fail("'" + Name + "' of type '" + T.getAsString() +
                  "' is not trivially copyable, so a kernel cannot take it by value");
    noteType(T);
    addScalar(Name, T, HostExpr.empty() ? Name : HostExpr);
    return ok();
  }

  /// A chain of field accesses from a variable of the loop's function (`SD.p`, `s->v`,
  /// `o.inner.p`) or from the object of the member function the loop is in (`this->g.p`,
  /// `g.p` written without `this`, `this->s->v`: Root stays null), spelled as the analysis
  /// names regions; empty for any other expression.
  std::string memberChain(const Expr *E, const VarDecl *&Root,
                          std::vector<const Expr *> &Links) const {
    E = E->IgnoreParenImpCasts();
    Links.push_back(E);
    if (isa<CXXThisExpr>(E))
      return InMethod ? "" : "this";
    if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
      Root = dyn_cast<VarDecl>(DR->getDecl());
      if (!Root || Locals.count(Root) || IVs.count(Root) || Reductions.count(Root) ||
          (Root->hasGlobalStorage() && !R.Spellings.count(Root->getCanonicalDecl())))
        return "";
      return hostSpelling(Root);
    }
    const auto *ME = dyn_cast<MemberExpr>(E);
    if (!ME || !isa<FieldDecl>(ME->getMemberDecl()))
      return "";
    std::string Base = memberChain(ME->getBase(), Root, Links);
    if (Base.empty())
      return "";
    return Base + (ME->isArrow() ? "->" : ".") + ME->getMemberDecl()->getNameAsString();
  }

  /// A region reached through fields of a variable (`SD.p[i]`, `s->v[i]`) is a parameter of
  /// the kernel, which the chain's text becomes (`SD_p[i]`): the variable itself, copied to the
  /// device, would hold the host's pointer. Its other uses must be reads of scalar fields
  /// (checkMemberRoots).
  bool memberRegion(MemberExpr *ME) {
    if (InCallee)
      return false;
    const VarDecl *Root = nullptr;
    std::vector<const Expr *> Links;
    std::string Chain = memberChain(ME, Root, Links);
    // `this->p` alone is a parameter `p` already (VisitMemberExpr); from the object, a chain
    // of two fields or more is a member region, rooted at its first field.
    const MemberExpr *ThisRoot = nullptr;
    if (!Root && Links.size() > 2 && isa<CXXThisExpr>(Links.back()))
      ThisRoot = cast<MemberExpr>(Links[Links.size() - 2]);
    if (Chain.empty() || !(Root || ThisRoot) || !RegionIndex.count(Chain))
      return false;
    if (ME->getBeginLoc().isMacroID() || ME->getEndLoc().isMacroID())
      return fail("region '" + Chain +
                  "' is written in a macro, where the kernel cannot name it as its parameter");
    // A lambda without a capture default cannot reach the parameter: `[]` captures nothing,
    // `[&SD]` captures the variable, not the parameter its chain becomes.
    for (const LambdaExpr *LE : LambdaStack)
      if (LE->getCaptureDefault() == LCD_None)
        return fail("a lambda without a capture default uses region '" + Chain +
                    "', which the kernel passes as a parameter of its own");
    const std::string &Param = chainParam(Chain, cast<FieldDecl>(ME->getMemberDecl()));
    if (RW.ReplaceText(CharSourceRange::getTokenRange(ME->getBeginLoc(), ME->getEndLoc()),
                       Param))
      return fail("region '" + Chain + "' is written where the kernel cannot rewrite it");
    for (const Expr *L : Links)
      Consumed.insert(L);
    if (Root)
      MemberRoots.emplace(Root, Chain);
    else
      ThisMemberRoots.emplace(cast<FieldDecl>(ThisRoot->getMemberDecl()), Chain);
    noteRegion(Chain, ME->getMemberDecl()->getType(), Param);
    if (usedWhole(ME))
      failUsedWhole(Chain);
    return true;
  }

  /// The identifiers of the variables and the object's fields that Body names, which a
  /// chain's parameter must not take: the kernel names each by its identifier (`this->n`
  /// becomes `n`), and the traversal may meet it after the chain.
  void reserveNames(const Stmt *Body) {
    struct Finder : RecursiveASTVisitor<Finder> {
      std::set<std::string> &Out;
      explicit Finder(std::set<std::string> &Out) : Out(Out) {}
      bool VisitDeclRefExpr(DeclRefExpr *DR) {
        if (isa<VarDecl>(DR->getDecl()))
          Out.insert(DR->getDecl()->getNameAsString());
        return true;
      }
      bool VisitMemberExpr(MemberExpr *ME) {
        if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
          Out.insert(ME->getMemberDecl()->getNameAsString());
        return true;
      }
    } F(Reserved);
    F.TraverseStmt(const_cast<Stmt *>(Body));
  }

  /// The kernel parameter of member region Chain (`SD.p` becomes `SD_p`, `this->g.p` `g_p`),
  /// named apart from every name the body uses (reserveNames) and from the other chains'.
  const std::string &chainParam(const std::string &Chain, const FieldDecl *FD) {
    std::string &Param = ChainParams[Chain];
    if (!Param.empty())
      return Param;
    std::string Base;
    for (char C : StringRef(Chain).starts_with("this->") ? Chain.substr(6) : Chain)
      Base += llvm::isAlnum(C) || C == '_' ? C : '_';
    while (Base.find("__") != std::string::npos)
      Base.replace(Base.find("__"), 2, "_");
    Param = Base;
    // (claimName last: it claims the name it is asked about when free.)
    for (unsigned N = 2; Reserved.count(Param) ||
                         llvm::any_of(ChainParams,
                                      [&](const auto &E) {
                                        return E.first != Chain && E.second == Param;
                                      }) ||
                         !claimName(Param, FD);
         ++N)
      Param = Base + "_" + std::to_string(N);
    return Param;
  }

  /// The field and parameter of an accessor, a member function whose whole body returns an
  /// element of a field by its one parameter (LULESH's `Real_t &x(Index_t idx) { return
  /// m_x[idx]; }`), the element's own type by reference or by value; null otherwise.
  static const FieldDecl *accessorField(const CXXMethodDecl *MD, ASTContext &Ctx) {
    const FunctionDecl *Def = nullptr;
    if (!MD || MD->isVirtual() || MD->isStatic() || MD->getNumParams() != 1 ||
        MD->getDescribedFunctionTemplate() || MD->getPrimaryTemplate() || !MD->hasBody(Def) ||
        !Def)
      return nullptr;
    const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
    const auto *Ret = Body && Body->size() == 1 ? dyn_cast<ReturnStmt>(Body->body_front())
                                                 : nullptr;
    if (!Ret || !Ret->getRetValue())
      return nullptr;
    // Only the conversions that read the element (by value) or add a qualifier.
    auto Strip = [](const Expr *E, bool Integral) {
      while (true) {
        E = E->IgnoreParens();
        const auto *IC = dyn_cast<ImplicitCastExpr>(E);
        if (!IC || !(IC->getCastKind() == CK_LValueToRValue || IC->getCastKind() == CK_NoOp ||
                     (Integral && IC->getCastKind() == CK_IntegralCast)))
          return E;
        E = IC->getSubExpr();
      }
    };
    const Expr *V = Strip(Ret->getRetValue(), false);
    const Expr *Base = nullptr, *Index = nullptr;
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(V)) {
      Base = AS->getBase();
      Index = AS->getIdx();
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(V);
               Op && Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2) {
      Base = Op->getArg(0);
      Index = Op->getArg(1);
    }
    if (!Base)
      return nullptr;
    const auto *ME = dyn_cast<MemberExpr>(Strip(Base, false));
    const auto *FD = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
    const auto *DR = dyn_cast<DeclRefExpr>(Strip(Index, true));
    if (!FD || !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) || !DR ||
        DR->getDecl() != Def->getParamDecl(0) ||
        !Def->getParamDecl(0)->getType()->isIntegerType())
      return nullptr;
    // A pointer, an array or a std::vector (whose operator[] is its element; not of bool).
    QualType FT = FD->getType().getNonReferenceType();
    const auto *Vec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(FT->getAsCXXRecordDecl());
    bool IsVector = Vec && Vec->isInStdNamespace() && Vec->getName() == "vector" &&
                    !Vec->getTemplateArgs()[0].getAsType()->isBooleanType();
    if (!FT->isPointerType() && !Ctx.getAsArrayType(FT) && !IsVector)
      return nullptr;
    if (isa<CXXOperatorCallExpr>(V) != IsVector)
      return nullptr;
    QualType Elem = regionPointerType(FT, Ctx);
    if (Elem.isNull())
      return nullptr;
    QualType Want = Elem->getPointeeType().getCanonicalType().getUnqualifiedType();
    QualType Got = MD->getReturnType().getNonReferenceType().getCanonicalType()
                       .getUnqualifiedType();
    return Want == Got ? FD : nullptr;
  }

  /// A call of an accessor on a variable of the loop's function or a chain of its fields
  /// (`domain.x(i)`, `d->x(i)`, `o.dom.x(i)`): the element of member region `domain.m_x`,
  /// which the kernel takes as a parameter of its own (`domain_m_x[(int)(i)]`, the argument
  /// converted to the accessor's parameter type as the call converts it). None when the call is
  /// not one; false when it is and the kernel cannot take it.
  std::optional<bool> accessorRegion(CXXMemberCallExpr *MC) {
    if (InCallee || MC->getNumArgs() != 1)
      return std::nullopt;
    const CXXMethodDecl *MD = MC->getMethodDecl();
    const FieldDecl *FD = accessorField(MD, Ctx);
    const auto *Callee = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens());
    const Expr *Obj = MC->getImplicitObjectArgument();
    if (!FD || !Callee || !Obj || Callee->hasExplicitTemplateArgs())
      return std::nullopt;
    const VarDecl *Root = nullptr;
    std::vector<const Expr *> Links;
    std::string Chain = memberChain(Obj, Root, Links);
    if (Chain.empty() || (!Root && Links.size() < 2))
      return std::nullopt; // `x(i)` in a member function: the kernel carries the accessor
    std::string Region = Chain + (Obj->getType()->isPointerType() ? "->" : ".") +
                         FD->getNameAsString();
    // A private field is named at the loop through a pointer to member, `(domain.*__clx_pm_..)`:
    // the region's name, which the host passes; its display name is the chain.
    auto It = llvm::find_if(R.Regions, [&](const clustrix::Region &X) {
      return !X.Scalar && displayMemberNames(X.Name) == Region;
    });
    if (It == R.Regions.end())
      return std::nullopt;
    if (MC->getBeginLoc().isMacroID() || MC->getRParenLoc().isMacroID())
      return fail("region '" + Region +
                  "' is reached through an accessor in a macro, where the kernel cannot name "
                  "it as its parameter");
    for (const LambdaExpr *LE : LambdaStack)
      if (LE->getCaptureDefault() == LCD_None)
        return fail("a lambda without a capture default uses region '" + Region +
                    "', which the kernel passes as a parameter of its own");
    const std::string &Param = chainParam(Region, FD);
    QualType IdxT = MD->getParamDecl(0)->getType().getCanonicalType().getUnqualifiedType();
    if (RW.ReplaceText(CharSourceRange::getTokenRange(MC->getBeginLoc(), Callee->getMemberLoc()),
                       Param + "[(" + IdxT.getAsString(Ctx.getPrintingPolicy()) + ")") ||
        RW.InsertTextAfterToken(MC->getRParenLoc(), "]"))
      return fail("region '" + Region + "' is written where the kernel cannot rewrite it");
    for (const Expr *L : Links)
      Consumed.insert(L);
    Consumed.insert(Callee);
    if (Root)
      MemberRoots.emplace(Root, Region);
    else
      ThisMemberRoots.emplace(cast<FieldDecl>(cast<MemberExpr>(Links[Links.size() - 2])
                                                  ->getMemberDecl()),
                              Region);
    noteRegion(It->Name, FD->getType(), Param);
    return ok();
  }

  /// Each use of a variable with a member region, other than that region, must read a scalar
  /// field: the kernel's copy of the variable (a parameter, or a region of one element) holds
  /// the host's pointer, which a use of the whole (`f(SD)`, `SimData t = SD`) would carry into
  /// device code.
  bool checkMemberRoots() {
    for (const DeclRefExpr *DR : RootUses) {
      const auto *VD = cast<VarDecl>(DR->getDecl());
      auto It = MemberRoots.find(VD);
      if (It != MemberRoots.end() && !readsScalarField(DR))
        return fail("'" + VD->getNameAsString() + "' is used at " +
                    DR->getLocation().printToString(SM) +
                    " other than by reading a scalar field, and the kernel takes its member '" +
                    It->second + "' apart, as a region");
    }
    // The object's fields at the roots of chains: the kernel's copy of such a field (a
    // parameter by value) holds the host's pointer as well.
    for (const MemberExpr *ME : ThisRootUses) {
      auto It = ThisMemberRoots.find(cast<FieldDecl>(ME->getMemberDecl()));
      if (It != ThisMemberRoots.end() && !readsScalarField(ME))
        return fail("'this->" + It->first->getNameAsString() + "' is used at " +
                    ME->getMemberLoc().printToString(SM) +
                    " other than by reading a scalar field, and the kernel takes its member '" +
                    It->second + "' apart, as a region");
    }
    return ok();
  }

  /// Whether Use (a variable, or a field of the object) is the base of fields that end in a
  /// scalar which is read, and nothing else.
  bool readsScalarField(const Expr *Use) const {
    const Expr *Top = Use;
    const Expr *Cur = Use;
    while (true) {
      DynTypedNodeList Parents = Ctx.getParents(*Cur);
      const Expr *P = Parents.size() == 1 ? Parents[0].get<Expr>() : nullptr;
      if (!P || !(isa<ImplicitCastExpr>(P) || isa<ParenExpr>(P) || isa<MemberExpr>(P)))
        break;
      if (isa<MemberExpr>(P))
        Top = P;
      Cur = P;
    }
    QualType T = Top->getType().getNonReferenceType();
    return Top != Use && (T->isArithmeticType() || T->isEnumeralType());
  }

  bool VisitMemberExpr(MemberExpr *ME) {
    if (Consumed.count(ME))
      return true;
    if (memberRegion(ME))
      return ok();
    if (!ok())
      return false;
    const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
    if (isa<CXXThisExpr>(Base) && InMethod)
      return true; // a member function the kernel carries uses its object's members
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
    ThisRootUses.push_back(ME);
    std::string Name = FD->getNameAsString();
    // `this->x` becomes the parameter `x`. Written in a macro's argument, where the text
    // cannot be rewritten (the Rewriter refuses), it would stay `this->x` in the kernel, which
    // the device compiler rejects.
    if (!ME->isImplicitAccess() &&
        RW.RemoveText(CharSourceRange::getCharRange(ME->getBase()->getBeginLoc(),
                                                    ME->getMemberLoc())))
      return fail("'this->" + Name + "' is written in a macro, where the kernel cannot name "
                  "it as its parameter");
    if (RegionIndex.count("this->" + Name)) {
      noteRegion("this->" + Name, FD->getType(), Name);
      return usedWhole(ME) ? failUsedWhole(Name) : ok();
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

  /// The lambdas around a use: one that captures nothing cannot use a kernel parameter.
  bool TraverseLambdaExpr(LambdaExpr *LE) {
    LambdaStack.push_back(LE);
    bool Result = RecursiveASTVisitor::TraverseLambdaExpr(LE);
    LambdaStack.pop_back();
    return Result;
  }

  /// A lambda in the code the kernel carries is device code as it stands; its parameters and
  /// locals are the kernel's. `this` does not exist in a kernel.
  bool VisitLambdaExpr(LambdaExpr *LE) {
    for (const LambdaCapture &C : LE->captures())
      if (C.capturesThis())
        return fail("the loop uses a lambda that captures 'this'");
    if (const CXXMethodDecl *Call = LE->getCallOperator())
      for (const ParmVarDecl *P : Call->parameters()) {
        Locals.insert(P);
        noteType(P->getType());
      }
    return ok();
  }

  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) {
    if (std::optional<bool> Accessor = accessorRegion(MC))
      return *Accessor;
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (!MD)
      return fail("the loop calls a member through a pointer");
    const Expr *Obj = MC->getImplicitObjectArgument();
    if (Obj && isa<CXXThisExpr>(Obj->IgnoreParenImpCasts()) && !InMethod)
      return fail("the loop calls '" + MD->getQualifiedNameAsString() +
                  "' on its own object, which a kernel does not have");
    return noteMethod(MD);
  }

  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
    if (Op->getOperator() == OO_Subscript)
      return ok(); // a container element: the region parameter is a pointer
    if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
        MD && MD->getParent()->isLambda())
      return lambdaCall(Op);
    // A trivial copy or move assignment (`u0[k][j][i] = v` of a plain struct) is the device
    // compiler's as well: it copies the members.
    if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
        MD && Op->getOperator() == OO_Equal && MD->isTrivial() &&
        (MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator()))
      return ok();
    return fail("the loop uses overloaded operator '" +
                std::string(getOperatorSpelling(Op->getOperator())) + "'");
  }

  /// A call of a lambda: one defined in the code the kernel carries, or one defined before the
  /// loop in the enclosing function, which the kernel defines again for each thread. Such a
  /// copy is the same lambda only when it captures by reference (by copy, it would copy the
  /// values of the loop's start, not of its definition) and nothing private to an iteration.
  bool lambdaCall(const CXXOperatorCallExpr *Op) {
    const auto *DR = dyn_cast<DeclRefExpr>(Op->getArg(0)->IgnoreParenImpCasts());
    const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    if (!V)
      return fail("the loop calls a lambda it does not name");
    if (Locals.count(V))
      return ok();
    const Expr *Init = V->getInit() ? V->getInit()->IgnoreImplicit() : nullptr;
    if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(Init); CE && CE->getNumArgs() == 1)
      Init = CE->getArg(0)->IgnoreImplicit();
    const auto *LE = dyn_cast_or_null<LambdaExpr>(Init);
    if (InCallee || !LE || !V->hasLocalStorage() || isa<ParmVarDecl>(V))
      return fail("the loop calls lambda '" + V->getNameAsString() +
                  "', which is not defined in its function");
    for (const LambdaCapture &C : LE->captures()) {
      if (C.capturesThis())
        return fail("the loop calls lambda '" + V->getNameAsString() + "', which captures 'this'");
      if (!C.capturesVariable())
        continue;
      const auto *CV = dyn_cast<VarDecl>(C.getCapturedVar());
      if (C.getCaptureKind() != LCK_ByRef || !CV || CV->isInitCapture())
        return fail("the loop calls lambda '" + V->getNameAsString() + "', which captures '" +
                    C.getCapturedVar()->getNameAsString() +
                    "' by copy where it is defined, before the loop");
      if (Locals.count(CV) || IVs.count(CV))
        return fail("the loop calls lambda '" + V->getNameAsString() + "', which captures '" +
                    CV->getNameAsString() + "', private to each iteration");
    }
    Locals.insert(V);
    Lambdas.push_back(V);
    TraverseStmt(const_cast<LambdaExpr *>(LE));
    return ok();
  }

  bool VisitCXXConstructExpr(CXXConstructExpr *C) {
    if (const auto *RD = C->getType()->getAsCXXRecordDecl(); RD && RD->isInStdNamespace())
      return fail("the loop constructs '" + C->getType().getAsString() + "'");
    if (const CXXConstructorDecl *Ctor = C->getConstructor(); Ctor && Ctor->isUserProvided())
      return noteMethod(Ctor);
    return ok();
  }

  /// A member function (or constructor) the kernel calls: device code within its record's
  /// definition, which the kernel carries. Its body is walked as a callee's, with its object's
  /// members allowed. The record's types must already be known: an inline body that needs a
  /// type declared after its record would not compile.
  bool noteMethod(const CXXMethodDecl *MD) {
    const FunctionDecl *Def = nullptr;
    if (!MD->hasBody(Def) || !Def)
      return fail("the loop calls '" + MD->getQualifiedNameAsString() +
                  "', whose definition is not visible in this translation unit");
    const auto *M = cast<CXXMethodDecl>(Def);
    const CXXRecordDecl *RD = M->getParent();
    if (RD->isLambda())
      return ok();
    if (RD->isPolymorphic())
      return fail("the loop calls '" + M->getQualifiedNameAsString() +
                  "' of a polymorphic type, whose objects a kernel cannot use");
    if (M->getTemplatedKind() != FunctionDecl::TK_NonTemplate || RD->isDependentContext() ||
        isa<ClassTemplateSpecializationDecl>(RD))
      return fail("the loop calls '" + M->getQualifiedNameAsString() + "' of a template");
    if (SM.isInSystemHeader(M->getLocation()) || RD->isInStdNamespace())
      return fail("the loop calls '" + M->getQualifiedNameAsString() +
                  "', which has no device version");
    noteType(Ctx.getRecordType(RD));
    if (!ok() || std::find(Methods.begin(), Methods.end(), M) != Methods.end())
      return ok();
    Methods.push_back(M);
    size_t TypesBefore = Types.size();
    bool SavedCallee = InCallee, SavedMethod = InMethod;
    std::string SavedName = CalleeName;
    InCallee = InMethod = true;
    CalleeName = M->getQualifiedNameAsString();
    const FunctionDecl *SavedFn = CurFn;
    CurFn = nullptr;
    std::vector<const LambdaExpr *> SavedLambdas;
    SavedLambdas.swap(LambdaStack);
    for (const ParmVarDecl *P : M->parameters()) {
      Locals.insert(P);
      noteType(P->getType());
    }
    noteType(M->getReturnType());
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(M))
      for (const CXXCtorInitializer *I : Ctor->inits())
        if (I->isWritten())
          TraverseStmt(I->getInit());
    TraverseStmt(M->getBody());
    InCallee = SavedCallee;
    InMethod = SavedMethod;
    CalleeName = SavedName;
    CurFn = SavedFn;
    LambdaStack.swap(SavedLambdas);
    if (ok() && !M->isOutOfLine() && Types.size() != TypesBefore && !moveAfterUses(RD))
      return fail("'" + M->getQualifiedNameAsString() + "' uses type '" +
                  typeName(Types.back()) + "', which the kernel would declare after it");
    return ok();
  }

  /// A method defined in its class needs the types it uses complete where the class's text
  /// is: RD moves to the end of Types, after them, when nothing after it holds an RD by value
  /// (which needs RD complete first). False where it cannot move.
  bool moveAfterUses(const CXXRecordDecl *RD) {
    const Decl *Def = RD->getDefinition();
    auto It = std::find(Types.begin(), Types.end(), Def);
    if (It == Types.end())
      return false; // declared within its typedef's text
    QualType Self = Ctx.getCanonicalType(Ctx.getRecordType(RD));
    for (auto J = std::next(It); J != Types.end(); ++J)
      if (const auto *Rec = dyn_cast<RecordDecl>(*J))
        for (const FieldDecl *F : Rec->fields()) {
          QualType T = F->getType();
          while (const ArrayType *AT = Ctx.getAsArrayType(T))
            T = AT->getElementType();
          if (Ctx.getCanonicalType(T).getUnqualifiedType() == Self)
            return false;
        }
    Types.erase(It);
    Types.push_back(Def);
    return true;
  }

  /// Every carried function that uses a global, or calls one that does, takes those globals
  /// as parameters after its own, and every call passes them: the kernel its parameters, a
  /// function its own. Where that cannot be written, the loop has no GPU form.
  bool addHiddenParameters() {
    if (DirectGlobals.empty())
      return ok();
    std::map<const FunctionDecl *, std::vector<std::string>> Needs = DirectGlobals;
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (const CallSite &C : Calls) {
        auto Theirs = Needs.find(C.Callee);
        if (!C.Caller || Theirs == Needs.end() || C.Caller == C.Callee)
          continue;
        std::vector<std::string> &Mine = Needs[C.Caller]; // no iterator is invalidated
        for (const std::string &G : Theirs->second)
          if (std::find(Mine.begin(), Mine.end(), G) == Mine.end()) {
            Mine.push_back(G);
            Changed = true;
          }
      }
    }
    // The names the body declares: its locals shadow the kernel's parameters at a call.
    std::set<std::string> BodyNames = loopDeclaredNames();
    // In the order the walk met the functions, so that the note does not depend on where
    // their declarations lie in memory.
    for (const FunctionDecl *F : Functions) {
      auto NeedsOfF = Needs.find(F);
      if (NeedsOfF == Needs.end())
        continue;
      const std::vector<std::string> &Globals = NeedsOfF->second;
      std::string FName = F->getNameAsString();
      std::string Uses = "'" + FName + "' uses '" + Globals.front() + "'";
      if (F->isVariadic() || !F->hasWrittenPrototype())
        return fail(Uses + ", and its parameters cannot be extended to pass it");
      if (F->getPrimaryTemplate())
        return fail(Uses + ", and it is a function template, whose parameters are not extended");
      // A parameter added after one with a default argument would need a default of its own.
      for (const ParmVarDecl *P : F->parameters())
        if (P->hasDefaultArg())
          return fail(Uses + ", and it has a default argument, after which no parameter can be "
                             "added");
      std::set<std::string> Own;
      for (const ParmVarDecl *P : F->parameters())
        Own.insert(P->getNameAsString());
      for (const VarDecl *V : Locals)
        if (isAncestorFunction(V, F))
          Own.insert(V->getNameAsString());
      for (const std::string &G : Globals)
        if (Own.count(G))
          return fail("'" + FName + "' uses '" + G + "' and also declares its own '" + G + "'");
      FunctionTypeLoc FTL = F->getFunctionTypeLoc();
      if (!FTL || FTL.getLParenLoc().isMacroID() || FTL.getRParenLoc().isMacroID())
        return fail(Uses + ", and its parameters are written so that they cannot be extended");
      std::string Decls, Args;
      for (const std::string &G : Globals) {
        Decls += (Decls.empty() ? "" : ", ") + HiddenDecls[G];
        Args += (Args.empty() ? "" : ", ") + G;
      }
      if (F->getNumParams() == 0)
        RW.ReplaceText(
            CharSourceRange::getCharRange(FTL.getLParenLoc().getLocWithOffset(1),
                                          FTL.getRParenLoc()),
            Decls);
      else
        RW.InsertTextBefore(FTL.getRParenLoc(), ", " + Decls);
      HasHidden.insert(F);
      for (const FunctionDecl *Named : NamedFunctions)
        if (Named->getCanonicalDecl() == F->getCanonicalDecl())
          return fail(Uses + ", and the code names '" + FName + "' other than in a call");
      for (const CallSite &C : Calls) {
        if (C.Callee != F)
          continue;
        if (C.FromMethod)
          return fail(Uses + ", and a member function calls it, which cannot pass it");
        if (C.InBareLambda)
          return fail(Uses + ", and a lambda that captures nothing calls it");
        if (C.Call->getRParenLoc().isMacroID())
          return fail(Uses + ", and a call of it is written inside a macro");
        if (!C.Caller)
          for (const std::string &G : Globals)
            if (BodyNames.count(G))
              return fail("'" + FName + "' uses '" + G + "', and the loop declares its own '" +
                          G + "'");
        RW.InsertTextBefore(C.Call->getRParenLoc(),
                            (C.Call->getNumArgs() ? ", " : "") + Args);
      }
    }
    return ok();
  }

  /// Whether V is declared within function F (in a lambda or block of its body).
  static bool isAncestorFunction(const VarDecl *V, const FunctionDecl *F) {
    for (const DeclContext *DC = V->getDeclContext(); DC; DC = DC->getParent())
      if (DC == F)
        return true;
    return false;
  }

  /// A call of math function Name, whose errno the kernel can tell from Cond, where math errno
  /// is kept: in the kernel it calls `__clx_merr_NAME_d(__clx_merr, args...)` (`_f` for
  /// float), which takes the function's parameters (so the arguments convert as they do on the
  /// host), calls the device's Name, and notes in the flag the error Cond finds (1: EDOM, 2:
  /// ERANGE). The flag is the kernel's `__clx_merr`, one per thread, which the grid-stride loop
  /// turns into the thread's last error in iteration order, a partial the runtime makes errno
  /// of (docs/runtime.md, errno); a called function takes it as a parameter, as it takes a
  /// global it reads (addHiddenParameters), and a lambda captures it by reference.
  bool mathErrorCall(const CallExpr *CE, const FunctionDecl *FD, const std::string &Name,
                     MathErrorConditions Cond) {
    std::string Why = "the loop calls '" + Name +
                      "', which sets errno on a domain or range error where math errno is kept "
                      "(-fmath-errno, clang's default)";
    if (InCallee && (InMethod || !CurFn))
      return fail(Why + ", and a GPU cannot report it from member function '" + CalleeName +
                  "'; call it elsewhere, or build with -fno-math-errno");
    for (const LambdaExpr *LE : LambdaStack)
      if (LE->getCaptureDefault() != LCD_ByRef)
        return fail(Why + ", and a GPU reports it from a lambda only where the lambda captures "
                          "by reference ('[&]'); or build with -fno-math-errno");
    const auto *DR = dyn_cast<DeclRefExpr>(CE->getCallee()->IgnoreParenImpCasts());
    QualType T = FD->getReturnType().getCanonicalType().getUnqualifiedType();
    bool IsDouble = T->isSpecificBuiltinType(BuiltinType::Double);
    bool Two = Cond.Domain.contains("__clx_y") || Cond.Range.contains("__clx_y");
    bool Typed = DR && (IsDouble || T->isSpecificBuiltinType(BuiltinType::Float)) &&
                 FD->getNumParams() == CE->getNumArgs() && FD->getNumParams() == (Two ? 2u : 1u);
    // The standard library's promoting overloads (`std::pow(double, int)`, `std::log(int)`)
    // convert integer and floating arguments to double and call the double function: so does
    // the double helper, whose parameters convert them.
    bool Promoting = IsDouble && FD->getPrimaryTemplate() && FD->isInStdNamespace();
    for (unsigned I = 0; Typed && I < FD->getNumParams(); ++I) {
      QualType P = FD->getParamDecl(I)->getType().getCanonicalType().getUnqualifiedType();
      Typed = P == T || (Promoting && (P->isIntegerType() ||
                                       P->isSpecificBuiltinType(BuiltinType::Float) ||
                                       P->isSpecificBuiltinType(BuiltinType::Double)));
    }
    if (!Typed)
      return fail(Why + ", and this call's types are not the ones a GPU checks");
    SourceLocation Begin = DR->getQualifierLoc() ? DR->getQualifierLoc().getBeginLoc()
                                                 : DR->getNameInfo().getBeginLoc();
    SourceLocation End = DR->getNameInfo().getEndLoc();
    std::string Type = IsDouble ? "double" : "float";
    std::string Helper = "__clx_merr_" + Name + (IsDouble ? "_d" : "_f");
    std::string InMacro = Why + ", and the call is written in a macro, where the kernel cannot "
                                "check its arguments";
    if (Begin.isMacroID() || End.isMacroID()) {
      // Written in a macro's definition: the carried definition is respelled.
      if (!respellInMacro(DR, Helper))
        return fail(InMacro);
    } else {
      std::optional<Token> LParen = Lexer::findNextToken(End, SM, Ctx.getLangOpts());
      if (!LParen || !LParen->is(tok::l_paren) || LParen->getLocation().isMacroID())
        return fail(InMacro);
      // Only the name and its parenthesis are rewritten, so that a call in an argument (its
      // own name and parenthesis) is rewritten apart.
      RW.ReplaceText(CharSourceRange::getTokenRange(Begin, LParen->getLocation()),
                     Helper + "(__clx_merr, ");
    }
    if (InCallee)
      noteHidden("__clx_merr", "int &__clx_merr");
    std::string Def = "__device__ inline " + Type + " " + Helper + "(int &__clx_f, " + Type +
                      " __clx_x" + (Two ? ", " + Type + " __clx_y" : "") + ") { " + Type +
                      " __clx_r = " + Name + "(__clx_x" + (Two ? ", __clx_y" : "") + ");";
    if (!Cond.Domain.empty())
      Def += " if (" + Cond.Domain.str() + ") __clx_f = 1;";
    if (!Cond.Range.empty())
      Def += std::string(Cond.Domain.empty() ? "" : " else") + " if (" + Cond.Range.str() +
             ") __clx_f = 2;";
    Def += " return __clx_r; }";
    if (std::find(MathErrorHelpers.begin(), MathErrorHelpers.end(), Def) ==
        MathErrorHelpers.end())
      MathErrorHelpers.push_back(Def);
    return ok();
  }

  /// `#define NAME body` of each carried macro (`#undef NAME` first for a predefined one), its
  /// math calls respelled (respellInMacro), then its constant builtins
  /// (respellConstantBuiltins).
  std::vector<std::string> macroLines() {
    // A respelled call's name must name that function at every use of its macro the kernel
    // makes (not a function of the user's of the same name elsewhere).
    for (const auto &[Where, Callee] : RespelledCallees)
      for (const Decl *Other : MacroCallees[Where])
        if (Other != Callee)
          fail("a macro's definition calls '" + cast<NamedDecl>(Callee)->getNameAsString() +
               "', which names two functions where the kernel expands it");
    std::vector<std::string> Lines;
    for (const CarriedMacro &M : Macros) {
      std::string Text = M.Text;
      auto [File, Begin] = M.At;
      auto Lo = MacroRespells.lower_bound({File, Begin});
      auto Hi = MacroRespells.lower_bound({File, Begin + unsigned(Text.size())});
      for (auto It = std::make_reverse_iterator(Hi); It != std::make_reverse_iterator(Lo); ++It)
        Text.replace(It->first.second - Begin, It->second.first, It->second.second);
      Lines.push_back((M.Predefined ? "#undef " + M.Name + "\n" : std::string()) + "#define " +
                      respellConstantBuiltins(Text));
    }
    return Lines;
  }

  /// A math call whose name and parenthesis (and qualifier, if any) are written in a macro's
  /// definition (PolyBench's `#define sqrt_of_array_cell(x,j) sqrt(x[j])`): the carried
  /// definition calls Helper instead (macroLines), as each of the macro's uses the kernel makes
  /// must; false where the name comes from a macro's argument, is not followed by its
  /// parenthesis in the definition, or another use of the macro needs another helper. Where
  /// another use calls another function by that name, macroLines fails the loop.
  bool respellInMacro(const DeclRefExpr *DR, const std::string &Helper) {
    SourceLocation Name = DR->getNameInfo().getBeginLoc();
    SourceLocation First = DR->getQualifierLoc() ? DR->getQualifierLoc().getBeginLoc() : Name;
    if (!Name.isMacroID() || !First.isMacroID() || SM.isMacroArgExpansion(Name) ||
        SM.isMacroArgExpansion(First))
      return false;
    SourceLocation Spelled = SM.getSpellingLoc(Name);
    std::optional<Token> LParen = Lexer::findNextToken(Spelled, SM, Ctx.getLangOpts());
    if (!LParen || !LParen->is(tok::l_paren))
      return false;
    // From the qualifier (`std::sqrt(`), written in the same definition just before the name.
    auto [File, At] = SM.getDecomposedLoc(SM.getSpellingLoc(First));
    auto [NameFile, NameAt] = SM.getDecomposedLoc(Spelled);
    auto [ParenFile, Paren] = SM.getDecomposedLoc(LParen->getLocation());
    if (NameFile != File || ParenFile != File || NameAt < At || Paren < NameAt ||
        NameAt - At > 64)
      return false;
    auto [It, New] = MacroRespells.try_emplace({File, At}, Paren + 1 - At, Helper + "(__clx_merr, ");
    if (!New && It->second.second != Helper + "(__clx_merr, ")
      return false;
    RespelledCallees[{NameFile, NameAt}] = DR->getDecl()->getCanonicalDecl();
    return true;
  }

  /// The kernel's own function for constant builtin Name (constantBuiltinDevice), defined
  /// once: its name, `__clx_` and the builtin's after `__builtin_`.
  std::string noteConstantBuiltin(StringRef Name) {
    std::string Own = ("__clx_" + Name.drop_front(strlen("__builtin_"))).str();
    bool Float = Name.ends_with("f");
    std::string Def = std::string("__device__ inline ") + (Float ? "float " : "double ") + Own +
                      (Name.starts_with("__builtin_nan") ? "(const char *)" : "()") +
                      " { return " + constantBuiltinDevice(Name).str() + "; }";
    if (std::find(ConstantHelpers.begin(), ConstantHelpers.end(), Def) == ConstantHelpers.end())
      ConstantHelpers.push_back(Def);
    return Own;
  }

  /// Text with each constant builtin it names (an identifier) respelled as the kernel's own
  /// function (noteConstantBuiltin).
  std::string respellConstantBuiltins(std::string Text) {
    auto IsIdent = [](char C) { return isalnum(static_cast<unsigned char>(C)) || C == '_'; };
    for (size_t Pos = Text.find("__builtin_"); Pos != std::string::npos;
         Pos = Text.find("__builtin_", Pos + 1)) {
      if (Pos > 0 && IsIdent(Text[Pos - 1]))
        continue;
      size_t End = Pos;
      while (End < Text.size() && IsIdent(Text[End]))
        ++End;
      StringRef Name = StringRef(Text).slice(Pos, End);
      if (constantBuiltinDevice(Name).empty())
        continue;
      std::string Own = noteConstantBuiltin(Name);
      Text.replace(Pos, End - Pos, Own);
    }
    return Text;
  }

  /// The name function Def is carried under: empty for one at file scope, a name of its own
  /// for one in a namespace (the namespaces' lengths and names, then its own: `a::b::f` ->
  /// `__clx_N1a1b_f`, an anonymous namespace as `0`). False where Def is declared elsewhere.
  static bool flatName(const FunctionDecl *Def, std::string &Flat) {
    std::vector<std::string> Spaces;
    for (const DeclContext *DC = Def->getDeclContext(); !DC->isTranslationUnit();
         DC = DC->getParent()) {
      if (isa<LinkageSpecDecl>(DC) || isa<ExportDecl>(DC))
        continue;
      const auto *NS = dyn_cast<NamespaceDecl>(DC);
      if (!NS)
        return false;
      Spaces.push_back(NS->isAnonymousNamespace()
                           ? "0"
                           : std::to_string(NS->getName().size()) + NS->getName().str());
    }
    if (Spaces.empty())
      return true;
    Flat = "__clx_N";
    for (auto It = Spaces.rbegin(); It != Spaces.rend(); ++It)
      Flat += *It;
    Flat += "_" + Def->getNameAsString();
    return true;
  }

  /// Spells the callee of CE, a function carried as Flat, by that name: `prk::abs(x)` ->
  /// `__clx_N3prk_abs(x)`, explicit template arguments kept. Each text is walked once (a
  /// template for its one instantiation), so a call is met once; one met again would be left
  /// as it is rather than rewritten twice.
  bool spellCallee(const CallExpr *CE, const std::string &Flat, const FunctionDecl *FD) {
    const auto *DR = dyn_cast<DeclRefExpr>(CE->getCallee()->IgnoreParenImpCasts());
    if (!DR)
      return fail("the loop calls '" + FD->getQualifiedNameAsString() +
                  "' of a namespace other than by its name");
    SourceLocation Begin = DR->getQualifierLoc() ? DR->getQualifierLoc().getBeginLoc()
                                                 : DR->getNameInfo().getBeginLoc();
    if (!respellName(Begin, DR->getNameInfo().getEndLoc(), Flat))
      return fail("the loop calls '" + FD->getQualifiedNameAsString() +
                  "' of a namespace inside a macro, where its name cannot be spelled");
    return true;
  }

  /// Names the definition of Def (its template's, for an instantiation; both the
  /// specialization's and its template's, for an explicit specialization) Flat, dropping a
  /// qualifier its declarator has (`double prk::f(double x) { ... }`). A declarator named
  /// already (a template's, for two of its specializations) is left as it is.
  bool spellDefinition(const FunctionDecl *Def, const std::string &Flat) {
    const FunctionDecl *Written = Def->getTemplateInstantiationPattern();
    if (!Written)
      Written = Def;
    std::vector<const FunctionDecl *> Named = {Written};
    if (isExplicitSpecialization(Def))
      Named.push_back(Def->getPrimaryTemplate()->getTemplatedDecl());
    for (const FunctionDecl *W : Named) {
      SourceLocation Begin =
          W->getQualifierLoc() ? W->getQualifierLoc().getBeginLoc() : W->getLocation();
      SourceLocation End = W->getLocation();
      if (Begin.isMacroID() || End.isMacroID() || !W->getDeclName().isIdentifier())
        return fail("'" + Def->getQualifiedNameAsString() +
                    "' is declared so that the kernel cannot give it a name of its own");
      if (Spelled.insert(Begin.getRawEncoding()).second)
        RW.ReplaceText(CharSourceRange::getTokenRange(Begin, End), Flat);
    }
    Renamed.insert(Def);
    return true;
  }

  /// Removes the default arguments of F's parameters from the text (`double y = 1.0` ->
  /// `double y`): the kernel's declaration of F gives them, and its definition may not again.
  void dropDefaults(const FunctionDecl *F) {
    for (const ParmVarDecl *P : F->parameters())
      if (P->hasDefaultArg() && !P->hasInheritedDefaultArg())
        dropDefault(P->getIdentifier() ? P->getLocation()
                                       : P->getTypeSourceInfo()->getTypeLoc().getEndLoc(),
                    P->getDefaultArgRange().getEnd(), F);
  }

  /// The same for the default arguments of TD's template parameters.
  void dropTemplateDefaults(const FunctionTemplateDecl *TD) {
    for (const NamedDecl *P : *TD->getTemplateParameters()) {
      SourceLocation End;
      if (const auto *T = dyn_cast<TemplateTypeParmDecl>(P); T && T->hasDefaultArgument())
        End = T->getDefaultArgument().getSourceRange().getEnd();
      else if (const auto *N = dyn_cast<NonTypeTemplateParmDecl>(P); N && N->hasDefaultArgument())
        End = N->getDefaultArgument().getSourceRange().getEnd();
      else if (const auto *TT = dyn_cast<TemplateTemplateParmDecl>(P);
               TT && TT->hasDefaultArgument())
        End = TT->getDefaultArgument().getSourceRange().getEnd();
      else
        continue;
      if (!P->getIdentifier()) {
        fail("function template '" + TD->getQualifiedNameAsString() +
             "' has a default argument for a parameter without a name, which the kernel "
             "cannot declare twice");
        continue;
      }
      dropDefault(P->getLocation(), End, TD->getTemplatedDecl());
    }
  }

  /// Removes the text after the token at Last (a parameter's name) up to and including the
  /// token at End (its default argument's last).
  void dropDefault(SourceLocation Last, SourceLocation End, const FunctionDecl *F) {
    if (Last.isInvalid() || End.isInvalid() || Last.isMacroID() || End.isMacroID()) {
      fail("a default argument of '" + F->getQualifiedNameAsString() +
           "' is written so that the kernel cannot declare it once");
      return;
    }
    RW.RemoveText(CharSourceRange::getCharRange(
        Lexer::getLocForEndOfToken(Last, 0, SM, Ctx.getLangOpts()),
        Lexer::getLocForEndOfToken(End, 0, SM, Ctx.getLangOpts())));
  }

  /// Whether FD is an explicit specialization of a function template
  /// (`template <> double abs<double>(double x)`).
  static bool isExplicitSpecialization(const FunctionDecl *FD) {
    return FD->getTemplatedKind() == FunctionDecl::TK_FunctionTemplateSpecialization &&
           FD->getTemplateSpecializationKind() == TSK_ExplicitSpecialization &&
           FD->getPrimaryTemplate();
  }

  static std::string typeName(const Decl *D) {
    if (const auto *ND = dyn_cast<NamedDecl>(D))
      return ND->getNameAsString();
    return "?";
  }

  bool VisitCallExpr(CallExpr *CE) {
    if (isa<CXXMemberCallExpr>(CE) || isa<CXXOperatorCallExpr>(CE))
      return true;
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD)
      return fail("the loop calls through a pointer");
    std::string Name = FD->getIdentifier() ? FD->getName().str() : FD->getNameAsString();
    if (const auto *DR = dyn_cast<DeclRefExpr>(CE->getCallee()->IgnoreParenImpCasts())) {
      SourceLocation At = DR->getNameInfo().getBeginLoc();
      if (At.isMacroID() && !SM.isMacroArgExpansion(At))
        MacroCallees[SM.getDecomposedLoc(SM.getSpellingLoc(At))].insert(FD->getCanonicalDecl());
    }
    if (std::optional<std::string> Value = standardConstant(CE, FD)) {
      if (CE->getBeginLoc().isMacroID() || CE->getEndLoc().isMacroID())
        return fail("the loop calls '" + FD->getQualifiedNameAsString() +
                    "' inside a macro, where the kernel cannot write its value");
      if (const auto *DR = dyn_cast<DeclRefExpr>(CE->getCallee()->IgnoreParenImpCasts()))
        CalleeRefs.insert(DR);
      RW.ReplaceText(CharSourceRange::getTokenRange(CE->getSourceRange()), *Value);
      return ok();
    }
    const FunctionDecl *Def = nullptr;
    bool HasBody = FD->hasBody(Def) && Def;
    if (isDeviceMathFunction(Name) && (FD->isInStdNamespace() || !HasBody || FD->getBuiltinID())) {
      // Design rule 8: after the loop errno is what the serial loop left; a GPU's math never
      // sets it.
      if (Ctx.getLangOpts().MathErrno && mathFunctionSetsErrno(Name)) {
        // A function whose errno the kernel can tell from its arguments (and result) reports
        // it from the kernel (mathErrorCall); the others cannot.
        MathErrorConditions Cond = mathErrorConditions(Name);
        if (!Cond.known())
          return fail("the loop calls '" + Name +
                      "', which sets errno on a domain or range error where math errno is kept "
                      "(-fmath-errno, clang's default), and a GPU's '" + Name +
                      "' does not; build with -fno-math-errno to run it on GPUs");
        return mathErrorCall(CE, FD, Name, Cond);
      }
      // std::sqrt(x) -> sqrt(x): CUDA's math library has the unqualified names.
      const Expr *Callee = CE->getCallee()->IgnoreParenImpCasts();
      if (const auto *DR = dyn_cast<DeclRefExpr>(Callee))
        if (DR->getQualifierLoc()) {
          if (DR->getQualifierLoc().getBeginLoc().isMacroID())
            StdMath.insert(Name); // in a macro's definition: std:: names it in the kernel
          else
            RW.RemoveText(CharSourceRange::getCharRange(
                DR->getQualifierLoc().getBeginLoc(), DR->getNameInfo().getBeginLoc()));
        }
      return ok();
    }
    // A builtin that stands for a constant (behind INFINITY, HUGE_VAL, NAN) is a function of
    // the kernel's own, which the device compiler lacks: `__builtin_inff()` -> `__clx_inff()`,
    // in the loop's text here and in a carried macro's definition (noteMacro).
    if (FD->getBuiltinID() && !constantBuiltinDevice(Name).empty()) {
      if (StringRef(Name).starts_with("__builtin_nan")) {
        const auto *SL = CE->getNumArgs() == 1
                             ? dyn_cast<StringLiteral>(CE->getArg(0)->IgnoreParenImpCasts())
                             : nullptr;
        if (!SL || !SL->getBytes().empty())
          return fail("the loop calls '" + Name +
                      "' with a payload other than \"\", which the kernel does not carry");
      }
      std::string Own = noteConstantBuiltin(Name);
      const auto *DR = dyn_cast<DeclRefExpr>(CE->getCallee()->IgnoreParenImpCasts());
      if (DR && !DR->getNameInfo().getBeginLoc().isMacroID())
        RW.ReplaceText(DR->getNameInfo().getSourceRange(), Own);
      return ok();
    }
    // A compiler builtin of a math function that never sets errno is the device library's
    // function of the same name: `__builtin_fabs(x)` -> `fabs(x)`.
    if (StringRef Library = StringRef(Name); FD->getBuiltinID() &&
        Library.consume_front("__builtin_") && isDeviceMathFunction(Library) &&
        !mathFunctionSetsErrno(Library)) {
      const auto *DR = dyn_cast<DeclRefExpr>(CE->getCallee()->IgnoreParenImpCasts());
      if (!DR || DR->getNameInfo().getBeginLoc().isMacroID())
        return fail("the loop calls '" + Name + "' inside a macro, where it cannot be renamed");
      RW.ReplaceText(DR->getNameInfo().getSourceRange(), Library);
      return ok();
    }
    if (!HasBody || FD->isInStdNamespace())
      return fail("the loop calls '" + FD->getQualifiedNameAsString() +
                  "', which has no device version");
    if (const auto *MD = dyn_cast<CXXMethodDecl>(Def))
      return noteMethod(MD); // a static member function
    if (SM.isInSystemHeader(Def->getLocation()))
      return fail("the loop calls '" + Name + "' from a system header");
    if (Def->getFriendObjectKind() != Decl::FOK_None)
      return fail("the loop calls '" + FD->getQualifiedNameAsString() +
                  "', a friend function defined in its class");
    std::string Flat;
    if (!flatName(Def, Flat))
      return fail("the loop calls '" + FD->getQualifiedNameAsString() +
                  "', which is declared neither at file scope nor in a namespace");
    if (isExplicitSpecialization(Def)) {
      // Carried as written (`template <> double abs(double x) { ... }`), after a declaration
      // of its template: the device compiler picks it as the host's did.
      if (Def->getPrimaryTemplate()->getInstantiatedFromMemberTemplate() ||
          Def->getNumTemplateParameterLists() != 1)
        return fail("the loop calls '" + FD->getQualifiedNameAsString() +
                    "', an explicit specialization the kernel cannot declare");
    } else if (Def->isTemplateInstantiation() ||
               Def->getTemplatedKind() != FunctionDecl::TK_NonTemplate) {
      const FunctionTemplateDecl *TD = Def->getPrimaryTemplate();
      if (Def->getTemplatedKind() != FunctionDecl::TK_FunctionTemplateSpecialization || !TD ||
          !Def->isTemplateInstantiation() || TD->getInstantiatedFromMemberTemplate() ||
          !Def->getTemplateInstantiationPattern() ||
          Def->getTemplateInstantiationPattern() != TD->getTemplatedDecl())
        return fail("the loop calls '" + FD->getQualifiedNameAsString() +
                    "', a specialization of a function template that the kernel cannot carry");
      // The kernel carries the template itself, which the device compiler instantiates
      // again: the walk checks one instantiation, so only one may be called.
      auto [It, New] = TemplateUses.insert({TD, Def});
      if (!New && It->second != Def)
        return fail("the loop calls function template '" + FD->getQualifiedNameAsString() +
                    "' with two different sets of template arguments");
    }
    // A function of a namespace is carried at file scope under a name of its own
    // (`prk::abs` -> `__clx_N3prk_abs`), and every call of it is spelled so: the kernel names
    // no namespace, and a name the device's library also has (`abs`) cannot catch the call.
    if (!Flat.empty() && !spellCallee(CE, Flat, FD))
      return false;
    bool Bare = std::any_of(LambdaStack.begin(), LambdaStack.end(), [](const LambdaExpr *LE) {
      return LE->getCaptureDefault() == LCD_None;
    });
    Calls.push_back({CurFn, InMethod, Bare, CE, Def});
    if (const auto *DR = dyn_cast<DeclRefExpr>(CE->getCallee()->IgnoreParenImpCasts()))
      CalleeRefs.insert(DR);
    if (std::find(Functions.begin(), Functions.end(), Def) != Functions.end())
      return ok();
    Functions.push_back(Def);
    if (!Flat.empty() && !spellDefinition(Def, Flat))
      return false;
    {
      const FunctionDecl *Written = Def->getTemplateInstantiationPattern();
      if (respellSignature(Written ? Written : Def))
        SignatureRespelled.insert(Def);
      if (!ok())
        return false;
    }
    bool Saved = InCallee, SavedMethod = InMethod;
    std::string SavedName = CalleeName;
    const FunctionDecl *SavedFn = CurFn;
    std::vector<const LambdaExpr *> SavedLambdas;
    SavedLambdas.swap(LambdaStack);
    InCallee = true;
    InMethod = false;
    CalleeName = Name;
    CurFn = Def;
    for (const ParmVarDecl *P : Def->parameters()) {
      Locals.insert(P);
      noteType(P->getType());
    }
    noteType(Def->getReturnType());
    TraverseStmt(Def->getBody());
    InCallee = Saved;
    InMethod = SavedMethod;
    CalleeName = SavedName;
    CurFn = SavedFn;
    LambdaStack.swap(SavedLambdas);
    return ok();
  }

  /// A record or enum type the kernel needs, with the types its fields need, and the typedef
  /// names the code spells it with (a record without a name of its own is emitted as its
  /// typedef: `typedef struct { ... } P;`).
  void noteType(QualType T) {
    T = T.getNonReferenceType();
    while (true) {
      noteTypedef(T);
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
    if (const auto *RD = dyn_cast<CXXRecordDecl>(TD); RD && RD->isLambda())
      return; // the lambda's own expression, which the kernel carries, defines it
    TD = TD->getDefinition();
    if (!TD || std::find(Types.begin(), Types.end(), TD) != Types.end())
      return;
    if (TD->isInStdNamespace() || SM.isInSystemHeader(TD->getLocation())) {
      fail("the loop uses type '" + typeText(T) + "' from a system header");
      return;
    }
    // A record without a name inside another (`union { Node *node; int x; };`, `struct {
    // ... } pos;`) is declared by its parent's text: the kernel carries the parent, after the
    // types the record's fields need.
    if (const auto *RD = dyn_cast<RecordDecl>(TD);
        RD && !RD->getIdentifier() && !RD->getTypedefNameForAnonDecl() &&
        isa<RecordDecl>(RD->getDeclContext())) {
      if (!InParentText.insert(RD).second)
        return;
      for (const FieldDecl *F : RD->fields()) {
        noteType(F->getType());
        noteFieldEnums(F);
      }
      noteType(Ctx.getRecordType(cast<RecordDecl>(RD->getDeclContext())));
      return;
    }
    // A class's member type is declared in the kernel apart from its class (memberScope).
    const bool Member = isMemberType(TD);
    const TypedefNameDecl *Named = Member                ? nullptr
                                   : TD->getIdentifier() ? ownerTypedef(TD)
                                                         : TD->getTypedefNameForAnonDecl();
    // A namespace's type is declared in the kernel inside its namespace, and spelled with its
    // whole qualifier wherever the kernel names it (respellType).
    if ((!Member && !atNamespaceScope(T, TD)) ||
        (!TD->getIdentifier() && !Named && !isa<EnumDecl>(TD))) { // `enum { K = 8 };` is fine
      if (ok())
        fail("the loop uses type '" + typeText(T) + "', " + notCarried(TD));
      return;
    }
    if (Member)
      MemberTypes.insert(TD);
    if (const auto *RD = dyn_cast<CXXRecordDecl>(TD); RD && RD->hasUserDeclaredDestructor() &&
                                                      RD->getDestructor() &&
                                                      RD->getDestructor()->isUserProvided()) {
      fail("the loop uses type '" + typeText(T) +
           "', whose destructor the kernel would not run");
      return;
    }
    // A class template's instance: the kernel declares the template once, which the device
    // compiler instantiates again from the same arguments.
    if (const auto *CTS = dyn_cast<ClassTemplateSpecializationDecl>(TD)) {
      const ClassTemplateDecl *CT = CTS->getSpecializedTemplate();
      bool Plain = CTS->getSpecializationKind() == TSK_ImplicitInstantiation &&
                   CTS->getSpecializedTemplateOrPartial().is<ClassTemplateDecl *>() &&
                   !CT->getTemplatedDecl()->isLocalClass();
      for (const NamedDecl *P : *CT->getTemplateParameters())
        if (const auto *TP = dyn_cast<TemplateTypeParmDecl>(P))
          Plain &= !TP->hasDefaultArgument();
        else if (const auto *NP = dyn_cast<NonTypeTemplateParmDecl>(P))
          Plain &= !NP->hasDefaultArgument();
        else
          Plain = false; // a template template parameter
      if (!Plain) {
        fail("the loop uses type '" + typeText(T) +
             "', an instance of a class template that is specialized or has default "
             "arguments, which the kernel cannot declare");
        return;
      }
      for (const Decl *Other : Types)
        if (const auto *O = dyn_cast<ClassTemplateSpecializationDecl>(Other);
            O && O->getSpecializedTemplate() == CT) {
          // Another instance: the template is declared already (the kernel's text skips this
          // entry, so its place does not matter); its fields' types still count.
          SecondInstances.insert(TD);
          Types.push_back(TD);
          for (const FieldDecl *F : CTS->fields())
            noteType(F->getType());
          return;
        }
    }
    Types.push_back(TD); // before its fields' types: a field of its own type is a pointer
    if (const auto *RD = dyn_cast<RecordDecl>(TD))
      for (const FieldDecl *F : RD->fields()) {
        noteType(F->getType());
        noteFieldEnums(F);
      }
    // Dependencies first: move it after what its fields needed.
    Types.erase(std::find(Types.begin(), Types.end(), TD));
    if (Named) {
      if (std::find(Types.begin(), Types.end(), Named) == Types.end())
        Types.push_back(Named); // its text holds the record
      AnonRecords.insert(TD);
      return;
    }
    Types.push_back(TD);
  }

  /// The enums whose enumerators a field's declaration names (an array bound, a default
  /// initializer): the kernel declares them before the record.
  void noteFieldEnums(const FieldDecl *F) {
    struct Finder : RecursiveASTVisitor<Finder> {
      std::vector<const EnumDecl *> Found;
      bool VisitDeclRefExpr(DeclRefExpr *DR) {
        if (const auto *EC = dyn_cast<EnumConstantDecl>(DR->getDecl()))
          Found.push_back(cast<EnumDecl>(EC->getDeclContext()));
        return true;
      }
    } Fi;
    if (const TypeSourceInfo *TSI = F->getTypeSourceInfo())
      Fi.TraverseTypeLoc(TSI->getTypeLoc());
    if (const Expr *Init = F->getInClassInitializer())
      Fi.TraverseStmt(const_cast<Expr *>(Init));
    for (const EnumDecl *ED : Fi.Found)
      noteType(Ctx.getTypeDeclType(ED));
  }

  /// Whether the kernel can declare D, a type T uses: at file scope, or in named namespaces.
  /// One in an unnamed namespace fails here, with its own reason.
  bool atNamespaceScope(QualType T, const Decl *D) {
    std::vector<const NamespaceDecl *> Path;
    bool Shadowed = false;
    if (namespacePath(D, Path, &Shadowed))
      return true;
    if (Shadowed)
      fail("the loop uses type '" + typeText(T) +
           "' of an unnamed namespace, and another declaration has its name outside it, "
           "which the kernel's qualified name would find instead");
    return false;
  }

  /// The classes that enclose D, outermost first, when D is a class's member type that the
  /// kernel declares apart from them: every class named, neither a template nor an instance of
  /// one, the outermost at namespace scope; D named (or an enum), not a template either.
  bool memberPath(const Decl *D, std::vector<const CXXRecordDecl *> &Classes) const {
    Classes.clear();
    const auto *ND = dyn_cast<NamedDecl>(D);
    if (!ND || (!ND->getIdentifier() && !isa<EnumDecl>(D)))
      return false;
    if (const auto *RD = dyn_cast<CXXRecordDecl>(D))
      if (RD->getDescribedClassTemplate() || isa<ClassTemplateSpecializationDecl>(RD) ||
          RD->isLambda())
        return false;
    if (isa<TypeAliasTemplateDecl>(D) || D->isTemplated())
      return false;
    const DeclContext *DC = D->getDeclContext();
    while (const auto *RD = dyn_cast<CXXRecordDecl>(DC)) {
      if (!RD->getIdentifier() || RD->isLambda() || RD->getDescribedClassTemplate() ||
          isa<ClassTemplateSpecializationDecl>(RD) || RD->isDependentContext())
        return false;
      Classes.insert(Classes.begin(), RD);
      DC = RD->getDeclContext();
    }
    std::vector<const NamespaceDecl *> Path;
    return !Classes.empty() && namespacePath(Classes.front(), Path);
  }
  /// Why the kernel cannot declare type D, which is neither at namespace scope nor a member
  /// type it carries.
  static std::string notCarried(const Decl *D) {
    for (const DeclContext *DC = D->getDeclContext(); !DC->isFileContext(); DC = DC->getParent())
      if (const auto *RD = dyn_cast<CXXRecordDecl>(DC)) {
        if (const auto *CTS = dyn_cast<ClassTemplateSpecializationDecl>(RD))
          return "a member of an instance of class template '" +
                 CTS->getSpecializedTemplate()->getNameAsString() +
                 "', which the kernel cannot declare";
        if (RD->getDescribedClassTemplate())
          return "a member of class template '" + RD->getNameAsString() +
                 "', which the kernel cannot declare";
      } else if (isa<FunctionDecl>(DC)) {
        break;
      }
    return "which is not declared at file scope";
  }

  bool isMemberType(const Decl *D) const {
    std::vector<const CXXRecordDecl *> Classes;
    return memberPath(D, Classes);
  }

  /// The struct that declares member type D in the kernel, in the namespaces of its outermost
  /// class: `__clx_m` and each class's name then D's, each after its length (`Mesh::Node` ->
  /// `__clx_m4Mesh4Node`); an unnamed enum by its place among its class's declarations.
  std::string memberScope(const Decl *D) const {
    std::vector<const CXXRecordDecl *> Classes;
    memberPath(D, Classes);
    std::string S = "__clx_m";
    for (const CXXRecordDecl *C : Classes) {
      std::string N = C->getNameAsString();
      S += std::to_string(N.size()) + N;
    }
    const auto *ND = cast<NamedDecl>(D);
    if (ND->getIdentifier()) {
      std::string N = ND->getNameAsString();
      return S + std::to_string(N.size()) + N;
    }
    unsigned Place = 0;
    for (const Decl *M : D->getDeclContext()->decls()) {
      if (M == D)
        break;
      ++Place;
    }
    return S + "_" + std::to_string(Place);
  }

  /// Member type D as the kernel's code names it from anywhere: `::geo::__clx_m4Mesh4Node::Node`
  /// (an unnamed enum: its struct, whose members its enumerators are).
  std::string memberSpelling(const Decl *D) const {
    std::vector<const CXXRecordDecl *> Classes;
    memberPath(D, Classes);
    std::vector<const NamespaceDecl *> Path;
    namespacePath(Classes.front(), Path);
    std::string S = namespaceQualifier(Path) + memberScope(D);
    const auto *ND = cast<NamedDecl>(D);
    return ND->getIdentifier() ? S + "::" + ND->getNameAsString() : S;
  }

  /// An enumerator of a member enum, spelled through the enum's struct (`Free`, `Mesh::Free`
  /// -> `::__clx_m4Mesh4Kind::Kind::Free`).
  bool respellMemberEnumerator(const DeclRefExpr *DR) {
    const auto *EC = cast<EnumConstantDecl>(DR->getDecl());
    const auto *ED = cast<EnumDecl>(EC->getDeclContext());
    SourceLocation Begin =
        DR->getQualifierLoc() ? DR->getQualifierLoc().getBeginLoc() : DR->getLocation();
    if (!respellName(Begin, DR->getLocation(), memberSpelling(ED) + "::" + EC->getNameAsString()))
      return fail("the code names enumerator '" + EC->getQualifiedNameAsString() +
                  "' of a class inside a macro, where the kernel cannot spell it");
    return ok();
  }

  /// Whether the kernel declares record RD itself (in Types), apart or at namespace scope.
  bool carried(const CXXRecordDecl *RD) const {
    const CXXRecordDecl *Def = RD->getDefinition();
    return Def && std::find(Types.begin(), Types.end(), Def) != Types.end();
  }

  /// The C++ record whose text D, an entry of Types, holds: D itself, or the record a typedef
  /// defines (`typedef struct { ... } P;`); null for anything else.
  const CXXRecordDecl *recordIn(const Decl *D) const {
    const RecordDecl *Rec = dyn_cast<RecordDecl>(D);
    if (const auto *TN = dyn_cast<TypedefNameDecl>(D))
      if (const TagDecl *T = TN->getUnderlyingType()->getAsTagDecl())
        if (AnonRecords.count(T) || ownerTypedef(T) == TN)
          Rec = dyn_cast<RecordDecl>(T);
    return dyn_cast_or_null<CXXRecordDecl>(Rec);
  }

  /// The text of D for the kernel. In a carried record's text (and in its nested records'),
  /// the definition of a member type the kernel declares apart becomes a typedef of that one
  /// (`typedef ::__clx_m4Mesh4Node::Node Node`), so that the class's member and the loop's
  /// are one type.
  std::string declText(const Decl *D) {
    if (auto It = SpelledAs.find(D); It != SpelledAs.end())
      return It->second;
    std::vector<std::pair<CharSourceRange, std::string>> Holes;
    if (const CXXRecordDecl *RD = recordIn(D))
      memberHoles(RD, Holes);
    if (Holes.empty())
      return text(D->getSourceRange());
    noteMacrosIn(D->getSourceRange()); // first: it settles the directives the text holds
    CharSourceRange All = SM.getExpansionRange(D->getSourceRange());
    SourceLocation At = All.getBegin();
    SourceLocation End = Lexer::getLocForEndOfToken(All.getEnd(), 0, SM, Ctx.getLangOpts());
    std::string T;
    for (const auto &[Hole, Alias] : Holes) {
      T += RW.getRewrittenText(CharSourceRange::getCharRange(At, Hole.getBegin())) + Alias;
      At = Hole.getEnd();
    }
    T += RW.getRewrittenText(CharSourceRange::getCharRange(At, End));
    return T;
  }

  /// The declarations inside RD (and its nested records) of member types the kernel declares
  /// apart, in source order, each with the typedef that replaces it: the first declaration of
  /// a type becomes its typedef, a later one (a definition after `struct Node;`) nothing.
  void memberHoles(const CXXRecordDecl *RD,
                   std::vector<std::pair<CharSourceRange, std::string>> &Holes) {
    std::set<const Decl *> Aliased;
    std::function<void(const CXXRecordDecl *)> Walk = [&](const CXXRecordDecl *R) {
      for (const Decl *M : R->decls()) {
        const auto *Tag = dyn_cast<TagDecl>(M);
        if (!Tag || M->isImplicit() || !Tag->getIdentifier())
          continue;
        const TagDecl *Def = Tag->getDefinition();
        if (Def && MemberTypes.count(Def)) {
          SourceRange SR = M->getSourceRange();
          if (SR.getBegin().isMacroID() || SR.getEnd().isMacroID() ||
              Tag->isEmbeddedInDeclarator()) {
            fail("member type '" + Tag->getQualifiedNameAsString() +
                 "' is declared where the kernel cannot replace it (in a macro, or with a "
                 "variable)");
            continue;
          }
          SourceLocation E = Lexer::getLocForEndOfToken(SR.getEnd(), 0, SM, Ctx.getLangOpts());
          Holes.push_back({CharSourceRange::getCharRange(SR.getBegin(), E),
                           Aliased.insert(Def).second
                               ? "typedef " + memberSpelling(Def) + " " + Tag->getNameAsString()
                               : ""});
          continue;
        }
        if (const auto *Nested = dyn_cast<CXXRecordDecl>(M);
            Nested && Nested->isThisDeclarationADefinition())
          Walk(Nested);
      }
    };
    Walk(RD);
  }

  /// Text, a declaration of member type D or of something of it, without its final `;`, in
  /// the namespaces of D's outermost class, as inNamespaces does for a namespace's member.
  std::string inMemberNamespaces(const Decl *D, const std::string &Text, bool Semi) const {
    std::vector<const CXXRecordDecl *> Classes;
    memberPath(D, Classes);
    return inNamespaces(Classes.front(), Text, Semi);
  }
  /// Text, member type D's declaration without its final `;`, inside D's struct, in its
  /// namespaces: `struct __clx_m4Mesh4Kind { enum Kind { ... }; }`.
  std::string inMemberScope(const Decl *D, const std::string &Text, bool Semi) const {
    return inMemberNamespaces(D, "struct " + memberScope(D) + " { " + Text + "; }", Semi);
  }

  /// Per outermost class of the member types, a declaration of it that only names them:
  /// `namespace geo { struct Mesh { typedef ::geo::__clx_m4Mesh4Node::Node Node; }; }`.
  std::vector<std::string> memberClassStubs() const {
    struct Node {
      std::map<const CXXRecordDecl *, Node> Inner;
      std::vector<const CXXRecordDecl *> Order;
      std::vector<std::string> Aliases;
    } Root;
    for (const Decl *D : Types) {
      if (!MemberTypes.count(D) || !cast<NamedDecl>(D)->getIdentifier())
        continue;
      std::vector<const CXXRecordDecl *> Classes;
      memberPath(D, Classes);
      // A carried class declares the name itself (declText's typedef).
      if (std::any_of(Classes.begin(), Classes.end(),
                      [&](const CXXRecordDecl *C) { return carried(C); }))
        continue;
      Node *N = &Root;
      for (const CXXRecordDecl *C : Classes) {
        if (!N->Inner.count(C))
          N->Order.push_back(C);
        N = &N->Inner[C];
      }
      std::string Name = cast<NamedDecl>(D)->getNameAsString();
      N->Aliases.push_back("typedef " + memberSpelling(D) + " " + Name + ";");
    }
    std::function<std::string(const CXXRecordDecl *, const Node &)> Text =
        [&](const CXXRecordDecl *C, const Node &N) {
          std::string T = "struct " + C->getNameAsString() + " {";
          for (const std::string &A : N.Aliases)
            T += " " + A;
          for (const CXXRecordDecl *I : N.Order)
            T += " " + Text(I, N.Inner.at(I)) + ";";
          return T + " }";
        };
    std::vector<std::string> Out;
    for (const CXXRecordDecl *C : Root.Order)
      Out.push_back(inNamespaces(C, Text(C, Root.Inner.at(C)), /*Semi=*/false));
    return Out;
  }

  /// A written name of a namespace's type, spelled with its whole qualifier (`Particle` or
  /// `phys::Particle` -> `::phys::Particle`): the kernel's code outside the namespace (the
  /// loop's body, a namespace's function carried at file scope) names it so, whatever
  /// using-directive or enclosing namespace let the source leave the qualifier out.
  bool respellType(ElaboratedTypeLoc TL) {
    TypeLoc Named = TL.getNamedTypeLoc();
    const NamedDecl *D = nullptr;
    SourceLocation NameLoc;
    if (auto RT = Named.getAs<RecordTypeLoc>()) {
      D = RT.getDecl();
      NameLoc = RT.getNameLoc();
    } else if (auto ET = Named.getAs<EnumTypeLoc>()) {
      D = ET.getDecl();
      NameLoc = ET.getNameLoc();
    } else if (auto TT = Named.getAs<TypedefTypeLoc>()) {
      D = TT.getTypedefNameDecl();
      NameLoc = TT.getNameLoc();
    } else if (auto TS = Named.getAs<TemplateSpecializationTypeLoc>()) { // `Box<int>`
      D = TS.getTypePtr()->getTemplateName().getAsTemplateDecl();
      NameLoc = TS.getTemplateNameLoc();
      // The kernel declares no alias template: its name would be undefined there.
      if (const auto *AT = dyn_cast_or_null<TypeAliasTemplateDecl>(D);
          AT && !AT->isInStdNamespace() && !SM.isInSystemHeader(AT->getLocation()))
        return fail("the code names alias template '" + AT->getQualifiedNameAsString() +
                    "', which the kernel does not declare");
      if (!D || !isa<ClassTemplateDecl>(D))
        return true;
    } else if (auto UT = Named.getAs<UsingTypeLoc>()) { // `using geo::Axis;` then `Axis`
      QualType U = UT.getTypePtr()->getUnderlyingType();
      if (const auto *TT = U->getAs<TypedefType>())
        D = TT->getDecl();
      else
        D = U->getAsTagDecl();
      NameLoc = UT.getNameLoc();
      if (!D)
        return true;
    } else {
      return true;
    }
    SourceLocation Begin = TL.getQualifierLoc() ? TL.getQualifierLoc().getBeginLoc() : NameLoc;
    if (D->getIdentifier() && !D->isInStdNamespace() && !SM.isInSystemHeader(D->getLocation()) &&
        isMemberType(D)) {
      // A class's member type, named as its scope declares it (`Node`, `Mesh::Node` ->
      // `::__clx_m4Mesh4Node::Node`); the code that names it needs it.
      if (!OnlyMembers) {
        if (const auto *TN = dyn_cast<TypedefNameDecl>(D))
          noteTypedef(Ctx.getTypedefType(TN));
        else if (const auto *Tag = dyn_cast<TagDecl>(D))
          noteType(Ctx.getTypeDeclType(Tag));
      }
      if (!respellName(Begin, NameLoc, memberSpelling(D)))
        return fail("the code names type '" + D->getQualifiedNameAsString() +
                    "' of a class inside a macro, where the kernel cannot spell it");
      return ok();
    }
    if (OnlyMembers)
      return true;
    std::vector<const NamespaceDecl *> Path;
    if (!D->getIdentifier() || !namespacePath(D, Path) || Path.empty() ||
        D->isInStdNamespace() || SM.isInSystemHeader(D->getLocation()))
      return true;
    if (!respellName(Begin, NameLoc, namespaceQualifier(Path) + D->getNameAsString()))
      return fail("the code names type '" + D->getQualifiedNameAsString() +
                  "' of a namespace inside a macro, where the kernel cannot spell it");
    return true;
  }

  /// Replaces the written name from Begin (its qualifier's first token) to End (its last) with
  /// Text, once per written name; false, with nothing changed, where it is in a macro.
  bool respellName(SourceLocation Begin, SourceLocation End, const std::string &Text) {
    if (Begin.isMacroID() || End.isMacroID())
      return false;
    if (Spelled.insert(Begin.getRawEncoding()).second) {
      RW.ReplaceText(CharSourceRange::getTokenRange(Begin, End), Text);
      ++Respells;
    }
    return true;
  }

  bool VisitElaboratedTypeLoc(ElaboratedTypeLoc TL) { return respellType(TL); }

  /// respellType over the types of a carried function's declarator (its parameters and its
  /// result), which the walk of its body does not reach; whether any was respelled.
  bool respellSignature(const FunctionDecl *F) {
    unsigned Before = Respells;
    if (const TypeSourceInfo *TSI = F->getTypeSourceInfo())
      if (auto FTL = TSI->getTypeLoc().getAsAdjusted<FunctionTypeLoc>())
        respellTypesIn(FTL.getReturnLoc());
    for (const ParmVarDecl *P : F->parameters())
      respellDeclaredType(P);
    return Respells != Before;
  }

  /// respellType over the written type of D (a parameter, a range-for's element); whether any
  /// was respelled.
  bool respellDeclaredType(const DeclaratorDecl *D) {
    unsigned Before = Respells;
    if (const TypeSourceInfo *TSI = D->getTypeSourceInfo())
      respellTypesIn(TSI->getTypeLoc());
    return Respells != Before;
  }

  /// Walks TL (or, with a statement, an expression) for respellType and, in a record's or a
  /// typedef's text (OnlyMembers), for member enumerators too.
  struct Speller : RecursiveASTVisitor<Speller> {
    ClosureBuilder &B;
    explicit Speller(ClosureBuilder &B) : B(B) {}
    bool VisitElaboratedTypeLoc(ElaboratedTypeLoc TL) { return B.respellType(TL); }
    bool VisitDeclRefExpr(DeclRefExpr *DR) {
      if (!B.OnlyMembers)
        return true;
      if (const auto *EC = dyn_cast<EnumConstantDecl>(DR->getDecl()))
        if (B.isMemberType(cast<EnumDecl>(EC->getDeclContext())))
          return B.respellMemberEnumerator(DR);
      // A static member of a class the kernel does not declare, in a type's text (an array
      // bound); one of a carried class is declared in its text.
      if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()); VD && VD->isStaticDataMember())
        if (const auto *C = dyn_cast<CXXRecordDecl>(VD->getDeclContext()); !C || !B.carried(C))
          return B.fail("a type the loop uses names '" + VD->getQualifiedNameAsString() +
                        "', a static member of a class, which the kernel does not declare");
      return true;
    }
  };
  void respellTypesIn(TypeLoc TL) {
    Speller S(*this);
    S.TraverseTypeLoc(TL);
  }

  /// What the kernel's text of a record or typedef in Types names of member types, spelled as
  /// the kernel declares them (OnlyMembers: its namespaces' types stay as written, since it is
  /// declared inside them): its fields' types and default initializers, the signatures of its
  /// member functions the kernel calls, a typedef's type; a member record's own name, which
  /// its definition gives with its struct's (`struct __clx_m4Mesh4Node::Node { ... }`); the
  /// qualifier of such a record's member function defined outside it.
  void respellMemberUses() {
    OnlyMembers = true;
    Speller Sp(*this);
    for (const Decl *D : Types) {
      if (SecondInstances.count(D))
        continue;
      if (const auto *TN = dyn_cast<TypedefNameDecl>(D)) {
        if (const TypeSourceInfo *TSI = TN->getTypeSourceInfo())
          respellTypesIn(TSI->getTypeLoc());
        continue;
      }
      const auto *RD = dyn_cast<CXXRecordDecl>(D);
      if (!RD)
        continue;
      for (const FieldDecl *F : RD->fields()) {
        respellDeclaredType(F);
        if (const Expr *Init = F->getInClassInitializer())
          Sp.TraverseStmt(const_cast<Expr *>(Init));
      }
      if (!MemberTypes.count(RD))
        continue;
      if (!respellName(RD->getQualifierLoc() ? RD->getQualifierLoc().getBeginLoc()
                                             : RD->getLocation(),
                       RD->getLocation(), memberScope(RD) + "::" + RD->getNameAsString())) {
        fail("member type '" + RD->getQualifiedNameAsString() +
             "' is defined inside a macro, where the kernel cannot name it");
        break;
      }
      for (const CXXMethodDecl *M : Methods)
        if (M->getParent() == RD) {
          for (const FunctionDecl *Decl : M->redecls())
            respellSignature(Decl);
          if (M->isOutOfLine())
            if (NestedNameSpecifierLoc Q = M->getQualifierLoc()) {
              if (Q.getBeginLoc().isMacroID() || M->getLocation().isMacroID()) {
                fail("'" + M->getQualifiedNameAsString() +
                     "' is defined inside a macro, where the kernel cannot name it");
                break;
              }
              RW.ReplaceText(CharSourceRange::getCharRange(Q.getBeginLoc(), M->getLocation()),
                             memberScope(RD) + "::" + RD->getNameAsString() + "::");
            }
        }
    }
    OnlyMembers = false;
  }

  /// T as a note names it: without tag keywords (`geo::Grid::Row`, not `geo::struct Grid::Row`).
  std::string typeText(QualType T) const {
    PrintingPolicy P(Ctx.getLangOpts());
    P.SuppressTagKeyword = true;
    return T.getAsString(P);
  }

  /// The typedef whose declaration defines TD (`typedef struct P { ... } P_t;`), or null.
  static const TypedefNameDecl *ownerTypedef(const TagDecl *TD) {
    if (!TD->isEmbeddedInDeclarator())
      return nullptr;
    for (const Decl *D : TD->getDeclContext()->decls())
      if (const auto *TN = dyn_cast<TypedefNameDecl>(D))
        if (const auto *ET = dyn_cast<ElaboratedType>(TN->getUnderlyingType().getTypePtr());
            ET && ET->getOwnedTagDecl() == TD)
          return TN;
    return nullptr;
  }

  /// The typedef a type is spelled with, when it is the user's: the kernel declares it too.
  void noteTypedef(QualType T) {
    const auto *TT = T->getAs<TypedefType>();
    if (!TT)
      return;
    const TypedefNameDecl *TD = TT->getDecl();
    if (std::find(Types.begin(), Types.end(), TD) != Types.end() ||
        SM.isInSystemHeader(TD->getLocation()) || TD->isInStdNamespace() ||
        TD->getLocation().isInvalid())
      return;
    const bool Member = isMemberType(TD);
    if (!Member && !atNamespaceScope(T, TD)) {
      if (ok())
        fail("the loop uses type '" + TD->getNameAsString() + "', " + notCarried(TD));
      return;
    }
    if (Member) {
      // A member typedef that defines a record (`typedef struct { ... } P;` in a class) is not
      // carried: its record has no name to declare it by.
      if (const auto *ET = dyn_cast<ElaboratedType>(TD->getUnderlyingType().getTypePtr());
          ET && ET->getOwnedTagDecl() && !ET->getOwnedTagDecl()->getIdentifier()) {
        if (ok())
          fail("the loop uses type '" + TD->getQualifiedNameAsString() +
               "', a member typedef that defines an unnamed record, which the kernel cannot "
               "declare");
        return;
      }
      MemberTypes.insert(TD);
    }
    // Written with a system header's typedef that the kernel does not declare
    // (`std::vector<int>::size_type`): declared with the scalar it stands for.
    if (std::string Written = systemTypedefIn(TD); !Written.empty()) {
      QualType U = TD->getUnderlyingType().getCanonicalType();
      QualType Base = U.getNonReferenceType();
      while (Base->isPointerType())
        Base = Base->getPointeeType().getCanonicalType();
      if (!Base->isBuiltinType()) {
        if (ok())
          fail("the loop uses type '" + TD->getQualifiedNameAsString() + "', written with '" +
               Written + "' of a system header, which the kernel cannot name");
        return;
      }
      SpelledAs[TD] = "typedef " + deviceDeclarator(U, TD->getNameAsString(), Ctx);
    }
    noteType(TD->getUnderlyingType());
    if (std::find(Types.begin(), Types.end(), TD) == Types.end())
      Types.push_back(TD);
  }

  /// The first typedef of a system header that TD's written type names and the kernel does
  /// not declare (it declares the fixed-width integers, size_t, ptrdiff_t, intptr_t and
  /// uintptr_t), or empty.
  std::string systemTypedefIn(const TypedefNameDecl *TD) const {
    const TypeSourceInfo *TSI = TD->getTypeSourceInfo();
    if (!TSI)
      return "";
    struct Finder : RecursiveASTVisitor<Finder> {
      const SourceManager &SM;
      std::string Found;
      explicit Finder(const SourceManager &SM) : SM(SM) {}
      bool VisitTypedefTypeLoc(TypedefTypeLoc TL) {
        static const std::set<std::string> Declared = {
            "int8_t",  "uint8_t",  "int16_t", "uint16_t",  "int32_t", "uint32_t",
            "int64_t", "uint64_t", "size_t",  "ptrdiff_t", "intptr_t", "uintptr_t"};
        const TypedefNameDecl *D = TL.getTypedefNameDecl();
        if (!SM.isInSystemHeader(D->getLocation()) && !D->isInStdNamespace())
          return true;
        if (D->getDeclContext()->getRedeclContext()->isFileContext() &&
            Declared.count(D->getNameAsString()))
          return true;
        Found = D->getQualifiedNameAsString();
        return false;
      }
    } F(SM);
    F.TraverseTypeLoc(TSI->getTypeLoc());
    return F.Found;
  }

  /// The records' texts for the device: the member functions the kernel calls are declared
  /// `__device__`; every other user-written one is left out, as its body may use what a device
  /// lacks (defaulted and deleted ones stay: they change what the type is).
  void prepareRecords() {
    for (const Decl *D : Types) {
      if (const CXXRecordDecl *RD = recordIn(D))
        prepareRecord(RD);
    }
  }

  /// prepareRecords for one record, and for the records nested in it that the kernel does not
  /// declare apart (their text is the record's).
  void prepareRecord(const CXXRecordDecl *RD) {
    for (const Decl *M : RD->decls()) {
      if (M->isImplicit())
        continue;
      if (isa<FunctionTemplateDecl>(M) || isa<FriendDecl>(M)) {
        RW.RemoveText(M->getSourceRange());
        continue;
      }
      if (const auto *Nested = dyn_cast<CXXRecordDecl>(M)) {
        if (Nested->isThisDeclarationADefinition() && !MemberTypes.count(Nested))
          prepareRecord(Nested);
        continue;
      }
      const auto *MD = dyn_cast<CXXMethodDecl>(M);
      if (!MD)
        continue;
      const FunctionDecl *Def = MD->getDefinition();
      bool Carried = Def && std::find(Methods.begin(), Methods.end(), Def) != Methods.end();
      if (Carried)
        RW.InsertTextBefore(MD->getBeginLoc(), "__device__ ");
      else if (!MD->isDeleted() && !MD->isExplicitlyDefaulted())
        RW.RemoveText(MD->getSourceRange());
    }
  }

  /// Region, the variable VD whose pointer type is PT (to rows of variable length), as a flat
  /// pointer to its elements; false where the rows are not plain arrays of a fixed element.
  bool flatten(const std::string &Region, const VarDecl *VD, QualType PT,
               const std::string &Param) {
    QualType E = PT->getPointeeType();
    unsigned Levels = 0;
    while (const ArrayType *AT = Ctx.getAsArrayType(E)) {
      ++Levels;
      E = AT->getElementType();
    }
    if (!Levels || E->isVariablyModifiedType() || Param.empty())
      return false;
    auto It = RegionIndex.find(Region);
    if (It == RegionIndex.end())
      return false;
    FlatRegion F;
    F.Levels = Levels;
    for (unsigned D = 1; D <= Levels; ++D) {
      std::string Name = "__clx_rl_" + Param + "_" + std::to_string(D);
      std::string Value = rowLength(R.Regions[It->second], D);
      HostDecls.push_back("const long long " + Name + " = (long long)(" + Value + ");");
      addScalar(Name, Ctx.LongLongTy, Name);
      F.Lengths.push_back(Name);
    }
    noteType(E);
    RegionParams[Region] = deviceDeclarator(Ctx.getPointerType(E), Param, Ctx);
    Flat[VD] = std::move(F);
    return true;
  }

  /// `A[e0][e1]...[eL]` over a flattened region: `A[((e0) * len1 + (e1)) * len2 + ...]`, by
  /// editing the brackets between the subscripts. A chain that does not reach an element (a
  /// row used as a pointer or an array) leaves the loop without a GPU form.
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *ASE) {
    if (FlatDone.count(ASE))
      return true;
    std::vector<const ArraySubscriptExpr *> Chain; // innermost last
    const Expr *Base = ASE;
    while (const auto *A = dyn_cast<ArraySubscriptExpr>(Base)) {
      Chain.push_back(A);
      Base = A->getBase()->IgnoreParenImpCasts();
    }
    const auto *DR = dyn_cast<DeclRefExpr>(Base);
    const auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    if (!VD || !VD->getType()->isVariablyModifiedType() || Locals.count(VD) || InCallee ||
        !RegionIndex.count(hostSpelling(VD)))
      return true;
    // Set up the region now (its parameter and lengths): the base is visited after the chain.
    if (!Flat.count(VD))
      noteRegion(hostSpelling(VD), VD->getType(), VD->getNameAsString(), VD);
    auto F = Flat.find(VD);
    if (F == Flat.end())
      return ok();
    unsigned L = F->second.Levels;
    if (Chain.size() != L + 1)
      return fail("region '" + VD->getNameAsString() +
                  "' has rows of variable length, which the kernel reaches element by element "
                  "only, and here a row is used");
    std::reverse(Chain.begin(), Chain.end()); // innermost first
    const LangOptions &LO = Ctx.getLangOpts();
    std::vector<SourceLocation> LBrackets;
    for (unsigned K = 1; K <= L; ++K) {
      std::optional<Token> T = Lexer::findNextToken(Chain[K - 1]->getRBracketLoc(), SM, LO);
      if (!T || !T->is(tok::l_square) || T->getLocation().isMacroID())
        return fail("a subscript of '" + VD->getNameAsString() +
                    "' is written so that the kernel cannot flatten it");
      LBrackets.push_back(T->getLocation());
    }
    for (const ArraySubscriptExpr *A : Chain)
      if (A->getRBracketLoc().isMacroID() || A->getIdx()->getBeginLoc().isMacroID())
        return fail("a subscript of '" + VD->getNameAsString() +
                    "' is written inside a macro, so the kernel cannot flatten it");
    RW.InsertTextBefore(Chain[0]->getIdx()->getBeginLoc(), std::string(L + 1, '('));
    for (unsigned K = 1; K <= L; ++K)
      RW.ReplaceText(CharSourceRange::getCharRange(Chain[K - 1]->getRBracketLoc(),
                                                   LBrackets[K - 1].getLocWithOffset(1)),
                     ")) * " + F->second.Lengths[K - 1] + " + (");
    RW.ReplaceText(Chain[L]->getRBracketLoc(), 1, ")]");
    for (const ArraySubscriptExpr *A : Chain)
      FlatDone.insert(A);
    FlatBases.insert(DR);
    return ok();
  }

  void noteRegion(const std::string &Region, QualType T, std::string Param = "",
                  const VarDecl *VD = nullptr) {
    if (Param.empty())
      Param = Region;
    if (RegionParams.count(Region))
      return;
    QualType PT = regionPointerType(T, Ctx);
    if (PT.isNull()) {
      fail("region '" + Region + "' has no element type a kernel can use");
      return;
    }
    // `double (*C)[m]`: CUDA C++ has no variable array types. A variable's rows of variable
    // length are reached through a pointer to their elements, each subscript chain flattened
    // with the row lengths, which the host passes (flattenSubscripts).
    if (PT->isVariablyModifiedType()) {
      if (!VD || !flatten(Region, VD, PT, Param))
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

  /// The macros a text of the kernel uses, found by lexing it as written: uses in types (array
  /// bounds), signatures and initializers as well as in statements. The text's preprocessor
  /// directives are settled as the host's preprocessor settled them (settleDirective): the
  /// device compiler, whose predefined macros differ, never evaluates one.
  bool noteMacrosIn(SourceRange Range) {
    CharSourceRange R = SM.getExpansionRange(Range);
    auto [File, Begin] = SM.getDecomposedLoc(R.getBegin());
    auto [EndFile, End] = SM.getDecomposedLoc(R.getEnd());
    bool Invalid = false;
    StringRef Buf = SM.getBufferData(File, &Invalid);
    if (Invalid || File != EndFile)
      return ok();
    if (R.isTokenRange())
      End += Lexer::MeasureTokenLength(R.getEnd(), SM, Ctx.getLangOpts());
    Lexer L(SM.getLocForStartOfFile(File), Ctx.getLangOpts(), Buf.begin(), Buf.begin() + Begin,
            Buf.end());
    Token T;
    while (!L.LexFromRawLexer(T) && SM.getFileOffset(T.getLocation()) < End) {
      if (T.is(tok::hash) && T.isAtStartOfLine()) {
        std::optional<unsigned> Next = settleDirective(File, Buf, T.getLocation());
        if (!Next)
          return false;
        L.seek(*Next, /*IsAtStartOfLine=*/false);
        continue;
      }
      if (T.is(tok::raw_identifier) && PP && !noteMacro(T.getRawIdentifier(), T.getLocation()))
        return false;
    }
    return ok();
  }

  /// Settles the directive whose `#` is at Hash, and gives the offset where the text after it
  /// goes on. A conditional directive (`#if`, `#ifdef`, ..., `#else`, `#endif`) is blanked,
  /// with the text the host's preprocessor skipped from it; the kernel keeps what the host
  /// compiled. `#pragma unroll` stays (the device compiler knows it), other loop hints
  /// (`#pragma GCC ivdep`, `#pragma clang loop ...`, `#pragma omp simd`) are blanked: none
  /// changes what the code computes. Any other directive keeps the loop off GPUs: `#define`
  /// would change the kernel's macros, `#pragma STDC FP_CONTRACT` its arithmetic.
  std::optional<unsigned> settleDirective(FileID File, StringRef Buf, SourceLocation Hash) {
    unsigned At = SM.getFileOffset(Hash);
    std::string Where = Hash.printToString(SM);
    const SkippedText *Skipped = PP ? SkippedText::of(*PP) : nullptr;
    if (Skipped && Skipped->complete())
      if (std::optional<unsigned> To = Skipped->skippedFrom(File, At)) {
        blank(File, At, *To);
        return *To;
      }
    std::optional<unsigned> Eol = directiveEnd(Buf, At);
    // The directive's words, continuation lines joined; where a comment goes on past the
    // directive, those of its first line.
    size_t WordsEnd = Eol ? *Eol : std::min(Buf.find('\n', At), Buf.size());
    std::string Words;
    for (size_t I = At + 1; I < WordsEnd; ++I) {
      if (Buf[I] == '\\' && I + 1 < Buf.size() && (Buf[I + 1] == '\n' || Buf[I + 1] == '\r'))
        continue;
      Words += Buf[I] == '\n' || Buf[I] == '\r' || Buf[I] == '\t' ? ' ' : Buf[I];
    }
    llvm::SmallVector<StringRef, 4> W;
    StringRef(Words).split(W, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    StringRef Name = W.empty() ? StringRef() : W[0];
    bool Conditional = llvm::is_contained(
        {"if", "ifdef", "ifndef", "elif", "elifdef", "elifndef", "else", "endif"}, Name);
    if (Conditional && !(Skipped && Skipped->complete())) {
      fail("the code at " + Where +
           " holds a preprocessor directive, which the device compiler would evaluate with "
           "its own macros");
      return std::nullopt;
    }
    std::string Pragma;
    if (Name == "pragma")
      for (size_t I = 1; I < W.size() && I < 3; ++I)
        Pragma += (I > 1 ? " " : "") + W[I].str();
    auto IsNumber = [](StringRef S) {
      return !S.empty() && llvm::all_of(S, [](char C) { return llvm::isDigit(C); });
    };
    bool Unroll = Name == "pragma" && W.size() >= 2 && W[1] == "unroll" &&
                  (W.size() == 2 || (W.size() == 3 && IsNumber(W[2])));
    bool Hint = Name == "pragma" && W.size() >= 2 &&
                (llvm::is_contained({"unroll", "nounroll", "ivdep", "vector", "novector", "simd",
                                     "loop"},
                                    W[1]) ||
                 llvm::is_contained({"GCC unroll", "GCC ivdep", "GCC nounroll", "clang loop",
                                     "omp simd"},
                                    Pragma));
    if (!Conditional && !Hint) {
      std::string Shown = Name == "pragma" && W.size() >= 2 ? "#pragma " + W[1].str()
                                                            : "#" + Name.str();
      fail("the code at " + Where + " holds '" + Shown +
           "', which the kernel text cannot carry");
      return std::nullopt;
    }
    if (!Eol) {
      fail("the code at " + Where +
           " holds a preprocessor directive with a comment that goes on after its line, which "
           "the kernel text cannot drop");
      return std::nullopt;
    }
    if (!Unroll)
      blank(File, At, *Eol);
    return *Eol;
  }

  /// The offset of the line end of the directive at Hash (continuation lines included), or
  /// nothing where a `/*` comment on it goes on past that end.
  static std::optional<unsigned> directiveEnd(StringRef Buf, unsigned Hash) {
    for (unsigned I = Hash; I < Buf.size(); ++I) {
      char C = Buf[I];
      if (C == '\\' && I + 1 < Buf.size() && Buf[I + 1] == '\n') {
        ++I;
        continue;
      }
      if (C == '\\' && I + 2 < Buf.size() && Buf[I + 1] == '\r' && Buf[I + 2] == '\n') {
        I += 2;
        continue;
      }
      if (C == '\n' || (C == '\r' && I + 1 < Buf.size() && Buf[I + 1] == '\n'))
        return I;
      if (C == '/' && I + 1 < Buf.size() && Buf[I + 1] == '/')
        return Buf.find('\n', I) == StringRef::npos ? Buf.size() : Buf.find('\n', I);
      if (C == '/' && I + 1 < Buf.size() && Buf[I + 1] == '*') {
        size_t Close = Buf.find("*/", I + 2);
        size_t Line = Buf.find('\n', I);
        if (Close == StringRef::npos || (Line != StringRef::npos && Close > Line))
          return std::nullopt;
        I = Close + 1;
      }
      if (C == '"' || C == '\'') // `#pragma message("...")`, a character in a condition
        for (++I; I < Buf.size() && Buf[I] != C && Buf[I] != '\n'; ++I)
          if (Buf[I] == '\\')
            ++I;
    }
    return Buf.size();
  }

  /// Whether a directive in R was blanked (a signature written across an `#ifdef`).
  bool blankedIn(CharSourceRange R) const {
    auto [File, Begin] = SM.getDecomposedLoc(R.getBegin());
    auto [EndFile, End] = SM.getDecomposedLoc(R.getEnd());
    auto It = Blanked.lower_bound({File, Begin});
    return It != Blanked.end() && It->first == File && It->second < End;
  }

  /// Removes [Begin, End) of File from the kernel's texts, its line breaks kept; once.
  void blank(FileID File, unsigned Begin, unsigned End) {
    if (End <= Begin || !Blanked.insert({File, Begin}).second)
      return;
    StringRef Buf = SM.getBufferData(File);
    std::string Lines(llvm::count(Buf.substr(Begin, End - Begin), '\n'), '\n');
    RW.ReplaceText(SM.getComposedLoc(File, Begin), End - Begin, Lines);
  }

  /// The rewritten text of Range, macro uses spelled as written (the kernel defines them).
  std::string text(SourceRange Range) {
    noteMacrosIn(Range);
    CharSourceRange R = SM.getExpansionRange(Range);
    // As characters to the end of the last token: the Rewriter measures a token range's last
    // token in the original text, so a range that ends in a respelled name (`Dim` ->
    // `::sim::__clx_m4Mesh_1::Dim`) would keep only as many characters of the new name.
    if (R.isTokenRange())
      if (SourceLocation End = Lexer::getLocForEndOfToken(R.getEnd(), 0, SM, Ctx.getLangOpts());
          End.isValid())
        R = CharSourceRange::getCharRange(R.getBegin(), End);
    std::string T = RW.getRewrittenText(R);
    if (T.empty())
      fail("the text of the code at " + Range.getBegin().printToString(SM) + " cannot be read");
    return T;
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  const LoopResult &R;
  Preprocessor *PP;
  Rewriter RW;
  std::set<std::string> MacroNames;
  /// Records without names inside others, which their parents' texts declare (noteType).
  std::set<const RecordDecl *> InParentText;
  /// Member regions (memberRegion): the expressions of their chains, which the parameter
  /// replaces; each chain's parameter; the variables at their roots, with one chain each; the
  /// uses of the loop's variables, which checkMemberRoots checks against those roots.
  std::set<const Expr *> Consumed;
  std::map<std::string, std::string> ChainParams;
  std::set<std::string> Reserved; ///< reserveNames

  std::map<const VarDecl *, std::string> MemberRoots;
  std::vector<const DeclRefExpr *> RootUses;
  /// The same for chains from the object (`this->g.p`): the fields at their roots, and the
  /// uses of the object's fields.
  std::map<const FieldDecl *, std::string> ThisMemberRoots;
  std::vector<const MemberExpr *> ThisRootUses;
  /// The directives (and skipped branches) blanked from the kernel's texts, by where they begin.
  std::set<std::pair<FileID, unsigned>> Blanked;
  std::set<std::string> StdMath; ///< Math functions a macro calls as `std::f`
  /// A macro the kernel carries: its name, its definition's text as written, where that text
  /// begins (file and offset), and whether the compiler predefines it.
  struct CarriedMacro {
    std::string Name;
    std::string Text;
    std::pair<FileID, unsigned> At;
    bool Predefined;
  };
  std::vector<CarriedMacro> Macros; ///< In the order met; macroLines writes them.
  /// Math calls written in macros' definitions (respellInMacro): per file and offset of the
  /// call's name, the length of the text through its parenthesis and what replaces it.
  std::map<std::pair<FileID, unsigned>, std::pair<unsigned, std::string>> MacroRespells;
  /// Per file and offset of a callee's name written in a macro's definition, the functions
  /// the kernel's calls there name, and the one respelled there (respellInMacro).
  std::map<std::pair<FileID, unsigned>, std::set<const Decl *>> MacroCallees;
  std::map<std::pair<FileID, unsigned>, const Decl *> RespelledCallees;
  std::string Reason;
  std::map<std::string, size_t> RegionIndex;
  /// The variables the kernel names by identifier (parameters and constants), by identifier.
  std::map<std::string, const Decl *> KernelNames;
  std::map<std::string, std::string> RegionParams; ///< region name -> parameter declaration
  std::set<const VarDecl *> Reductions, IVs, Locals;
  std::set<const VarDecl *> BodyDecls; ///< Declared in the body and its lambdas, not callees.
  std::vector<std::pair<const VarDecl *, std::string>> Constants; ///< With their declarations.
  /// The function whose body is being walked: null in the loop body, its lambdas and member
  /// functions.
  const FunctionDecl *CurFn = nullptr;
  std::vector<const LambdaExpr *> LambdaStack;
  /// A call of a function the kernel carries, from Caller (null: the body, or a member function
  /// where FromMethod).
  struct CallSite {
    const FunctionDecl *Caller;
    bool FromMethod;
    bool InBareLambda; ///< Within a lambda that captures nothing.
    const CallExpr *Call;
    const FunctionDecl *Callee;
  };
  std::vector<CallSite> Calls;
  std::set<const DeclRefExpr *> CalleeRefs;
  std::vector<const FunctionDecl *> NamedFunctions; ///< Named other than as a callee.
  /// The globals each carried function names itself, by kernel name, in the order met.
  std::map<const FunctionDecl *, std::vector<std::string>> DirectGlobals;
  std::map<std::string, std::string> HiddenDecls; ///< kernel name -> parameter declaration
  std::set<const FunctionDecl *> HasHidden;       ///< Functions that take globals.
  std::vector<const FunctionDecl *> Functions;
  /// Per function template the kernel carries, the one instantiation the loop calls.
  std::map<const FunctionTemplateDecl *, const FunctionDecl *> TemplateUses;
  std::set<const FunctionDecl *> Renamed; ///< Functions carried under a name of their own.
  std::set<SourceLocation::UIntTy> Spelled; ///< Names already spelled for the kernel.
  unsigned Respells = 0; ///< respellName's edits so far.
  std::set<const FunctionDecl *> SignatureRespelled; ///< respellSignature changed it.
  /// The `__clx_merr_F_d` (`_f`) functions the math calls need (mathErrorCall).
  std::vector<std::string> MathErrorHelpers;
  /// The kernel's own functions for constant builtins (noteConstantBuiltin).
  std::vector<std::string> ConstantHelpers;
  std::vector<const Decl *> Types; ///< TagDecls and TypedefNameDecls, dependencies first
  /// Instances of a class template another of which Types holds: the template is declared once.
  std::set<const Decl *> SecondInstances;
  std::set<const TagDecl *> AnonRecords; ///< Records emitted within their typedef
  /// Types of Types that are members of classes, each declared in a struct of its own
  /// (memberScope), not in its class, which the kernel does not declare.
  std::set<const Decl *> MemberTypes;
  /// Typedefs declared by the scalar they stand for, not as written (noteTypedef).
  std::map<const Decl *, std::string> SpelledAs;
  /// respellType and Speller in a carried record's or typedef's text (respellMemberUses): only
  /// member types are respelled, and nothing is noted.
  bool OnlyMembers = false;
  std::vector<const VarDecl *> Lambdas;         ///< Lambdas of the function, defined again
  std::vector<const CXXMethodDecl *> Methods;   ///< Member functions the kernel calls
  struct ScalarParam {
    std::string Name, Decl, HostExpr;
    QualType Type;
  };
  std::vector<ScalarParam> Scalars;
  struct FlatRegion {
    unsigned Levels = 0;
    std::vector<std::string> Lengths; ///< The kernel's parameters, level 1 to Levels.
  };
  std::map<const VarDecl *, FlatRegion> Flat;
  std::set<const ArraySubscriptExpr *> FlatDone;
  std::set<const DeclRefExpr *> FlatBases;
  std::vector<std::string> HostDecls;
  bool InCallee = false;
  bool InMethod = false; ///< In a member function the kernel carries: `this` is its object.
  std::string CalleeName;
};

} // namespace

/// `T Name` in declarator syntax (`double (*C)[50]` for a pointer to arrays).
std::string clustrix::deviceDeclarator(QualType T, const std::string &Name, const ASTContext &Ctx) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  T.print(OS, devicePolicy(Ctx), Name);
  OS.flush();
  // A record without a name of its own is spelled by its typedef, which the kernel declares.
  if (S.find("(anonymous") != std::string::npos || S.find("(unnamed") != std::string::npos) {
    S.clear();
    PrintingPolicy P = devicePolicy(Ctx);
    P.PrintCanonicalTypes = false;
    T.print(OS, P, Name);
    OS.flush();
  }
  return S;
}


/// The first <fenv.h> function the translation unit uses, or empty: then it may set a rounding
/// mode or test exception flags around a loop, which a GPU neither follows nor raises.
static std::string floatingPointEnvironmentUse(ASTContext &Ctx) {
  static const char *const Names[] = {
      "fesetround",    "fegetround",  "fetestexcept", "feclearexcept", "feraiseexcept",
      "fegetexceptflag", "fesetexceptflag", "fegetenv", "fesetenv", "feholdexcept",
      "feupdateenv",   "feenableexcept", "fedisableexcept"};
  for (const char *N : Names) {
    auto It = Ctx.Idents.find(N);
    if (It == Ctx.Idents.end())
      continue;
    IdentifierInfo *II = It->second;
    for (const NamedDecl *D : Ctx.getTranslationUnitDecl()->lookup(DeclarationName(II)))
      if (D->isReferenced() || D->isUsed())
        return N;
  }
  return "";
}

/// The names of a template's parameters, which within its text hide a template parameter of
/// the loop's own template of the same name.
static std::vector<std::string> ownTemplateParams(const TemplateDecl *TD) {
  std::vector<std::string> Own;
  if (TD)
    for (const NamedDecl *P : *TD->getTemplateParameters())
      if (P->getIdentifier())
        Own.push_back(P->getNameAsString());
  return Own;
}

/// Those that D's text declares itself: a class template's, when D is one of its instances
/// (the text is the template's).
static std::vector<std::string> ownTemplateParams(const Decl *D) {
  const auto *CTS = dyn_cast<ClassTemplateSpecializationDecl>(D);
  return ownTemplateParams(CTS ? CTS->getSpecializedTemplate() : nullptr);
}

KernelClosure clustrix::collectKernelClosure(ASTContext &Ctx, const Stmt *Loop,
                                             const LoopResult &R, Preprocessor *PP,
                                             ArrayRef<QualType> AlsoTypes) {
  KernelClosure Out;
  if (std::string Fe = floatingPointEnvironmentUse(Ctx); !Fe.empty()) {
    Out.Reason = "the translation unit uses '" + Fe +
                 "': a GPU keeps neither the caller's rounding mode nor its floating-point "
                 "exception flags";
    return Out;
  }
  ClosureBuilder B(Ctx, R, PP);
  for (QualType T : AlsoTypes)
    B.noteType(T);
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
    B.BodyDecls.insert(RF->getLoopVariable()); // the kernel declares it where the body runs
    const VarDecl *LV = RF->getLoopVariable();
    B.noteType(LV->getType());
    // Its type spelled for the kernel's scope when it names a namespace's type.
    std::string Elem = L0.ElemDeclText;
    if (B.respellDeclaredType(LV))
      Elem = B.text(SourceRange(LV->getBeginLoc(), LV->getLocation()));
    if (!B.ok()) {
      Out.Reason = B.Reason;
      return Out;
    }
    Out.ElemDecl = Elem + " = " + L0.RangeText + "[__clx_k0];";
  }
  const Stmt *Body = innermostBody(Loop, unsigned(R.Nest.size()));
  B.reserveNames(Body);
  B.TraverseStmt(const_cast<Stmt *>(Body));
  B.addHiddenParameters();
  B.checkHiddenGlobals();
  B.checkMemberRoots();
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
  if (!B.ok()) {
    Out.Reason = B.Reason;
    return Out;
  }
  if (trailingSemicolon(Body, SM, Ctx.getLangOpts()).isValid())
    Out.Body += ";";

  B.respellMemberUses();
  B.prepareRecords();
  if (!B.ok()) {
    Out.Reason = B.Reason;
    return Out;
  }
  // Named records are declared first, then the enums and the typedefs that need no record's
  // definition, so that the called functions' declarations can come before the records, whose
  // member functions may call them.
  for (const Decl *D : B.Types) {
    const auto *TD = dyn_cast<TagDecl>(D);
    if (B.SecondInstances.count(D) || !TD || !isa<RecordDecl>(TD))
      continue;
    std::string Header; // a class template's, without default arguments (it has none)
    if (const auto *CTS = dyn_cast<ClassTemplateSpecializationDecl>(TD)) {
      const TemplateParameterList *TPL = CTS->getSpecializedTemplate()->getTemplateParameters();
      Header = B.text(SourceRange(TPL->getTemplateLoc(), TPL->getRAngleLoc())) + " ";
    }
    std::string Forward = Header + std::string(TD->getKindName()) + " " + TD->getNameAsString();
    Out.Forwards.push_back(B.MemberTypes.count(TD) ? B.inMemberScope(TD, Forward, /*Semi=*/true)
                                                   : inNamespaces(TD, Forward, /*Semi=*/true));
    Out.ForwardTemplateParams.push_back(ownTemplateParams(TD));
  }
  for (const Decl *D : B.Types) {
    if (B.SecondInstances.count(D))
      continue;
    std::string Text = B.declText(D);
    bool Early = isa<EnumDecl>(D);
    if (const auto *TN = dyn_cast<TypedefNameDecl>(D)) {
      const TagDecl *Owned = nullptr;
      if (const auto *ET = dyn_cast<ElaboratedType>(TN->getUnderlyingType().getTypePtr()))
        Owned = ET->getOwnedTagDecl();
      const TagDecl *Anon = TN->getUnderlyingType()->getAsTagDecl();
      Early = !Owned && !(Anon && B.AnonRecords.count(Anon));
    }
    // A member record is defined by its qualified name, after its struct (its forward);
    // a member enum or typedef is declared inside its struct.
    std::string Declared = !B.MemberTypes.count(D) ? inNamespaces(D, Text, /*Semi=*/false)
                           : isa<RecordDecl>(D) ? B.inMemberNamespaces(D, Text, /*Semi=*/false)
                                                : B.inMemberScope(D, Text, /*Semi=*/false);
    if (Early) {
      Out.EarlyTypes.push_back(Declared);
    } else {
      Out.Types.push_back(Declared);
      Out.TypeTemplateParams.push_back(ownTemplateParams(D));
    }
  }
  // The classes of member types, declared with their names only, for the kernel's parameters
  // and declarations that spell a member type by its class (`Mesh::Node *nodes`).
  for (const std::string &Stub : B.memberClassStubs())
    Out.EarlyTypes.push_back(Stub);
  // A method defined outside its class, in its class's namespaces, where its qualifier
  // (`Particle::`) names the class as in the source.
  for (const CXXMethodDecl *M : B.Methods)
    if (M->isOutOfLine()) {
      std::string Text = "__device__ " + B.text(M->getSourceRange());
      Out.Methods.push_back(B.MemberTypes.count(M->getParent())
                                ? B.inMemberNamespaces(M->getParent(), Text, /*Semi=*/false)
                                : inNamespaces(M->getParent(), Text, /*Semi=*/false));
    }
  for (const VarDecl *V : B.Lambdas)
    Out.LambdaDecls.push_back("auto " + V->getNameAsString() + " = " +
                              B.text(V->getInit()->IgnoreImplicit()->getSourceRange()) + ";");
  for (const auto &C : B.Constants)
    Out.Constants.push_back(C.second);
  // Each carried function as `__device__` code; a function template as the template, whose
  // instantiation the device compiler makes again from the same arguments.
  // A default argument may be given once: the first declaration has it (a template's
  // first, in the kernel's order: the signatures come before the definitions), and later
  // texts are taken once the defaults are removed (dropDefaults).
  std::set<const FunctionTemplateDecl *> DefaultsGiven;
  for (const FunctionDecl *FD : B.Functions) {
    const FunctionDecl *Written = FD;
    const FunctionTemplateDecl *TD = FD->getPrimaryTemplate();
    std::string Template;
    auto TemplateHeader = [&] {
      return B.text(SourceRange(TD->getBeginLoc(), TD->getTemplateParameters()->getRAngleLoc())) +
             " ";
    };
    auto GiveDefaults = [&] {
      if (DefaultsGiven.insert(TD).second)
        B.dropTemplateDefaults(TD);
    };
    std::string SigHeader, Header;
    Out.OwnTemplateParams.push_back(ownTemplateParams(TD));
    if (TD) {
      const FunctionDecl *Pattern = TD->getTemplatedDecl();
      if (B.isExplicitSpecialization(FD)) {
        // `template <> double abs(double x) { ... }` after `template <typename T> T abs(T x);`
        const TemplateParameterList *TPL = FD->getTemplateParameterList(0);
        SigHeader = Header = B.text(SourceRange(TPL->getTemplateLoc(), TPL->getRAngleLoc())) + " ";
        CharSourceRange Declared =
            Pattern->getBody()
                ? CharSourceRange::getCharRange(Pattern->getInnerLocStart(),
                                                Pattern->getBody()->getBeginLoc())
                : CharSourceRange::getTokenRange(Pattern->getInnerLocStart(),
                                                 Pattern->getEndLoc());
        Template = TemplateHeader() + "__device__ " +
                   StringRef(B.RW.getRewrittenText(Declared)).rtrim().str() + ";\n";
        GiveDefaults();
      } else {
        Written = Pattern;
        SigHeader = TemplateHeader();
        GiveDefaults();
        Header = TemplateHeader();
      }
    }
    CharSourceRange Head = CharSourceRange::getCharRange(Written->getInnerLocStart(),
                                                         Written->getBody()->getBeginLoc());
    B.noteMacrosIn(SourceRange(Head.getBegin(), Written->getBody()->getBeginLoc()));
    std::string Sig = B.HasHidden.count(FD) || B.Renamed.count(FD) || TD ||
                              B.SignatureRespelled.count(FD) || B.blankedIn(Head)
                          ? B.RW.getRewrittenText(Head)
                          : Lexer::getSourceText(Head, SM, Ctx.getLangOpts()).str();
    Out.Signatures.push_back(Template + SigHeader + "__device__ " + StringRef(Sig).rtrim().str());
    B.dropDefaults(Written);
    Out.Functions.push_back(
        Header + "__device__ " +
        B.text(SourceRange(Written->getInnerLocStart(), Written->getEndLoc())));
  }
  for (const auto &S : B.Scalars)
    Out.Scalars.push_back(
        {S.Decl, S.HostExpr, uint64_t(Ctx.getTypeSizeInChars(S.Type).getQuantity())});
  Out.HostDecls = B.HostDecls;
  Out.Macros = B.macroLines(); // after every text is taken: they find the macros
  for (const std::string &F : B.StdMath)
    Out.StdUsings.push_back("namespace std { using ::" + F + "; }");
  Out.MathErrorHelpers = B.MathErrorHelpers;
  Out.ConstantHelpers = B.ConstantHelpers;
  if (!B.ok()) // a text that could not be read, or a macro it cannot carry
    Out.Reason = B.Reason;
  return Out;
}
