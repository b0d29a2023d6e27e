//===- WalkCalls.cpp - Calls, constructors and methods in the walk ---------===//
//
// A call whose definition is visible is inlined into the walk: its parameters are bound to the
// caller's arguments (references and pointers resolve to what the caller passed, values are the
// callee's own), and `this` of a method to the object it is called on. Constructors run their
// member initializers and body the same way. Library calls are allowed only where a device has
// them (math functions); everything else that cannot be followed is refused.
//
//===----------------------------------------------------------------------===//
#include "BodyWalker.h"

#include "clustrix/AST/MathFunctions.h"

#include "clang/AST/Attr.h"

#include <functional>

using namespace clang;

namespace clustrix {
namespace analysis {

using Event = CostModel::Event;

static std::vector<const Expr *> argsOf(const CallExpr *CE, unsigned First) {
  std::vector<const Expr *> Args;
  for (unsigned I = First; I < CE->getNumArgs(); ++I)
    Args.push_back(CE->getArg(I));
  return Args;
}

void BodyWalker::walkPlainCall(const CallExpr *E, Use U) {
  walkCall(E, E->getDirectCallee(), argsOf(E, 0), U);
}

void BodyWalker::walkOperatorCall(const CXXOperatorCallExpr *Op, Use U) {
  OverloadedOperatorKind K = Op->getOperator();
  if (K == OO_Subscript) {
    // Only a standard container's operator[] is an element access; a user's may return any
    // reference.
    if (!isStdContainer(Op->getArg(0)->getType())) {
      refuse(RejectKind::UnsupportedCall,
             "calls '" + (Op->getDirectCallee() ? Op->getDirectCallee()->getQualifiedNameAsString()
                                                : std::string("operator[]")) +
                 "', whose returned reference the analysis cannot follow",
             Op->getBeginLoc(), "call here");
      return;
    }
    walkLValue(Op, U);
    return;
  }
  const FunctionDecl *FD = Op->getDirectCallee();
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
  if (K == OO_Call && MD && MD->getParent()->isLambda()) {
    // A mutable lambda changes its own captured copies: the lambda object is written. In the
    // lambda's body, `this` is the enclosing object's, captured: not the lambda object.
    walkExpr(Op->getArg(0), MD->isConst() ? Use::Read : Use::ReadWrite);
    walkCall(Op, MD, argsOf(Op, 1), U);
    return;
  }
  if (K == OO_LessLess || K == OO_GreaterGreater) {
    QualType T = Op->getArg(0)->getType().getNonReferenceType();
    if (const auto *RD = T->getAsCXXRecordDecl(); RD && RD->isInStdNamespace()) {
      refuse(RejectKind::UnsupportedConstruct, "stream I/O cannot happen on a device",
             Op->getBeginLoc(), "I/O here");
      return;
    }
  }
  bool Assign = K == OO_Equal || (K >= OO_PlusEqual && K <= OO_PipeEqual);
  if (Assign && MD && (MD->isTrivial() || MD->isDefaulted())) {
    // A copy or move assignment the compiler writes: the object is written (or updated) from
    // the other one, member by member.
    walkExpr(Op->getArg(0), K == OO_Equal ? Use::Write : Use::ReadWrite);
    walkExpr(Op->getArg(1), Use::Read);
    return;
  }
  // A member operator: the left operand is the object, as for a member call.
  if (MD && MD->isInstance() && !MD->getParent()->isInStdNamespace()) {
    const Expr *Obj = Op->getArg(0);
    walkChildrenRead(Obj, Use::Read);
    walkCall(Op, MD, argsOf(Op, 1), U, Obj);
    return;
  }
  if (Assign && MD && MD->getParent()->isInStdNamespace()) {
    walkExpr(Op->getArg(0), K == OO_Equal ? Use::Write : Use::ReadWrite);
    walkExpr(Op->getArg(1), Use::Read);
    return;
  }
  walkCall(Op, FD, argsOf(Op, 0), U);
}

void BodyWalker::walkMemberCall(const CXXMemberCallExpr *MC, Use U) {
  const CXXMethodDecl *MD = MC->getMethodDecl();
  const Expr *Obj = MC->getImplicitObjectArgument();
  if (!MD || !Obj) {
    refuse(RejectKind::UnsupportedCall,
           "calls a member through a pointer the analysis cannot follow", MC->getBeginLoc(),
           "call here");
    return;
  }
  if (MD->isVirtual() && !MD->hasAttr<FinalAttr>() && !MD->getParent()->hasAttr<FinalAttr>()) {
    refuse(RejectKind::UnsupportedCall,
           "calls virtual function '" + MD->getQualifiedNameAsString() + "'", MC->getBeginLoc(),
           "virtual call here");
    return;
  }
  StringRef Name = MD->getIdentifier() ? MD->getName() : "";
  QualType ObjT = Obj->getType();
  if (ObjT->isPointerType())
    ObjT = ObjT->getPointeeType();
  bool IsVector = false;
  if (isStdContainer(ObjT, &IsVector)) {
    if (Name == "size" || Name == "empty" || Name == "max_size") {
      walkContainerMeta(Obj);
      return;
    }
    if (IsVector && (Name == "push_back" || Name == "emplace_back")) {
      walkAppend(MC, Obj);
      return;
    }
    if (Name == "data") {
      walkLValue(Obj, Use::ReadWrite);
      return;
    }
    if (Name == "at") {
      refuse(RejectKind::UnsupportedCall,
             "'at' may throw, which a device cannot do; use operator[]", MC->getBeginLoc(),
             "call here");
      return;
    }
    refuse(RejectKind::UnsupportedCall,
           "calls '" + Name.str() + "' on a standard container, which cannot happen on a device",
           MC->getBeginLoc(), "call here");
    return;
  }
  if (const auto *RD = ObjT->getAsCXXRecordDecl(); RD && RD->isInStdNamespace()) {
    bool Atomic = RD->getName().starts_with("atomic");
    refuse(RejectKind::UnsupportedCall,
           (Atomic ? "atomic operations on host objects ('" : "calls '") +
               MD->getQualifiedNameAsString() + "'" +
               (Atomic ? ")" : ", which has no device version"),
           MC->getBeginLoc(), "call here");
    return;
  }
  if (MD->isStatic()) {
    walkCall(MC, MD, argsOf(MC, 0), U);
    return;
  }
  // A user method: `this` in it is the object, and every member it uses resolves through it
  // (WalkPlaces.cpp: walkThisMember). An object the walk cannot follow is refused here.
  if (Obj->getType()->isPointerType() && !isa<CXXThisExpr>(Obj->IgnoreParenImpCasts())) {
    PointerRef P = resolvePointer(Obj);
    if (!P.Ok) {
      refuse(RejectKind::UnsupportedCall,
             "calls '" + MD->getQualifiedNameAsString() +
                 "' on an object the analysis cannot follow",
             MC->getBeginLoc(), "call here");
      return;
    }
  } else if (!Obj->getType()->isPointerType()) {
    // The subscripts of `a[f(i)].m()`; the object itself is what the method uses of it. A const
    // method's object (or a base class's) comes through a cast to the same lvalue.
    const Expr *Whole = Obj->IgnoreParens();
    while (const auto *ICE = dyn_cast<ImplicitCastExpr>(Whole)) {
      CastKind K = ICE->getCastKind();
      if (K != CK_NoOp && K != CK_DerivedToBase && K != CK_UncheckedDerivedToBase)
        break;
      Whole = ICE->getSubExpr()->IgnoreParens();
    }
    walkChildrenRead(Whole, Use::Read);
  }
  walkCall(MC, MD, argsOf(MC, 0), U, Obj);
}

void BodyWalker::walkConstruct(const CXXConstructExpr *CE, Use) {
  QualType T = CE->getType();
  checkLocalType(T, CE->getBeginLoc(), typeString(T, Ctx));
  const CXXConstructorDecl *Ctor = CE->getConstructor();
  const FunctionDecl *Def = nullptr;
  // The standard library's constructors only initialize the object from their arguments; a
  // trivial one copies or zeroes members. Either reads the arguments, no more. Any other
  // constructor, a defaulted one included (it runs default member initializers), is walked.
  bool Trusted = !Ctor || Ctor->isTrivial() || Ctor->getParent()->isInStdNamespace();
  if (Trusted || !Ctor->hasBody(Def) || !Def) {
    if (!Trusted) {
      refuse(RejectKind::UnsupportedCall,
             "constructs '" + typeString(T, Ctx) +
                 "', whose constructor is not visible in this translation unit",
             CE->getBeginLoc(), "construction here");
      return;
    }
    for (const Expr *A : CE->arguments())
      if (!isa<CXXDefaultArgExpr>(A) || !Ctor || !Ctor->getParent()->isInStdNamespace())
        walkExpr(A, Use::Read); // the library's own defaults (allocators) are its business
    return;
  }
  std::vector<const Expr *> Args(CE->arguments().begin(), CE->arguments().end());
  walkCall(CE, Ctor, Args, Use::Read, nullptr, /*ThisPrivate=*/true);
}

// --- Inlined calls ------------------------------------------------------------------------------

/// Whether a printf-style format converts no `%n` (which writes through its argument).
static bool formatWritesNothing(const Expr *E) {
  const auto *S = dyn_cast<StringLiteral>(E->IgnoreParenImpCasts());
  if (!S || !S->isOrdinary())
    return false;
  StringRef F = S->getString();
  for (size_t I = 0; I < F.size(); ++I) {
    if (F[I] != '%')
      continue;
    ++I;
    while (I < F.size() && StringRef("-+ #0123456789.*hlLqjzt'").contains(F[I]))
      ++I;
    if (I < F.size() && F[I] == 'n')
      return false;
  }
  return true;
}

/// A C library call that writes values to a stdio stream and reads nothing through a pointer
/// but a literal string and the stream: printf and fprintf with a literal format and
/// arithmetic or literal arguments, putchar, putc, fputc, and puts or fputs of a literal.
static bool isStreamOutput(const FunctionDecl *FD, const std::string &Name,
                           llvm::ArrayRef<const Expr *> Args) {
  if (FD->hasBody() || !(FD->getDeclContext()->isTranslationUnit() || FD->isInStdNamespace() ||
                         FD->getDeclContext()->isExternCContext()))
    return false;
  auto IsStream = [](const Expr *E) {
    QualType T = E->IgnoreParenImpCasts()->getType();
    if (!T->isPointerType())
      return false;
    const auto *RD = T->getPointeeType()->getAsRecordDecl();
    const auto *TD = T->getPointeeType()->getAs<TypedefType>();
    return (TD && TD->getDecl()->getName() == "FILE") ||
           (RD && (RD->getName() == "_IO_FILE" || RD->getName() == "FILE"));
  };
  auto IsLiteral = [](const Expr *E) { return isa<StringLiteral>(E->IgnoreParenImpCasts()); };
  auto IsValue = [&](const Expr *E) {
    return E->getType()->isArithmeticType() || IsLiteral(E);
  };
  size_t First = 0;
  if (Name == "printf" || Name == "fprintf") {
    if (Name == "fprintf" && (Args.empty() || !IsStream(Args[0])))
      return false;
    First = Name == "fprintf" ? 1 : 0;
    if (Args.size() <= First || !formatWritesNothing(Args[First]))
      return false;
    return llvm::all_of(Args.drop_front(First + 1), IsValue);
  }
  if (Name == "putchar")
    return Args.size() == 1 && Args[0]->getType()->isArithmeticType();
  if (Name == "putc" || Name == "fputc")
    return Args.size() == 2 && Args[0]->getType()->isArithmeticType() && IsStream(Args[1]);
  if (Name == "puts")
    return Args.size() == 1 && IsLiteral(Args[0]);
  if (Name == "fputs")
    return Args.size() == 2 && IsLiteral(Args[0]) && IsStream(Args[1]);
  return false;
}

bool BodyWalker::refuseLibraryCall(const Expr *CE, const FunctionDecl *FD,
                                   const std::string &Name, llvm::ArrayRef<const Expr *> Args) {
  // The OpenMP runtime's queries of the team: no memory effect, but no meaning on a device or
  // a worker of Clustrix's either.
  static const llvm::StringSet<> OmpQueries = {
      "omp_get_thread_num", "omp_get_num_threads", "omp_get_max_threads", "omp_in_parallel",
      "omp_get_level", "omp_get_team_num", "omp_get_num_teams"};
  if (!FD->hasBody() && FD->getDeclContext()->isTranslationUnit() && Args.empty() &&
      OmpQueries.contains(Name)) {
    if (RejectReason *Added =
            Log.add(RejectKind::UnsupportedCall,
                    "calls '" + Name + "', a query of the OpenMP runtime, whose answer on "
                    "Clustrix's workers is not OpenMP's",
                    CE->getBeginLoc(), "call here"))
      Added->ThreadSafeCall = true;
    return true;
  }
  if (isStreamOutput(FD, Name, Args)) {
    for (const Expr *A : Args)
      walkExpr(A, Use::Read);
    // Worded as for any other I/O call (below).
    bool Builtin = FD->getBuiltinID() && Ctx.BuiltinInfo.isPredefinedLibFunction(FD->getBuiltinID());
    if (RejectReason *Added = Log.add(
            RejectKind::UnsupportedConstruct,
            "calls '" + Name + "', which cannot run on a device" +
                (Builtin ? "" : " (I/O, allocation or process state)"),
            CE->getBeginLoc(), "call here"))
      Added->ThreadSafeCall = true;
    return true;
  }
  if (unsigned B = FD->getBuiltinID()) {
    if (Ctx.BuiltinInfo.isPredefinedLibFunction(B) || isMathFunction(Name) ||
        Name.rfind("__builtin_", 0) == 0) {
      if (isIOOrAllocName(Name) || Name.find("atomic") != std::string::npos ||
          Name.rfind("__sync", 0) == 0) {
        refuse(RejectKind::UnsupportedConstruct,
               "calls '" + Name + "', which cannot run on a device", CE->getBeginLoc(),
               "call here");
        return true;
      }
    }
  }
  if (isIOOrAllocName(Name) && (!FD->hasBody() || FD->isInStdNamespace() ||
                                FD->getDeclContext()->isTranslationUnit())) {
    refuse(RejectKind::UnsupportedConstruct,
           "calls '" + Name + "', which cannot run on a device (I/O, allocation or process "
           "state)",
           CE->getBeginLoc(), "call here");
    return true;
  }
  bool ByValue = llvm::all_of(FD->parameters(), [](const ParmVarDecl *P) {
    return P->getType()->isArithmeticType();
  });
  if (isMathFunction(Name) && (FD->isInStdNamespace() || FD->getBuiltinID() != 0 ||
                               (!FD->hasBody() && ByValue))) {
    if (std::find(R.MathCalls.begin(), R.MathCalls.end(), Name) == R.MathCalls.end())
      R.MathCalls.push_back(Name);
    for (const Expr *A : Args)
      walkExpr(A, Use::Read);
    Facts.Cost.mathCall();
    return true;
  }
  if (FD->isInStdNamespace()) {
    refuse(RejectKind::UnsupportedCall,
           "calls '" + FD->getQualifiedNameAsString() + "', which has no device version",
           CE->getBeginLoc(), "call here");
    return true;
  }
  return false;
}

/// Site is the call or construct expression, Args the arguments bound to FD's parameters in
/// order, U how the caller uses the result (for a returned reference). ThisArg: the object of a member call, in the current frame; ThisPrivate: `this` is
/// an object the body constructs.
void BodyWalker::walkCall(const Expr *Site, const FunctionDecl *FD,
                          llvm::ArrayRef<const Expr *> Args, Use U, const Expr *ThisArg,
                          bool ThisPrivate) {
  SourceLocation Loc = Site->getBeginLoc();
  if (!FD) {
    refuse(RejectKind::UnsupportedCall, "calls through a function pointer", Loc,
           "indirect call here");
    for (const Expr *A : Args)
      walkExpr(A, Use::Read);
    return;
  }
  std::string Name = FD->getIdentifier() ? FD->getName().str() : FD->getNameAsString();
  if (refuseLibraryCall(Site, FD, Name, Args))
    return;
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def) {
    refuse(RejectKind::UnsupportedCall,
           "calls '" + FD->getQualifiedNameAsString() +
               "', whose definition is not visible in this translation unit",
           Loc, "call here");
    return;
  }
  if (Def->isVariadic()) {
    refuse(RejectKind::UnsupportedCall,
           "calls variadic function '" + FD->getQualifiedNameAsString() + "'", Loc, "call here");
    return;
  }
  for (const Frame *F = Cur; F; F = F->Parent)
    if (F->Fn == Def) {
      refuse(RejectKind::UnsupportedCall,
             "calls '" + FD->getQualifiedNameAsString() + "' recursively", Loc,
             "recursive call here");
      return;
    }
  if (CallDepth >= 8) {
    refuse(RejectKind::UnsupportedCall, "calls are nested more than 8 deep", Loc);
    return;
  }
  Frame Callee;
  Callee.Parent = Cur;
  Callee.Fn = Def;
  Callee.ReturnUse = U;
  collectRewritten(Def->getBody(), Callee.Rewritten);
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
    for (const CXXCtorInitializer *I : Ctor->inits())
      collectRewritten(I->getInit(), Callee.Rewritten);
  if (ThisPrivate) {
    Callee.ThisBound = Callee.ThisPrivate = true;
  } else if (ThisArg) {
    Callee.ThisBound = true;
    Callee.ThisArg = {ThisArg, Cur};
    if (const auto *MD = dyn_cast<CXXMethodDecl>(Def))
      Callee.ThisConst = MD->isConst();
  }
  bindArguments(Def, Args, Callee);
  inlineBody(Def, Callee, Def->getBody(), dyn_cast<CXXConstructorDecl>(Def));
  if (std::find(R.Callees.begin(), R.Callees.end(), Def) == R.Callees.end() &&
      !isa<CXXConstructorDecl>(Def))
    R.Callees.push_back(Def);
}

/// Binds Def's parameters to Args. References, pointers and arrays resolve to what the caller
/// passed; values are walked here and are the callee's own (an integer value defined once is
/// its argument's polynomial).
void BodyWalker::bindArguments(const FunctionDecl *Def, llvm::ArrayRef<const Expr *> Args,
                               Frame &Callee) {
  for (unsigned P = 0; P < Args.size() && P < Def->getNumParams(); ++P) {
    const ParmVarDecl *PV = Def->getParamDecl(P);
    const Expr *A = Args[P];
    QualType PT = PV->getType();
    Callee.Params[PV] = {A, Cur};
    if (PT->isReferenceType() || PT->isPointerType())
      continue; // resolved where the callee uses it
    walkExpr(A, Use::Read);
    if (PT->isIntegerType() && !Callee.Rewritten.count(PV)) {
      Polynomial Pol = polyOf(A);
      if (Pol.isValid())
        Callee.IntDefs[PV] = Pol;
      Polynomial X = polyOf(A, /*Exact=*/true);
      if (X.isValid())
        Callee.ExactDefs[PV] = X;
    }
  }
}

void BodyWalker::inlineBody(const FunctionDecl *Def, Frame &Callee, const Stmt *Body,
                            const CXXConstructorDecl *Ctor) {
  std::set<const VarDecl *> SavedLocals = Locals;
  const Frame *Saved = Cur;
  const bool SavedLeft = MayHaveLeft;
  const unsigned SavedCallCond = CallCondDepth;
  CallCondDepth = CondDepth;
  Cur = &Callee;
  ++CallDepth;
  for (const ParmVarDecl *PV : Def->parameters()) {
    QualType PT = PV->getType();
    if (!PT->isReferenceType() && !PT->isPointerType() && !isArrayLike(PT))
      Locals.insert(PV);
  }
  if (Ctor)
    for (const CXXCtorInitializer *I : Ctor->inits()) {
      if (I->isAnyMemberInitializer() || I->isBaseInitializer() || I->isDelegatingInitializer())
        walkExpr(I->getInit(), Use::Read);
      else
        refuse(RejectKind::UnsupportedConstruct,
               "constructor '" + Ctor->getQualifiedNameAsString() +
                   "' has an initializer the analysis does not model",
               I->getSourceLocation());
    }
  walkStmt(Body);
  --CallDepth;
  Cur = Saved;
  MayHaveLeft = SavedLeft; // a return leaves the callee only
  CallCondDepth = SavedCallCond;
  Locals = SavedLocals;
  Facts.Cost.note(Event::Call);
}

void BodyWalker::walkContainerMeta(const Expr *Obj) {
  const Expr *Base = Obj->IgnoreParenImpCasts();
  if (const auto *DR = dyn_cast<DeclRefExpr>(Base))
    if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl())) {
      Facts.MetaUses[VD].push_back(Obj);
      return;
    }
  // The size of a container reached otherwise: reading it needs the object.
  walkLValue(Obj, Use::Read, /*Partial=*/true);
}

void BodyWalker::walkAppend(const CXXMemberCallExpr *MC, const Expr *Obj) {
  const auto *DR = dyn_cast<DeclRefExpr>(Obj->IgnoreParenImpCasts());
  const auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  if (VD && isPrivate(VD) && !VD->getType()->isReferenceType())
    return; // a vector private to the iteration: allocation is refused by its declaration
  if (!VD || Cur->Fn) {
    refuse(RejectKind::AppendMisuse, "appends to a container the analysis cannot identify",
           MC->getBeginLoc(), "append here");
    return;
  }
  if (Facts.Appended.find(VD) == Facts.Appended.end())
    Facts.AppendOrder.push_back(VD);
  Facts.Appended[VD].push_back(MC);
  for (const Expr *A : MC->arguments()) {
    bool Mentions = false;
    std::function<void(const Stmt *)> Scan = [&](const Stmt *S) {
      if (!S)
        return;
      if (const auto *D = dyn_cast<DeclRefExpr>(S); D && D->getDecl() == VD)
        Mentions = true;
      for (const Stmt *C : S->children())
        Scan(C);
    };
    Scan(A);
    if (Mentions)
      refuse(RejectKind::AppendMisuse,
             "'" + VD->getNameAsString() + "' is appended to with a value that reads it",
             A->getBeginLoc());
    walkExpr(A, Use::Read);
  }
}

// --- Addresses ----------------------------------------------------------------------------------

/// `&x`: the address itself touches nothing; what is done through it is resolved where the
/// pointer is used (a pointer that flows where the walk cannot follow it is refused there).
/// The subscripts of `&a[f(i)]` are evaluated here.
void BodyWalker::walkAddressOf(const Expr *Sub, const UnaryOperator *At) {
  Sub = Sub->IgnoreParens();
  if (const auto *DR = dyn_cast<DeclRefExpr>(Sub)) {
    if (const Frame *Owner = ownerFrame(DR)) {
      inFrame(Owner, [&] {
        walkAddressOf(Sub, At);
        return 0;
      });
      return;
    }
    if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()); VD && IVs.count(VD))
      refuse(RejectKind::InductionModified, "the address of the induction variable is taken",
             At->getBeginLoc());
    return;
  }
  Access A;
  if (resolveElement(Sub, A))
    return; // subscripts walked by the resolution
  if (const auto *ME = dyn_cast<MemberExpr>(Sub)) {
    walkAddressOf(ME->getBase(), At);
    return;
  }
  walkChildrenRead(Sub, Use::Read);
}

/// Records a whole-object use of an array that decays to a pointer outside a subscript.
void BodyWalker::noteWholeObject(const Expr *E, Use U) {
  E = E->IgnoreParenImpCasts();
  if (const auto *DR = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()); VD && isPrivate(VD))
      return;
  walkLValue(E, U == Use::Read ? Use::Read : Use::ReadWrite);
}

} // namespace analysis
} // namespace clustrix
