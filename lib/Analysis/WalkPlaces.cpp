//===- WalkPlaces.cpp - The memory model: what an lvalue names ------------===//
//
// Every lvalue has a root and a path. Roots are: an object private to the iteration (declared
// in the body or an inlined callee, or constructed there), a variable of the enclosing
// function, a global, the object `this` points to, or what an outer pointer or reference
// points to. The last two kinds, and standard views, may overlap other roots ("may alias"):
// their regions are compared by address at run time. A pointer or reference declared in the
// body is followed to the expression it was defined from; when it was defined more than once,
// or from something the walk cannot follow, its uses are refused.
//
//===----------------------------------------------------------------------===//
#include "BodyWalker.h"

#include <cstdio>

using namespace clang;

namespace clustrix {
namespace analysis {

std::string BodyWalker::keyOf(const void *D) { return pointerKey(D); }

bool BodyWalker::isArrayLike(QualType T) {
  T = T.getNonReferenceType();
  return T->isArrayType() || T->isPointerType() || isStdContainer(T);
}

/// The binding of VD in the nearest frame that has one in Map.
const Binding *BodyWalker::localBinding(const VarDecl *VD,
                                        std::map<const VarDecl *, Binding> Frame::*Map) const {
  for (const Frame *F = Cur; F; F = F->Parent) {
    auto It = (F->*Map).find(VD);
    if (It != (F->*Map).end())
      return &It->second;
  }
  return nullptr;
}

/// Whether VD is an object of the iteration itself: declared in the body or in an inlined
/// callee (whose parameters passed by value are its own copies).
bool BodyWalker::isPrivate(const VarDecl *VD) const {
  if (Locals.count(VD))
    return true;
  return Cur->Fn && (VD->hasLocalStorage() || isa<ParmVarDecl>(VD)) && !Cur->Params.count(VD);
}

/// Inside a lambda's body, a captured variable belongs to the frame of the function that
/// declares it (the loop's own frame for the loop's function). Null when it is not a capture.
const Frame *BodyWalker::ownerFrame(const DeclRefExpr *DR) const {
  if (!Cur || !Cur->Fn || !DR->refersToEnclosingVariableOrCapture())
    return nullptr;
  const auto *VD = dyn_cast<VarDecl>(DR->getDecl());
  if (!VD)
    return nullptr;
  const DeclContext *DC = VD->getParentFunctionOrMethod();
  if (DC == Cur->Fn)
    return nullptr;
  const Frame *F = Cur->Parent;
  while (F && F->Fn && F->Fn != DC)
    F = F->Parent;
  return F;
}

// --- Lvalues ------------------------------------------------------------------------------------

void BodyWalker::walkLValue(const Expr *E, Use U, bool Partial) {
  E = E->IgnoreParens();
  if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(E)) {
    walkLValue(DA->getExpr(), U, Partial);
    return;
  }
  if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
    walkDeclRef(DR, U, Partial);
    return;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
    if (isa<CXXThisExpr>(Base)) {
      if (Cur->ThisBound && Cur->ThisConst && U != Use::Read) {
        refuse(RejectKind::CarriedScalar,
               "const member function '" + Cur->Fn->getNameAsString() +
                   "' writes mutable member '" + ME->getMemberDecl()->getNameAsString() +
                   "', which every iteration shares",
               ME->getBeginLoc(), "written here");
        return;
      }
      if (Cur->ThisBound) {
        walkThisMember(ME, U);
        return;
      }
      walkMember(ME, U);
      return;
    }
    if (ME->isArrow()) {
      // p->x is (*p).x: an element access of p's pointee.
      Access A;
      if (resolveElement(E, A)) {
        FieldPath.push_back(dyn_cast<FieldDecl>(ME->getMemberDecl()));
        recordAccess(A, U, true, ME);
        FieldPath.pop_back();
        return;
      }
      if (U == Use::Read)
        refuse(RejectKind::UnboundedAccess,
               "reads memory through '" + spell(E, Ctx) +
                   "', whose extent the analysis cannot determine",
               E->getBeginLoc(), "access here");
      else
        refuse(RejectKind::NonAffineWrite,
               "writes memory through '" + spell(E, Ctx) + "', which the analysis cannot follow",
               E->getBeginLoc(), "write here");
      walkExpr(ME->getBase(), Use::Read);
      return;
    }
    if (isElementExpr(Base)) {
      // A member of an element: the element's access, with the member's path (fields of one
      // element that do not overlap are no dependence).
      FieldPath.push_back(dyn_cast<FieldDecl>(ME->getMemberDecl()));
      walkLValue(Base, U == Use::Read ? Use::Read : U, /*Partial=*/true);
      FieldPath.pop_back();
      return;
    }
    // s.x on a struct variable: a use of s.
    if (isa<DeclRefExpr>(Base) || isa<MemberExpr>(Base)) {
      walkLValue(Base, U, /*Partial=*/true);
      return;
    }
    walkExpr(ME->getBase(), U);
    return;
  }
  Access A;
  if (resolveElement(E, A)) {
    recordAccess(A, U, Partial, E);
    return;
  }
  if (!A.Key.empty() || isa<ArraySubscriptExpr>(E) || isa<CXXOperatorCallExpr>(E) ||
      isa<UnaryOperator>(E)) {
    // Could not resolve the base: reads are unbounded, writes unanalyzable.
    if (U == Use::Read)
      refuse(RejectKind::UnboundedAccess,
             "reads memory through '" + spell(E, Ctx) +
                 "', whose extent the analysis cannot determine",
             E->getBeginLoc(), "access here");
    else
      refuse(RejectKind::NonAffineWrite,
             "writes memory through '" + spell(E, Ctx) + "', which the analysis cannot follow",
             E->getBeginLoc(), "write here");
    walkChildrenRead(E, Use::Read);
    return;
  }
  walkExpr(E, U);
}

bool BodyWalker::isElementExpr(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (isa<ArraySubscriptExpr>(E))
    return true;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
    return Op->getOperator() == OO_Subscript;
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() == UO_Deref;
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return isElementExpr(ME->getBase());
  if (const auto *DR = dyn_cast<DeclRefExpr>(E))
    return RangeVar && DR->getDecl() == RangeVar && RangeVar->getType()->isReferenceType();
  return false;
}

/// `this->x` in the loop body (not inside a bound method): the loop's own object.
void BodyWalker::walkMember(const MemberExpr *ME, Use U) {
  const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!FD)
    return;
  if (U != Use::Read) {
    if (isArrayLike(FD->getType()))
      refuse(RejectKind::UnsupportedConstruct,
             "assigns member array '" + FD->getNameAsString() + "' as a whole",
             ME->getBeginLoc());
    else
      refuse(RejectKind::CarriedScalar,
             "member '" + FD->getNameAsString() +
                 "' is written by every iteration and read after it",
             ME->getBeginLoc(), "written here");
    return;
  }
  if (!isArrayLike(FD->getType()))
    noteReachableRead("this->" + FD->getNameAsString(), FD->getType(), nullptr,
                      ME->getBeginLoc());
}

/// `this->x` inside a method called on an object: a member of that object.
void BodyWalker::walkThisMember(const MemberExpr *ME, Use U) {
  if (Cur->ThisPrivate)
    return;
  const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!FD)
    return;
  PointerRef Obj = resolveObject(ME->getBase()->IgnoreParenImpCasts());
  if (Obj.Ok && Obj.Private)
    return;
  if (Obj.Ok && Obj.Key == "this") {
    walkMember(ME, U); // a lambda in the loop's own member function
    return;
  }
  if (!Obj.Ok) {
    refuse(U == Use::Read ? RejectKind::UnboundedAccess : RejectKind::NonAffineWrite,
           "member '" + FD->getNameAsString() + "' of an object the analysis cannot follow",
           ME->getBeginLoc(), "member here");
    return;
  }
  if (!Obj.Subs.empty() && !Obj.Scalar) {
    // A member of an element: part of that element. When `this` is the element itself
    // (`a[i].f()`), the member is the path from it, so that other fields of the array's
    // elements are no dependence; otherwise the path from the element is not known whole and
    // none is recorded (a path cut at the front could tell overlapping members apart).
    Access A;
    A.Key = Obj.Key;
    A.Name = Obj.Name;
    A.Decl = Obj.Decl;
    A.BaseType = Obj.BaseType;
    A.MayAlias = Obj.MayAlias;
    A.Subs = Obj.Subs;
    std::vector<const FieldDecl *> Outer = std::move(FieldPath);
    FieldPath.clear();
    if (Obj.Element)
      FieldPath.push_back(FD);
    recordAccess(A, U, /*Partial=*/true, ME);
    FieldPath = std::move(Outer);
    return;
  }
  // A member of a whole object: a use of that object, as `s.x` is a use of s.
  if (const auto *VD = dyn_cast_or_null<VarDecl>(Obj.Decl)) {
    walkOuterVar(VD, ME, U);
    return;
  }
  if (U != Use::Read)
    refuse(RejectKind::CarriedScalar,
           "member '" + Obj.Name + "." + FD->getNameAsString() +
               "' is written by every iteration and read after it",
           ME->getBeginLoc(), "written here");
  else if (!isArrayLike(FD->getType()))
    noteReachableRead(Obj.Name + "." + FD->getNameAsString(), FD->getType(), nullptr,
                      ME->getBeginLoc());
}

/// A use of the element variable of the parallel range-based loop: element k of the range.
void BodyWalker::walkRangeElement(const Expr *At, Use U, bool Partial) {
  if (!RangeBase.Ok)
    return;
  Access A;
  A.Key = RangeBase.Key;
  A.Name = RangeBase.Name;
  A.Decl = RangeBase.Decl;
  A.BaseType = RangeBase.BaseType;
  A.MayAlias = RangeBase.MayAlias;
  A.Subs = {Polynomial::variable(NormVars[0])};
  recordAccess(A, U, Partial, At);
}

void BodyWalker::walkDeclRef(const DeclRefExpr *DR, Use U, bool Partial) {
  if (const auto *B = dyn_cast<BindingDecl>(DR->getDecl())) {
    // A structured binding names a part of its hidden object (or, tuple-like, a reference).
    const auto *Holder = dyn_cast_or_null<VarDecl>(B->getDecomposedDecl());
    if (Holder && U != Use::Write && !isPrivate(Holder) && !ownerFrame(DR) &&
        (Holder->hasGlobalStorage() || Holder->getType()->isReferenceType() ||
         Escapes.escapeOf(Holder)))
      noteReachableRead(B->getNameAsString(), B->getType(), nullptr, DR->getBeginLoc());
    if (const Expr *E = B->getBinding()) {
      // Uses are reported where the binding is used, not where it is declared.
      const Expr *Saved = UseSite;
      UseSite = UseSite ? UseSite : DR;
      walkLValue(E, U, Partial);
      UseSite = Saved;
    }
    return;
  }
  const auto *VD = dyn_cast<VarDecl>(DR->getDecl());
  if (!VD)
    return; // functions, enumerators
  if (const Frame *Owner = ownerFrame(DR)) {
    inFrame(Owner, [&] {
      walkDeclRef(DR, U, Partial);
      return 0;
    });
    return;
  }
  if (VD == RangeVar) {
    walkRangeElement(DR, U, Partial);
    return;
  }
  // A parameter bound to a caller's reference: the use applies to the argument.
  if (auto It = Cur->Params.find(VD); It != Cur->Params.end()) {
    if (VD->getType()->isReferenceType())
      inFrame(It->second.Caller, [&] {
        walkLValue(It->second.Arg, U, Partial);
        return 0;
      });
    return; // a pointer or value parameter is the callee's own copy
  }
  if (const Binding *B = localBinding(VD, &Frame::RefDefs)) {
    inFrame(B->Caller, [&] {
      walkLValue(B->Arg, U, Partial);
      return 0;
    });
    return;
  }
  if (auto It = InitCaptures.find(VD); It != InitCaptures.end()) {
    inFrame(It->second.Caller, [&] {
      walkLValue(It->second.Arg, U, Partial);
      return 0;
    });
    return;
  }
  if (CoveredRefs.count(VD))
    return;
  if (VD->isInitCapture() && VD->getType()->isReferenceType()) {
    // Of a lambda created before the loop: its initializer was evaluated then, with values
    // the loop does not see.
    refuse(RejectKind::NonAffineWrite,
           "reference '" + VD->getNameAsString() +
               "', captured by a lambda created before the loop, cannot be followed",
           DR->getBeginLoc(), "used here");
    return;
  }
  if (IVs.count(VD)) {
    if (U != Use::Read)
      refuse(RejectKind::InductionModified,
             "the body modifies the induction variable '" + VD->getNameAsString() + "'",
             DR->getBeginLoc(), "modified here");
    return;
  }
  if (isPrivate(VD)) {
    if (VD->getType()->isReferenceType() && !VD->isInitCapture())
      refuse(RejectKind::NonAffineWrite,
             "reference '" + VD->getNameAsString() + "' cannot be followed by the analysis",
             DR->getBeginLoc(), "used here");
    return;
  }
  walkOuterVar(VD, DR, U);
}

/// A use of a variable declared outside the loop.
void BodyWalker::walkOuterVar(const VarDecl *VD, const Expr *DR, Use U) {
  if (VD->hasGlobalStorage() && !VD->isStaticLocal() && VD->getType().isConstQualified())
    return; // a constant
  if (VD->isStaticLocal() && Cur->Fn) {
    refuse(RejectKind::UnsupportedConstruct,
           "'" + Cur->Fn->getNameAsString() + "' uses static variable '" +
               VD->getNameAsString() + "'",
           DR->getBeginLoc());
    return;
  }
  if (Cur->Fn && VD->hasGlobalStorage() && U != Use::Read) {
    refuse(RejectKind::UnsupportedConstruct,
           "'" + Cur->Fn->getNameAsString() + "' writes global '" + VD->getNameAsString() + "'",
           DR->getBeginLoc(), "written here");
    return;
  }
  if (VD->getType().getNonReferenceType().isVolatileQualified()) {
    refuse(RejectKind::UnsupportedConstruct, "'" + VD->getNameAsString() + "' is volatile",
           DR->getBeginLoc());
    return;
  }
  if (isArrayLike(VD->getType())) {
    if (U != Use::Read) {
      if (VD->getType()->isPointerType())
        refuse(RejectKind::CarriedScalar,
               "pointer '" + VD->getNameAsString() + "' is modified by the loop",
               DR->getBeginLoc(), "modified here");
      else
        Facts.WholeUses[VD].push_back(DR);
    } else if (!VD->getType()->isPointerType()) {
      Facts.WholeUses[VD].push_back(DR);
    }
    return;
  }
  ScalarUse &S = Facts.Scalars[VD];
  S.Var = VD;
  const Expr *At = UseSite ? UseSite : DR;
  if (U == Use::Read || U == Use::ReadWrite)
    S.Reads.push_back(At);
  if (U == Use::Write || U == Use::ReadWrite)
    S.Writes.push_back(At);
  if (U != Use::Write && !isa<DecompositionDecl>(VD)) { // bindings are noted by name
    bool Reachable = VD->hasGlobalStorage() || VD->getType()->isReferenceType() ||
                     Escapes.escapeOf(VD) != nullptr;
    if (Reachable)
      noteReachableRead(VD->getNameAsString(), VD->getType().getNonReferenceType(),
                        Escapes.escapeOf(VD) ? VD : nullptr, DR->getBeginLoc());
  }
}

void BodyWalker::noteReachableRead(const std::string &Name, QualType T, const VarDecl *Local,
                                   SourceLocation Loc) {
  for (const ReachableRead &Old : Facts.ReachableReads)
    if (Old.Name == Name)
      return;
  Facts.ReachableReads.push_back({Name, T, Local, Loc});
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
  if (P.Private)
    A.Key = "private";
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
  const Expr *Owner = ME->getBase()->IgnoreParenImpCasts();
  if (ME->isArrow() ? !isa<CXXThisExpr>(Owner) : !isElementExpr(Owner))
    return false;
  PointerRef Obj = resolveObject(Owner);
  if (!Obj.Ok || !Obj.Element || Obj.Scalar)
    return false;
  for (const Expr *I : Indices)
    if (I)
      walkExpr(I, Use::Read);
  A.Key = Obj.Private ? "private" : Obj.Key;
  A.Name = Obj.Name;
  A.Decl = Obj.Decl;
  A.BaseType = Obj.BaseType;
  A.MayAlias = Obj.MayAlias;
  A.Subs = Obj.Subs;
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
    P.Name = VD->getNameAsString();
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
      if (P.Ok)
        P.Subs.back() = BO->getOpcode() == BO_Add ? P.Subs.back() + Off : P.Subs.back() - Off;
      return P;
    }
    if (BO->getOpcode() == BO_Add && BO->getRHS()->getType()->isPointerType()) {
      P = resolvePointer(BO->getRHS());
      walkExpr(BO->getLHS(), Use::Read);
      if (P.Ok)
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
  if (resolveElement(Sub, A)) {
    P.Ok = true;
    P.Private = A.Key == "private";
    P.Key = A.Key;
    P.Name = A.Name;
    P.Decl = A.Decl;
    P.BaseType = A.BaseType;
    P.MayAlias = A.MayAlias;
    P.Scalar = A.Scalar;
    P.Subs = A.Subs;
    return P;
  }
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
    return resolveField(Base, FD);
  }
  if (isElementExpr(E)) {
    // An element as an object (`a[i].f()`, a reference bound to `p[k]`): its root and
    // subscripts. Its members are nested in the array (resolveField), except through `this`.
    Access A;
    if (!resolveElement(E, A)) {
      P.Key = A.Key;
      return P;
    }
    P.Ok = P.Element = true;
    P.Private = A.Key == "private";
    P.Key = A.Key;
    P.Name = A.Name;
    P.Decl = A.Decl;
    P.BaseType = A.BaseType;
    P.MayAlias = A.MayAlias;
    P.Scalar = A.Scalar;
    P.Subs = A.Subs;
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
  P.Name = VD->getNameAsString();
  P.Decl = VD;
  P.BaseType = VD->getType();
  // What an outer reference names, and the elements of a view, may be anyone's.
  P.MayAlias = VD->getType()->isReferenceType() || isStdView(VD->getType());
  return P;
}

/// Field FD of the object Base.
PointerRef BodyWalker::resolveField(const PointerRef &Base, const FieldDecl *FD) {
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
  P.Key = Base.Key + Sep + keyOf(FD);
  P.Name = (ThisRoot ? std::string("this->") : Base.Name + Sep) + FD->getNameAsString();
  P.Decl = FD;
  P.BaseType = FD->getType();
  return P;
}

void BodyWalker::recordAccess(Access A, Use U, bool Partial, const Expr *At) {
  if (A.Key == "private")
    return; // the iteration's own object
  Partial |= A.ElementMember != nullptr;
  A.Read = U != Use::Write || Partial;
  A.Write = U != Use::Read;
  A.Partial = Partial;
  A.Fields.assign(FieldPath.rbegin(), FieldPath.rend());
  if (A.ElementMember)
    A.Fields.insert(A.Fields.begin(), A.ElementMember);
  A.Conditional = CondDepth > 0;
  A.Loc = At->getBeginLoc();
  for (const Polynomial &P : A.Subs)
    A.Affine &= P.isValid() && P.isAffineInLoopVars() && fitsBoxProgram(P);
  if (A.Scalar) {
    // A scalar reached through its address: its only element is 0.
    bool Zero = A.Subs.size() == 1 && A.Subs[0].isZero();
    const auto *VD = dyn_cast_or_null<VarDecl>(A.Decl);
    if (Zero && VD && !VD->getType()->isReferenceType() && !A.MayAlias) {
      ScalarUse &S = Facts.Scalars[VD];
      S.Var = VD;
      if (A.Read)
        S.Reads.push_back(At);
      if (A.Write)
        S.Writes.push_back(At);
      if (A.Read && (VD->hasGlobalStorage() || Escapes.escapeOf(VD)))
        noteReachableRead(VD->getNameAsString(), VD->getType(),
                          Escapes.escapeOf(VD) ? VD : nullptr, A.Loc);
      return;
    }
    if (!Zero || A.Write) {
      refuse(A.Write ? RejectKind::NonAffineWrite : RejectKind::UnboundedAccess,
             std::string(A.Write ? "writes" : "reads") + " '" + A.Name +
                 "' through a pointer the analysis cannot follow",
             A.Loc, "access here");
      return;
    }
    noteReachableRead(A.Name, A.BaseType.getNonReferenceType(), nullptr, A.Loc);
    return;
  }
  Facts.Cost.access();
  Facts.Accesses.push_back(std::move(A));
}

} // namespace analysis
} // namespace clustrix
