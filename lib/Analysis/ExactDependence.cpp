//===- ExactDependence.cpp - The exact dependence test (isl) ---------------===//
//
// The question becomes an isl set over the two instances' loop variables, with the symbols as
// parameters:
//   [s0, ...] -> { [v0_a, v0_b, ...] : ranges of each instance
//                                      and A(instance a) = B(instance b) in every dimension
//                                      and the nest's variables differ in some level }
// The accesses conflict exactly when the set is not empty; a sample point is the witness.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Analysis/ExactDependence.h"

#include <isl/ctx.h>
#include <isl/options.h>
#include <isl/point.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>

using namespace clustrix;

namespace {

/// Names of the variables of one problem: loop variables twice (one per access), symbols once.
class Naming {
public:
  bool add(const Polynomial &P) {
    if (!P.isValid())
      return false;
    for (const auto &[M, C] : P.terms()) {
      if (M.size() > 1)
        return false; // a product of variables or symbols: not affine
      for (const PolyVar &V : M) {
        (V.IsLoopVar ? Loops : Symbols).emplace(V, V);
        // A quotient symbol brings its numerator's symbols, for the constraint that relates them.
        if (const Quotient *Q = V.IsLoopVar ? nullptr : quotientOf(V.Key))
          if (!Q->Num.loopVars().empty() || !add(Q->Num))
            return false;
        // So does a clamp symbol its operands'.
        if (const Clamp *Cl = V.IsLoopVar ? nullptr : clampOf(V.Key))
          if (!Cl->A.loopVars().empty() || !Cl->B.loopVars().empty() || !add(Cl->A) ||
              !add(Cl->B))
            return false;
      }
    }
    return true;
  }
  /// Adds the loop variables' ranges, transitively. False when one is not affine.
  bool closeOverRanges(const RangeMap &Ranges) {
    std::set<const void *> Done;
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (const auto &[K, V] : VarMap(Loops)) {
        if (!Done.insert(V.Key).second)
          continue;
        auto It = Ranges.find(V.Key);
        if (It == Ranges.end())
          continue;
        const PolyRange &R = It->second;
        if (!add(R.Lo) || !add(R.Hi) || (R.isLattice() && (!add(R.Base) || !add(R.ResidueNum))) ||
            (R.ClampLo && !add(*R.ClampLo)) || (R.ClampHi && !add(*R.ClampHi)))
          return false;
        Changed = true;
      }
    }
    return true;
  }
  std::string loop(const PolyVar &V, char Instance) const {
    return "l" + std::to_string(index(Loops, V.Key)) + "_" + Instance;
  }
  std::string symbol(const PolyVar &V) const { return "s" + std::to_string(index(Symbols, V.Key)); }

  /// P for one instance, in isl's syntax.
  std::string text(const Polynomial &P, char Instance) const {
    std::string S;
    for (const auto &[M, C] : P.terms()) {
      std::string Term = std::to_string(C);
      if (!M.empty())
        Term += "*" + (M[0].IsLoopVar ? loop(M[0], Instance) : symbol(M[0]));
      S += (S.empty() ? "" : " + ") + Term;
    }
    return S.empty() ? "0" : S;
  }

  /// By name (then key), so that isl's space, and so its sample points, do not depend on
  /// where the keys live.
  using VarMap = std::map<PolyVar, PolyVar>;
  VarMap Loops, Symbols;

private:
  static size_t index(const VarMap &Map, const void *Key) {
    size_t I = 0;
    for (const auto &Entry : Map) {
      if (Entry.first.Key == Key)
        return I;
      ++I;
    }
    return I;
  }
};

struct CtxDeleter {
  void operator()(isl_ctx *C) const { isl_ctx_free(C); }
};

/// The integer value of one coordinate of a point.
long coordinate(isl_point *Pt, isl_dim_type Type, int Pos) {
  isl_val *V = isl_point_get_coordinate_val(Pt, Type, Pos);
  long N = V ? isl_val_get_num_si(V) : 0;
  isl_val_free(V);
  return N;
}


/// A nest level that counts in tiles of a run-time size (`it += t`): its variable appears only
/// multiplied by one symbol, k*t, which isl cannot take. Renamed U = t*k, the problem is
/// affine again; what k != k' says of U, |U - U'| >= |t| (U = U' = 0 for t = 0), is added in its
/// place. The rename keeps every solution, so an empty set still proves independence.
struct TileRename {
  PolyVar K, S, U;
};

Polynomial monomial(const Monomial &M, int64_t C) {
  Polynomial P = Polynomial::constant(C);
  for (const PolyVar &V : M)
    P = P * Polynomial::variable(V);
  return P;
}

/// The symbol that multiplies K in every monomial of P that holds K: true with S unset when K
/// does not appear, false when it appears otherwise (alone, with another factor, or with a
/// different symbol than S).
bool tileSymbol(const Polynomial &P, const PolyVar &K, std::optional<PolyVar> &S) {
  if (!P.isValid())
    return true;
  for (const auto &[M, C] : P.terms()) {
    if (std::find(M.begin(), M.end(), K) == M.end())
      continue;
    if (M.size() != 2)
      return false;
    const PolyVar &Other = M[0] == K ? M[1] : M[0];
    if (Other.IsLoopVar || (S && !(*S == Other)))
      return false;
    S = Other;
  }
  return true;
}

/// P with each monomial C*S*K replaced by C*U.
Polynomial renamed(const Polynomial &P, const TileRename &T) {
  if (!P.isValid())
    return P;
  Polynomial Out = Polynomial::constant(0);
  for (const auto &[M, C] : P.terms())
    Out = Out + (std::find(M.begin(), M.end(), T.K) == M.end()
                     ? monomial(M, C)
                     : Polynomial::variable(T.U).scaled(C));
  return Out;
}

PolyRange renamed(const PolyRange &R, const TileRename &T) {
  PolyRange Out = R;
  Out.Lo = renamed(R.Lo, T);
  Out.Hi = renamed(R.Hi, T);
  Out.Base = renamed(R.Base, T);
  Out.ResidueNum = renamed(R.ResidueNum, T);
  if (R.ClampLo)
    Out.ClampLo = renamed(*R.ClampLo, T);
  if (R.ClampHi)
    Out.ClampHi = renamed(*R.ClampHi, T);
  return Out;
}

/// The nest levels to rename, and the problem renamed (A, B and Ranges in place).
std::vector<TileRename> renameTiles(std::vector<Polynomial> &A, std::vector<Polynomial> &B,
                                    std::vector<PolyVar> &Nest, RangeMap &Ranges,
                                    std::vector<std::unique_ptr<char>> &Keys) {
  std::vector<TileRename> Out;
  for (PolyVar &K : Nest) {
    std::optional<PolyVar> S;
    bool Ok = true;
    for (const std::vector<Polynomial> *Side : {&A, &B})
      for (const Polynomial &P : *Side)
        Ok &= tileSymbol(P, K, S);
    for (const auto &[Key, R] : Ranges) {
      if (Key == K.Key)
        continue;
      for (const Polynomial *P : {&R.Lo, &R.Hi, &R.Base, &R.ResidueNum})
        Ok &= tileSymbol(*P, K, S);
      for (const std::optional<Polynomial> *P : {&R.ClampLo, &R.ClampHi})
        if (*P)
          Ok &= tileSymbol(**P, K, S);
    }
    if (!Ok || !S)
      continue;
    Keys.push_back(std::make_unique<char>());
    TileRename T{K, *S, PolyVar{Keys.back().get(), K.Name + "*" + S->Name, true}};
    for (std::vector<Polynomial> *Side : {&A, &B})
      for (Polynomial &P : *Side)
        P = renamed(P, T);
    Ranges.erase(K.Key);
    for (auto &[Key, R] : Ranges)
      R = renamed(R, T);
    K = T.U;
    Out.push_back(T);
  }
  return Out;
}

} // namespace

std::optional<ExactAnswer> clustrix::testExactly(const std::vector<Polynomial> &OrigA,
                                                 const std::vector<Polynomial> &OrigB,
                                                 const std::vector<PolyVar> &OrigNest,
                                                 const RangeMap &OrigRanges,
                                                 const std::vector<Polynomial> *CondA,
                                                 const std::vector<Polynomial> *CondB) {
  if (OrigA.size() != OrigB.size() || OrigNest.empty())
    return std::nullopt;
  std::vector<Polynomial> A = OrigA, B = OrigB;
  std::vector<PolyVar> Nest = OrigNest;
  RangeMap Ranges = OrigRanges;
  std::vector<std::unique_ptr<char>> TileKeys;
  std::vector<TileRename> Tiles = renameTiles(A, B, Nest, Ranges, TileKeys);
  if (!Tiles.empty() && ((CondA && !CondA->empty()) || (CondB && !CondB->empty())))
    return std::nullopt; // the conditions name the variables as they were
  auto TileOf = [&](const PolyVar &V) -> const TileRename * {
    for (const TileRename &T : Tiles)
      if (T.U == V)
        return &T;
    return nullptr;
  };
  Naming Names;
  for (const PolyVar &K : Nest)
    Names.Loops.emplace(K, K);
  for (size_t D = 0; D < A.size(); ++D)
    if (!Names.add(A[D]) || !Names.add(B[D]))
      return std::nullopt;
  for (const TileRename &T : Tiles)
    if (!Names.add(Polynomial::variable(T.S)))
      return std::nullopt;
  for (const std::vector<Polynomial> *Conds : {CondA, CondB})
    for (const Polynomial &P : Conds ? *Conds : std::vector<Polynomial>())
      if (!Names.add(P))
        return std::nullopt;
  if (!Names.closeOverRanges(Ranges))
    return std::nullopt;

  std::string Params, Vars, Cons;
  for (const auto &[K, V] : Names.Symbols)
    Params += (Params.empty() ? "" : ", ") + Names.symbol(V);
  auto And = [&](const std::string &C) { Cons += (Cons.empty() ? "" : " and ") + C; };
  for (const auto &[K, V] : Names.Loops)
    for (char I : {'a', 'b'}) {
      Vars += (Vars.empty() ? "" : ", ") + Names.loop(V, I);
      auto It = Ranges.find(V.Key);
      if (It == Ranges.end())
        continue;
      const PolyRange &R = It->second;
      And(Names.text(R.Lo, I) + " <= " + Names.loop(V, I));
      And(Names.loop(V, I) + " <= " + Names.text(R.Hi, I));
      // Both ends of a clamped bound hold: `v < min(a, b)` is `v < a and v < b`.
      if (R.ClampLo)
        And(Names.text(*R.ClampLo, I) + " <= " + Names.loop(V, I));
      if (R.ClampHi)
        And(Names.loop(V, I) + " <= " + Names.text(*R.ClampHi, I));
      // A loop with a constant step, or a start with a residue (`j = 1 + i % 2; j += 2`):
      // the values reached from the start, not the whole interval.
      if (R.isLattice()) {
        // exists t >= 0: v = Base + (N % D) + Step*t, with N % D = N - D*q and q = N / D
        // truncating toward zero, as the quotient symbols below.
        std::string T = "t" + Names.loop(V, I), Q = "q" + Names.loop(V, I);
        std::string N = "(" + Names.text(R.ResidueNum, I) + ")", D = std::to_string(R.ResidueDiv);
        std::string DQ = D + "*" + Q;
        And("exists (" + T + ", " + Q + " : " + Names.loop(V, I) + " = " + Names.text(R.Base, I) +
            " + " + N + " - " + DQ + " + " + std::to_string(R.Step) + "*" + T + " and " + T +
            " >= 0 and ((" + N + " >= 0 and " + DQ + " <= " + N + " and " + N + " <= " + DQ +
            " + " + D + " - 1) or (" + N + " < 0 and " + DQ + " - " + D + " + 1 <= " + N +
            " and " + N + " <= " + DQ + ")))");
      }
    }
  // q = Num / Div, truncating toward zero: Div*q <= Num < Div*q + Div when Num >= 0, and
  // Div*q - Div < Num <= Div*q when Num < 0.
  for (const auto &[K, V] : Names.Symbols)
    if (const Quotient *Q = quotientOf(V.Key)) {
      std::string N = "(" + Names.text(Q->Num, 'a') + ")", D = std::to_string(Q->Div);
      std::string DQ = D + "*" + Names.symbol(V);
      And("((" + N + " >= 0 and " + DQ + " <= " + N + " and " + N + " <= " + DQ + " + " + D +
          " - 1) or (" + N + " < 0 and " + DQ + " - " + D + " + 1 <= " + N + " and " + N +
          " <= " + DQ + "))");
    }
  // c = max(x, y): c >= x, c >= y, and c is one of them; min alike.
  for (const auto &[K, V] : Names.Symbols)
    if (const Clamp *Cl = clampOf(V.Key)) {
      std::string C = Names.symbol(V), X = "(" + Names.text(Cl->A, 'a') + ")",
                  Y = "(" + Names.text(Cl->B, 'a') + ")";
      std::string Rel = Cl->IsMax ? " >= " : " <= ";
      And(C + Rel + X + " and " + C + Rel + Y + " and (" + C + " = " + X + " or " + C + " = " +
          Y + ")");
    }
  for (size_t D = 0; D < A.size(); ++D)
    And(Names.text(A[D], 'a') + " = " + Names.text(B[D], 'b'));
  for (auto [Conds, I] : {std::pair{CondA, 'a'}, std::pair{CondB, 'b'}})
    for (const Polynomial &P : Conds ? *Conds : std::vector<Polynomial>())
      And(Names.text(P, I) + " >= 0");
  std::string Differ;
  // A renamed level's U = S*k with k >= 0 has S's sign; and the two instances' U, both
  // multiples of S, are equal or at least |S| apart, whichever other level differs (S = 0 puts
  // both at 0): without it, two iterations that differ in an inner level could put the renamed
  // level anywhere between two multiples.
  for (const TileRename &T : Tiles) {
    std::string X = Names.loop(T.U, 'a'), Y = Names.loop(T.U, 'b'), S = Names.symbol(T.S);
    for (const std::string &U : {X, Y})
      And("((" + S + " >= 1 and " + U + " >= 0) or (" + S + " <= -1 and " + U + " <= 0) or " +
          S + " = 0)");
    And("(" + X + " = " + Y + " or (" + S + " >= 1 and (" + X + " - " + Y + " >= " + S + " or " +
        Y + " - " + X + " >= " + S + ")) or (" + S + " <= -1 and (" + X + " - " + Y + " >= -" + S +
        " or " + Y + " - " + X + " >= -" + S + ")))");
    And("(" + S + " >= 1 or " + S + " <= -1 or (" + X + " = 0 and " + Y + " = 0))");
  }
  for (const PolyVar &K : Nest) {
    std::string X = Names.loop(K, 'a'), Y = Names.loop(K, 'b');
    if (const TileRename *T = TileOf(K)) {
      // U = S*k: different k are at least |S| apart, and S = 0 puts every k at 0.
      std::string S = Names.symbol(T->S);
      Differ += (Differ.empty() ? "" : " or ") + ("(" + S + " >= 1 and (" + X + " - " + Y +
                                                   " >= " + S + " or " + Y + " - " + X + " >= " +
                                                   S + ")) or (" + S + " <= -1 and (" + X +
                                                   " - " + Y + " >= -" + S + " or " + Y + " - " +
                                                   X + " >= -" + S + ")) or (" + S + " = 0 and " +
                                                   X + " = 0 and " + Y + " = 0)");
      continue;
    }
    Differ += (Differ.empty() ? "" : " or ") + X + " < " + Y + " or " + X + " > " + Y;
  }
  And("(" + Differ + ")");
  std::string Text = "[" + Params + "] -> { [" + Vars + "] : " + Cons + " }";

  std::unique_ptr<isl_ctx, CtxDeleter> Ctx(isl_ctx_alloc());
  isl_options_set_on_error(Ctx.get(), ISL_ON_ERROR_CONTINUE);
  isl_ctx_set_max_operations(Ctx.get(), 2000000);
  isl_set *Set = isl_set_read_from_str(Ctx.get(), Text.c_str());
  if (!Set)
    return std::nullopt;
  isl_bool Empty = isl_set_is_empty(Set);
  if (Empty == isl_bool_error) {
    isl_set_free(Set);
    return std::nullopt;
  }
  ExactAnswer Answer;
  if (Empty == isl_bool_true) {
    isl_set_free(Set);
    return Answer;
  }
  Answer.Conflict = true;
  // A witness: the iterations of the outermost level that differ, and the symbols.
  isl_point *Pt = isl_set_sample_point(Set); // takes Set
  if (Pt && isl_point_is_void(Pt) == isl_bool_false) {
    std::map<const void *, int> Pos;
    int I = 0;
    for (const auto &[K, V] : Names.Loops) {
      Pos[V.Key] = I;
      I += 2;
    }
    std::string Iters[2];
    for (const PolyVar &K : Nest)
      for (int Inst = 0; Inst < 2; ++Inst)
        Iters[Inst] += (Iters[Inst].empty() ? "" : ", ") +
                       std::to_string(coordinate(Pt, isl_dim_set, Pos[K.Key] + Inst));
    if (Nest.size() > 1)
      for (std::string &S : Iters)
        S = "(" + S + ")";
    // A renamed tile level's coordinate is t*k, not an iteration: then no numbers are shown.
    Answer.Witness = Tiles.empty() ? "iterations " + Iters[0] + " and " + Iters[1]
                                   : std::string("two iterations");
    // The symbols by name: the order of the message must not depend on where keys live.
    std::vector<std::pair<std::string, long>> Values;
    int P = 0;
    for (const auto &[K, V] : Names.Symbols) {
      if (V.Name.rfind("__clx", 0) != 0 && !quotientOf(V.Key) && !clampOf(V.Key)) {
        Values.push_back({V.Name, coordinate(Pt, isl_dim_param, P)});
        Answer.Symbols.push_back({V.Key, coordinate(Pt, isl_dim_param, P)});
      }
      ++P;
    }
    std::sort(Values.begin(), Values.end());
    std::string Syms;
    for (const auto &[Name, Value] : Values)
      Syms += (Syms.empty() ? "" : ", ") + Name + " = " + std::to_string(Value);
    if (!Syms.empty())
      Answer.Witness += " (with " + Syms + ")";
  }
  isl_point_free(Pt);
  return Answer;
}
