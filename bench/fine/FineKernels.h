//===- FineKernels.h - The fine-grained loops, declared once per variant ------===//
//
// FineKernels.cpp is compiled three times into one program: plain (serial), through the
// Clustrix plugin and with -fopenmp. Each build puts its loops in its own namespace, named by
// FINE_NS; this header declares the same functions in each of the three.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_BENCH_FINEKERNELS_H
#define CLUSTRIX_BENCH_FINEKERNELS_H

namespace fine {

/// A hexahedral mesh held the way unstructured-mesh hydrodynamics codes hold it (LULESH's
/// Domain): node and element fields as separate arrays, each element's eight nodes in
/// NodeList, and each node's corners (8 * element + k) in CornerList[CornerStart[n] ..
/// CornerStart[n + 1]). Built by makeMesh (FineMain.cpp) as an Edge^3 grid; the loops use only
/// the index lists, never the grid's structure.
struct Mesh {
  int NumElem = 0, NumNode = 0;
  const int *NodeList = nullptr;    // 8 per element
  const int *CornerStart = nullptr; // NumNode + 1
  const int *CornerList = nullptr;  // 8 * NumElem
  // Node fields.
  double *X, *Y, *Z, *XD, *YD, *ZD, *FX, *FY, *FZ;
  const double *NodalMass;
  // Element fields.
  double *E, *P, *Q, *V, *VNew, *DelV, *VDov, *ArealG, *SS;
  const double *VolO;
  // Corner forces, 8 per element.
  double *FXE, *FYE, *FZE;
};

#define FINE_DECLARE(NS)                                                                          \
  namespace NS {                                                                                  \
  void triad(int N, double S, double *A, const double *B, const double *C);                       \
  void poly(int N, double *A, const double *B);                                                   \
  double dot(int N, const double *X, const double *Y);                                            \
  double hydroCycle(const Mesh &M, double Dt);                                                    \
  }
FINE_DECLARE(serial)
FINE_DECLARE(clustrix)
FINE_DECLARE(omp)
#undef FINE_DECLARE

} // namespace fine

#endif
