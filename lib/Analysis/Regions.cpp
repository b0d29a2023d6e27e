//===- Regions.cpp - The arrays a loop touches ------------------------------===//
//
// Accesses with the same root become one region: its extent (a C array's dimensions, a
// container's size, an extent() clause), its rank after delinearization of row-major
// subscripts, and whether it may alias other regions. Scalars that the loop reads and that a
// pointer it writes through might reach become guard regions, which the runtime's alias check
// compares with the written ones.
//
//===----------------------------------------------------------------------===//
#include "Phases.h"

#include "clang/AST/DeclTemplate.h"

using namespace clang;

namespace clustrix {
namespace analysis {

namespace {

/// The range of the normalized iteration k (0 <= k < trip): from exact bounds where the step
/// is a constant, k*|step| <= span, else up to an opaque trip-count symbol. An
/// over-approximation is sound: ranges only ever prove accesses apart.
PolyRange iterationRange(const CanonicalLoop &L) {
  Polynomial Zero = Polynomial::constant(0), One = Polynomial::constant(1);
  PolyRange Opaque{Zero, Polynomial::variable({&L, "__clx_trip", false}) - One};
  std::optional<int64_t> S = L.StepPoly.asConstant();
  if (L.RangeFor || !S || *S == 0 || *S == INT64_MIN || !L.BoundValue.isValid() ||
      !L.InitValue.isValid())
    return Opaque;
  Polynomial Span;
  if (*S > 0 && L.Cmp == LoopCmp::LT)
    Span = L.BoundValue - L.InitValue - One;
  else if (*S > 0 && L.Cmp == LoopCmp::LE)
    Span = L.BoundValue - L.InitValue;
  else if (*S < 0 && L.Cmp == LoopCmp::GT)
    Span = L.InitValue - L.BoundValue - One;
  else if (*S < 0 && L.Cmp == LoopCmp::GE)
    Span = L.InitValue - L.BoundValue;
  else
    return Opaque; // `!=` may wrap around for unsigned types
  if (!Span.isValid())
    return Opaque;
  int64_t Mag = *S > 0 ? *S : -*S;
  if (Mag == 1)
    return {Zero, Span};
  // A collapsed level stepping by 3 up to 39 has k <= 12, not 38: without the division the
  // exact test finds iterations past the row's end that meet the next row. A negative span is
  // a loop that does not run: k <= span keeps its range empty, and k <= span / |step|
  // (C's division, one quotient symbol where the span is symbolic) bounds it otherwise.
  if (std::optional<int64_t> C = Span.asConstant())
    return {Zero, Polynomial::constant(*C < 0 ? *C : *C / Mag)};
  PolyRange R{Zero, Span};
  if (Span.loopVars().empty())
    R.ClampHi = Polynomial::variable(quotientSymbol(Span, Mag));
  return R;
}

/// A new region for the first access A of its root.
Region makeRegion(ASTContext &Ctx, const Access &A, const LoopClauses &Clauses) {
  Region Reg;
  Reg.Name = A.Name;
  QualType T = A.BaseType.getNonReferenceType();
  Reg.MayAlias = A.MayAlias || A.BaseType->isReferenceType() || T->isPointerType();
  if (const auto *PV = dyn_cast_or_null<ParmVarDecl>(A.Decl))
    Reg.MayAlias |= PV->getType()->isReferenceType() || PV->getType()->isPointerType();
  if (const auto *VD = dyn_cast_or_null<VarDecl>(A.Decl))
    Reg.Restrict = VD->getType()->isPointerType() && VD->getType().isRestrictQualified();
  Reg.Base = A.Decl;
  bool IsVec = false;
  if (isStdContainer(T, &IsVec)) {
    Reg.IsContainer = true;
    Reg.Extent = ExtentKind::Container;
    Reg.ExtentText = A.Name + ".size()";
    if (const auto *CTS =
            dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl()))
      if (CTS->getTemplateArgs().size() > 0 &&
          CTS->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
        Reg.ElemType = typeString(CTS->getTemplateArgs()[0].getAsType(), Ctx);
  } else if (Ctx.getAsConstantArrayType(T)) {
    Reg.Extent = ExtentKind::ConstantArray;
    QualType E = T;
    uint64_t Total = 1;
    while (const auto *C = Ctx.getAsConstantArrayType(E)) {
      Reg.ConstDims.push_back(int64_t(C->getSize().getZExtValue()));
      Total *= C->getSize().getZExtValue();
      E = C->getElementType();
    }
    Reg.ExtentText = std::to_string(Total);
    Reg.ElemType = typeString(E, Ctx);
  } else if (T->isPointerType()) {
    Reg.Pointer = true;
    // A pointer to rows (`double (*a)[8]`, or a parameter `double a[][8]`): the rows' extents
    // come from the type; the number of rows is unknown (-1).
    QualType E = T->getPointeeType();
    if (Ctx.getAsConstantArrayType(E)) {
      Reg.ConstDims.push_back(-1);
      while (const auto *C = Ctx.getAsConstantArrayType(E)) {
        Reg.ConstDims.push_back(int64_t(C->getSize().getZExtValue()));
        E = C->getElementType();
      }
    } else if (Ctx.getAsArrayType(E)) {
      while (const ArrayType *AT = Ctx.getAsArrayType(E)) {
        ++Reg.VariableRowLevels;
        E = AT->getElementType();
      }
    }
    Reg.ElemType = typeString(E, Ctx);
    for (const ExtentClause &X : Clauses.Extents)
      if (X.Var == A.Name) {
        Reg.Extent = ExtentKind::Clause;
        Reg.ExtentText = X.Count;
      }
  }
  return Reg;
}

/// Delinearizes the region's subscripts where every access agrees on the extents.
void delinearizeRegion(Region &Reg, const std::vector<const Access *> &As,
                       const RangeMap &Ranges) {
  std::vector<std::vector<Polynomial>> Subs;
  std::vector<Polynomial> Extents;
  bool ExtentsAgree = true;
  for (const Access *A : As) {
    std::vector<Polynomial> S = A->Subs;
    if (A->Affine && A->Subs.size() == 1 && Reg.ConstDims.size() <= 1) {
      std::vector<Polynomial> E;
      if (auto D = delinearize(A->Subs[0], Ranges, &E)) {
        S = *D;
        if (Subs.empty())
          Extents = E;
        else
          ExtentsAgree &= E == Extents;
      }
    }
    Subs.push_back(S);
  }
  // Unify ranks: accesses that delinearized differently are compared as written.
  size_t Rank = 0;
  for (auto &S : Subs)
    Rank = std::max(Rank, S.size());
  bool SameRank = ExtentsAgree;
  for (auto &S : Subs)
    SameRank &= S.size() == Rank;
  if (!SameRank) {
    for (size_t I = 0; I < Subs.size(); ++I)
      Subs[I] = As[I]->Subs;
    Extents.clear();
  }
  Reg.DimExtents = Extents;
  Reg.Rank = 1;
  for (auto &S : Subs)
    Reg.Rank = std::max<unsigned>(Reg.Rank, S.size());
  Reg.Subscripts = Subs;
  Reg.Writes.clear();
  Reg.Guarded.clear();
  Reg.Conds.clear();
  Reg.Locs.clear();
  for (const Access *A : As) {
    Reg.Writes.push_back(A->Write);
    Reg.Guarded.push_back(A->Guarded);
    Reg.Conds.push_back(A->Conds);
    Reg.Locs.push_back(A->Loc);
  }
}

/// The extent of one variable length: a constant, or an integer variable of Fn that nothing in
/// Fn changes (so the loop sees the value the length was taken from). Rewritten: Fn's
/// rewritten variables, scanned at the first need.
Polynomial variableLength(const ASTContext &Ctx, const Expr *Size, const FunctionDecl *Fn,
                          std::optional<std::set<const VarDecl *>> &Rewritten,
                          const std::map<const Decl *, std::string> &Spellings) {
  if (!Size)
    return Polynomial::invalid();
  Expr::EvalResult ER;
  if (!Size->isValueDependent() && Size->EvaluateAsInt(ER, Ctx) &&
      ER.Val.getInt().getSignificantBits() <= 64)
    return Polynomial::constant(ER.Val.getInt().getSExtValue());
  const auto *DR = dyn_cast<DeclRefExpr>(Size->IgnoreParenImpCasts());
  const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  if (!V || !Fn || !Fn->hasBody() || !V->getType()->isIntegerType() ||
      V->getType().isVolatileQualified() || V->getDeclContext() != Fn)
    return Polynomial::invalid();
  if (!Rewritten) {
    Rewritten.emplace();
    collectRewritten(Fn->getBody(), *Rewritten);
  }
  if (Rewritten->count(V))
    return Polynomial::invalid();
  auto Known = Spellings.find(V->getCanonicalDecl());
  return Polynomial::variable(
      {V, Known != Spellings.end() ? Known->second : V->getNameAsString(), false});
}

/// RowExtents of a region whose base is variable D (an array, or a pointer to rows).
std::vector<Polynomial> rowExtentsOf(ASTContext &Ctx, const ValueDecl *D,
                                     const std::map<const Decl *, std::string> &Spellings) {
  const auto *V = dyn_cast_or_null<VarDecl>(D);
  if (!V)
    return {};
  QualType T = V->getType().getNonReferenceType();
  QualType E;
  if (T->isPointerType())
    E = T->getPointeeType();
  else if (const ArrayType *AT = Ctx.getAsArrayType(T))
    E = AT->getElementType();
  else
    return {};
  const auto *Fn = dyn_cast<FunctionDecl>(V->getDeclContext());
  std::optional<std::set<const VarDecl *>> Rewritten;
  std::vector<Polynomial> Out;
  while (const ArrayType *AT = Ctx.getAsArrayType(E)) {
    if (const auto *C = dyn_cast<ConstantArrayType>(AT))
      Out.push_back(Polynomial::constant(int64_t(C->getSize().getZExtValue())));
    else if (const auto *VA = dyn_cast<VariableArrayType>(AT))
      Out.push_back(variableLength(Ctx, VA->getSizeExpr(), Fn, Rewritten, Spellings));
    else
      Out.push_back(Polynomial::invalid());
    E = AT->getElementType();
  }
  return Out;
}

} // namespace

RegionAccesses buildRegions(ASTContext &Ctx, const NestInfo &Nest, const LoopClauses &Clauses,
                            const BodyFacts &Facts, LoopResult &R, RejectLog &Log,
                            RangeMap &Ranges) {
  std::map<std::string, size_t> RegionOf;
  RegionAccesses ByRegion;
  for (const Access &A : Facts.Accesses) {
    auto [It, New] = RegionOf.emplace(A.Key, R.Regions.size());
    if (New) {
      if (isBitVector(A.BaseType))
        Log.add(RejectKind::UnsupportedConstruct,
                "'" + A.Name + "' is a std::vector<bool>, whose elements are bits packed into "
                "shared words",
                A.Loc, "access here");
      R.Regions.push_back(makeRegion(Ctx, A, Clauses));
      ByRegion.emplace_back();
    }
    Region &Reg = R.Regions[It->second];
    Reg.Access |= (A.Read ? unsigned(RegionRead) : 0u) | (A.Write ? unsigned(RegionWrite) : 0u);
    Reg.Affine &= A.Affine;
    Reg.MayAlias |= A.MayAlias;
    ByRegion[It->second].push_back(&A);
  }
  Ranges = Facts.Ranges;
  for (size_t L = 0; L < Nest.NormVars.size(); ++L)
    Ranges[Nest.NormVars[L].Key] = iterationRange(R.Nest[L]);
  // An inner loop that starts at `Base + N % D` starts at Base or above when N is nonnegative
  // over the ranges (the walk assumed it could be D - 1 below).
  for (auto &[Key, Rg] : Ranges) {
    if (Rg.ResidueDiv <= 1)
      continue;
    std::optional<PolyRange> NR = symbolicRange(Rg.ResidueNum, Ranges);
    if (!NR || !provablyLessEq(Polynomial::constant(0), NR->Lo))
      continue;
    Rg.Lo = Rg.Base;
    for (auto &[V, IR] : R.InnerRanges)
      if (V.Key == Key)
        IR.Lo = Rg.Base;
  }
  for (size_t RI = 0; RI < R.Regions.size(); ++RI) {
    delinearizeRegion(R.Regions[RI], ByRegion[RI], Ranges);
    R.Regions[RI].RowExtents = rowExtentsOf(Ctx, R.Regions[RI].Base, R.Spellings);
  }
  return ByRegion;
}

void addGuardRegions(ASTContext &Ctx, const BodyFacts &Facts, LoopResult &R) {
  for (const ReachableRead &X : Facts.ReachableReads) {
    // Only writes through pointers, references and views of a type that may alias it.
    bool Compatible = false;
    for (const Access &A : Facts.Accesses) {
      if (!A.Write || !A.MayAlias)
        continue;
      QualType T = A.BaseType.getNonReferenceType();
      QualType Elem = T;
      if (T->isPointerType())
        Elem = T->getPointeeType();
      else if (const ArrayType *AT = Ctx.getAsArrayType(T))
        Elem = AT->getElementType();
      else if (isStdContainer(T))
        Elem = QualType(); // a container's elements never hold another variable
      Compatible |= !Elem.isNull() && mayPointTo(Elem, X.Type, Ctx);
    }
    if (!Compatible)
      continue;
    Region Guard;
    Guard.Name = X.Name;
    Guard.Access = RegionRead;
    Guard.Scalar = true;
    Guard.FullWrite = false;
    Guard.Rank = 1;
    Guard.ElemType = typeString(X.Type, Ctx);
    Guard.Extent = ExtentKind::Clause;
    Guard.ExtentText = "1";
    Guard.Subscripts = {{Polynomial::constant(0)}};
    Guard.Writes = {false};
    R.Regions.push_back(Guard);
  }
}

} // namespace analysis
} // namespace clustrix

std::vector<clustrix::Polynomial>
clustrix::variableLengths(const ASTContext &Ctx, QualType T, const FunctionDecl *Fn,
                          const std::map<const Decl *, std::string> &Spellings) {
  std::optional<std::set<const VarDecl *>> Rewritten;
  std::vector<clustrix::Polynomial> Out;
  while (T->isVariablyModifiedType()) {
    if (const auto *PT = T->getAs<PointerType>()) {
      T = PT->getPointeeType();
      continue;
    }
    const ArrayType *AT = Ctx.getAsArrayType(T);
    if (!AT)
      break;
    if (const auto *VA = dyn_cast<VariableArrayType>(AT))
      Out.push_back(analysis::variableLength(Ctx, VA->getSizeExpr(), Fn, Rewritten, Spellings));
    T = AT->getElementType();
  }
  return Out;
}
