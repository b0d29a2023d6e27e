//===- Plan/BoxProgram.cpp - Evaluating box programs -----------------------===//
//
// Interval arithmetic over the subscript polynomials the compiler tabulates: each variable is an
// interval (normalized iterations from the chunk, inner loop variables from their bounds,
// symbols as points), each term's product and each expression's sum are intervals, and the hull
// of a region's accesses is its box.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Runtime.h"
#include "Plan/Regions.h"

#include <algorithm>
#include <vector>

namespace clustrix {
namespace rt {

namespace {
/// InnerClamp's "no clamp".
constexpr uint16_t NoClamp = 0xFFFF;

Ival evalExpr(const BoxProgram &P, const BoxExpr &E, const std::vector<Ival> &Vars, bool &Empty) {
  Ival Sum = ivalOf(0);
  for (uint16_t T = E.First; T < E.First + E.Count; ++T) {
    const BoxTerm &Term = P.Terms[T];
    Ival V = ivalOf(Term.Coef);
    for (uint8_t F = 0; F < Term.NumFactors; ++F) {
      const Ival &X = Vars[Term.Factor[F]];
      if (X.Lo > X.Hi)
        Empty = true; // a variable of a loop that does not run
      V = ivalMul(V, X);
    }
    Sum = ivalAdd(Sum, V);
  }
  return Sum;
}
} // namespace

namespace {
/// The intervals of the program's variables over normalized iterations [Lo, Hi): the nest's
/// levels, the inner loops' variables (from their bounds), the symbols (points).
void evalVars(const BoxProgram &P, const uint64_t *Trips, const int64_t *Symbols, uint64_t Lo,
              uint64_t Hi, std::vector<Ival> &Vars) {
  Vars.assign(P.NumNest + P.NumInner + P.NumSymbols, Ival());
  // Normalized iterations of the nest: [Lo, Hi) of the flattened space. The outermost level
  // spans Lo/Inner .. (Hi-1)/Inner; inner levels span their whole range unless the range stays
  // within one row.
  uint64_t Inner = 1;
  for (unsigned L = 1; L < P.NumNest; ++L)
    Inner *= Trips[L];
  if (Hi <= Lo || Inner == 0) {
    for (unsigned L = 0; L < P.NumNest; ++L)
      Vars[L] = {0, -1};
  } else if (P.NumNest == 1) {
    Vars[0] = {static_cast<int64_t>(Lo), static_cast<int64_t>(Hi - 1)};
  } else {
    uint64_t First = Lo / Inner, Last = (Hi - 1) / Inner;
    Vars[0] = {static_cast<int64_t>(First), static_cast<int64_t>(Last)};
    uint64_t Rest = Inner;
    bool SameRow = First == Last;
    uint64_t LoIn = Lo % Inner, HiIn = (Hi - 1) % Inner;
    for (unsigned L = 1; L < P.NumNest; ++L) {
      Rest /= Trips[L];
      uint64_t A = LoIn / Rest, B = HiIn / Rest;
      if (SameRow && A <= B) {
        Vars[L] = {static_cast<int64_t>(A), static_cast<int64_t>(B)};
        SameRow = A == B;
        LoIn %= Rest;
        HiIn %= Rest;
      } else {
        Vars[L] = {0, static_cast<int64_t>(Trips[L]) - 1};
        SameRow = false;
      }
    }
  }
  for (unsigned S = 0; S < P.NumSymbols; ++S)
    Vars[P.NumNest + P.NumInner + S] = ivalOf(Symbols[S]);
  for (unsigned I = 0; I < P.NumInner; ++I) {
    bool Unused = false;
    Ival L = evalExpr(P, P.Exprs[P.InnerRange[2 * I]], Vars, Unused);
    Ival H = evalExpr(P, P.Exprs[P.InnerRange[2 * I + 1]], Vars, Unused);
    int64_t Lo = L.Lo, Hi = H.Hi;
    // A clamped end: the variable is at most min(Hi, ClampHi) at every point, so at most the
    // smaller of their largest values (and at least the larger of the smallest starts).
    if (P.InnerClamp) {
      if (uint16_t C = P.InnerClamp[2 * I]; C != NoClamp)
        Lo = std::max(Lo, evalExpr(P, P.Exprs[C], Vars, Unused).Lo);
      if (uint16_t C = P.InnerClamp[2 * I + 1]; C != NoClamp)
        Hi = std::min(Hi, evalExpr(P, P.Exprs[C], Vars, Unused).Hi);
    }
    Vars[P.NumNest + I] = {Lo, Hi};
  }
}

/// The index interval of each dimension of access Acc; false when it is in a loop that does
/// not run (it touches nothing).
bool accessDims(const BoxProgram &P, const BoxAccess &Acc, const std::vector<Ival> &Vars,
                Ival *Dims) {
  bool Empty = false;
  for (unsigned D = 0; D < P.Rank[Acc.Region]; ++D)
    Dims[D] = evalExpr(P, P.Exprs[Acc.First + D], Vars, Empty);
  return !Empty;
}
} // namespace

void evalBoxHulls(const BoxProgram &P, const uint64_t *Trips, const int64_t *Symbols, uint64_t Lo,
                  uint64_t Hi, Box *Out, bool WritesOnly) {
  // Scratch kept per thread: a loop call evaluates boxes several times, and a resident loop's
  // whole call costs a few microseconds, so these are not allocated each time.
  thread_local std::vector<Ival> Vars;
  thread_local std::vector<char> Any;
  evalVars(P, Trips, Symbols, Lo, Hi, Vars);
  Any.assign(P.NumRegions, 0);
  for (uint16_t R = 0; R < P.NumRegions; ++R)
    for (int D = 0; D < 3; ++D) {
      Out[R].Lo[D] = 0;
      Out[R].Hi[D] = D < P.Rank[R] ? 0 : 1;
    }
  for (uint16_t A = 0; A < P.NumAccesses; ++A) {
    const BoxAccess &Acc = P.Accesses[A];
    if (WritesOnly && !Acc.Write)
      continue;
    unsigned Rank = P.Rank[Acc.Region];
    Ival Dims[3];
    if (!accessDims(P, Acc, Vars, Dims))
      continue;
    Box &B = Out[Acc.Region];
    for (unsigned D = 0; D < Rank; ++D) {
      int64_t L = Dims[D].Lo, H = Dims[D].Hi + 1;
      B.Lo[D] = Any[Acc.Region] ? std::min(B.Lo[D], L) : L;
      B.Hi[D] = Any[Acc.Region] ? std::max(B.Hi[D], H) : H;
    }
    Any[Acc.Region] = 1;
  }
}

namespace {
void frameBoxes(const ProgramBoxes &B, Box *Out) {
  for (uint16_t R = 0; R < B.Program->NumRegions; ++R) {
    const BoxFrame &F = B.Frames[R];
    Box &X = Out[R];
    X.Base = F.Base;
    X.ElemSize = F.ElemSize;
    for (int D = 0; D < 3; ++D)
      X.Extent[D] = F.Extent[D];
    if (F.Whole) {
      // The whole array as the extent gives it, and what the affine accesses reach beyond it
      // (`p[i - 1]` at i = 0): the extent does not replace their boxes (data-movement.md).
      bool Affine = X.Hi[0] > X.Lo[0];
      X.Lo[0] = Affine ? std::min<int64_t>(X.Lo[0], F.WholeLo) : F.WholeLo;
      X.Hi[0] = Affine ? std::max<int64_t>(X.Hi[0], F.WholeHi) : F.WholeHi;
    }
  }
}
} // namespace

void programBoxes(void *Env, uint64_t Lo, uint64_t Hi, Box *Out) {
  const ProgramBoxes &B = *static_cast<const ProgramBoxes *>(Env);
  evalBoxHulls(*B.Program, B.Trips, B.Symbols, Lo, Hi, Out);
  frameBoxes(B, Out);
}

bool programWriteAccessBoxes(const ProgramBoxes &B, uint64_t Lo, uint64_t Hi, Box *Out) {
  const BoxProgram &P = *B.Program;
  for (uint16_t A = 0; A < P.NumAccesses; ++A)
    if (P.Accesses[A].Write && B.Frames[P.Accesses[A].Region].Whole)
      return false; // the whole array stands for accesses no box describes
  thread_local std::vector<Ival> Vars;
  evalVars(P, B.Trips, B.Symbols, Lo, Hi, Vars);
  for (uint16_t A = 0; A < P.NumAccesses; ++A) {
    const BoxAccess &Acc = P.Accesses[A];
    const BoxFrame &F = B.Frames[Acc.Region];
    Box &X = Out[A];
    X.Base = F.Base;
    X.ElemSize = F.ElemSize;
    unsigned Rank = P.Rank[Acc.Region];
    for (int D = 0; D < 3; ++D) {
      X.Extent[D] = F.Extent[D];
      X.Lo[D] = 0;
      X.Hi[D] = D < int(Rank) ? 0 : 1; // empty until the access gives its bounds
    }
    Ival Dims[3];
    if (!Acc.Write || !accessDims(P, Acc, Vars, Dims))
      continue;
    for (unsigned D = 0; D < Rank; ++D) {
      X.Lo[D] = Dims[D].Lo;
      X.Hi[D] = Dims[D].Hi + 1;
    }
  }
  return true;
}

bool programIterationWork(const ProgramBoxes &B, uint64_t TripCount, size_t Samples,
                          std::vector<double> &Work) {
  const BoxProgram &P = *B.Program;
  Work.clear();
  if (P.NumInner == 0 || TripCount < 2 || Samples < 2)
    return false;
  Samples = static_cast<size_t>(std::min<uint64_t>(Samples, TripCount));
  thread_local std::vector<Ival> Vars;
  for (size_t S = 0; S < Samples; ++S) {
    uint64_t It = static_cast<uint64_t>(
        (static_cast<long double>(S) * static_cast<long double>(TripCount - 1)) / (Samples - 1));
    evalVars(P, B.Trips, B.Symbols, It, It + 1, Vars);
    // One for the iteration itself, times the inner loops' trips (a deeper loop's range is
    // its hull over the loops around it: an estimate, never a bound anything relies on).
    double W = 1;
    for (unsigned I = 0; I < P.NumInner; ++I) {
      const Ival &V = Vars[P.NumNest + I];
      W *= V.Hi >= V.Lo ? double(V.Hi) - double(V.Lo) + 1 : 0;
    }
    Work.push_back(1 + W);
  }
  return true;
}

bool programBoxesKey(const LoopArgs &Args, std::vector<int64_t> &Key) {
  if (Args.Boxes != &programBoxes || !Args.BoxEnv) {
    Key.clear();
    return false;
  }
  const ProgramBoxes &B = *static_cast<const ProgramBoxes *>(Args.BoxEnv);
  const BoxProgram &Prog = *B.Program;
  // Sized once and written in place: this runs on every call of a loop kept wide, and a
  // push_back per word cost more than the comparison it feeds (hundreds of words for a loop
  // over twenty arrays).
  Key.resize(1 + Prog.NumNest + Prog.NumSymbols + 8 * size_t(Prog.NumRegions));
  int64_t *K = Key.data();
  *K++ = static_cast<int64_t>(reinterpret_cast<uintptr_t>(B.Program));
  for (unsigned I = 0; I < Prog.NumNest; ++I)
    *K++ = static_cast<int64_t>(B.Trips[I]);
  for (unsigned I = 0; I < Prog.NumSymbols; ++I)
    *K++ = B.Symbols[I];
  for (unsigned R = 0; R < Prog.NumRegions; ++R) {
    const BoxFrame &F = B.Frames[R];
    *K++ = static_cast<int64_t>(reinterpret_cast<uintptr_t>(F.Base));
    *K++ = static_cast<int64_t>(F.ElemSize);
    for (int D = 0; D < 3; ++D)
      *K++ = F.Extent[D];
    *K++ = F.Whole;
    *K++ = F.WholeLo;
    *K++ = F.WholeHi;
  }
  return true;
}

void programWriteBoxes(void *Env, uint64_t Lo, uint64_t Hi, Box *Out) {
  const ProgramBoxes &B = *static_cast<const ProgramBoxes *>(Env);
  evalBoxHulls(*B.Program, B.Trips, B.Symbols, Lo, Hi, Out, /*WritesOnly=*/true);
  frameBoxes(B, Out);
}

} // namespace rt
} // namespace clustrix
