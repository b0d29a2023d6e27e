//===- Plan/Planner.cpp - Splitting a loop into chunks --------------------===//
#include "Plan/Planner.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace clustrix {
namespace rt {

Decision decide(const LoopInfo &Info, uint64_t TripCount, const RuntimeConfig &Config,
                unsigned AvailableLanes, bool OnlyHost, bool Explain) {
  Decision D;
  if (Info.ForceDisabled) {
    if (Explain)
      D.Reason = "disabled by gpu_parallel(disable)";
    return D;
  }
  if (!Config.AutoGpuParallel) {
    if (Explain)
      D.Reason = "auto_gpu_parallel is off in the configuration";
    return D;
  }
  if (AvailableLanes == 0) {
    if (Explain)
      D.Reason = "no device can run this loop";
    return D;
  }
  double PerIter = Info.WorkPerIter > 1.0 ? Info.WorkPerIter : 1.0;
  double Work = static_cast<double>(TripCount) * PerIter;
  bool Below = Work < static_cast<double>(Config.SerialThreshold);
  if (Below && Explain)
    D.Reason = std::to_string(TripCount) + " iterations x " +
               std::to_string(static_cast<uint64_t>(PerIter)) +
               " operations is below serial_threshold (" +
               std::to_string(Config.SerialThreshold) + ")";
  uint64_t MinIters = Info.MinItersPerDevice > 0 ? static_cast<uint64_t>(Info.MinItersPerDevice)
                                                 : Config.MinItersPerDevice;
  if (MinIters == 0)
    MinIters = 1;
  uint64_t Lanes = AvailableLanes;
  if (Info.MaxDevices > 0)
    Lanes = std::min<uint64_t>(Lanes, static_cast<uint64_t>(Info.MaxDevices));
  if (Config.MaxGpuParallelJobs > 0)
    Lanes = std::min<uint64_t>(Lanes, Config.MaxGpuParallelJobs);
  // As many devices as get min_iters_per_device iterations each: one below 2x, all above Nx.
  Lanes = std::min<uint64_t>(Lanes, std::max<uint64_t>(1, TripCount / MinIters));
  if (Lanes <= 1 && OnlyHost) {
    if (Explain && !Below) {
      D.Reason = std::to_string(TripCount) +
                 " iterations give no two devices min_iters_per_device (" +
                 std::to_string(MinIters) + ") each";
      if (AvailableLanes == 1 || Info.MaxDevices == 1 || Config.MaxGpuParallelJobs == 1)
        D.Reason = "only one CPU worker is available";
    }
    return D;
  }
  D.NumLanes = static_cast<unsigned>(Lanes);
  D.Sched = Info.Sched != Schedule::Default ? Info.Sched : Config.DefaultSchedule;
  if (D.Sched == Schedule::Default)
    D.Sched = Schedule::Block;
  if (D.Sched != Schedule::Block) {
    uint64_t K = Info.ChunkSize > 0 ? static_cast<uint64_t>(Info.ChunkSize) : Config.ChunkSize;
    if (K == 0)
      K = defaultChunkSize(D.Sched, TripCount, D.NumLanes);
    // Bound the bookkeeping: never more than MaxChunks chunks.
    uint64_t MinK = (TripCount + MaxChunks - 1) / MaxChunks;
    D.ChunkSize = std::max(K, std::max<uint64_t>(MinK, 1));
  }
  D.Wide = !Below;
  D.BelowThreshold = Below;
  return D;
}

std::vector<uint64_t> splitWeighted(uint64_t N, const std::vector<double> &Weights) {
  std::vector<uint64_t> Shares(Weights.size(), 0);
  double Total = 0;
  for (double W : Weights)
    Total += W > 0 ? W : 0;
  if (Weights.empty() || N == 0)
    return Shares;
  if (Total <= 0) { // no information: equal shares
    return splitWeighted(N, std::vector<double>(Weights.size(), 1.0));
  }
  uint64_t Given = 0;
  std::vector<std::pair<double, size_t>> Rema;
  for (size_t I = 0; I < Weights.size(); ++I) {
    double W = Weights[I] > 0 ? Weights[I] : 0;
    long double Exact = static_cast<long double>(N) * W / Total;
    uint64_t Floor = static_cast<uint64_t>(std::floor(Exact));
    Floor = std::min<uint64_t>(Floor, N - Given);
    Shares[I] = Floor;
    Given += Floor;
    if (W > 0)
      Rema.emplace_back(static_cast<double>(Exact - Floor), I);
  }
  std::stable_sort(Rema.begin(), Rema.end(),
                   [](const auto &A, const auto &B) { return A.first > B.first; });
  for (size_t K = 0; Given < N; K = (K + 1) % Rema.size()) {
    ++Shares[Rema[K].second];
    ++Given;
  }
  return Shares;
}

Plan planBlock(uint64_t TripCount, const std::vector<double> &Weights) {
  Plan P;
  P.Sched = Schedule::Block;
  std::vector<uint64_t> Shares = splitWeighted(TripCount, Weights);
  uint64_t Lo = 0;
  for (uint64_t S : Shares) {
    if (S == 0)
      continue;
    P.Chunks.push_back({Lo, Lo + S});
    Lo += S;
  }
  P.NumLanes = static_cast<unsigned>(P.Chunks.size());
  return P;
}

Plan planBlockBalanced(uint64_t TripCount, const std::vector<double> &Weights,
                       const std::vector<double> &Work) {
  const size_t NS = Work.size();
  if (NS < 2 || TripCount < 2 * Weights.size() ||
      std::all_of(Work.begin(), Work.end(), [&](double W) { return W == Work[0]; }) ||
      std::any_of(Work.begin(), Work.end(), [](double W) { return !(W >= 0); }))
    return planBlock(TripCount, Weights);
  // The work of iteration X, linear between samples; the work before X, its integral (a sum of
  // trapezoids), which grows with X.
  const double Step = double(TripCount - 1) / double(NS - 1);
  std::vector<double> Before(NS, 0.0); // work before sample S's iteration
  for (size_t S = 1; S < NS; ++S)
    Before[S] = Before[S - 1] + (Work[S - 1] + Work[S]) / 2 * Step;
  const double Total = Before[NS - 1] + Work[NS - 1];
  auto WorkBefore = [&](uint64_t X) {
    if (X >= TripCount)
      return Total;
    double Pos = double(X) / Step;
    size_t S = std::min<size_t>(NS - 2, size_t(Pos));
    double F = Pos - double(S), W = Work[S] + (Work[S + 1] - Work[S]) * F;
    return Before[S] + (Work[S] + W) / 2 * F * Step;
  };
  if (!(Total > 0))
    return planBlock(TripCount, Weights);
  double WeightSum = 0;
  for (double W : Weights)
    WeightSum += W > 0 ? W : 0;
  if (!(WeightSum > 0))
    return planBlock(TripCount, Weights);
  Plan P;
  P.Sched = Schedule::Block;
  uint64_t Lo = 0;
  double Share = 0;
  size_t Left = 0; // lanes with a positive weight after this one
  for (double W : Weights)
    Left += W > 0;
  for (double W : Weights) {
    if (!(W > 0))
      continue;
    --Left;
    Share += W / WeightSum;
    uint64_t Hi = TripCount - Left; // room for one iteration on each lane after this one
    if (Left > 0) {
      // The first end whose work before it reaches this lane's cumulative share.
      double Target = Share * Total;
      uint64_t A = Lo + 1, B = Hi;
      while (A < B) {
        uint64_t M = A + (B - A) / 2;
        if (WorkBefore(M) >= Target)
          B = M;
        else
          A = M + 1;
      }
      Hi = A;
    }
    P.Chunks.push_back({Lo, Hi});
    Lo = Hi;
  }
  P.NumLanes = static_cast<unsigned>(P.Chunks.size());
  return P;
}

static Plan planFixed(Schedule S, uint64_t TripCount, unsigned NumLanes, uint64_t ChunkSize) {
  Plan P;
  P.Sched = S;
  P.NumLanes = NumLanes;
  P.ChunkSize = std::max<uint64_t>(ChunkSize, 1);
  // One lane takes every chunk, cyclic or dynamic, one after another in iteration order: the
  // same work as one chunk of the whole range, which a device runs as one launch (or as the
  // sub-chunks its memory needs) instead of one launch per chunk.
  if (NumLanes == 1 && TripCount > 0)
    P.ChunkSize = TripCount;
  P.Chunks.reserve(static_cast<size_t>((TripCount + P.ChunkSize - 1) / P.ChunkSize));
  for (uint64_t Lo = 0; Lo < TripCount;) {
    uint64_t Hi = TripCount - Lo > P.ChunkSize ? Lo + P.ChunkSize : TripCount;
    P.Chunks.push_back({Lo, Hi});
    Lo = Hi;
  }
  // Fewer chunks than lanes: the extra lanes would idle.
  P.NumLanes = static_cast<unsigned>(std::min<uint64_t>(NumLanes, P.Chunks.size()));
  return P;
}

Plan planCyclic(uint64_t TripCount, unsigned NumLanes, uint64_t ChunkSize) {
  return planFixed(Schedule::Cyclic, TripCount, NumLanes, ChunkSize);
}

Plan planDynamic(uint64_t TripCount, unsigned NumLanes, uint64_t ChunkSize) {
  return planFixed(Schedule::Dynamic, TripCount, NumLanes, ChunkSize);
}

uint64_t defaultChunkSize(Schedule S, uint64_t TripCount, unsigned NumLanes) {
  uint64_t PerLane = S == Schedule::Dynamic ? 8 : 4;
  uint64_t Div = std::max<uint64_t>(1, static_cast<uint64_t>(NumLanes) * PerLane);
  return std::max<uint64_t>(1, (TripCount + Div - 1) / Div);
}

bool splitForMemory(uint64_t Lo, uint64_t Hi,
                    const std::function<uint64_t(uint64_t, uint64_t)> &Bytes, uint64_t Budget,
                    std::vector<Chunk> &Out) {
  Out.clear();
  while (Lo < Hi) {
    if (Bytes(Lo, Hi) <= Budget) {
      Out.push_back({Lo, Hi});
      return true;
    }
    if (Bytes(Lo, Lo + 1) > Budget) {
      Out.clear();
      return false;
    }
    // Largest End in (Lo, Hi) with Bytes(Lo, End) <= Budget.
    uint64_t Good = Lo + 1, Bad = Hi;
    while (Bad - Good > 1) {
      uint64_t Mid = Good + (Bad - Good) / 2;
      if (Bytes(Lo, Mid) <= Budget)
        Good = Mid;
      else
        Bad = Mid;
    }
    Out.push_back({Lo, Good});
    Lo = Good;
  }
  return true;
}

Plan planAligned(Schedule S, uint64_t TripCount, uint64_t Align, const std::vector<double> &Weights,
                 uint64_t ChunkSize) {
  uint64_t Rows = TripCount / Align + (TripCount % Align != 0);
  uint64_t RowChunk = ChunkSize == 0 ? 0 : std::max<uint64_t>(1, (ChunkSize + Align - 1) / Align);
  unsigned Lanes = static_cast<unsigned>(Weights.size());
  Plan P = S == Schedule::Block    ? planBlock(Rows, Weights)
           : S == Schedule::Cyclic ? planCyclic(Rows, Lanes, RowChunk)
                                   : planDynamic(Rows, Lanes, RowChunk);
  for (Chunk &C : P.Chunks) {
    C.Lo *= Align;
    C.Hi = std::min(C.Hi * Align, TripCount);
  }
  P.ChunkSize *= Align;
  return P;
}

} // namespace rt
} // namespace clustrix
