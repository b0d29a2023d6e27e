//===- WalkPolynomials.cpp - Subscripts and bounds as polynomials ----------===//
//
// An integer expression of the body as a polynomial over the nest's normalized iteration
// variables, inner loop variables and loop-invariant symbols (outer integers, members of shared
// objects). What cannot be expressed is invalid: such a subscript is not affine.
//
//===----------------------------------------------------------------------===//
#include "BodyWalker.h"

using namespace clang;

namespace clustrix {
namespace analysis {

/// The subscript polynomial of E. Conversions that truncate make it invalid (they can map two
/// iterations to one element); a change of sign is kept, as address arithmetic wraps alike.
/// With Exact, the polynomial must also be E's value (for loop bounds, whose order matters):
/// conversions must keep every value and unsigned arithmetic, which may wrap, is refused.
Polynomial BodyWalker::polyOf(const Expr *E, bool Exact) {
  if (!E)
    return Polynomial::invalid();
  E = E->IgnoreParens();
  if (!E->isValueDependent() && !E->isTypeDependent() && E->getType()->isIntegerType()) {
    Expr::EvalResult ER;
    if (E->EvaluateAsInt(ER, Ctx) && ER.Val.getInt().getSignificantBits() <= 64)
      return Polynomial::constant(ER.Val.getInt().getSExtValue());
  }
  if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(E))
    return polyOf(DA->getExpr(), Exact);
  if (const auto *CE = dyn_cast<CastExpr>(E)) {
    const Expr *Sub = CE->getSubExpr();
    switch (CE->getCastKind()) {
    case CK_LValueToRValue:
    case CK_NoOp:
      return polyOf(Sub, Exact);
    case CK_IntegralCast:
      if (Exact ? preservesValue(Sub->getType(), CE->getType(), Ctx)
                : keepsDistinct(Sub->getType(), CE->getType(), Ctx))
        return polyOf(Sub, Exact);
      return Polynomial::invalid();
    default:
      return Polynomial::invalid();
    }
  }
  if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DR->getDecl());
    if (!VD || VD->getType()->isReferenceType())
      return Polynomial::invalid();
    if (const Frame *Owner = ownerFrame(DR))
      return inFrame(Owner, [&] { return polyOf(E, Exact); });
    if (auto It = IVPolys.find(VD); It != IVPolys.end())
      return It->second;
    if (auto It = InnerVars.find(VD); It != InnerVars.end())
      return Polynomial::variable(It->second);
    for (const Frame *F = Cur; F; F = F->Parent) {
      const auto &Defs = Exact ? F->ExactDefs : F->IntDefs;
      if (auto It = Defs.find(VD); It != Defs.end())
        return It->second;
      if (F->Params.count(VD) || F->Fn == nullptr)
        break;
    }
    if (isPrivate(VD) || Cur->Fn)
      return Polynomial::invalid();
    if (!VD->getType()->isIntegerType() || VD->getType().isVolatileQualified())
      return Polynomial::invalid();
    // An outer local defined once from values nothing in the function changes (`const int nn
    // = 1 - n;`): its definition. Not where the nest's own bounds name it (`c < cols` of a
    // collapsed nest): they keep the symbol, and a subscript must too, or the dependence test
    // relates `r * (n / 60) + c` to a `c` bounded by an unrelated `cols`.
    if (!namedByNestBounds(VD))
      if (Polynomial D = outerDefinition(VD, Exact); D.isValid())
        return D;
    // An outer integer: a symbol. A loop that writes it is refused for that write.
    return Polynomial::variable({VD, nameOf(VD, DR->getBeginLoc()), false});
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD || !ME->getType()->isIntegerType() || ME->getType().isVolatileQualified())
      return Polynomial::invalid();
    if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) && !Cur->Fn)
      return Polynomial::variable({FD, "this->" + FD->getNameAsString(), false});
    // A member of a shared object (`in.n`, `p->n`, a member of the object a method was called
    // on): a symbol named by its path. A loop that writes the object is refused for that.
    const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
    PointerRef Obj = ME->isArrow() ? resolvePointer(Base) : resolveObject(Base);
    if (!Obj.Ok || Obj.Private)
      return Polynomial::invalid();
    PointerRef Field = resolveField(Obj, FD, ME);
    if (!Field.Ok || Field.Key.rfind("this.", 0) == 0)
      return Polynomial::invalid();
    return Polynomial::variable({internKey(Field.Key), Field.Name, false});
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return elementSymbol(AS);
  bool Wraps = E->getType()->isUnsignedIntegerOrEnumerationType();
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (Exact && Wraps)
      return Polynomial::invalid();
    if (BO->getOpcode() == BO_Div) {
      // A loop-invariant quotient by a positive constant (`n / 2`): one symbol, related to its
      // numerator by the exact dependence test. The numerator must be exact, as the symbol's
      // value is computed from it.
      Polynomial Num = polyOf(BO->getLHS(), /*Exact=*/true);
      std::optional<int64_t> Div = polyOf(BO->getRHS(), /*Exact=*/true).asConstant();
      if (!Num.isValid() || !Num.loopVars().empty() || !Div || *Div <= 0 || Wraps)
        return Polynomial::invalid();
      return Polynomial::variable(quotientSymbol(Num, *Div));
    }
    Polynomial L = polyOf(BO->getLHS(), Exact);
    Polynomial Rr = polyOf(BO->getRHS(), Exact);
    switch (BO->getOpcode()) {
    case BO_Add: return L + Rr;
    case BO_Sub: return L - Rr;
    case BO_Mul: return L * Rr;
    case BO_Shl:
      if (auto C = Rr.asConstant(); C && *C >= 0 && *C < 62)
        return L.scaled(int64_t(1) << *C);
      return Polynomial::invalid();
    default: return Polynomial::invalid();
    }
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Minus && !(Exact && Wraps))
      return -polyOf(UO->getSubExpr(), Exact);
    if (UO->getOpcode() == UO_Plus)
      return polyOf(UO->getSubExpr(), Exact);
  }
  return Polynomial::invalid();
}

/// An integer element of a shared array at constant subscripts (`grid_points[2]`, `dims[0][1]`),
/// the array a variable of the loop's function or a global: a symbol named by its spelling, as
/// an outer integer is. Its read is an access of the array's region like any other, so a loop
/// that writes the element (directly: the dependence test; through a pointer: the run-time
/// alias check of the regions) is refused or runs serially. Invalid otherwise.
Polynomial BodyWalker::elementSymbol(const ArraySubscriptExpr *AS) {
  if (!AS->getType()->isIntegerType() || AS->getType().isVolatileQualified())
    return Polynomial::invalid();
  std::vector<int64_t> Index;
  const Expr *Base = AS;
  while (const auto *A = dyn_cast<ArraySubscriptExpr>(Base)) {
    Expr::EvalResult ER;
    const Expr *Idx = A->getIdx();
    if (Idx->isValueDependent() || !Idx->EvaluateAsInt(ER, Ctx) ||
        ER.Val.getInt().getSignificantBits() > 64 || ER.Val.getInt().isNegative())
      return Polynomial::invalid();
    Index.insert(Index.begin(), ER.Val.getInt().getSExtValue());
    // Only an array's own subscripts: never a pointer's, which the loop might move.
    const Expr *Next = A->getBase()->IgnoreParens();
    const auto *Decay = dyn_cast<ImplicitCastExpr>(Next);
    if (!Decay || Decay->getCastKind() != CK_ArrayToPointerDecay)
      return Polynomial::invalid();
    Base = Decay->getSubExpr()->IgnoreParens();
  }
  const auto *DR = dyn_cast<DeclRefExpr>(Base);
  const auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  if (!VD || !Ctx.getAsConstantArrayType(VD->getType()) || ownerFrame(DR) || isPrivate(VD) ||
      Cur->Fn || VD->getType().isVolatileQualified())
    return Polynomial::invalid();
  std::string Name = nameOf(VD, DR->getBeginLoc());
  std::string Key = "element:" + std::to_string(reinterpret_cast<uintptr_t>(VD));
  for (int64_t I : Index) {
    Name += "[" + std::to_string(I) + "]";
    Key += "[" + std::to_string(I) + "]";
  }
  return Polynomial::variable({internKey(Key), Name, false});
}

/// A `const` local of the function that holds the loop, defined from integers of that function
/// (its parameters and locals) where nothing in the function changes it or them (no write, no
/// address taken, no reference bound: collectRewritten): the polynomial of its definition,
/// which is then its value wherever the loop runs. Invalid otherwise.
bool BodyWalker::namedByNestBounds(const VarDecl *VD) const {
  for (const CanonicalLoop &L : R.Nest)
    for (const Polynomial *P : {&L.InitPoly, &L.StepPoly, &L.InitValue, &L.BoundValue})
      if (P->isValid() && P->mentions(VD))
        return true;
  return false;
}

Polynomial BodyWalker::outerDefinition(const VarDecl *VD, bool Exact) {
  auto [It, New] = OuterDefinitions.try_emplace({VD, Exact}, Polynomial::invalid());
  if (New)
    It->second = computeOuterDefinition(VD, Exact);
  return It->second;
}

Polynomial BodyWalker::computeOuterDefinition(const VarDecl *VD, bool Exact) {
  const FunctionDecl *Fn = Scope.enclosing();
  // Only a `const` local: its name is what the user chose to stand for the value (an extent of
  // a variably modified type named by a local that is not const stays that symbol, as the
  // type's rows are).
  if (!Fn || !Fn->hasBody() || OuterDefinitionDepth > 4 || VD->getDeclContext() != Fn ||
      !VD->hasLocalStorage() || isa<ParmVarDecl>(VD) || !VD->getInit() ||
      VD->getType()->isReferenceType() || !VD->getType().isConstQualified())
    return Polynomial::invalid();
  if (!FunctionRewritten) {
    FunctionRewritten.emplace();
    collectRewritten(Fn->getBody(), *FunctionRewritten);
  }
  if (FunctionRewritten->count(VD))
    return Polynomial::invalid();
  std::set<const VarDecl *> Named;
  collectNames(VD->getInit(), Named);
  for (const VarDecl *X : Named)
    if (FunctionRewritten->count(X) || X->getDeclContext() != Fn || !X->hasLocalStorage() ||
        X->getType()->isReferenceType() || X->getType().isVolatileQualified() ||
        !Scope.whyNotNameable(X).empty()) // generated code at the loop names it
      return Polynomial::invalid();
  ++OuterDefinitionDepth;
  Polynomial P = polyOf(VD->getInit(), Exact);
  --OuterDefinitionDepth;
  if (!P.isValid() || !P.loopVars().empty())
    return Polynomial::invalid();
  return P;
}

} // namespace analysis
} // namespace clustrix
