//===- WalkPointers.cpp - Roots of elements, pointers and objects ---------===//
//
// The memory model's resolution half: an element access, a pointer value or an object lvalue
// brought to a root (a region key and name) and its leading subscripts, following parameters,
// references, captures, `this`, members and address-of through the inlined frames.
//
//===----------------------------------------------------------------------===//
#include "BodyWalker.h"

#include <algorithm>

using namespace clang;

namespace clustrix {
namespace analysis {

/// The object an element access names, as a pointer to it.
PointerRef pointerTo(const Access &A) {
  PointerRef P;
  P.Ok = true;
  P.Private = A.Key == "private";
  P.Key = A.Key;
  P.Name = A.Name;
  P.Decl = A.Decl;
  P.BaseType = A.BaseType;
  P.MayAlias = A.MayAlias;
  P.Scalar = A.Scalar;
  P.Subs = A.Subs;
  P.ElementMember = A.ElementMember;
  return P;
}

/// An access to (part of) the element a pointer names.
Access accessTo(const PointerRef &P) {
  Access A;
  A.Key = P.Private ? "private" : P.Key;
  A.Name = P.Name;
  A.Decl = P.Decl;
  A.BaseType = P.BaseType;
  A.MayAlias = P.MayAlias;
  A.Subs = P.Subs;
  A.ElementMember = P.ElementMember;
  return A;
}

// --- Elements, pointers and objects -----------------------------------------------------------

/// Resolves an element access (a[i], a[i][j], v[i], *p, p[i], p->x) to a root and subscripts.
bool BodyWalker::resolveElement(const Expr *E, Access &A) {
  E = E->IgnoreParens();
  std::vector<const Expr *> Indices;
  const Expr *Base = E;
  bool IsDeref = false;
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (!ME->isArrow())
      return false;
    Base = ME->getBase();
    IsDeref = true;
  }
  // Peel subscripts from the outside in.
  while (true) {
    Base = Base->IgnoreParens();
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Base)) {
      Indices.push_back(AS->getIdx());
      const Expr *B = AS->getBase()->IgnoreParens();
      if (const auto *ICE = dyn_cast<ImplicitCastExpr>(B);
          ICE && ICE->getCastKind() == CK_ArrayToPointerDecay) {
        Base = ICE->getSubExpr()->IgnoreParens();
        if (isa<ArraySubscriptExpr>(Base))
          continue; // multi-dimensional C array: keep peeling
        break;      // the array itself
      }
      Base = B;
      break;
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Base);
        Op && Op->getOperator() == OO_Subscript) {
      Indices.push_back(Op->getArg(1));
      Base = Op->getArg(0);
      if (isElementExpr(Base)) {
        A.Key = "nested";
        refuse(RejectKind::UnsupportedConstruct,
               "'" + spell(Base, Ctx) +
                   "' is an element of a container of containers, which is not contiguous",
               Base->getBeginLoc(), "access here");
        return false;
      }
      break;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(Base); UO && UO->getOpcode() == UO_Deref) {
      Indices.push_back(nullptr); // *p is p[0]
      Base = UO->getSubExpr();
      break;
    }
    if (IsDeref) {
      Indices.push_back(nullptr);
      break;
    }
    return false;
  }
  std::reverse(Indices.begin(), Indices.end());
  if (resolveElementMember(Base, Indices, A))
    return true;
  PointerRef P = Base->getType()->isPointerType() ? resolvePointer(Base)
                                                  : resolveObject(Base->IgnoreParenImpCasts());
  for (const Expr *I : Indices)
    if (I)
      walkExpr(I, Use::Read);
  if (!P.Ok) {
    A.Key = P.Key.empty() ? "?" : P.Key;
    return false;
  }
  A.Key = P.Key;
  A.Name = P.Name;
  A.Decl = P.Decl;
  A.BaseType = P.BaseType;
  A.MayAlias = P.MayAlias;
  A.Scalar = P.Scalar;
  A.Loc = E->getBeginLoc();
  A.Subs = P.Subs;
  A.ElementMember = P.ElementMember;
  if (P.Private)
    A.Key = "private";
  // Within an element's member, the indices stay in the member (walked above, not followed).
  if (P.ElementMember)
    return true;
  // The pointer's offset adds to the first index.
  for (size_t I = 0; I < Indices.size(); ++I) {
    Polynomial Ix = Indices[I] ? polyOf(Indices[I]) : Polynomial::constant(0);
    if (I == 0 && !A.Subs.empty()) {
      A.Subs.back() = A.Subs.back() + Ix;
      continue;
    }
    A.Subs.push_back(Ix);
  }
  return true;
}

/// An array member of an element indexed (`a[i].v[k]`, or `v[k]` in a member function called
/// on `a[i]`): the access is to the whole member of that element; the indices within it are
/// read, not followed. False when Base is not such a member.
bool BodyWalker::resolveElementMember(const Expr *Base, llvm::ArrayRef<const Expr *> Indices,
                                      Access &A) {
  const auto *ME = dyn_cast<MemberExpr>(Base->IgnoreParenImpCasts());
  const auto *FD = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
  if (!FD || !Ctx.getAsArrayType(FD->getType()))
    return false;
  // The owner: `this`, an element (`p[i].x[k]`), or a reference the body or a callee binds to
  // one (`P &q = p[i]; q.x[k]`, a parameter `const P &q`), which resolveObject follows.
  const Expr *Owner = ME->getBase()->IgnoreParenImpCasts();
  if (ME->isArrow() ? !isa<CXXThisExpr>(Owner)
                    : !isElementExpr(Owner) && !isa<DeclRefExpr>(Owner))
    return false;
  PointerRef Obj = resolveObject(Owner);
  if (!Obj.Ok || !Obj.Element || Obj.Scalar)
    return false;
  for (const Expr *I : Indices)
    if (I)
      walkExpr(I, Use::Read);
  A = accessTo(Obj);
  A.ElementMember = FD;
  A.Loc = Base->getBeginLoc();
  return true;
}

/// A pointer-valued expression as root + offset.
PointerRef BodyWalker::resolvePointer(const Expr *E) {
  E = E->IgnoreParens();
  PointerRef P;
  if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(E))
    return resolvePointer(DA->getExpr());
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
    switch (ICE->getCastKind()) {
    case CK_ArrayToPointerDecay:
      P = resolveObject(ICE->getSubExpr()->IgnoreParenImpCasts());
      if (P.Ok)
        P.Subs.push_back(Polynomial::constant(0));
      return P;
    case CK_NoOp:
    case CK_LValueToRValue:
      return resolvePointer(ICE->getSubExpr());
    default:
      return P;
    }
  }
  if (const auto *CE = dyn_cast<CXXConstCastExpr>(E))
    return resolvePointer(CE->getSubExpr());
  if (isa<CXXThisExpr>(E)) {
    P = resolveObject(E);
    if (P.Ok) {
      // The object of the call: an element already (`a[i].f()`, `p->f()`), or a whole one.
      if (P.Subs.empty()) {
        P.Scalar = P.Key != "this";
        P.Subs.push_back(Polynomial::constant(0));
      }
    }
    return P;
  }
  if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *B = dyn_cast<BindingDecl>(DR->getDecl()))
      return B->getBinding() ? resolvePointer(B->getBinding()) : P;
    const auto *VD = dyn_cast<VarDecl>(DR->getDecl());
    if (!VD)
      return P;
    if (const Frame *Owner = ownerFrame(DR))
      return inFrame(Owner, [&] { return resolvePointer(DR); });
    if (auto It = Cur->Params.find(VD); It != Cur->Params.end()) {
      if (Cur->Rewritten.count(VD) && !VD->getType()->isReferenceType()) {
        P.Key = "local-pointer"; // the callee moves its copy of the pointer
        return P;
      }
      return inFrame(It->second.Caller, [&] { return resolvePointer(It->second.Arg); });
    }
    for (auto Map : {&Frame::PtrDefs, &Frame::RefDefs})
      if (const Binding *B = localBinding(VD, Map))
        return inFrame(B->Caller, [&] { return resolvePointer(B->Arg); });
    if (auto It = InitCaptures.find(VD); It != InitCaptures.end())
      return inFrame(It->second.Caller, [&] { return resolvePointer(It->second.Arg); });
    if (isPrivate(VD) || IVs.count(VD) || CoveredRefs.count(VD)) {
      P.Key = "local-pointer";
      return P; // a pointer computed in the body in more than one way: not followed
    }
    P.Ok = true;
    P.MayAlias = true;
    P.Key = keyOf(VD);
    P.Name = nameOf(VD, DR->getBeginLoc());
    P.Decl = VD;
    P.BaseType = VD->getType().getNonReferenceType();
    P.Subs.push_back(Polynomial::constant(0));
    return P;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if ((BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub) &&
        BO->getLHS()->getType()->isPointerType() && BO->getRHS()->getType()->isIntegerType()) {
      P = resolvePointer(BO->getLHS());
      walkExpr(BO->getRHS(), Use::Read);
      Polynomial Off = polyOf(BO->getRHS());
      if (P.Ok && !P.ElementMember) // within a member, the offset stays in it
        P.Subs.back() = BO->getOpcode() == BO_Add ? P.Subs.back() + Off : P.Subs.back() - Off;
      return P;
    }
    if (BO->getOpcode() == BO_Add && BO->getRHS()->getType()->isPointerType()) {
      P = resolvePointer(BO->getRHS());
      walkExpr(BO->getLHS(), Use::Read);
      if (P.Ok && !P.ElementMember)
        P.Subs.back() = P.Subs.back() + polyOf(BO->getLHS());
      return P;
    }
    if (BO->getOpcode() == BO_Comma) {
      walkExpr(BO->getLHS(), Use::Read);
      return resolvePointer(BO->getRHS());
    }
    return P;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_AddrOf)
    return resolveAddressOf(UO);
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (MD && MD->getIdentifier() && MD->getName() == "data" &&
        isStdContainer(MC->getImplicitObjectArgument()->getType())) {
      P = resolveObject(MC->getImplicitObjectArgument()->IgnoreParenImpCasts());
      if (P.Ok)
        P.Subs.push_back(Polynomial::constant(0));
    }
    return P;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return resolveMemberPointer(ME);
  return P;
}

/// `&x`: an element's address (root and subscripts), or a whole object's (one element).
PointerRef BodyWalker::resolveAddressOf(const UnaryOperator *UO) {
  PointerRef P;
  const Expr *Sub = UO->getSubExpr()->IgnoreParens();
  Access A;
  if (resolveElement(Sub, A))
    return pointerTo(A);
  if (!A.Key.empty())
    return P;
  // The address of a whole object: one element at offset 0.
  P = resolveObject(Sub);
  if (P.Ok) {
    P.Scalar = !Ctx.getAsArrayType(Sub->getType()) && !isStdContainer(Sub->getType());
    P.Subs.push_back(Polynomial::constant(0));
  }
  return P;
}

/// A pointer member (`s.p`, `this->p`, `q->p`): what it points to.
PointerRef BodyWalker::resolveMemberPointer(const MemberExpr *ME) {
  PointerRef P;
  const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!FD)
    return P;
  const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
  if (!ME->isArrow())
    if (const auto *DR = dyn_cast<DeclRefExpr>(Base))
      if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()); VD && !ownerFrame(DR))
        if (isPrivate(VD) && !VD->getType()->isReferenceType() && !Cur->Params.count(VD))
          return resolveAggregateField(VD, FD);
  PointerRef Obj = resolveObject(ME);
  if (!Obj.Ok || Obj.Private) {
    P.Key = Obj.Key.empty() ? "local-pointer" : Obj.Key;
    return P;
  }
  Obj.MayAlias = true; // whatever the member points to
  Obj.Key += "*";
  Obj.Subs.push_back(Polynomial::constant(0));
  return Obj;
}

/// The value of pointer field FD of a private aggregate VD defined once by an initializer list.
PointerRef BodyWalker::resolveAggregateField(const VarDecl *VD, const FieldDecl *FD) {
  PointerRef P;
  P.Key = "local-pointer";
  const Binding *B = localBinding(VD, &Frame::AggregateDefs);
  if (!B)
    return P;
  const auto *IL = cast<InitListExpr>(B->Arg);
  const InitListExpr *Sem = IL->isSemanticForm() ? IL : IL->getSemanticForm();
  if (!Sem)
    Sem = IL;
  unsigned Index = FD->getFieldIndex();
  if (FD->getParent() != VD->getType()->getAsRecordDecl() || Index >= Sem->getNumInits())
    return P;
  const Expr *Init = Sem->getInit(Index);
  if (!Init || isa<ImplicitValueInitExpr>(Init->IgnoreImplicit()))
    return P; // a null pointer
  return inFrame(B->Caller, [&] { return resolvePointer(Init); });
}

/// An array, container, record or scalar lvalue: a root object and its path.
PointerRef BodyWalker::resolveObject(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  PointerRef P;
  if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(E))
    return resolveObject(DA->getExpr());
  if (isa<StringLiteral>(E) || isa<PredefinedExpr>(E)) {
    // Constant text, which nothing writes: like a private object.
    if (const auto *PE = dyn_cast<PredefinedExpr>(E))
      walkPredefined(PE, Use::Read);
    P.Ok = P.Private = true;
    P.Key = "private";
    P.BaseType = E->getType();
    return P;
  }
  if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *B = dyn_cast<BindingDecl>(DR->getDecl()))
      return B->getBinding() ? resolveObject(B->getBinding()) : P;
    const auto *VD = dyn_cast<VarDecl>(DR->getDecl());
    if (!VD)
      return P;
    if (const Frame *Owner = ownerFrame(DR))
      return inFrame(Owner, [&] { return resolveObject(DR); });
    return resolveVar(VD, DR);
  }
  if (isa<CXXThisExpr>(E)) {
    // The frame `this` comes from: lambdas see the enclosing function's.
    const Frame *F = Cur;
    while (F && F->Fn && isa<CXXMethodDecl>(F->Fn) &&
           cast<CXXMethodDecl>(F->Fn)->getParent()->isLambda())
      F = F->Parent;
    if (!F)
      return P;
    if (!F->Fn) {
      // The loop's own object: what `this` points to, which other pointers may reach.
      P.Ok = P.MayAlias = true;
      P.Key = "this";
      P.Name = "this";
      P.BaseType = E->getType();
      return P;
    }
    if (F->ThisPrivate) {
      P.Ok = P.Private = true;
      P.Key = "private";
      return P;
    }
    if (!F->ThisBound || !F->ThisArg.Arg)
      return P;
    return inFrame(F->ThisArg.Caller, [&] {
      const Expr *Obj = F->ThisArg.Arg;
      return Obj->getType()->isPointerType() ? resolvePointer(Obj) : resolveObject(Obj);
    });
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD)
      return P;
    const Expr *B = ME->getBase()->IgnoreParenImpCasts();
    PointerRef Base = ME->isArrow() ? resolvePointer(B) : resolveObject(B);
    return resolveField(Base, FD, ME);
  }
  if (isElementExpr(E)) {
    // An element as an object (`a[i].f()`, a reference bound to `p[k]`): its root and
    // subscripts. Its members are nested in the array (resolveField), except through `this`.
    Access A;
    if (!resolveElement(E, A)) {
      P.Key = A.Key;
      return P;
    }
    P = pointerTo(A);
    P.Element = true;
  }
  return P;
}

/// A variable used as an object.
PointerRef BodyWalker::resolveVar(const VarDecl *VD, const Expr *At) {
  PointerRef P;
  if (VD == RangeVar) {
    P.Key = "range-element";
    return P; // an element used as an array: a container of containers
  }
  if (auto It = Cur->Params.find(VD); It != Cur->Params.end())
    return inFrame(It->second.Caller, [&] {
      return VD->getType()->isPointerType() ? resolvePointer(It->second.Arg)
                                            : resolveObject(It->second.Arg);
    });
  if (const Binding *B = localBinding(VD, &Frame::RefDefs))
    return inFrame(B->Caller, [&] { return resolveObject(B->Arg); });
  if (auto It = InitCaptures.find(VD); It != InitCaptures.end())
    return inFrame(It->second.Caller, [&] { return resolveObject(It->second.Arg); });
  if (VD->getType()->isPointerType())
    return resolvePointer(At);
  if (IVs.count(VD)) {
    P.Key = "induction"; // reached through its address: not followed
    return P;
  }
  if (isPrivate(VD) || CoveredRefs.count(VD)) {
    if (VD->getType()->isReferenceType() && !CoveredRefs.count(VD)) {
      P.Key = "local-pointer";
      return P;
    }
    if (isStdView(VD->getType())) {
      P.Key = "local-view"; // a view declared in the body: whose elements it shows is not followed
      return P;
    }
    P.Ok = P.Private = true;
    P.Key = "private";
    P.Name = VD->getNameAsString();
    P.Decl = VD;
    P.BaseType = VD->getType();
    return P;
  }
  P.Ok = true;
  P.Key = keyOf(VD);
  P.Name = nameOf(VD, At ? At->getBeginLoc() : VD->getLocation());
  P.Decl = VD;
  P.BaseType = VD->getType();
  // What an outer reference names, and the elements of a view, may be anyone's.
  P.MayAlias = VD->getType()->isReferenceType() || isStdView(VD->getType());
  return P;
}

/// Field FD of the object Base.
PointerRef BodyWalker::resolveField(const PointerRef &Base, const FieldDecl *FD,
                                    const Expr *At) {
  PointerRef P;
  if (!Base.Ok) {
    P.Key = Base.Key;
    return P;
  }
  if (Base.Private) {
    // A member of a private object is private, unless it refers to someone else's memory: a
    // reference or a view member, followed to its initializer when the object was defined
    // once by an initializer list.
    QualType FT = FD->getType();
    if (FT->isReferenceType() || isStdView(FT)) {
      const auto *VD = dyn_cast_or_null<VarDecl>(Base.Decl);
      const Binding *B = VD ? localBinding(VD, &Frame::AggregateDefs) : nullptr;
      if (!B || isStdView(FT)) {
        P.Key = "local-pointer";
        return P;
      }
      const auto *IL = cast<InitListExpr>(B->Arg);
      const InitListExpr *Sem = IL->isSemanticForm() ? IL : IL->getSemanticForm();
      if (!Sem)
        Sem = IL;
      if (FD->getFieldIndex() >= Sem->getNumInits()) {
        P.Key = "local-pointer";
        return P;
      }
      return inFrame(B->Caller, [&] { return resolveObject(Sem->getInit(FD->getFieldIndex())); });
    }
    P = Base;
    P.Element = false;
    P.BaseType = FT;
    return P;
  }
  bool ThisRoot = Base.Key == "this";
  std::string Sep = ".";
  if (Base.Element) {
    P.Key = "member-of-element"; // `a[0].m`, `(*p).m`: nested in the array of `a`, `p`
    return P;
  }
  if (!Base.Subs.empty()) {
    // A member of an element: `p->m` (p's offset 0) and `(&obj)->m` name a root; the members
    // of other elements (`a[i].m`, `p[1].m`) are nested in an array.
    auto Off = Base.Subs.size() == 1 ? Base.Subs[0].asConstant() : std::nullopt;
    if (!Off || *Off != 0) {
      P.Key = "member-of-element";
      return P;
    }
    if (!Base.Scalar)
      Sep = "->";
  }
  P.Ok = true;
  // `p->m` and `(&a[0])->m` are members of an element of what the pointer reaches, which the
  // loop may also use as an array (`a[i] = ...`): the runtime checks that they do not overlap.
  P.MayAlias = Base.MayAlias || (!Base.Subs.empty() && !Base.Scalar) ||
               FD->getType()->isReferenceType() || isStdView(FD->getType());
  std::string Pm = memberAccess(FD, Base.BaseType, At->getBeginLoc());
  P.Key = Base.Key + Sep + keyOf(FD);
  if (Pm.empty())
    P.Name = (ThisRoot ? std::string("this->") : Base.Name + Sep) + FD->getNameAsString();
  else // a member the function may not name (Spelling.h, privateMemberVariable)
    P.Name = "(" + (ThisRoot ? std::string("this->*") : Base.Name + (Sep == "." ? ".*" : "->*")) +
             Pm + ")";
  P.Decl = FD;
  P.BaseType = FD->getType();
  return P;
}

std::string BodyWalker::nameOf(const NamedDecl *D, SourceLocation Loc) {
  if (const auto *DD = dyn_cast<DecompositionDecl>(D))
    return displayName(DD); // named through its bindings, which generated code names
  auto Known = R.Spellings.find(D->getCanonicalDecl());
  if (Known != R.Spellings.end())
    return Known->second;
  std::string Name = Scope.spellingAt(D);
  R.Spellings[D->getCanonicalDecl()] = Name.empty() ? D->getNameAsString() : Name;
  const auto *VD = dyn_cast<VarDecl>(D);
  if (VD && VD->getTLSKind() != VarDecl::TLS_None)
    refuse(RejectKind::ThreadState,
           "'" + D->getNameAsString() +
               "' is thread_local: worker threads would use their own instances of it, not the "
               "caller's",
           Loc, "", "");
  else if (std::string Why = Scope.whyNotNameable(D); !Why.empty())
    refuse(RejectKind::Unnameable, std::move(Why), Loc, "used here");
  return Name.empty() ? D->getNameAsString() : Name;
}

std::string BodyWalker::memberAccess(const FieldDecl *FD, QualType ObjType, SourceLocation Loc) {
  QualType T = ObjType.getNonReferenceType();
  while (T->isPointerType() || T->isArrayType())
    T = T->isPointerType() ? T->getPointeeType() : QualType(T->getPointeeOrArrayElementType(), 0);
  const CXXRecordDecl *Naming = T->getAsCXXRecordDecl();
  std::string Why = Scope.whyNotAccessible(FD, Naming);
  if (Why.empty())
    return "";
  std::string How;
  if (!privateMemberDefinition(FD, Naming, Scope.outer(), How).empty()) {
    if (std::find(R.PrivateMembers.begin(), R.PrivateMembers.end(), FD) == R.PrivateMembers.end())
      R.PrivateMembers.push_back(FD);
    return privateMemberVariable(FD, Scope.outer());
  }
  if (NameChecked.insert(FD).second)
    refuse(RejectKind::Unnameable, Why + ", and " + How, Loc, "used here");
  return "";
}

} // namespace analysis
} // namespace clustrix
