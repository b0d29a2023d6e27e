//===- Spelling.cpp - How generated code names things ----------------------===//
#include "clustrix/AST/Spelling.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/CXXInheritance.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclFriend.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

#include <vector>

using namespace clang;
using namespace clustrix;

namespace {

bool isFunctionLocal(const NamedDecl *D) {
  if (isa<BindingDecl>(D))
    return true;
  if (const auto *VD = dyn_cast<VarDecl>(D))
    return VD->isLocalVarDeclOrParm() || VD->isInitCapture();
  return D->getDeclContext()->isFunctionOrMethod();
}

/// Why the context DC cannot be written in a qualified name; empty when it can. Out gets the
/// spelling with its trailing `::`.
std::string qualifier(const DeclContext *DC, std::string &Out) {
  std::vector<const DeclContext *> Chain;
  for (; DC && !DC->isTranslationUnit(); DC = DC->getParent())
    Chain.push_back(DC);
  for (auto It = Chain.rbegin(); It != Chain.rend(); ++It) {
    const DeclContext *C = *It;
    if (C->isTransparentContext() || isa<LinkageSpecDecl>(C) || isa<ExportDecl>(C))
      continue;
    if (const auto *NS = dyn_cast<NamespaceDecl>(C)) {
      if (NS->isAnonymousNamespace())
        continue; // its members are found through its enclosing namespace (checked below)
      Out += NS->getName().str() + "::";
      continue;
    }
    const auto *RD = dyn_cast<CXXRecordDecl>(C);
    if (!RD)
      return "it is declared inside a function or another scope that has no name";
    if (!RD->getIdentifier())
      return "it is a member of an unnamed class";
    if (isa<ClassTemplateSpecializationDecl>(RD) || RD->getDescribedClassTemplate())
      return "it is a member of a class template";
    Out += RD->getName().str() + "::";
  }
  return "";
}

/// Whether the qualified name through an anonymous namespace can reach D: the enclosing
/// namespace, and every namespace its using-directives nominate, declare nothing else of D's
/// name.
bool anonymousMemberIsUnique(const NamedDecl *D) {
  const DeclContext *DC = D->getDeclContext();
  while (DC && (DC->isTransparentContext() || isa<LinkageSpecDecl>(DC)))
    DC = DC->getParent();
  const auto *Anon = dyn_cast_or_null<NamespaceDecl>(DC);
  if (!Anon || !Anon->isAnonymousNamespace())
    return true;
  const DeclContext *Outer = Anon->getParent();
  while (Outer && Outer->isTransparentContext())
    Outer = Outer->getParent();
  if (!Outer || !Outer->lookup(D->getDeclName()).empty())
    return false;
  for (const UsingDirectiveDecl *UD : Outer->using_directives()) {
    const NamespaceDecl *NS = UD->getNominatedNamespace();
    if (!NS || NS->getCanonicalDecl() == Anon->getCanonicalDecl())
      continue;
    for (const NamedDecl *Other : NS->lookup(D->getDeclName()))
      if (Other->getCanonicalDecl() != D->getCanonicalDecl())
        return false;
  }
  return anonymousMemberIsUnique(Anon);
}

/// Whether context At lies inside class RD: one of its member functions, a lambda in one, a
/// nested class.
bool isWithin(const DeclContext *At, const CXXRecordDecl *RD) {
  for (const DeclContext *C = At; C; C = C->getParent())
    if (const auto *R = dyn_cast<CXXRecordDecl>(C))
      if (R->getCanonicalDecl() == RD->getCanonicalDecl())
        return true;
  return false;
}

/// Whether At, or a function or class enclosing it, is a friend of RD.
bool isFriendContext(const DeclContext *At, const CXXRecordDecl *RD) {
  const CXXRecordDecl *Def = RD->getDefinition();
  if (!Def)
    return false;
  for (const DeclContext *C = At; C; C = C->getParent()) {
    const auto *CD = dyn_cast<Decl>(C);
    if (!CD || (!isa<FunctionDecl>(CD) && !isa<CXXRecordDecl>(CD)))
      continue;
    for (const FriendDecl *F : Def->friends()) {
      if (const NamedDecl *ND = F->getFriendDecl()) {
        if (ND->getCanonicalDecl() == CD->getCanonicalDecl())
          return true;
        if (const auto *FTD = dyn_cast<FunctionTemplateDecl>(ND))
          if (const auto *FD = dyn_cast<FunctionDecl>(CD))
            if (FD->getPrimaryTemplate() &&
                FD->getPrimaryTemplate()->getCanonicalDecl() == FTD->getCanonicalDecl())
              return true;
      } else if (const TypeSourceInfo *TSI = F->getFriendType()) {
        if (const CXXRecordDecl *FR = TSI->getType()->getAsCXXRecordDecl())
          if (FR->getCanonicalDecl() == CD->getCanonicalDecl())
            return true;
      }
    }
  }
  return false;
}

/// Whether some class whose member At is derives from Base, and Naming (when given) is that
/// class or derives from it: where a protected member of Base may be named.
bool isWithinDerived(const DeclContext *At, const CXXRecordDecl *Base,
                     const CXXRecordDecl *Naming) {
  for (const DeclContext *C = At; C; C = C->getParent()) {
    const auto *R = dyn_cast<CXXRecordDecl>(C);
    if (!R || !R->hasDefinition() || !R->isDerivedFrom(Base))
      continue;
    if (!Naming || Naming->getCanonicalDecl() == R->getCanonicalDecl() ||
        (Naming->hasDefinition() && Naming->isDerivedFrom(R)))
      return true;
  }
  return false;
}

/// The canonical declaration of a variable (a redeclaration at block scope, `extern int g;`, is
/// the same entity as its global).
const Decl *canonical(const NamedDecl *D) { return D->getCanonicalDecl(); }

/// Collects the function-local names in scope at one statement.
class ScopeWalk {
public:
  explicit ScopeWalk(const Stmt *Target) : Target(Target) {}

  bool visit(const Stmt *S) {
    if (!S)
      return false;
    if (S == Target) {
      for (const auto &[Name, D] : Stack)
        Found[Name] = D;
      return true;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      // Declared after their initializers; visible to the statements after them in the block.
      for (const Decl *D : DS->decls()) {
        if (const auto *VD = dyn_cast<VarDecl>(D))
          if (visit(VD->getInit()))
            return true;
        declare(D);
      }
      return false;
    }
    size_t Mark = Stack.size();
    bool Hit = visitScoped(S);
    Stack.resize(Mark);
    return Hit;
  }

  void declare(const Decl *D) {
    if (const auto *DD = dyn_cast<DecompositionDecl>(D)) {
      for (const BindingDecl *B : DD->bindings())
        declare(B);
      return;
    }
    if (const auto *ED = dyn_cast<EnumDecl>(D))
      if (!ED->isScoped())
        for (const EnumConstantDecl *C : ED->enumerators())
          declare(C);
    if (const auto *ND = dyn_cast<NamedDecl>(D))
      if (ND->getIdentifier())
        Stack.emplace_back(ND->getName().str(), ND);
  }

  std::map<std::string, const NamedDecl *> Found;

private:
  bool visitScoped(const Stmt *S) {
    if (const auto *LE = dyn_cast<LambdaExpr>(S)) {
      for (const Expr *Init : LE->capture_inits())
        if (visit(Init))
          return true;
      for (const LambdaCapture &C : LE->captures())
        if (C.capturesVariable())
          if (const auto *VD = dyn_cast<VarDecl>(C.getCapturedVar()); VD && VD->isInitCapture())
            declare(VD);
      if (const CXXMethodDecl *Op = LE->getCallOperator())
        for (const ParmVarDecl *P : Op->parameters())
          declare(P);
      return visit(LE->getBody());
    }
    if (const auto *CS = dyn_cast<CXXCatchStmt>(S)) {
      if (CS->getExceptionDecl())
        declare(CS->getExceptionDecl());
      return visit(CS->getHandlerBlock());
    }
    for (const Stmt *C : S->children())
      if (visit(C))
        return true;
    return false;
  }

  const Stmt *Target;
  std::vector<std::pair<std::string, const NamedDecl *>> Stack;
};

} // namespace

std::string clustrix::spelledName(const NamedDecl *D) {
  if (!D->getIdentifier())
    return "";
  std::string Name = D->getName().str();
  if (isFunctionLocal(D) || !D->getASTContext().getLangOpts().CPlusPlus)
    return Name;
  std::string Qual;
  if (!qualifier(D->getDeclContext(), Qual).empty() || !anonymousMemberIsUnique(D))
    return "";
  return "::" + Qual + Name;
}

bool clustrix::isAccessibleFrom(const NamedDecl *Member, const CXXRecordDecl *Naming,
                                const DeclContext *At) {
  const auto *Parent = dyn_cast<CXXRecordDecl>(Member->getDeclContext());
  if (!Parent)
    return true;
  // A member of an anonymous struct or union is reached as a member of the enclosing class,
  // with the access of the anonymous member there.
  if (Parent->isAnonymousStructOrUnion())
    return isAccessibleFrom(Parent, Naming, At);
  if (Naming && Naming->getCanonicalDecl() != Parent->getCanonicalDecl()) {
    if (!Naming->hasDefinition())
      return false;
    CXXBasePaths Paths(/*FindAmbiguities=*/true, /*RecordPaths=*/true, /*DetectVirtual=*/false);
    if (!Naming->isDerivedFrom(Parent, Paths))
      return false;
    bool Public = false;
    for (const CXXBasePath &P : Paths)
      Public |= P.Access == AS_public;
    if (!Public && !isWithin(At, Naming) && !isFriendContext(At, Naming))
      return false;
  }
  switch (Member->getAccess()) {
  case AS_public:
  case AS_none:
    return true;
  case AS_protected:
    return isWithin(At, Parent) || isFriendContext(At, Parent) ||
           isWithinDerived(At, Parent, Naming);
  case AS_private:
    return isWithin(At, Parent) || isFriendContext(At, Parent);
  }
  return false;
}

LoopScope::LoopScope(const FunctionDecl *Enclosing, const Stmt *Loop) : Enclosing(Enclosing) {
  if (!Enclosing)
    return;
  // Start from the function that holds the lambdas around the loop: their bodies see its
  // locals.
  Outer = outermostFunction(Enclosing);
  auto Walk = [&](const FunctionDecl *F) {
    ScopeWalk W(Loop);
    for (const ParmVarDecl *P : F->parameters())
      W.declare(P);
    bool Hit = W.visit(F->getBody());
    Visible = std::move(W.Found);
    return Hit;
  };
  // A lambda outside Outer's body (in a default argument) sees only its own names.
  if (!Walk(Outer) && Outer != Enclosing)
    Walk(Enclosing);
}

std::string LoopScope::whyNotAccessible(const NamedDecl *Member,
                                        const CXXRecordDecl *Naming) const {
  if (!Enclosing || isAccessibleFrom(Member, Naming, Enclosing))
    return "";
  const auto *Parent = cast<CXXRecordDecl>(Member->getDeclContext());
  while (Parent->isAnonymousStructOrUnion() && isa<CXXRecordDecl>(Parent->getDeclContext()))
    Parent = cast<CXXRecordDecl>(Parent->getDeclContext());
  const char *Kind = Member->getAccess() == AS_private     ? "private"
                     : Member->getAccess() == AS_protected ? "protected"
                                                           : "inaccessible";
  std::string Fn = Enclosing->getDeclName().isIdentifier() ? Enclosing->getName().str()
                                                            : Enclosing->getNameAsString();
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Enclosing); MD && MD->getParent()->isLambda())
    Fn = "a lambda";
  else
    Fn = "function '" + Fn + "'";
  return "'" + Member->getNameAsString() + "' is a " + Kind + " member of '" +
         Parent->getNameAsString() + "', which code generated in " + Fn + " cannot name";
}

std::string LoopScope::whyNotNameable(const NamedDecl *D) const {
  std::string Name = D->getNameAsString();
  if (!D->getIdentifier())
    return "'" + Name + "' has no name that generated code can write";
  auto It = Visible.find(Name);
  if (isFunctionLocal(D)) {
    if (It == Visible.end())
      return "'" + Name + "' is a variable of another function, out of scope at the loop";
    // A tuple-like structured binding names its hidden reference variable.
    const auto *B = dyn_cast<BindingDecl>(It->second);
    const VarDecl *Holding = B ? B->getHoldingVar() : nullptr;
    if (canonical(It->second) != canonical(D) && !(Holding && canonical(Holding) == canonical(D)))
      return "'" + Name + "' is hidden at the loop by another declaration of that name";
    return "";
  }
  if (!D->getASTContext().getLangOpts().CPlusPlus) {
    if (It != Visible.end() && canonical(It->second) != canonical(D))
      return "'" + Name + "' is hidden at the loop by a local of that name";
    return "";
  }
  std::string Qual;
  std::string Why = qualifier(D->getDeclContext(), Qual);
  if (!Why.empty())
    return "'" + Name + "' cannot be named at the loop: " + Why;
  if (!anonymousMemberIsUnique(D))
    return "'" + Name + "' is in an unnamed namespace, and another '" + Name +
           "' makes its qualified name ambiguous";
  // A static data member, and every class on the way to it, must be accessible.
  for (const NamedDecl *M = D; M && isa<CXXRecordDecl>(M->getDeclContext());
       M = cast<CXXRecordDecl>(M->getDeclContext()))
    if (std::string Why = whyNotAccessible(M, nullptr); !Why.empty())
      return Why;
  return "";
}

std::string LoopScope::spellingAt(const NamedDecl *D) const {
  std::string Spelled = spelledName(D);
  if (Spelled.empty() || Spelled.rfind("::", 0) != 0 || !D->getIdentifier() || !Outer)
    return Spelled;
  std::string Name = D->getName().str();
  if (Spelled != "::" + Name || Visible.count(Name) ||
      !Outer->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return Spelled;
  return Name;
}

const FunctionDecl *clustrix::outermostFunction(const FunctionDecl *F) {
  while (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(F)) {
    if (!MD->getParent()->isLambda())
      break;
    const auto *Up = dyn_cast<FunctionDecl>(MD->getParent()->getDeclContext());
    if (!Up || !Up->hasBody())
      break;
    F = Up;
  }
  return F;
}

std::string clustrix::privateMemberVariable(const FieldDecl *FD, const FunctionDecl *Outer) {
  // Offsets in their own files: the same for every compile of the same sources.
  const SourceManager &SM = FD->getASTContext().getSourceManager();
  auto Offset = [&](SourceLocation L) {
    return std::to_string(SM.getFileOffset(SM.getExpansionLoc(L)));
  };
  return "__clx_pm_" + FD->getName().str() + "_" + Offset(FD->getLocation()) + "_" +
         Offset(Outer->getLocation());
}

std::string clustrix::whyTypeNotNameable(QualType T) {
  T = T.getCanonicalType();
  while (T->isPointerType() || T->isReferenceType() || T->isArrayType())
    T = T->isArrayType() ? QualType(T->getPointeeOrArrayElementType(), 0).getCanonicalType()
                         : T->getPointeeType().getCanonicalType();
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return T->isBuiltinType() || T->isEnumeralType() ? "" : "its type cannot be written";
  for (const CXXRecordDecl *R = RD; R;) {
    if (!R->getIdentifier() || R->isLocalClass())
      return "its type '" + RD->getNameAsString() + "' has no name at namespace scope";
    if (R->getAccess() == AS_private || R->getAccess() == AS_protected)
      return "its type '" + R->getNameAsString() + "' is not public";
    R = dyn_cast<CXXRecordDecl>(R->getDeclContext());
  }
  if (const auto *CTS = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    for (const TemplateArgument &A : CTS->getTemplateArgs().asArray())
      if (A.getKind() == TemplateArgument::Type)
        if (std::string Why = whyTypeNotNameable(A.getAsType()); !Why.empty())
          return Why;
  return "";
}

std::string clustrix::privateMemberDefinition(const FieldDecl *FD, const CXXRecordDecl *Naming,
                                              const FunctionDecl *Outer, std::string &Why) {
  const DeclContext *Lexical = Outer ? Outer->getLexicalDeclContext() : nullptr;
  if (!Outer || !Lexical || !Lexical->getRedeclContext()->isFileContext() ||
      Outer->isTemplated() || Outer->isTemplateInstantiation()) {
    Why = "the function that holds the loop is not at namespace scope";
    return "";
  }
  const SourceManager &SM = Outer->getASTContext().getSourceManager();
  if (!Outer->hasBody() ||
      SM.getFileID(SM.getExpansionLoc(Outer->getBeginLoc())) !=
          SM.getFileID(SM.getExpansionLoc(Outer->getBody()->getBeginLoc()))) {
    Why = "the function that holds the loop does not begin in the file of its body";
    return "";
  }
  const auto *RD = dyn_cast<CXXRecordDecl>(FD->getParent());
  if (!RD || RD->isAnonymousStructOrUnion() || !FD->getIdentifier()) {
    Why = "it is a member of an unnamed class";
    return "";
  }
  if (Naming && Naming->getCanonicalDecl() != RD->getCanonicalDecl()) {
    CXXBasePaths Paths(/*FindAmbiguities=*/true, /*RecordPaths=*/true, /*DetectVirtual=*/false);
    bool Public = false;
    if (Naming->hasDefinition() && Naming->isDerivedFrom(RD, Paths))
      for (const CXXBasePath &Path : Paths)
        Public |= Path.Access == AS_public;
    if (!Public || Paths.isAmbiguous(FD->getASTContext().getCanonicalType(FD->getASTContext().getRecordType(RD)))) {
      Why = "'" + Naming->getNameAsString() + "' reaches it through a base that is not public";
      return "";
    }
  }
  if (std::string W = whyTypeNotNameable(FD->getType()); !W.empty()) {
    Why = W;
    return "";
  }
  if (std::string W = whyTypeNotNameable(FD->getASTContext().getRecordType(RD)); !W.empty()) {
    Why = W;
    return "";
  }
  // The types are printed qualified from their outermost namespace, without `::`: a namespace
  // around Outer that declares the same first name would capture them.
  const NamedDecl *First = RD;
  for (const DeclContext *C = RD->getDeclContext(); C && !C->isTranslationUnit();
       C = C->getParent())
    if (const auto *ND = dyn_cast<NamedDecl>(C); ND && ND->getIdentifier())
      First = ND;
  for (const DeclContext *C = Lexical->getRedeclContext(); C && !C->isTranslationUnit();
       C = C->getParent())
    for (const NamedDecl *Other : C->lookup(First->getDeclName()))
      if (Other->getCanonicalDecl() != First->getCanonicalDecl()) {
        Why = "'" + First->getNameAsString() + "' means something else where the function is";
        return "";
      }
  const ASTContext &Ctx = FD->getASTContext();
  PrintingPolicy P(Ctx.getLangOpts());
  P.SuppressTagKeyword = true;
  P.FullyQualifiedName = true;
  P.PrintCanonicalTypes = true;
  QualType MP = Ctx.getMemberPointerType(FD->getType(), Ctx.getRecordType(RD).getTypePtr());
  std::string Type = MP.getAsString(P);
  std::string Class = Ctx.getRecordType(RD).getAsString(P);
  if (Type.find("(anonymous") != std::string::npos || Type.find("(unnamed") != std::string::npos ||
      Type.find("(lambda") != std::string::npos) {
    Why = "its type cannot be written";
    return "";
  }
  std::string V = privateMemberVariable(FD, Outer);
  std::string Tag = V + "_tag", Def = V + "_def";
  // Every name declared here is reserved (`__clx_`): a user's macro (`#define M 40`, `#define
  // type int`) must not reach into it.
  return "struct " + Tag + " {\n  using __clx_type = " + Type + ";\n  friend constexpr __clx_type " +
         V + "_get(" + Tag + ");\n};\ntemplate <" + Tag + "::__clx_type __clx_member> struct " +
         Def + " {\n  friend constexpr " + Tag + "::__clx_type " + V + "_get(" + Tag +
         ") { return __clx_member; }\n};\ntemplate struct " + Def + "<&::" + Class + "::" +
         FD->getName().str() + ">;\nstatic constexpr " + Tag + "::__clx_type " + V + " = " + V +
         "_get(" + Tag + "{});\n";
}

std::string clustrix::displayMemberNames(const std::string &Name) {
  std::string Out = Name;
  for (size_t At; (At = Out.find("__clx_pm_")) != std::string::npos;) {
    size_t Op = Out.rfind('*', At);
    size_t Open = Op == std::string::npos ? std::string::npos : Out.rfind('(', Op);
    size_t Close = Out.find(')', At);
    if (Open == std::string::npos || Close == std::string::npos || Op < 1)
      break;
    bool Arrow = Out[Op - 1] == '>';
    std::string Base = Out.substr(Open + 1, Op - Open - (Arrow ? 3 : 2));
    std::string Rest = Out.substr(At + 9, Close - At - 9); // field_loc_loc
    size_t Cut = Rest.rfind('_');
    Cut = Cut == std::string::npos ? Cut : Rest.rfind('_', Cut - 1);
    std::string Field = Rest.substr(0, Cut);
    Out = Out.substr(0, Open) + Base + (Arrow ? "->" : ".") + Field + Out.substr(Close + 1);
  }
  return Out;
}
