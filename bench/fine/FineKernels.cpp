//===- FineKernels.cpp - Fine-grained loops: 1k-10k iterations, called often -----===//
//
// Compiled three times into the one FineLoops program (bench/run.py builds it): plain
// clang++-19 -O2 (namespace fine::serial), clustrix++ -O2 with FINE_CLUSTRIX defined
// (fine::clustrix) and clang++-19 -O2 -fopenmp (fine::omp). The loop bodies are therefore the
// same text in all three; only PAR_FOR differs: nothing, [[cluster::gpu_parallel]] or
// `#pragma omp parallel for`.
//
// triad, poly and dot are single loops: memory-bound, compute-bound, and a reduction.
// hydroCycle is one time step of a Lagrangian hydrodynamics code, modelled on LULESH
// (https://asc.llnl.gov/codes/proxy-apps/lulesh): a sequence of dependent element and node
// loops over an unstructured hexahedral mesh, with gathers through the element-to-node list,
// a corner-force scatter done as LULESH does it (per-corner forces, then a gather per node) and
// a min reduction for the time-step constraint. The physics is simplified (a gamma-law EOS, a
// linear and quadratic artificial viscosity, a one-point volume), the shape of the work is not.
//
//===----------------------------------------------------------------------===//
#include "FineKernels.h"

#include <cmath>

#if defined(FINE_CLUSTRIX)
#define FINE_NS clustrix
#define PAR_FOR [[cluster::gpu_parallel]]
#define PAR_FOR_REDUCE(Op, Var) [[cluster::gpu_parallel(reduce(Op: Var))]]
#define PAR_FOR_CLAUSES(...) [[cluster::gpu_parallel(__VA_ARGS__)]]
#elif defined(_OPENMP)
#define FINE_NS omp
#define FINE_STR(X) #X
#define PAR_FOR _Pragma("omp parallel for")
#define PAR_FOR_REDUCE(Op, Var) _Pragma(FINE_STR(omp parallel for reduction(Op : Var)))
#define PAR_FOR_CLAUSES(...) _Pragma("omp parallel for")
#else
#define FINE_NS serial
#define PAR_FOR
#define PAR_FOR_REDUCE(Op, Var)
#define PAR_FOR_CLAUSES(...)
#endif

namespace fine {
namespace FINE_NS {

void triad(int n, double s, double *a, const double *b, const double *c) {
  PAR_FOR
  for (int i = 0; i < n; ++i) {
    a[i] = b[i] + s * c[i];
  }
}

void poly(int n, double *a, const double *b) {
  PAR_FOR
  for (int i = 0; i < n; ++i) {
    double x = b[i];
    double p = 0.5;
    for (int k = 0; k < 24; ++k)
      p = p * x + 0.03125 * k;
    a[i] = p / (1.0 + x * x);
  }
}

double dot(int n, const double *x, const double *y) {
  double s = 0.0;
  PAR_FOR_REDUCE(+, s)
  for (int i = 0; i < n; ++i) {
    s += x[i] * y[i];
  }
  return s;
}

double hydroCycle(const Mesh &m, double dt) {
  const int numElem = m.NumElem, numNode = m.NumNode;
  const int *nodelist = m.NodeList;
  const int *cornerStart = m.CornerStart, *cornerList = m.CornerList;
  double *x = m.X, *y = m.Y, *z = m.Z, *xd = m.XD, *yd = m.YD, *zd = m.ZD;
  double *fx = m.FX, *fy = m.FY, *fz = m.FZ;
  const double *nodalMass = m.NodalMass;
  double *e = m.E, *p = m.P, *q = m.Q, *v = m.V, *vnew = m.VNew, *delv = m.DelV;
  double *vdov = m.VDov, *arealg = m.ArealG, *ss = m.SS;
  const double *volo = m.VolO;
  double *fxe = m.FXE, *fye = m.FYE, *fze = m.FZE;
  const double gamma = 1.4, qlc = 0.5, qqc = 2.0 / 3.0, emin = 1e-9;

  // 1. Kinematics: each element gathers its eight nodes' positions and velocities; new
  //    relative volume, its change, the velocity divergence and a characteristic length.
  PAR_FOR_CLAUSES(extent(x, numNode), extent(y, numNode), extent(z, numNode), extent(xd, numNode), extent(yd, numNode), extent(zd, numNode))
  for (int el = 0; el < numElem; ++el) {
    double xl[8], yl[8], zl[8], xdl[8], ydl[8], zdl[8];
    for (int k = 0; k < 8; ++k) {
      int nd = nodelist[8 * el + k];
      xl[k] = x[nd];
      yl[k] = y[nd];
      zl[k] = z[nd];
    }
    for (int k = 0; k < 8; ++k) {
      int nd = nodelist[8 * el + k];
      xdl[k] = xd[nd];
      ydl[k] = yd[nd];
      zdl[k] = zd[nd];
    }
    double dx = 0.25 * (xl[1] + xl[2] + xl[5] + xl[6] - xl[0] - xl[3] - xl[4] - xl[7]);
    double dy = 0.25 * (yl[3] + yl[2] + yl[6] + yl[7] - yl[0] - yl[1] - yl[5] - yl[4]);
    double dz = 0.25 * (zl[4] + zl[5] + zl[6] + zl[7] - zl[0] - zl[1] - zl[2] - zl[3]);
    double vol = dx * dy * dz;
    double dvx = 0.25 * (xdl[1] + xdl[2] + xdl[5] + xdl[6] - xdl[0] - xdl[3] - xdl[4] - xdl[7]);
    double dvy = 0.25 * (ydl[3] + ydl[2] + ydl[6] + ydl[7] - ydl[0] - ydl[1] - ydl[5] - ydl[4]);
    double dvz = 0.25 * (zdl[4] + zdl[5] + zdl[6] + zdl[7] - zdl[0] - zdl[1] - zdl[2] - zdl[3]);
    double rel = vol / volo[el];
    vnew[el] = rel;
    delv[el] = rel - v[el];
    vdov[el] = dvx / dx + dvy / dy + dvz / dz;
    double face = std::fmax(dx * dy, std::fmax(dy * dz, dz * dx));
    arealg[el] = vol / face;
  }

  // 2. Artificial viscosity, from the divergence of the step just computed.
  PAR_FOR
  for (int el = 0; el < numElem; ++el) {
    double div = vdov[el];
    double rho = 1.0 / vnew[el];
    double dl = arealg[el] * div;
    q[el] = div < 0.0 ? rho * (qqc * dl * dl - qlc * ss[el] * dl) : 0.0;
  }

  // 3. Equation of state: energy from the p dV work, then pressure and sound speed.
  PAR_FOR
  for (int el = 0; el < numElem; ++el) {
    double en = e[el] - 0.5 * delv[el] * (p[el] + q[el]);
    en = std::fmax(en, emin);
    double pn = (gamma - 1.0) * en / vnew[el];
    e[el] = en;
    p[el] = pn;
    ss[el] = std::sqrt(std::fabs(gamma * pn * vnew[el]) + 1e-12);
    v[el] = vnew[el];
  }

  // 4. Stress to corner forces: each element pushes its eight nodes away from its centre.
  PAR_FOR_CLAUSES(extent(x, numNode), extent(y, numNode), extent(z, numNode))
  for (int el = 0; el < numElem; ++el) {
    double xl[8], yl[8], zl[8];
    double xc = 0.0, yc = 0.0, zc = 0.0;
    for (int k = 0; k < 8; ++k) {
      int nd = nodelist[8 * el + k];
      xl[k] = x[nd];
      yl[k] = y[nd];
      zl[k] = z[nd];
      xc += 0.125 * xl[k];
      yc += 0.125 * yl[k];
      zc += 0.125 * zl[k];
    }
    double sig = p[el] + q[el];
    for (int k = 0; k < 8; ++k) {
      fxe[8 * el + k] = sig * (xl[k] - xc);
      fye[8 * el + k] = sig * (yl[k] - yc);
      fze[8 * el + k] = sig * (zl[k] - zc);
    }
  }

  // 5. Nodal forces: each node sums the corner forces of its elements.
  PAR_FOR_CLAUSES(extent(cornerList, 8 * numElem), extent(fxe, 8 * numElem),
                  extent(fye, 8 * numElem), extent(fze, 8 * numElem))
  for (int nd = 0; nd < numNode; ++nd) {
    double sx = 0.0, sy = 0.0, sz = 0.0;
    for (int c = cornerStart[nd]; c < cornerStart[nd + 1]; ++c) {
      int corner = cornerList[c];
      sx += fxe[corner];
      sy += fye[corner];
      sz += fze[corner];
    }
    fx[nd] = sx;
    fy[nd] = sy;
    fz[nd] = sz;
  }

  // 6. Acceleration, velocity (slightly damped) and position of every node.
  PAR_FOR
  for (int nd = 0; nd < numNode; ++nd) {
    double im = dt / nodalMass[nd];
    xd[nd] = 0.999 * xd[nd] + fx[nd] * im;
    yd[nd] = 0.999 * yd[nd] + fy[nd] * im;
    zd[nd] = 0.999 * zd[nd] + fz[nd] * im;
    x[nd] += xd[nd] * dt;
    y[nd] += yd[nd] * dt;
    z[nd] += zd[nd] * dt;
  }

  // 7. The Courant constraint of the next step: a min reduction over the elements.
  double dtc = 1e20;
  PAR_FOR_REDUCE(min, dtc)
  for (int el = 0; el < numElem; ++el) {
    double c = arealg[el] / (ss[el] + 1e-20);
    dtc = std::fmin(dtc, c);
  }
  return dtc;
}

} // namespace FINE_NS
} // namespace fine
