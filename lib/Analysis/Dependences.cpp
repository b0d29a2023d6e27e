//===- Dependences.cpp - Iterations touching the same element -------------===//
//
// Within each region, every write is tested against every access (itself included) with the
// cross-iteration tests of Dependence.cpp, on each level of the nest, and where they cannot
// decide with the exact test of ExactDependence.cpp. A write through a subscript
// the analysis cannot follow, or any such access to a region the loop writes, is refused: the
// elements it touches are not known. Then, per region, whether each chunk's write box is written
// in full (so that it needs no copy-in).
//
//===----------------------------------------------------------------------===//
#include "Phases.h"

#include "clustrix/Analysis/Dependence.h"
#include "clustrix/Analysis/ExactDependence.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace clustrix {
namespace analysis {

namespace {

/// Whether two accesses touch different members of their elements: neither member path is a
/// prefix of the other, and the first members where they differ are different fields of a
/// struct (not of a union, whose fields share storage, nor bit-fields, which share words).
bool disjointFields(const Access &A, const Access &B) {
  size_t N = std::min(A.Fields.size(), B.Fields.size());
  for (size_t I = 0; I < N; ++I) {
    const FieldDecl *FA = A.Fields[I], *FB = B.Fields[I];
    if (!FA || !FB || FA->isBitField() || FB->isBitField())
      return false; // bit-fields share their storage unit
    if (FA == FB)
      continue;
    return FA->getParent() == FB->getParent() && !FA->getParent()->isUnion();
  }
  return false;
}

/// Where Reg is an array that privatization considered and did not take, the refusal Added
/// (when the log took it) says what stopped privatization, as a further note.
void explainPrivate(RejectReason *Added, const Region &Reg, const LoopResult &R) {
  if (!Added || !Reg.Base)
    return;
  for (const PrivateMiss &M : R.PrivateMisses)
    if (M.Var == Reg.Base) {
      Added->DetailLoc = M.Loc;
      Added->Detail = M.Why;
      return;
    }
}

/// The first dependence between two accesses of one region, as a refusal.
bool refuseDependence(const Region &Reg, const std::vector<const Access *> &As,
                      const NestInfo &Nest, const RangeMap &Ranges, const LoopResult &R,
                      RejectLog &Log) {
  const std::vector<std::vector<Polynomial>> &Subs = Reg.Subscripts;
  for (size_t I = 0; I < As.size(); ++I) {
    if (!As[I]->Write)
      continue;
    for (size_t J = 0; J < As.size(); ++J) {
      if (J < I && As[J]->Write)
        continue; // tested as (J, I)
      if (disjointFields(*As[I], *As[J]))
        continue;
      bool Independent = true;
      DepResult Res;
      for (const PolyVar &K : Nest.NormVars) {
        Res = testCrossIteration(Subs[I], Subs[J], K, Ranges);
        if (Res.Kind != DepKind::Independent) {
          Independent = false;
          break;
        }
      }
      if (Independent)
        continue;
      bool OtherWrites = I == J || As[J]->Write;
      // The cheap tests ignore the loops' bounds: a dependence they find may need iterations
      // outside the iteration space (a triangular nest's rows below the diagonal). The exact
      // test (isl) proves independence or finds two iterations that touch one element.
      std::string Witness;
      std::vector<std::pair<const void *, int64_t>> Symbols;
      if (std::optional<ExactAnswer> X = testExactly(Subs[I], Subs[J], Nest.NormVars, Ranges)) {
        if (!X->Conflict)
          continue;
        Witness = X->Witness;
        Symbols = X->Symbols;
        if (Res.Kind == DepKind::Unknown) {
          Res.Kind = DepKind::Dependent;
          Res.Why = X->Witness.empty() ? "two iterations touch the same element"
                                       : X->Witness + " touch the same element";
        }
      }
      std::string Msg = "'" + Reg.Name + "' is written in one iteration and " +
                        (OtherWrites ? "written" : "read") + " in another";
      if (Res.Kind == DepKind::Dependent && Res.Distance)
        Msg += " (dependence distance " +
               std::to_string(*Res.Distance < 0 ? -*Res.Distance : *Res.Distance) + ")";
      else if (Res.Kind == DepKind::Dependent && !Res.Why.empty())
        Msg += ": " + Res.Why;
      else if (Res.Kind == DepKind::Unknown)
        Msg = "'" + Reg.Name + "' may be written in one iteration and " +
              (OtherWrites ? "written" : "read") + " in another: " + Res.Why;
      RejectReason *Added =
          Log.add(RejectKind::ArrayDependence, Msg, I == J ? As[I]->Loc : As[J]->Loc,
                  I == J ? "written here" : OtherWrites ? "conflicting write here"
                                                        : "conflicting read here");
      explainPrivate(Added, Reg, R);
      // Accesses made under affine conditions: the witness must meet them.
      if (Added && !Witness.empty() && !As[I]->Guarded && !As[J]->Guarded &&
          (!As[I]->Conds.empty() || !As[J]->Conds.empty())) {
        std::optional<ExactAnswer> C = testExactly(Subs[I], Subs[J], Nest.NormVars, Ranges,
                                                   &As[I]->Conds, &As[J]->Conds);
        Witness = C && C->Conflict ? C->Witness : "";
        Symbols = C && C->Conflict ? C->Symbols : decltype(Symbols)();
      }
      if (Added && !Witness.empty() && !As[I]->Guarded && !As[J]->Guarded) {
        auto &W = Added->Race;
        W.Certain = true;
        W.Iterations = Witness;
        W.Symbols = Symbols;
        W.First = As[I]->Loc;
        W.Second = As[J]->Loc;
        W.BothWrite = OtherWrites;
      }
      return true;
    }
  }
  return false;
}

/// A region of rank 2 or more whose subscripts after the first all stay at or before the end
/// of their rows, but not all after their start (`b[i][j - 1]` at j = 0): the dimension by
/// dimension test does not cover them, the element before a row being the last of the row
/// before. Compared again as addresses (row-major, with the type's extents); two iterations
/// that meet there are a refusal. (A subscript that may pass the end of its row needs a bound
/// larger than the row, which is the caller's to keep, as for any array: not refused.)
bool refuseRowLeaving(const Region &Reg, const std::vector<const Access *> &As,
                      const NestInfo &Nest, const RangeMap &Ranges, RejectLog &Log) {
  if (Reg.Rank < 2 || Reg.RowExtents.size() + 1 < Reg.Rank)
    return false;
  bool AtStarts = true;
  for (const std::vector<Polynomial> &Subs : Reg.Subscripts) {
    if (Subs.size() != Reg.Rank)
      return false;
    for (size_t D = 1; D < Subs.size(); ++D) {
      auto [AtStart, AtEnd] =
          provablyInside(Subs[D], Reg.RowExtents[D - 1] - Polynomial::constant(1), Ranges);
      if (!AtEnd)
        return false;
      AtStarts &= AtStart;
    }
  }
  if (AtStarts)
    return false;
  std::vector<Polynomial> Flat;
  for (const std::vector<Polynomial> &Subs : Reg.Subscripts)
    Flat.push_back(flattenRowMajor(Subs, Reg.RowExtents));
  for (size_t I = 0; I < As.size(); ++I) {
    if (!As[I]->Write)
      continue;
    for (size_t J = 0; J < As.size(); ++J) {
      if (J < I && As[J]->Write)
        continue;
      std::optional<ExactAnswer> X = testExactly({Flat[I]}, {Flat[J]}, Nest.NormVars, Ranges);
      if (X && !X->Conflict)
        continue;
      bool OtherWrites = I == J || As[J]->Write;
      Log.add(RejectKind::ArrayDependence,
              "'" + Reg.Name + "' is written in one iteration and " +
                  (OtherWrites ? "written" : "read") +
                  " in another through a subscript that leaves its row" +
                  (X && !X->Witness.empty() ? ": " + X->Witness + " touch the same element"
                                            : std::string(", which the test cannot rule out")),
              I == J ? As[I]->Loc : As[J]->Loc,
              I == J ? "written here" : OtherWrites ? "conflicting write here"
                                                    : "conflicting read here");
      return true;
    }
  }
  return false;
}

/// One write subscript vector, whole elements, each dimension a unit-stride function of its own
/// loop variable, over unit-step loops; unconditional, or conditional only through dense inner
/// loops (Access::Dense) each of whose variables is in the subscripts, so that an empty one
/// leaves the box empty.
bool writtenInFull(const Region &Reg, const std::vector<const Access *> &As,
                   const LoopResult &R) {
  const std::vector<Polynomial> *WS = nullptr;
  for (size_t I = 0; I < As.size(); ++I) {
    if (!As[I]->Write)
      continue;
    if ((As[I]->Conditional && !As[I]->Dense) || As[I]->Partial || !As[I]->Affine)
      return false;
    if (As[I]->Conditional) {
      unsigned InnerVars = 0;
      for (const Polynomial &P : Reg.Subscripts[I])
        for (const PolyVar &V : P.loopVars())
          InnerVars += std::any_of(R.InnerRanges.begin(), R.InnerRanges.end(),
                                   [&](const auto &E) { return E.first.Key == V.Key; });
      if (InnerVars != As[I]->DenseLoops)
        return false;
    }
    if (WS && *WS != Reg.Subscripts[I])
      return false;
    WS = &Reg.Subscripts[I];
  }
  if (!WS)
    return false;
  std::set<const void *> Used;
  for (const Polynomial &P : *WS) {
    std::vector<PolyVar> Vs = P.loopVars();
    if (Vs.size() != 1 || Used.count(Vs[0].Key))
      return false;
    // A variable with a clamped bound may skip values that its interval, and so the box, has.
    for (const auto &[V, Range] : R.InnerRanges)
      if (V.Key == Vs[0].Key && Range.isClamped())
        return false;
    Used.insert(Vs[0].Key);
    auto C = P.coefficientOf(Vs[0]).asConstant();
    if (!C || (*C != 1 && *C != -1))
      return false;
  }
  for (const CanonicalLoop &L : R.Nest) {
    auto S = L.StepPoly.asConstant();
    if (!S || (*S != 1 && *S != -1))
      return false;
  }
  return true;
}

} // namespace

void testDependences(const NestInfo &Nest, const RegionAccesses &ByRegion,
                     const RangeMap &Ranges, LoopResult &R, RejectLog &Log) {
  for (size_t RI = 0; RI < ByRegion.size(); ++RI) {
    Region &Reg = R.Regions[RI];
    const std::vector<const Access *> &As = ByRegion[RI];
    // Non-affine reads need the whole object: its extent must be known. Through a pointer the
    // runtime takes it from the heap block that holds the pointer, and runs the loop serially
    // when it knows none (a stack or static array, an allocator it does not see).
    if (!Reg.Affine && Reg.Extent == ExtentKind::Unknown && Reg.Pointer &&
        !(Reg.Access & RegionWrite))
      Reg.Extent = ExtentKind::Allocation;
    if (!Reg.Affine && Reg.Extent == ExtentKind::Unknown && !(Reg.Access & RegionWrite)) {
      const Access *A = As.front();
      for (const Access *X : As)
        if (!X->Affine) {
          A = X;
          break;
        }
      Log.add(RejectKind::UnboundedAccess,
              "'" + Reg.Name + "' is read through a subscript that is not affine and its extent "
              "is unknown",
              A->Loc, "read here", "extent(" + Reg.Name + ", <count>)");
    }
    Reg.FullWrite = false;
    if (!(Reg.Access & RegionWrite))
      continue;
    bool Refused = false;
    // A subscript over an inner loop's variable whose range is not known: that loop's
    // condition is the cause, not the subscript's form.
    auto Subscript = [&](const Access *A, const char *Affine) -> std::string {
      if (!A->UnrangedVar)
        return Affine;
      const ASTContext &Ctx = A->UnrangedVar->getASTContext();
      const ForStmt *F = A->UnrangedLoop;
      auto Part = [&](const Stmt *S) {
        const auto *E = dyn_cast_or_null<Expr>(S);
        return E ? spell(E, Ctx) : std::string();
      };
      std::string Init = Part(F->getInit());
      if (const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit()))
        Init = Lexer::getSourceText(CharSourceRange::getTokenRange(DS->getSourceRange()),
                                    Ctx.getSourceManager(), Ctx.getLangOpts())
                   .rtrim(";")
                   .str();
      return "a subscript over '" + A->UnrangedVar->getNameAsString() +
             "', the variable of an inner loop whose range is not known ('for (" + Init + "; " +
             Part(F->getCond()) + "; " + Part(F->getInc()) + ")')";
    };
    for (const Access *A : As)
      if (A->Write && !A->Affine && !Refused) {
        explainPrivate(
            Log.add(RejectKind::NonAffineWrite,
                    "'" + Reg.Name + "' is written through " +
                        Subscript(A, "a subscript that is not affine in the loop variables") +
                        ", so iterations may write the same element",
                    A->Loc, "written here"),
            Reg, R);
        Refused = true;
      }
    for (const Access *A : As)
      if (!A->Write && !A->Affine && !Refused) {
        explainPrivate(Log.add(RejectKind::ArrayDependence,
                               "'" + Reg.Name + "' is written by the loop and read through " +
                                   Subscript(A, "a subscript that is not affine") +
                                   ", so an iteration may read what another writes",
                               A->Loc, "read here"),
                       Reg, R);
        Refused = true;
      }
    if (Refused || refuseDependence(Reg, As, Nest, Ranges, R, Log) ||
        refuseRowLeaving(Reg, As, Nest, Ranges, Log))
      continue;
    Reg.FullWrite = writtenInFull(Reg, As, R);
  }
}

} // namespace analysis
} // namespace clustrix
