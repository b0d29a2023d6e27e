//===- Instantiation.cpp - Loops in templates -----------------------------===//
//
// The walk goes outward from the function that holds the loop, in the template definition and
// in the instantiation side by side: a generic lambda's call operator, the function template,
// the class templates around a member (whose parameters an out-of-line definition may name
// differently), and the function around a local class or a lambda, up to namespace scope.
//
//===----------------------------------------------------------------------===//
#include "clustrix/AST/Instantiation.h"
#include "clustrix/AST/Spelling.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/QualTypeNames.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace clustrix;

namespace {

/// One level of template parameters and the arguments an instantiation gave them.
struct Level {
  const TemplateParameterList *Params;
  ArrayRef<TemplateArgument> Args;
};

/// Whether S declares a variable named Name (which `decltype(Name)` at the loop might mean).
bool declaresName(const Stmt *S, StringRef Name) {
  if (!S)
    return false;
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (const auto *ND = dyn_cast<NamedDecl>(D); ND && ND->getName() == Name)
        return true;
  if (const auto *L = dyn_cast<LambdaExpr>(S))
    return declaresName(L->getBody(), Name);
  for (const Stmt *C : S->children())
    if (declaresName(C, Name))
      return true;
  return false;
}

class Binder {
public:
  Binder(ASTContext &Ctx, InstantiationKey &Out) : Ctx(Ctx), Out(Out) {
    Policy.SuppressTagKeyword = true;
    Policy.SuppressScope = false;
  }

  bool fail(std::string Why) {
    if (Out.Reason.empty())
      Out.Reason = std::move(Why);
    return false;
  }

  /// The parameters of L bound to its arguments, appended to Bound.
  bool bindLevel(const Level &L, std::vector<TemplateBinding> &Bound) {
    if (L.Params->size() != L.Args.size())
      return fail("its template parameters and arguments do not pair up");
    for (unsigned K = 0; K < L.Params->size(); ++K)
      if (!bind(L.Params->getParam(K), L.Args[K], Bound))
        return false;
    return true;
  }

  /// A generic lambda's parameters of invented type (`auto x`): `decltype(x)` names the type
  /// that the instantiation deduced.
  bool bindInvented(const FunctionDecl *P, const FunctionDecl *I) {
    if (P->getNumParams() != I->getNumParams())
      return fail("its parameters do not pair up");
    for (unsigned K = 0; K < P->getNumParams(); ++K) {
      const ParmVarDecl *PP = P->getParamDecl(K);
      if (!PP->getType()->isDependentType())
        continue;
      if (!PP->getIdentifier())
        return fail("parameter " + std::to_string(K + 1) + " of the generic lambda has no name");
      if (declaresName(P->getBody(), PP->getName()))
        return fail("a declaration in the generic lambda hides its parameter '" +
                    PP->getName().str() + "'");
      QualType A = I->getParamDecl(K)->getType();
      std::string Host;
      if (!spell(A, "parameter '" + PP->getName().str() + "'", Host))
        return false;
      Conditions.push_back("::std::is_same<decltype(" + PP->getName().str() + "), " + Host +
                           ">::value");
    }
    return true;
  }

  std::vector<std::string> Conditions;

private:
  bool spell(QualType A, const std::string &What, std::string &Host) {
    const CXXRecordDecl *RD = A.getNonReferenceType()->getPointeeCXXRecordDecl();
    if (!RD)
      RD = A.getNonReferenceType()->getAsCXXRecordDecl();
    if (RD && RD->isLambda())
      return fail("the type of " + What + " in this instantiation is a lambda's, which has no "
                  "name the template could test");
    if (std::string Why = whyTypeNotNameable(A); !Why.empty())
      return fail("the type of " + What + " in this instantiation, '" +
                  A.getAsString(Policy) + "', cannot be named in the template: " + Why);
    Host = TypeName::getFullyQualifiedName(A.getCanonicalType(), Ctx, Policy,
                                           /*WithGlobalNsPrefix=*/true);
    return true;
  }

  bool bind(const NamedDecl *Param, const TemplateArgument &Arg,
            std::vector<TemplateBinding> &Bound) {
    std::string Name = Param->getName().str();
    if (Param->isTemplateParameterPack())
      return fail("template parameter pack '" + Name + "' is not supported");
    if (isa<TemplateTypeParmDecl>(Param) && cast<TemplateTypeParmDecl>(Param)->isImplicit())
      return true; // a generic lambda's `auto`: bindInvented
    if (Name.empty())
      return fail("a template parameter without a name cannot be tested in the template");
    TemplateBinding B;
    B.Name = Name;
    if (isa<TemplateTypeParmDecl>(Param)) {
      if (Arg.getKind() != TemplateArgument::Type)
        return fail("the argument of template parameter '" + Name + "' is not a type");
      B.IsType = true;
      B.Type = Arg.getAsType().getCanonicalType();
      if (!spell(B.Type, "template parameter '" + Name + "'", B.HostValue))
        return false;
      Conditions.push_back("::std::is_same<" + Name + ", " + B.HostValue + ">::value");
    } else if (const auto *NT = dyn_cast<NonTypeTemplateParmDecl>(Param)) {
      if (Arg.getKind() != TemplateArgument::Integral)
        return fail("template parameter '" + Name + "' is not an integer");
      B.Type = Arg.getIntegralType().getCanonicalType();
      if (!B.Type->isIntegralType(Ctx) || B.Type->isEnumeralType())
        return fail("template parameter '" + Name + "' of type '" +
                    NT->getType().getAsString(Policy) + "' is not an integer");
      B.HostValue = literal(Arg.getAsIntegral(), B.Type);
      Conditions.push_back("(" + Name + " == " + B.HostValue + ")");
    } else {
      return fail("template template parameter '" + Name + "' is not supported");
    }
    Bound.push_back(std::move(B));
    return true;
  }

  /// V as an integer literal of a type that holds it: `4`, `-4LL`, `18446744073709551615ULL`.
  static std::string literal(const llvm::APSInt &V, QualType T) {
    if (T->isBooleanType())
      return V.getBoolValue() ? "true" : "false";
    if (V.isUnsigned())
      return llvm::toString(V, 10) + "ULL";
    if (V.isMinSignedValue() && V.getBitWidth() == 64)
      return "(-9223372036854775807LL - 1)";
    return llvm::toString(V, 10) + "LL";
  }

  ASTContext &Ctx;
  InstantiationKey &Out;
  PrintingPolicy Policy{Ctx.getLangOpts()};
};

const CXXRecordDecl *lambdaClass(const FunctionDecl *F) {
  const auto *M = dyn_cast<CXXMethodDecl>(F);
  return M && M->getParent()->isLambda() ? M->getParent() : nullptr;
}

/// F as diagnostics name an instantiation: `Stream<float>::copy`, and for a lambda's call
/// operator its parameter types and the function it is in: `lambda(double *, int) in main`.
std::string displayName(const FunctionDecl *F) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  if (const CXXRecordDecl *L = lambdaClass(F)) {
    OS << "lambda(";
    for (unsigned K = 0; K < F->getNumParams(); ++K)
      OS << (K ? ", " : "") << F->getParamDecl(K)->getType().getAsString();
    OS << ")";
    if (const auto *Up = dyn_cast<FunctionDecl>(L->getDeclContext()))
      OS << " in " << displayName(Up);
    return S;
  }
  F->getNameForDiagnostic(OS, F->getASTContext().getPrintingPolicy(), /*Qualified=*/true);
  return S;
}

} // namespace

bool clustrix::isTemplatePattern(const FunctionDecl *F) { return F && F->isDependentContext(); }

bool clustrix::isInstantiated(const FunctionDecl *F) {
  for (const DeclContext *DC = F; DC; DC = DC->getParent()) {
    if (const auto *FD = dyn_cast<FunctionDecl>(DC)) {
      if (FD->isTemplateInstantiation())
        return true;
    } else if (const auto *RD = dyn_cast<CXXRecordDecl>(DC)) {
      TemplateSpecializationKind K = RD->getTemplateSpecializationKind();
      if (K != TSK_Undeclared && K != TSK_ExplicitSpecialization)
        return true;
    }
  }
  return false;
}

InstantiationKey clustrix::describeInstantiation(const FunctionDecl *Pattern,
                                                 const FunctionDecl *Inst, ASTContext &Ctx) {
  InstantiationKey Out;
  Binder B(Ctx, Out);
  Out.DisplayName = displayName(Inst);
  // Innermost level first; reversed at the end.
  std::vector<std::vector<TemplateBinding>> Levels;
  const FunctionDecl *P = Pattern, *I = Inst;
  while (P && I && P != I) {
    if (Out.RequestedAt.isInvalid())
      Out.RequestedAt = I->getPointOfInstantiation();
    Levels.emplace_back();
    if (const FunctionTemplateDecl *FT = P->getDescribedFunctionTemplate()) {
      const TemplateArgumentList *Args = I->getTemplateSpecializationArgs();
      if (!Args) {
        B.fail("its template arguments are not known");
        return Out;
      }
      if (!B.bindLevel({FT->getTemplateParameters(), Args->asArray()}, Levels.back()))
        return Out;
      if (lambdaClass(P) && !B.bindInvented(P, I))
        return Out;
    }
    if (const CXXRecordDecl *PL = lambdaClass(P)) {
      const CXXRecordDecl *IL = lambdaClass(I);
      P = dyn_cast<FunctionDecl>(PL->getDeclContext());
      I = IL ? dyn_cast<FunctionDecl>(IL->getDeclContext()) : nullptr;
      continue;
    }
    // The class templates around a member function, innermost first.
    std::vector<Level> Classes;
    const DeclContext *PC = P->getDeclContext(), *IC = I->getDeclContext();
    while (isa<CXXRecordDecl>(PC) && isa<CXXRecordDecl>(IC) && PC != IC) {
      const auto *PR = cast<CXXRecordDecl>(PC);
      if (const auto *CTS = dyn_cast<ClassTemplateSpecializationDecl>(IC)) {
        if (Out.RequestedAt.isInvalid())
          Out.RequestedAt = CTS->getPointOfInstantiation();
        if (const auto *Partial = dyn_cast<ClassTemplatePartialSpecializationDecl>(PR))
          Classes.push_back({Partial->getTemplateParameters(),
                             CTS->getTemplateInstantiationArgs().asArray()});
        else if (const ClassTemplateDecl *CT = PR->getDescribedClassTemplate())
          Classes.push_back({CT->getTemplateParameters(), CTS->getTemplateArgs().asArray()});
      }
      PC = PC->getParent();
      IC = IC->getParent();
    }
    // An out-of-line member names the class templates' parameters in its own lists, outermost
    // first: those are the names its body uses.
    unsigned Lists = P->getNumTemplateParameterLists();
    if (Lists > 0) {
      if (Lists != Classes.size()) {
        B.fail("its template parameter lists do not match the class templates around it");
        return Out;
      }
      for (unsigned K = 0; K < Lists; ++K)
        Classes[Lists - 1 - K].Params = P->getTemplateParameterList(K);
    }
    for (const Level &L : Classes)
      if (!B.bindLevel(L, Levels.back()))
        return Out;
    P = dyn_cast<FunctionDecl>(PC);
    I = dyn_cast<FunctionDecl>(IC);
  }
  for (auto It = Levels.rbegin(); It != Levels.rend(); ++It)
    for (TemplateBinding &TB : *It)
      Out.Bindings.push_back(std::move(TB));
  if (B.Conditions.empty()) {
    B.fail("no template parameter tells this instantiation apart");
    return Out;
  }
  for (const std::string &C : B.Conditions)
    Out.Condition += (Out.Condition.empty() ? "" : " && ") + C;
  return Out;
}
