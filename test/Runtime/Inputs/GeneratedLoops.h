//===- GeneratedLoops.h - Loops in the shape clustrix-rewrite emits -------===//
//
// Hand-written stand-ins for rewritten loops, used by the runtime's lit tests: each function
// keeps the original loop in a comment, fills a LoopInfo and LoopArgs the way generated code
// does, calls runLoop, runs the original loop itself when told Serial, and returns whether the
// result equals a plain serial run.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_TEST_GENERATEDLOOPS_H
#define CLUSTRIX_TEST_GENERATEDLOOPS_H

#include "clustrix/Runtime.h"

#include <cstdint>
#include <cstdio>
#include <vector>

namespace gen {
using namespace clustrix::rt;

inline LoopInfo makeInfo(const char *File, unsigned Line, Schedule S, const RegionInfo *Regions,
                         uint32_t NumRegions) {
  LoopInfo I{};
  I.AbiVersion = CLUSTRIX_RT_ABI_VERSION;
  I.File = File;
  I.Line = Line;
  I.Column = 3;
  I.Sched = S;
  I.Level = 1;
  I.WorkPerIter = 4;
  I.Regions = Regions;
  I.NumRegions = NumRegions;
  return I;
}

/// LoopArgs with a host chunk function and a box function, as generated code fills them.
template <class BodyT, class BoxesT>
LoopArgs hostArgs(uint64_t TripCount, BodyT &Body, BoxesT &Boxes) {
  LoopArgs Args{};
  Args.TripCount = TripCount;
  Args.Host = &chunkThunk<BodyT>;
  Args.HostEnv = &Body;
  Args.Boxes = &boxThunk<BoxesT>;
  Args.BoxEnv = &Boxes;
  return Args;
}

inline Box box1(void *Base, size_t ES, int64_t Extent, int64_t Lo, int64_t Hi) {
  return Box{Base, ES, {Extent, 0, 0}, {Lo, 0, 0}, {Hi, 0, 0}};
}

/// for (int i = 0; i < n; ++i) { y[i] = a * x[i] + y[i]; s += y[i]; m = max(m, y[i]);
///                               if (i % 7 == 0) hits.push_back(i); }
/// with reductions s (+, int64), m (max, int) and an ordered append.
inline bool fusedLoop(int N, Schedule S, RunStatus *Status = nullptr) {
  std::vector<int> X(N), Y(N), RefY(N);
  for (int I = 0; I < N; ++I) {
    X[I] = I % 13 - 6;
    Y[I] = RefY[I] = (I * 7) % 11;
  }
  const int A = 3;
  int64_t Sum = 5, RefSum = 5;
  int Max = -1000, RefMax = -1000;
  std::vector<int> Hits{-1}, RefHits{-1};
  for (int I = 0; I < N; ++I) {
    RefY[I] = A * X[I] + RefY[I];
    RefSum += RefY[I];
    RefMax = RefMax < RefY[I] ? RefY[I] : RefMax;
    if (I % 7 == 0)
      RefHits.push_back(I);
  }

  static const RegionInfo Regions[] = {{"x", AccessRead, 1, 0, 0},
                                       {"y", AccessReadWrite, 1, 1, 0}};
  LoopInfo Info = makeInfo(__FILE__, __LINE__, S, Regions, 2);
  int *XP = X.data(), *YP = Y.data();
  Trip T = tripCount<int>(0, N, Cmp::LT, 1u, true);
  auto Body = [&](uint64_t Lo, uint64_t Hi, ChunkContext &Ctx) {
    int64_t &PS = partial<int64_t>(Ctx, 0);
    int &PM = partial<int>(Ctx, 1);
    std::vector<int> &PH = appendBuffer<std::vector<int>>(Ctx, 0);
    for (uint64_t K = Lo; K < Hi; ++K) {
      int I = inductionValue<int>(0, 1u, true, K);
      YP[I] = A * XP[I] + YP[I];
      PS += YP[I];
      PM = PM < YP[I] ? YP[I] : PM;
      if (I % 7 == 0)
        PH.push_back(I);
    }
  };
  auto Boxes = [&](uint64_t Lo, uint64_t Hi, Box *Out) {
    int64_t L = inductionValue<int>(0, 1u, true, Lo), H = inductionValue<int>(0, 1u, true, Hi - 1) + 1;
    Out[0] = box1(XP, sizeof(int), N, L, H);
    Out[1] = box1(YP, sizeof(int), N, L, H);
  };
  ReductionSlot Reds[] = {reductionSlot(Sum, ReduceOp::Add), reductionSlot(Max, ReduceOp::Max)};
  AppendSlot Apps[] = {appendSlot(Hits)};
  LoopArgs Args = hostArgs(T.Count, Body, Boxes);
  Args.Reductions = Reds;
  Args.NumReductions = 2;
  Args.Appends = Apps;
  Args.NumAppends = 1;
  RunStatus St = T.Ok ? runLoop(Info, Args) : RunStatus::Serial;
  if (St == RunStatus::Serial) {
    for (int I = 0; I < N; ++I) {
      Y[I] = A * X[I] + Y[I];
      Sum += Y[I];
      Max = Max < Y[I] ? Y[I] : Max;
      if (I % 7 == 0)
        Hits.push_back(I);
    }
  }
  if (Status)
    *Status = St;
  return Y == RefY && Sum == RefSum && Max == RefMax && Hits == RefHits;
}

/// for (int c = 0; c < cols; ++c) for (int r = 0; r < rows; ++r) m[r][c] = m[r][c] * 2 + c;
/// Parallel over columns: each chunk writes a column block, a 2-D box whose address hull
/// overlaps every other chunk's, while the element sets are disjoint. Returns true when the
/// result equals the serial one.
inline bool columnLoop(int Rows, int Cols, Schedule S, RunStatus *Status = nullptr) {
  std::vector<double> M(Rows * Cols), Ref(Rows * Cols);
  for (int I = 0; I < Rows * Cols; ++I)
    M[I] = Ref[I] = I % 17;
  for (int C = 0; C < Cols; ++C)
    for (int R = 0; R < Rows; ++R)
      Ref[R * Cols + C] = Ref[R * Cols + C] * 2 + C;
  static const RegionInfo Regions[] = {{"m", AccessReadWrite, 2, 1, 0}};
  LoopInfo Info = makeInfo(__FILE__, __LINE__, S, Regions, 1);
  double *MP = M.data();
  auto Body = [&](uint64_t Lo, uint64_t Hi, ChunkContext &) {
    for (uint64_t K = Lo; K < Hi; ++K) {
      int C = static_cast<int>(K);
      for (int R = 0; R < Rows; ++R)
        MP[R * Cols + C] = MP[R * Cols + C] * 2 + C;
    }
  };
  auto Boxes = [&](uint64_t Lo, uint64_t Hi, Box *Out) {
    Out[0] = Box{MP, sizeof(double), {Rows, Cols, 0}, {0, static_cast<int64_t>(Lo), 0},
                 {Rows, static_cast<int64_t>(Hi), 0}};
  };
  LoopArgs Args = hostArgs(static_cast<uint64_t>(Cols), Body, Boxes);
  RunStatus St = runLoop(Info, Args);
  if (St == RunStatus::Serial)
    for (int C = 0; C < Cols; ++C)
      for (int R = 0; R < Rows; ++R)
        M[R * Cols + C] = M[R * Cols + C] * 2 + C;
  if (Status)
    *Status = St;
  return M == Ref;
}

/// for (int i = 0; i < n; ++i) dst[i] = src[i] + 1;   with dst and src possibly aliasing
/// (MayAlias on both). Dst = Buf + Shift, Src = Buf: overlapping when Shift < n.
inline bool aliasLoop(int N, int Shift, RunStatus *Status = nullptr) {
  std::vector<int> Buf(N + Shift + 1), Ref;
  for (size_t I = 0; I < Buf.size(); ++I)
    Buf[I] = static_cast<int>(I);
  Ref = Buf;
  for (int I = 0; I < N; ++I)
    Ref[Shift + I] = Ref[I] + 1;
  static const RegionInfo Regions[] = {{"dst", AccessWrite, 1, 1, 1}, {"src", AccessRead, 1, 0, 1}};
  LoopInfo Info = makeInfo(__FILE__, __LINE__, Schedule::Default, Regions, 2);
  int *Dst = Buf.data() + Shift, *Src = Buf.data();
  auto Body = [&](uint64_t Lo, uint64_t Hi, ChunkContext &) {
    for (uint64_t K = Lo; K < Hi; ++K)
      Dst[K] = Src[K] + 1;
  };
  auto Boxes = [&](uint64_t Lo, uint64_t Hi, Box *Out) {
    Out[0] = box1(Dst, sizeof(int), N, static_cast<int64_t>(Lo), static_cast<int64_t>(Hi));
    Out[1] = box1(Src, sizeof(int), N, static_cast<int64_t>(Lo), static_cast<int64_t>(Hi));
  };
  LoopArgs Args = hostArgs(static_cast<uint64_t>(N), Body, Boxes);
  RunStatus St = runLoop(Info, Args);
  if (St == RunStatus::Serial)
    for (int I = 0; I < N; ++I)
      Dst[I] = Src[I] + 1;
  if (Status)
    *Status = St;
  return Buf == Ref;
}

/// for (int i = 0; i < n; ++i) out[i / 2] += in[i];   as a buggy compiler might emit it: the
/// write boxes of neighbouring chunks share an element, so the runtime must stay serial.
inline bool overlappingWrites(int N, RunStatus *Status = nullptr) {
  std::vector<int> In(N), Out(N / 2 + 1, 0), Ref(N / 2 + 1, 0);
  for (int I = 0; I < N; ++I)
    In[I] = I;
  for (int I = 0; I < N; ++I)
    Ref[I / 2] += In[I];
  static const RegionInfo Regions[] = {{"out", AccessReadWrite, 1, 0, 0}, {"in", AccessRead, 1, 0, 0}};
  LoopInfo Info = makeInfo(__FILE__, __LINE__, Schedule::Cyclic, Regions, 2);
  Info.ChunkSize = 3; // odd chunks: neighbours meet inside one element of out
  auto Body = [&](uint64_t Lo, uint64_t Hi, ChunkContext &) {
    for (uint64_t K = Lo; K < Hi; ++K)
      Out[K / 2] += In[K];
  };
  auto Boxes = [&](uint64_t Lo, uint64_t Hi, Box *O) {
    O[0] = box1(Out.data(), sizeof(int), N / 2 + 1, static_cast<int64_t>(Lo / 2),
                static_cast<int64_t>((Hi - 1) / 2 + 1));
    O[1] = box1(In.data(), sizeof(int), N, static_cast<int64_t>(Lo), static_cast<int64_t>(Hi));
  };
  LoopArgs Args = hostArgs(static_cast<uint64_t>(N), Body, Boxes);
  RunStatus St = runLoop(Info, Args);
  if (St == RunStatus::Serial)
    for (int I = 0; I < N; ++I)
      Out[I / 2] += In[I];
  if (Status)
    *Status = St;
  return Out == Ref;
}

inline const char *statusName(RunStatus S) { return S == RunStatus::Done ? "wide" : "serial"; }

} // namespace gen

#endif
