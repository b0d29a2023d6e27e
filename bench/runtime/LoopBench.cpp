//===- LoopBench.cpp - One loop, three ways: serial, Clustrix CPU path, OpenMP ----===//
//
// Built by bench.py with clang++ -O2 -fopenmp against libclustrix_rt. Each run measures one
// variant of one loop in its own process (so OpenMP's spinning threads never compete with the
// runtime's) and prints the median time per loop execution in nanoseconds.
//
//   LoopBench <serial|clustrix|omp> <mem|compute|small> <trip count> <repetitions>
//
//===----------------------------------------------------------------------===//
#include "clustrix/Runtime.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace clustrix::rt;

namespace {

/// The loop bodies, shared by the three variants.
inline void memBody(double *A, const double *B, const double *C, uint64_t I) {
  A[I] = B[I] + 0.5 * C[I];
}
inline void computeBody(double *A, const double *B, uint64_t I) {
  double X = B[I], S = 0;
  for (int K = 0; K < 200; ++K)
    S = S * 0.999 + std::sqrt(X + K);
  A[I] = S;
}

/// Runs the loop through runLoop exactly as the rewriter emits it, falling back to the original
/// loop when told Serial.
template <class Body>
void viaRuntime(const LoopInfo &Info, uint64_t N, double *Out, const double *In, Body B) {
  auto Chunk = [&](uint64_t Lo, uint64_t Hi, ChunkContext &) {
    for (uint64_t I = Lo; I < Hi; ++I)
      B(I);
  };
  auto Boxes = [&](uint64_t Lo, uint64_t Hi, Box *O) {
    O[0] = Box{Out, sizeof(double), {static_cast<int64_t>(N), 0, 0},
               {static_cast<int64_t>(Lo), 0, 0}, {static_cast<int64_t>(Hi), 0, 0}};
    O[1] = Box{const_cast<double *>(In), sizeof(double), {static_cast<int64_t>(N), 0, 0},
               {static_cast<int64_t>(Lo), 0, 0}, {static_cast<int64_t>(Hi), 0, 0}};
  };
  LoopArgs Args{};
  Args.TripCount = N;
  Args.Host = &chunkThunk<decltype(Chunk)>;
  Args.HostEnv = &Chunk;
  Args.Boxes = &boxThunk<decltype(Boxes)>;
  Args.BoxEnv = &Boxes;
  if (runLoop(Info, Args) == RunStatus::Serial)
    for (uint64_t I = 0; I < N; ++I)
      B(I);
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc != 5) {
    std::fprintf(stderr, "usage: LoopBench <serial|clustrix|omp> <mem|compute|small> N reps\n");
    return 2;
  }
  const char *How = Argv[1], *What = Argv[2];
  const uint64_t N = std::strtoull(Argv[3], nullptr, 10);
  const int Reps = std::atoi(Argv[4]);
  bool Compute = std::strcmp(What, "compute") == 0;
  std::vector<double> A(N, 0.0), B(N), C(N);
  for (uint64_t I = 0; I < N; ++I) {
    B[I] = static_cast<double>(I % 1000);
    C[I] = static_cast<double>(I % 7);
  }
  double *AP = A.data();
  const double *BP = B.data(), *CP = C.data();

  static const RegionInfo Regions[] = {{"a", AccessWrite, 1, 1, 0}, {"b", AccessRead, 1, 0, 0}};
  LoopInfo Info{};
  Info.AbiVersion = CLUSTRIX_RT_ABI_VERSION;
  Info.File = __FILE__;
  Info.Line = __LINE__;
  Info.Level = 1;
  Info.WorkPerIter = Compute ? 800 : 3;
  Info.Regions = Regions;
  Info.NumRegions = 2;

  auto Once = [&] {
    if (std::strcmp(How, "serial") == 0) {
      if (Compute)
        for (uint64_t I = 0; I < N; ++I)
          computeBody(AP, BP, I);
      else
        for (uint64_t I = 0; I < N; ++I)
          memBody(AP, BP, CP, I);
    } else if (std::strcmp(How, "omp") == 0) {
      if (Compute) {
#pragma omp parallel for schedule(static)
        for (uint64_t I = 0; I < N; ++I)
          computeBody(AP, BP, I);
      } else {
#pragma omp parallel for schedule(static)
        for (uint64_t I = 0; I < N; ++I)
          memBody(AP, BP, CP, I);
      }
    } else if (Compute) {
      viaRuntime(Info, N, AP, BP, [&](uint64_t I) { computeBody(AP, BP, I); });
    } else {
      viaRuntime(Info, N, AP, BP, [&](uint64_t I) { memBody(AP, BP, CP, I); });
    }
  };
  // Small loops are timed in batches, so the clock's own cost does not dominate.
  const int Batch = std::strcmp(What, "small") == 0 ? 2000 : 1;
  for (int W = 0; W < 3; ++W)
    Once();
  std::vector<double> Times;
  for (int R = 0; R < Reps; ++R) {
    auto T0 = std::chrono::steady_clock::now();
    for (int K = 0; K < Batch; ++K)
      Once();
    auto T1 = std::chrono::steady_clock::now();
    Times.push_back(std::chrono::duration<double, std::nano>(T1 - T0).count() / Batch);
  }
  std::sort(Times.begin(), Times.end());
  double Check = 0;
  for (uint64_t I = 0; I < N; I += 1 + N / 64)
    Check += A[I];
  std::printf("median_ns %.1f check %.6g\n", Times[Times.size() / 2], Check);
  return 0;
}
