//===- BoxCodeGen.cpp - The box program ------------------------------------===//
//
// Variables of the program are numbered: the nest's normalized iterations first, then the inner
// loops' variables, then the symbols (loop-invariant values, evaluated once into __clx_syms).
//
//===----------------------------------------------------------------------===//
#include "clustrix/Rewrite/BoxCodeGen.h"
#include "clustrix/Rewrite/DescriptorGen.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cassert>
#include <map>
#include <optional>

using namespace clustrix;

namespace {

/// Whether a region's box is its whole object (no affine subscripts, or more dimensions than a
/// box has and inner extents that are not known constants), and the rank of its box.
bool isWhole(const Region &Reg) {
  return !Reg.Affine || (Reg.Rank > 3 && foldedRows(Reg).empty());
}
unsigned boxRank(const Region &Reg) { return isWhole(Reg) ? 1 : std::min(Reg.Rank, 3u); }

/// Access Subs of a region of more than three dimensions, in its box's three: the dimensions
/// from the third on become one, `((s2 * n3) + s3) * n4 + ...`, the same offset in a row of
/// their product's length.
std::vector<Polynomial> foldSubscripts(const std::vector<Polynomial> &Subs,
                                       const std::vector<int64_t> &Rows) {
  if (Subs.size() <= 3)
    return Subs;
  Polynomial Folded = Subs[2];
  for (size_t D = 3; D < Subs.size(); ++D)
    Folded = Folded * Polynomial::constant(Rows[D - 1]) + Subs[D];
  return {Subs[0], Subs[1], Folded};
}

std::string joined(const std::vector<std::string> &Items, const std::string &Empty) {
  if (Items.empty())
    return Empty;
  std::string S;
  for (const std::string &I : Items)
    S += (S.empty() ? "" : ", ") + I;
  return S;
}

/// The static tables of one loop's box program.
class BoxTables {
public:
  BoxTables(const LoopResult &R, const RuntimeDialect &D) : R(R), D(D), N(R.Nest.size()) {
    for (size_t I = 0; I < R.InnerRanges.size(); ++I)
      Index[R.InnerRanges[I].first.Key] = unsigned(N + I);
    bool AnyClamp = false;
    for (size_t I = 0; I < R.InnerRanges.size(); ++I) {
      const PolyRange &IR = R.InnerRanges[I].second;
      unsigned L = addExpr(IR.Lo), H = addExpr(IR.Hi);
      Inner.push_back(std::to_string(L) + ", " + std::to_string(H));
      // 0xFFFF: no clamp (the runtime's NoClamp).
      std::string CL = IR.ClampLo ? std::to_string(addExpr(*IR.ClampLo)) : "65535";
      std::string CH = IR.ClampHi ? std::to_string(addExpr(*IR.ClampHi)) : "65535";
      Clamp.push_back(CL + ", " + CH);
      AnyClamp |= IR.isClamped();
    }
    if (!AnyClamp)
      Clamp.clear();
    for (size_t RI = 0; RI < R.Regions.size(); ++RI)
      addAccesses(unsigned(RI));
  }

  /// The tables, and the program `__clx_prog` over them.
  void emit(llvm::raw_ostream &OS) const;
  const std::vector<std::string> &symbols() const { return Symbols; }

private:
  unsigned varIndex(const PolyVar &V);
  unsigned addExpr(const Polynomial &P);
  void addAccesses(unsigned RI);

  const LoopResult &R;
  const RuntimeDialect &D;
  size_t N;
  std::map<const void *, unsigned> Index;
  std::vector<std::string> Symbols;
  std::vector<std::string> Terms, Exprs, Inner, Clamp, Accesses, Ranks;
};

unsigned BoxTables::varIndex(const PolyVar &V) {
  for (unsigned L = 0; L < N; ++L)
    if (V.Key == normalizedVarKey(L))
      return L;
  if (auto It = Index.find(V.Key); It != Index.end())
    return It->second;
  // A symbol, numbered after all inner variables (their count is known up front).
  unsigned I = unsigned(N + R.InnerRanges.size() + Symbols.size());
  Index[V.Key] = I;
  Symbols.push_back(V.Name);
  return I;
}

unsigned BoxTables::addExpr(const Polynomial &P) {
  namespace T = descriptor::BoxTermField;
  namespace E = descriptor::BoxExprField;
  size_t First = Terms.size();
  for (const auto &[M, C] : P.terms()) {
    // The analysis makes subscripts with larger terms non-affine (fitsBoxProgram).
    assert(M.size() <= MaxBoxFactors && "term too large for a box program");
    std::string Factors;
    for (size_t F = 0; F < MaxBoxFactors; ++F)
      Factors += (F ? ", " : "") + std::to_string(F < M.size() ? varIndex(M[F]) : 0);
    Terms.push_back(descriptor::init(descriptor::BoxTerm{
        T::Coef(std::to_string(C) + "ll"), T::NumFactors(M.size()), T::Factor("{" + Factors + "}")}));
  }
  Exprs.push_back(
      descriptor::init(descriptor::BoxExpr{E::First(First), E::Count(Terms.size() - First)}));
  return unsigned(Exprs.size() - 1);
}

void BoxTables::addAccesses(unsigned RI) {
  namespace A = descriptor::BoxAccessField;
  const Region &Reg = R.Regions[RI];
  unsigned Rank = boxRank(Reg);
  Ranks.push_back(std::to_string(Rank));
  // A whole region (non-affine reads of a known extent) still lists its affine accesses of
  // rank 1: the runtime's box is the extent and what they reach beyond it (`p[i - 1]`).
  if (isWhole(Reg) && Reg.Rank != 1)
    return;
  std::vector<int64_t> Rows = Reg.Rank > 3 ? foldedRows(Reg) : std::vector<int64_t>();
  for (size_t I = 0; I < Reg.Subscripts.size(); ++I) {
    if (Reg.Subscripts[I].size() != Reg.Rank)
      continue;
    std::vector<Polynomial> Subs = foldSubscripts(Reg.Subscripts[I], Rows);
    if (Subs.size() != Rank || !Subs[0].isValid())
      continue;
    size_t First = Exprs.size();
    for (const Polynomial &P : Subs)
      addExpr(P);
    bool Write = I < Reg.Writes.size() ? Reg.Writes[I] : true;
    Accesses.push_back(descriptor::init(
        descriptor::BoxAccess{A::Region(RI), A::First(First), A::Write(Write ? 1 : 0)}));
  }
}

void BoxTables::emit(llvm::raw_ostream &OS) const {
  namespace T = descriptor::BoxTermField;
  namespace E = descriptor::BoxExprField;
  namespace A = descriptor::BoxAccessField;
  namespace P = descriptor::BoxProgramField;
  std::string NoFactors = "{" + joined(std::vector<std::string>(MaxBoxFactors, "0"), "") + "}";
  std::string NoTerm =
      descriptor::init(descriptor::BoxTerm{T::Coef(0), T::NumFactors(0), T::Factor(NoFactors)});
  OS << "    static const " << D.record("BoxTerm") << " __clx_terms[] = {" << joined(Terms, NoTerm)
     << "};\n"
     << "    static const " << D.record("BoxExpr") << " __clx_exprs[] = {"
     << joined(Exprs, descriptor::init(descriptor::BoxExpr{E::First(0), E::Count(0)})) << "};\n";
  if (!Inner.empty())
    OS << "    static const " << D.fixedInt("uint16_t") << " __clx_inner[] = {" << joined(Inner, "")
       << "};\n";
  if (!Clamp.empty())
    OS << "    static const " << D.fixedInt("uint16_t") << " __clx_clamp[] = {" << joined(Clamp, "")
       << "};\n";
  OS << "    static const " << D.record("BoxAccess") << " __clx_accs[] = {"
     << joined(Accesses, descriptor::init(descriptor::BoxAccess{A::Region(0), A::First(0),
                                                                     A::Write(0)}))
     << "};\n"
     << "    static const " << D.fixedInt("uint8_t") << " __clx_rank[] = {" << joined(Ranks, "")
     << "};\n"
     << "    static const " << D.record("BoxProgram") << " __clx_prog = "
     << descriptor::init(descriptor::BoxProgram{
            P::NumNest(N), P::NumInner(R.InnerRanges.size()), P::NumSymbols(Symbols.size()),
            P::Terms("__clx_terms"), P::Exprs("__clx_exprs"),
            P::InnerRange(Inner.empty() ? D.null() : "__clx_inner"), P::Accesses("__clx_accs"),
            P::NumAccesses(Accesses.size()), P::Rank("__clx_rank"),
            P::NumRegions(R.Regions.size()),
            P::InnerClamp(Clamp.empty() ? D.null() : "__clx_clamp")})
     << ";\n";
}

/// The frame of one region: the address of element (0, ..., 0), its size, the extents, and for
/// a region read whole, the count of its elements.
std::string frame(const Region &Reg, const RuntimeDialect &Dialect) {
  namespace F = descriptor::BoxFrameField;
  std::string Elem;
  if (Reg.Scalar)
    Elem = "&(" + Reg.Name + ")";
  else if (Reg.IsContainer)
    Elem = "(" + Reg.Name + ").data()";
  else if (!Reg.ConstDims.empty()) {
    Elem = "&(" + Reg.Name + ")";
    for (size_t D = 0; D < Reg.ConstDims.size(); ++D)
      Elem += "[0]";
  } else if (Reg.VariableRowLevels > 0) {
    Elem = "&(" + Reg.Name + ")";
    for (unsigned D = 0; D <= Reg.VariableRowLevels; ++D)
      Elem += "[0]";
  } else
    Elem = "(" + Reg.Name + ")";
  unsigned Rank = boxRank(Reg);
  std::vector<int64_t> Rows = Reg.Rank > 3 && Rank == 3 ? foldedRows(Reg) : std::vector<int64_t>();
  std::vector<std::string> Extents;
  for (unsigned D = 0; D < 3; ++D) {
    std::string E = "-1";
    if (D >= Rank)
      E = "1";
    else if (!Rows.empty() && D == 0)
      E = Reg.ConstDims.size() == Reg.Rank ? std::to_string(Reg.ConstDims[0]) : "-1";
    else if (!Rows.empty() && D == 1)
      E = std::to_string(Rows[0]);
    else if (!Rows.empty()) { // the folded dimensions' product
      int64_t Product = 1;
      for (size_t K = 1; K < Rows.size(); ++K)
        Product *= Rows[K];
      E = std::to_string(Product);
    }
    else if (!Reg.ConstDims.empty() && Reg.ConstDims.size() == Rank)
      E = std::to_string(Reg.ConstDims[D]);
    else if (D == 0 && Rank == 1 && !Reg.ExtentText.empty())
      E = Dialect.castTo("int64_t", Reg.ExtentText);
    else if (D > 0 && D - 1 < Reg.DimExtents.size())
      E = Dialect.castTo("int64_t", Reg.DimExtents[D - 1].str());
    else if (D > 0 && Reg.VariableRowLevels > 0 && Rank == Reg.VariableRowLevels + 1)
      E = Dialect.castTo("int64_t", rowLength(Reg, D));
    Extents.push_back(E);
  }
  // Non-affine reads of a known extent: the whole object; of a pointer's, the heap block that
  // holds it, as the runtime knows it (allocationHi is -1 when it does not: serial).
  bool Whole = isWhole(Reg);
  std::string Lo = "0", Hi = "0";
  // A region of more than three dimensions is read whole too, its extent unknown unless the
  // source gives it: then the heap block's, or serial (-1), never an empty box.
  if (Whole && !Reg.ExtentText.empty()) {
    Hi = Dialect.castTo("int64_t", Reg.ExtentText);
  } else if (Whole && Reg.Pointer) {
    std::string Args = "(const void *)" + Elem + ", sizeof(*" + Elem + ")";
    Lo = Dialect.helper("allocationLo") + "(" + Args + ")";
    Hi = Dialect.helper("allocationHi") + "(" + Args + ")";
  } else if (Whole) {
    Hi = "-1";
  }
  return descriptor::init(descriptor::BoxFrame{
      F::Base("(void *)" + Elem), F::ElemSize("sizeof(*" + Elem + ")"),
      F::Extent("{" + joined(Extents, "") + "}"), F::Whole(Dialect.boolean(Whole)),
      F::WholeLo(Lo), F::WholeHi(Hi)});
}

} // namespace

std::vector<int64_t> clustrix::foldedRows(const Region &Reg) {
  std::vector<int64_t> Rows;
  if (Reg.Rank <= 3)
    return Rows;
  int64_t Product = 1;
  for (unsigned D = 1; D < Reg.Rank; ++D) {
    std::optional<int64_t> N;
    if (Reg.ConstDims.size() == Reg.Rank)
      N = Reg.ConstDims[D];
    else if (D - 1 < Reg.RowExtents.size() && Reg.RowExtents[D - 1].isValid())
      N = Reg.RowExtents[D - 1].asConstant();
    else if (D - 1 < Reg.DimExtents.size() && Reg.DimExtents[D - 1].isValid())
      N = Reg.DimExtents[D - 1].asConstant();
    // A product past 2^40 elements is no row a box describes.
    if (!N || *N <= 0 || *N > (int64_t(1) << 40) / Product)
      return {};
    Product *= *N;
    Rows.push_back(*N);
  }
  return Rows;
}

bool clustrix::boxFullWrite(const Region &Reg, const LoopResult &R) {
  if (!Reg.FullWrite || Reg.Rank <= 3)
    return Reg.FullWrite;
  std::vector<int64_t> Rows = foldedRows(Reg);
  if (Rows.empty())
    return false;
  // Every write has the same subscripts (writtenInFull): each folded dimension after the
  // first must run over its whole row, or the folded row has holes the chunk does not write.
  for (size_t I = 0; I < Reg.Subscripts.size(); ++I) {
    if (I < Reg.Writes.size() && !Reg.Writes[I])
      continue;
    const std::vector<Polynomial> &Subs = Reg.Subscripts[I];
    for (unsigned D = 3; D < Subs.size(); ++D) {
      std::vector<PolyVar> Vs = Subs[D].loopVars();
      if (Vs.size() != 1)
        return false;
      std::optional<int64_t> C = Subs[D].coefficientOf(Vs[0]).asConstant();
      const PolyRange *Range = nullptr;
      for (const auto &[V, IR] : R.InnerRanges)
        if (V.Key == Vs[0].Key)
          Range = &IR;
      if (!C || !Range || Range->isLattice() || Range->isClamped())
        return false;
      std::optional<int64_t> Lo = Range->Lo.asConstant(), Hi = Range->Hi.asConstant();
      int64_t Off = Subs[D].constantTerm();
      if (!Lo || !Hi || (*C != 1 && *C != -1))
        return false;
      int64_t First = *C == 1 ? *Lo + Off : Off - *Hi, Last = *C == 1 ? *Hi + Off : Off - *Lo;
      if (First != 0 || Last != Rows[D - 1] - 1)
        return false;
    }
  }
  return true;
}

std::string clustrix::rowLength(const Region &Reg, unsigned Level) {
  if (Level - 1 < Reg.RowExtents.size() && Reg.RowExtents[Level - 1].isValid())
    return Reg.RowExtents[Level - 1].str();
  // sizeof one level over sizeof the next.
  std::string Outer = "(" + Reg.Name + ")";
  for (unsigned K = 0; K < Level; ++K)
    Outer += "[0]";
  return "sizeof(" + Outer + ") / sizeof(" + Outer + "[0])";
}

std::string clustrix::boxProgramCode(const LoopResult &R, const RuntimeDialect &D) {
  namespace B = descriptor::ProgramBoxesField;
  BoxTables Tables(R, D);
  std::string S;
  llvm::raw_string_ostream OS(S);
  Tables.emit(OS);
  // Symbols, bases and extents are loop-invariant: evaluated once, here.
  const std::vector<std::string> &Symbols = Tables.symbols();
  if (!Symbols.empty()) {
    OS << "    const " << D.fixedInt("int64_t") << " __clx_syms[] = {";
    for (size_t I = 0; I < Symbols.size(); ++I)
      OS << (I ? ", " : "") << D.castTo("int64_t", Symbols[I]);
    OS << "};\n";
  }
  OS << "    const " << D.fixedInt("uint64_t") << " __clx_trips[] = {";
  for (size_t L = 0; L < R.Nest.size(); ++L)
    OS << (L ? ", " : "") << "__clx_trip" << L << ".Count";
  OS << "};\n    const " << D.record("BoxFrame") << " __clx_frames[] = {";
  for (size_t RI = 0; RI < R.Regions.size(); ++RI)
    OS << (RI ? ",\n        " : "\n        ") << frame(R.Regions[RI], D);
  OS << "};\n    " << D.record("ProgramBoxes") << " __clx_boxenv = "
     << descriptor::init(descriptor::ProgramBoxes{
            B::Program("&__clx_prog"), B::Trips("__clx_trips"),
            B::Symbols(Symbols.empty() ? D.null() : "__clx_syms"), B::Frames("__clx_frames")})
     << ";\n";
  return S;
}
