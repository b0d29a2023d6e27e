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
    Access A = accessTo(Obj);
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
  if (VD->getTLSKind() != VarDecl::TLS_None) {
    nameOf(VD, DR->getBeginLoc()); // refuses it
    return;
  }
  if (VD->hasGlobalStorage() && !VD->isStaticLocal() && VD->getType().isConstQualified()) {
    // A constant. One whose value is known only at run time is a kernel parameter, named at
    // the loop as checked here; where the loop cannot name it, only the GPU form is lost.
    if (!R.Spellings.count(VD->getCanonicalDecl()) && Scope.whyNotNameable(VD).empty()) {
      std::string Name = Scope.spellingAt(VD);
      R.Spellings[VD->getCanonicalDecl()] = Name.empty() ? VD->getNameAsString() : Name;
    }
    return;
  }
  if (!Cur->Fn || VD->isLocalVarDeclOrParm())
    nameOf(VD, DR->getBeginLoc()); // kernel arguments and guards name it at the loop
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
  if (U == Use::Write || U == Use::ReadWrite) {
    S.Writes.push_back(At);
    S.ConditionalWrite |= CondDepth > 0;
  }
  if (U != Use::Write && !isa<DecompositionDecl>(VD)) { // bindings are noted by name
    bool Reachable = VD->hasGlobalStorage() || VD->getType()->isReferenceType() ||
                     Escapes.escapeOf(VD) != nullptr;
    if (Reachable)
      noteReachableRead(nameOf(VD, DR->getBeginLoc()), VD->getType().getNonReferenceType(),
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
  A.Conditional = CondDepth > 0 || MayHaveLeft;
  A.Dense = !MayHaveLeft && CondDepth == DenseLoopDepth;
  A.DenseLoops = DenseLoopDepth;
  A.Guarded = CondDepth > RangedLoopDepth + AffineCondDepth || MayHaveLeft;
  A.Conds = GuardConds;
  A.Loc = At->getBeginLoc();
  for (const Polynomial &P : A.Subs)
    A.Affine &= P.isValid() && P.isAffineInLoopVars() && fitsBoxProgram(P);
  if (!A.Affine)
    for (const auto &[V, Loop] : UnrangedLoops)
      if (mentions(At, V)) {
        A.UnrangedVar = V;
        A.UnrangedLoop = Loop;
        break;
      }
  if (A.Scalar) {
    // A scalar reached through its address: its only element is 0.
    bool Zero = A.Subs.size() == 1 && A.Subs[0].isZero();
    const auto *VD = dyn_cast_or_null<VarDecl>(A.Decl);
    if (Zero && VD && !VD->getType()->isReferenceType() && !A.MayAlias) {
      ScalarUse &S = Facts.Scalars[VD];
      S.Var = VD;
      if (A.Read)
        S.Reads.push_back(At);
      if (A.Write) {
        S.Writes.push_back(At);
        S.ConditionalWrite |= CondDepth > 0;
      }
      if (A.Read && (VD->hasGlobalStorage() || Escapes.escapeOf(VD)))
        noteReachableRead(nameOf(VD, A.Loc), VD->getType(),
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
