//===- FineMain.cpp - Driver of the fine-grained loop benchmark -----------------===//
//
//   FineLoops <serial|clustrix|omp> <triad|poly|dot|hydro> N CALLS
//
// Runs CALLS calls of one loop shape (N iterations each; for hydro, CALLS time steps of an
// N x N x N element mesh) after a warm-up of CALLS / 10 calls, and prints
// "ns_per_call T check C cpu_ns_per_call U": the mean wall time of one call, a checksum of the
// results, which bench/run.py compares across the variants, and the mean CPU time of the
// process (all its threads) per call, the steadier measure of a single-threaded run on a busy
// machine. One variant per process, so that OpenMP's
// threads and Clustrix's workers never compete.
//
//===----------------------------------------------------------------------===//
#include "FineKernels.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <time.h>
#include <vector>

using namespace fine;

namespace {

/// CPU time of the whole process (every thread), in nanoseconds.
double processCpuNs() {
  timespec T;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &T);
  return 1e9 * double(T.tv_sec) + double(T.tv_nsec);
}

/// The storage of a Mesh: an Edge^3 grid of hexahedra, numbered as LULESH numbers them, with
/// node coordinates slightly perturbed and a smooth initial energy and velocity field.
struct MeshData {
  std::vector<int> NodeList, CornerStart, CornerList;
  std::vector<double> X, Y, Z, XD, YD, ZD, FX, FY, FZ, NodalMass;
  std::vector<double> E, P, Q, V, VNew, DelV, VDov, ArealG, SS, VolO;
  std::vector<double> FXE, FYE, FZE;
  Mesh M;

  explicit MeshData(int Edge) {
    const int NN = Edge + 1, NumElem = Edge * Edge * Edge, NumNode = NN * NN * NN;
    const double H = 1.0 / Edge;
    for (auto *A : {&X, &Y, &Z, &XD, &YD, &ZD, &FX, &FY, &FZ, &NodalMass})
      A->assign(NumNode, 0.0);
    for (auto *A : {&E, &P, &Q, &V, &VNew, &DelV, &VDov, &ArealG, &SS, &VolO})
      A->assign(NumElem, 0.0);
    for (auto *A : {&FXE, &FYE, &FZE})
      A->assign(8 * size_t(NumElem), 0.0);
    for (int K = 0; K < NN; ++K)
      for (int J = 0; J < NN; ++J)
        for (int I = 0; I < NN; ++I) {
          int N = (K * NN + J) * NN + I;
          double Wob = 0.02 * H * std::sin(0.7 * N);
          X[N] = I * H + Wob;
          Y[N] = J * H - Wob;
          Z[N] = K * H + 0.5 * Wob;
          XD[N] = 0.01 * (X[N] - 0.5);
          YD[N] = 0.01 * (Y[N] - 0.5);
          ZD[N] = 0.01 * (Z[N] - 0.5);
          NodalMass[N] = 1.0;
        }
    NodeList.resize(8 * size_t(NumElem));
    std::vector<std::vector<int>> Corners(NumNode);
    for (int K = 0; K < Edge; ++K)
      for (int J = 0; J < Edge; ++J)
        for (int I = 0; I < Edge; ++I) {
          int El = (K * Edge + J) * Edge + I;
          int N0 = (K * NN + J) * NN + I;
          int L[8] = {N0,           N0 + 1,           N0 + NN + 1,           N0 + NN,
                      N0 + NN * NN, N0 + NN * NN + 1, N0 + NN * NN + NN + 1, N0 + NN * NN + NN};
          for (int C = 0; C < 8; ++C) {
            NodeList[8 * El + C] = L[C];
            Corners[L[C]].push_back(8 * El + C);
          }
          E[El] = 1.0 + 0.5 * std::exp(-20.0 * ((I - Edge / 2) * (I - Edge / 2) +
                                                (J - Edge / 2) * (J - Edge / 2) +
                                                (K - Edge / 2) * (K - Edge / 2)) * H * H);
          P[El] = 0.4 * E[El];
          V[El] = 1.0;
          SS[El] = std::sqrt(1.4 * P[El]);
          VolO[El] = H * H * H;
        }
    CornerStart.push_back(0);
    for (const std::vector<int> &C : Corners) {
      CornerList.insert(CornerList.end(), C.begin(), C.end());
      CornerStart.push_back(int(CornerList.size()));
    }
    M.NumElem = NumElem;
    M.NumNode = NumNode;
    M.NodeList = NodeList.data();
    M.CornerStart = CornerStart.data();
    M.CornerList = CornerList.data();
    M.X = X.data(), M.Y = Y.data(), M.Z = Z.data();
    M.XD = XD.data(), M.YD = YD.data(), M.ZD = ZD.data();
    M.FX = FX.data(), M.FY = FY.data(), M.FZ = FZ.data();
    M.NodalMass = NodalMass.data();
    M.E = E.data(), M.P = P.data(), M.Q = Q.data(), M.V = V.data(), M.VNew = VNew.data();
    M.DelV = DelV.data(), M.VDov = VDov.data(), M.ArealG = ArealG.data(), M.SS = SS.data();
    M.VolO = VolO.data();
    M.FXE = FXE.data(), M.FYE = FYE.data(), M.FZE = FZE.data();
  }

  double checksum() const {
    double S = 0.0;
    for (size_t I = 0; I < E.size(); ++I)
      S += E[I] + P[I];
    for (size_t I = 0; I < X.size(); ++I)
      S += X[I] + Y[I] + Z[I];
    return S;
  }
};

/// One variant's functions.
struct Variant {
  void (*Triad)(int, double, double *, const double *, const double *);
  void (*Poly)(int, double *, const double *);
  double (*Dot)(int, const double *, const double *);
  double (*Hydro)(const Mesh &, double);
};

} // namespace

int main(int Argc, char **Argv) {
  if (Argc != 5) {
    std::fprintf(stderr, "usage: FineLoops <serial|clustrix|omp> <triad|poly|dot|hydro> N CALLS\n");
    return 2;
  }
  const std::string How = Argv[1], What = Argv[2];
  const int N = std::atoi(Argv[3]);
  const long Calls = std::atol(Argv[4]);
  Variant V;
  if (How == "serial")
    V = {serial::triad, serial::poly, serial::dot, serial::hydroCycle};
  else if (How == "clustrix")
    V = {clustrix::triad, clustrix::poly, clustrix::dot, clustrix::hydroCycle};
  else if (How == "omp")
    V = {omp::triad, omp::poly, omp::dot, omp::hydroCycle};
  else {
    std::fprintf(stderr, "FineLoops: unknown variant '%s'\n", Argv[1]);
    return 2;
  }
  if (What != "triad" && What != "poly" && What != "dot" && What != "hydro") {
    std::fprintf(stderr, "FineLoops: unknown loop '%s'\n", Argv[2]);
    return 2;
  }

  std::vector<double> A(N, 0.0), B(N), C(N);
  for (int I = 0; I < N; ++I) {
    B[I] = 0.001 * (I % 97);
    C[I] = 0.5 - 0.002 * (I % 31);
  }
  MeshData *Mesh = What == "hydro" ? new MeshData(N) : nullptr;
  double Sink = 0.0, Dt = 1e-4;
  auto Run = [&](long Count) {
    for (long R = 0; R < Count; ++R) {
      if (What == "triad")
        V.Triad(N, 0.5, A.data(), B.data(), C.data());
      else if (What == "poly")
        V.Poly(N, A.data(), B.data());
      else if (What == "dot")
        Sink += V.Dot(N, B.data(), C.data());
      else
        Dt = std::fmin(1e-4, 0.1 * V.Hydro(Mesh->M, Dt));
    }
  };
  Run(Calls / 10 + 1);
  double Cpu0 = processCpuNs();
  auto T0 = std::chrono::steady_clock::now();
  Run(Calls);
  double Ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - T0)
                  .count();
  double CpuNs = processCpuNs() - Cpu0;
  double Check = What == "hydro" ? Mesh->checksum() + Dt : What == "dot" ? Sink : A[N / 3] + A[N - 1];
  std::printf("ns_per_call %.1f check %.17g cpu_ns_per_call %.1f\n", Ns / double(Calls), Check,
              CpuNs / double(Calls));
  delete Mesh;
  return 0;
}
