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
        (V.IsLoopVar ? Loops : Symbols).emplace(V.Key, V);
        // A quotient symbol brings its numerator's symbols, for the constraint that relates them.
        if (const Quotient *Q = V.IsLoopVar ? nullptr : quotientOf(V.Key))
          if (!Q->Num.loopVars().empty() || !add(Q->Num))
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
      for (const auto &[Key, V] : std::map<const void *, PolyVar>(Loops)) {
        if (!Done.insert(Key).second)
          continue;
        auto It = Ranges.find(Key);
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

  std::map<const void *, PolyVar> Loops, Symbols;

private:
  static size_t index(const std::map<const void *, PolyVar> &Map, const void *Key) {
    size_t I = 0;
    for (const auto &Entry : Map) {
      if (Entry.first == Key)
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

} // namespace

std::optional<ExactAnswer> clustrix::testExactly(const std::vector<Polynomial> &A,
                                                 const std::vector<Polynomial> &B,
                                                 const std::vector<PolyVar> &Nest,
                                                 const RangeMap &Ranges) {
  if (A.size() != B.size() || Nest.empty())
    return std::nullopt;
  Naming Names;
  for (const PolyVar &K : Nest)
    Names.Loops.emplace(K.Key, K);
  for (size_t D = 0; D < A.size(); ++D)
    if (!Names.add(A[D]) || !Names.add(B[D]))
      return std::nullopt;
  if (!Names.closeOverRanges(Ranges))
    return std::nullopt;

  std::string Params, Vars, Cons;
  for (const auto &[Key, V] : Names.Symbols)
    Params += (Params.empty() ? "" : ", ") + Names.symbol(V);
  auto And = [&](const std::string &C) { Cons += (Cons.empty() ? "" : " and ") + C; };
  for (const auto &[Key, V] : Names.Loops)
    for (char I : {'a', 'b'}) {
      Vars += (Vars.empty() ? "" : ", ") + Names.loop(V, I);
      auto It = Ranges.find(Key);
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
  for (const auto &[Key, V] : Names.Symbols)
    if (const Quotient *Q = quotientOf(Key)) {
      std::string N = "(" + Names.text(Q->Num, 'a') + ")", D = std::to_string(Q->Div);
      std::string DQ = D + "*" + Names.symbol(V);
      And("((" + N + " >= 0 and " + DQ + " <= " + N + " and " + N + " <= " + DQ + " + " + D +
          " - 1) or (" + N + " < 0 and " + DQ + " - " + D + " + 1 <= " + N + " and " + N +
          " <= " + DQ + "))");
    }
  for (size_t D = 0; D < A.size(); ++D)
    And(Names.text(A[D], 'a') + " = " + Names.text(B[D], 'b'));
  std::string Differ;
  for (const PolyVar &K : Nest)
    Differ += (Differ.empty() ? "" : " or ") + Names.loop(K, 'a') + " < " + Names.loop(K, 'b') +
              " or " + Names.loop(K, 'a') + " > " + Names.loop(K, 'b');
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
    for (const auto &[Key, V] : Names.Loops) {
      Pos[Key] = I;
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
    Answer.Witness = "iterations " + Iters[0] + " and " + Iters[1];
    // The symbols by name: the order of the message must not depend on where keys live.
    std::vector<std::pair<std::string, long>> Values;
    int P = 0;
    for (const auto &[Key, V] : Names.Symbols) {
      if (V.Name.rfind("__clx", 0) != 0 && !quotientOf(Key))
        Values.push_back({V.Name, coordinate(Pt, isl_dim_param, P)});
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
