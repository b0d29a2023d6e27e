// Inner bounds clamped by std::min / std::max or a conditional that picks one of its two
// compared operands (a MIN macro), as tiled and blocked loops write them: the variable's range
// has both ends, in the exact dependence test and in the runtime's boxes. Each accepted form
// has a refused neighbour: tiles that overlap, a max taken for an upper bound, a conditional
// that picks something else.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark|note}}:"
// REQUIRES: compiler

#include <algorithm>
#define MIN(a, b) ((a) < (b) ? (a) : (b))

void tiles(int n, double *a, const double *b) {
  // CHECK: clamped-bounds.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 8); in: b; out: a
  [[cluster::gpu_parallel]]
  for (int ii = 0; ii < n; ii += 64)
    for (int i = ii; i < std::min(ii + 64, n); ++i)
      a[i] = b[i] * 2;
}

void tilesMacro(int n, double *a, const double *b) {
  // CHECK: clamped-bounds.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 8); in: a, b; out: a
  [[cluster::gpu_parallel]]
  for (int ii = 0; ii < n; ii += 32)
    for (int i = ii; i < MIN(ii + 32, n); ++i)
      a[i] = a[i] + b[i];
}

void tilesSwapped(int n, double *a) {
  // CHECK: clamped-bounds.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 8); out: a
  [[cluster::gpu_parallel]]
  for (int ii = 0; ii < n; ii += 16)
    for (int i = std::max(ii, 3); i < (ii + 16 > n ? n : ii + 16); ++i)
      a[i] = i;
}

void transpose(int n, double *out, const double *in) {
  // CHECK: clamped-bounds.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 3 (score 22); in: in; out: out
  [[cluster::gpu_parallel]]
  for (int it = 0; it < n; it += 16)
    for (int jt = 0; jt < n; jt += 16)
      for (int i = it; i < std::min(n, it + 16); ++i)
        for (int j = jt; j < std::min(n, jt + 16); ++j)
          out[i * n + j] = in[j * n + i];
}

// Tiles of 32 iterations that each reach 33 elements: neighbours overlap.
void overlapping(int n, double *a) {
  // CHECK: clamped-bounds.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'a' is written in one iteration and written in another: iterations 0 and 1 (with n = 33) touch the same element
  [[cluster::gpu_parallel]]
  for (int ii = 0; ii < n; ii += 32)
    for (int i = ii; i < MIN(ii + 33, n); ++i)
      a[i] = a[i] + 1;
  // CHECK: clamped-bounds.cpp:[[@LINE-1]]:7: note: written here
}

// A max is not a clamp of an upper bound: the tile may run to n.
void maxBound(int n, double *a) {
  // CHECK: clamped-bounds.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'a' is written through a subscript over 'i', the variable of an inner loop whose range is not known ('for (int i = ii; i < std::max(ii + 8, n); ++i)'), so iterations may write the same element
  [[cluster::gpu_parallel]]
  for (int ii = 0; ii < n; ii += 8)
    for (int i = ii; i < std::max(ii + 8, n); ++i)
      a[i] = 1;
  // CHECK: clamped-bounds.cpp:[[@LINE-1]]:7: note: written here
}

// A conditional that picks neither of its compared operands is no min.
void notAMin(int n, int m, double *a) {
  // CHECK: clamped-bounds.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'a' is written through a subscript over 'i', the variable of an inner loop whose range is not known ('for (int i = ii; i < (ii + 8 < n ? ii + 8 : m); ++i)'), so iterations may write the same element
  [[cluster::gpu_parallel]]
  for (int ii = 0; ii < n; ii += 8)
    for (int i = ii; i < (ii + 8 < n ? ii + 8 : m); ++i)
      a[i] = 1;
  // CHECK: clamped-bounds.cpp:[[@LINE-1]]:7: note: written here
}

// Tiles whose size is only known at run time: the tile variable is the symbol t times the
// normalized one; renamed U = t*k for the exact test, with |U - U'| >= |t| for different tiles.
// Tiles one element too long, a tile that runs over the same elements each time, and a stride
// that may be zero are refused, with a witness of the symbols.
void runtimeTiles(int n, int t, double *out) {
  // CHECK: clamped-bounds.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 8); out: out
  [[cluster::gpu_parallel]]
  for (int it = 0; it < n; it += t)
    for (int i = it; i < std::min(n, it + t); ++i)
      out[i] = 0.0;
}
void runtimeTilesOverlap(int n, int t, double *out) {
  // CHECK: clamped-bounds.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'out' is written in one iteration and written in another: two iterations (with n = 2, t = 1) touch the same element
  [[cluster::gpu_parallel]]
  for (int it = 0; it < n; it += t)
    for (int i = it; i < std::min(n, it + t + 1); ++i)
      out[i] = out[i] + 1;
  // CHECK: clamped-bounds.cpp:[[@LINE-1]]:7: note: written here
}
void runtimeTilesSame(int n, int t, double *out) {
  // CHECK: clamped-bounds.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'out' is written in one iteration and written in another: the subscripts do not depend on the loop variable, so every iteration touches the same elements
  [[cluster::gpu_parallel]]
  for (int it = 0; it < n; it += t)
    for (int i = 0; i < t; ++i)
      out[i] = out[i] + it;
  // CHECK: clamped-bounds.cpp:[[@LINE-1]]:7: note: written here
}
void strideMaybeZero(int n, int m, double *out) {
  // CHECK: clamped-bounds.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'out' is written in one iteration and written in another: two iterations (with m = 0) touch the same element
  [[cluster::gpu_parallel]]
  for (int k = 0; k < n; ++k)
    out[m * k] = out[m * k] + k;
  // CHECK: clamped-bounds.cpp:[[@LINE-1]]:5: note: written here
}

// Two tile levels of a run-time size, collapsed, over flattened arrays (PRK's stencils): the tile
// variables never go below their starts (a loop compared with '<' runs wide only counting up),
// which bounds `j` in `i * n + j` for delinearization. In place, the stencil reads a neighbour
// tile's elements: refused.
void star(int n, int t, const double *in, double *out) {
  // CHECK: clamped-bounds.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, collapse 2, level 2 (score 15); in: out, in; out: out
  [[cluster::gpu_parallel(collapse(2))]]
  for (int it = 1; it < n - 1; it += t)
    for (int jt = 1; jt < n - 1; jt += t)
      for (int i = it; i < std::min(n - 1, it + t); ++i)
        for (int j = jt; j < std::min(n - 1, jt + t); ++j)
          out[i * n + j] += in[i * n + j - 1] * -0.5 + in[(i - 1) * n + j] * 0.5;
}
void starInPlace(int n, int t, double *out) {
  // CHECK: clamped-bounds.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'out' is written in one iteration and read in another: two iterations (with n = 4, t = 1) touch the same element
  [[cluster::gpu_parallel(collapse(2))]]
  for (int it = 1; it < n - 1; it += t)
    for (int jt = 1; jt < n - 1; jt += t)
      for (int i = it; i < std::min(n - 1, it + t); ++i)
        for (int j = jt; j < std::min(n - 1, jt + t); ++j)
          out[i * n + j] += out[(i - 1) * n + j] * 0.5;
  // CHECK: clamped-bounds.cpp:[[@LINE-1]]:29: note: conflicting read here
}

// A block's end held in a local defined once as the smaller of two values (Rodinia cfd's
// `b_end = (blk+1)*bl > n ? n : (blk+1)*bl`): the bound is clamped as the conditional would be.
// A local assigned again after its definition is no bound, and a local that picks the larger
// lets blocks overlap.
void blocks(int n, const float *v, float *out) {
  // CHECK: clamped-bounds.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 2 (score 10); in: v; out: out
  [[cluster::gpu_parallel]]
  for (int blk = 0; blk < n / 16; ++blk) {
    int b_start = blk * 16;
    int b_end = (blk + 1) * 16 > n ? n : (blk + 1) * 16;
    for (int i = b_start; i < b_end; i++)
      out[i] = v[i + 2 * n] * 0.5f;
  }
}
void blocksRewritten(int n, const float *v, float *out) {
  // CHECK: clamped-bounds.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'out' is written through a subscript over 'i', the variable of an inner loop whose range is not known ('for (int i = blk * 16; i < b_end; i++)'), so iterations may write the same element
  [[cluster::gpu_parallel]]
  for (int blk = 0; blk < n / 16; ++blk) {
    int b_end = (blk + 1) * 16 > n ? n : (blk + 1) * 16;
    b_end += 16;
    for (int i = blk * 16; i < b_end; i++)
      out[i] = v[i];
    // CHECK: clamped-bounds.cpp:[[@LINE-1]]:7: note: written here
  }
}
void blocksMax(int n, const float *v, float *out) {
  // CHECK: clamped-bounds.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'out' is written through a subscript over 'i', the variable of an inner loop whose range is not known ('for (int i = blk * 16; i < b_end; i++)'), so iterations may write the same element
  [[cluster::gpu_parallel]]
  for (int blk = 0; blk < n / 16; ++blk) {
    int b_end = (blk + 1) * 16 > n ? (blk + 1) * 16 : n;
    for (int i = blk * 16; i < b_end; i++)
      out[i] = v[i];
    // CHECK: clamped-bounds.cpp:[[@LINE-1]]:7: note: written here
  }
}

// PRK's tiled transpose: the inner tile loop steps by a run-time size too, and is not collapsed.
// Counting up under '<' with a step nothing in the loop changes, and no way out but its
// condition, a defined program steps up: the tile variable stays in [0, order - 1]. Refused
// where that fails: a body that may leave early (with t < 0 it would reach below its start
// first), a step the body changes, an unsigned variable (which wraps), a global step with a
// call in the body, and tiles that overlap.
void transposeTiles(int order, int t, double *A, double *B) {
  // CHECK: clamped-bounds.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 3 (score 23); in: B, A; out: B, A
  [[cluster::gpu_parallel]]
  for (int it = 0; it < order; it += t)
    for (int jt = 0; jt < order; jt += t)
      for (int i = it; i < std::min(order, it + t); i++)
        for (int j = jt; j < std::min(order, jt + t); j++) {
          B[i * order + j] += A[j * order + i];
          A[j * order + i] += 1.0;
        }
}
void transposeTilesLeave(int order, int t, double *A, double *B) {
  // CHECK: clamped-bounds.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'B' is written through a subscript over 'jt', the variable of an inner loop whose range is not known ('for (int jt = 0; jt < order; jt += t)'), so iterations may write the same element
  [[cluster::gpu_parallel]]
  for (int it = 0; it < order; it += t)
    for (int jt = 0; jt < order; jt += t) {
      if (A[jt] < 0)
        break;
      for (int i = it; i < std::min(order, it + t); i++)
        B[i * order + jt] += A[jt * order + i];
      // CHECK: clamped-bounds.cpp:[[@LINE-1]]:9: note: written here
    }
}
void transposeTilesStepChanged(int order, int t, double *A, double *B) {
  // CHECK: clamped-bounds.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'B' is written through a subscript over 'jt', the variable of an inner loop whose range is not known ('for (int jt = 0; jt < order; jt += s)'), so iterations may write the same element
  [[cluster::gpu_parallel]]
  for (int it = 0; it < order; it += 16) {
    int s = t;
    for (int jt = 0; jt < order; jt += s) {
      s = -1;
      B[it * order + jt] = A[jt];
      // CHECK: clamped-bounds.cpp:[[@LINE-1]]:7: note: written here
    }
  }
}
void transposeTilesUnsigned(int order, unsigned t, double *A, double *B) {
  // CHECK: clamped-bounds.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'B' is written through a subscript over 'jt', the variable of an inner loop whose range is not known ('for (unsigned jt = 0; jt < (unsigned)order; jt += t)'), so iterations may write the same element
  [[cluster::gpu_parallel]]
  for (int it = 0; it < order; it += 16)
    for (unsigned jt = 0; jt < (unsigned)order; jt += t)
      B[it * order + jt] = A[jt];
  // CHECK: clamped-bounds.cpp:[[@LINE-1]]:7: note: written here
}
int GlobalTile = 8;
static double scaled(int v) { return v * 0.5; }
void transposeTilesGlobal(int order, double *A, double *B) {
  // CHECK: clamped-bounds.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'B' is written through a subscript over 'jt', the variable of an inner loop whose range is not known ('for (int jt = 0; jt < order; jt += GlobalTile)'), so iterations may write the same element
  [[cluster::gpu_parallel]]
  for (int it = 0; it < order; it += 16)
    for (int jt = 0; jt < order; jt += GlobalTile)
      B[it * order + jt] = A[jt] + scaled(jt);
  // CHECK: clamped-bounds.cpp:[[@LINE-1]]:7: note: written here
}
void transposeTilesOverlap(int order, int t, double *A, double *B) {
  // CHECK: clamped-bounds.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'B' is written in one iteration and written in another: two iterations (with order = 2, t = 1) touch the same element
  [[cluster::gpu_parallel]]
  for (int it = 0; it < order; it += t)
    for (int jt = 0; jt < order; jt += t)
      for (int i = it; i < std::min(order, it + t + 1); i++)
        for (int j = jt; j < std::min(order, jt + t); j++)
          B[i * order + j] += A[j * order + i];
  // CHECK: clamped-bounds.cpp:[[@LINE-1]]:11: note: written here
}

// A parallel loop that starts at a max or ends at a min: each clamp is one symbol, related to
// its operands in the exact test, and bounded by either operand in the proofs of bounds
// (Polynomial.h, clampSymbol), so that the hyperplanes of a wavefront delinearize. Refused where
// a row is left (before its start, or past its end), or an iteration reads what the one before
// wrote.
#define MAX(a, b) ((a) > (b) ? (a) : (b))
void startAtMax(int lo, int hi, double *a, const double *b) {
  // CHECK: clamped-bounds.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: b; out: a
  [[cluster::gpu_parallel]]
  for (int i = MAX(1, lo); i < hi; i++)
    a[i] = b[i] + b[i - 1];
}
void startAtMaxCarried(int lo, int hi, double *a) {
  // CHECK: clamped-bounds.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'a' is written in one iteration and read in another (dependence distance 1)
  [[cluster::gpu_parallel]]
  for (int i = std::max(1, lo); i < hi; i++)
    a[i] = a[i - 1] + 1;
  // CHECK: clamped-bounds.cpp:[[@LINE-1]]:12: note: conflicting read here
}
void hyperplane(int n, double *grid) {
  for (int i = 2; i <= 2 * n - 2; i++) {
    // CHECK: clamped-bounds.cpp:[[@LINE+2]]:5: remark: loop parallelized across devices: schedule default, level 1 (score 3); in: grid; out: grid
    [[cluster::gpu_parallel]]
    for (int j = std::max(2, i - n + 2); j <= std::min(i, n); j++) {
      const int x = i - j + 1;
      const int y = j - 1;
      grid[x * n + y] = grid[(x - 1) * n + y] + grid[x * n + (y - 1)] - grid[(x - 1) * n + (y - 1)];
    }
  }
}
void hyperplanePastRow(int n, int i, double *grid) {
  // CHECK: clamped-bounds.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'grid' may be written in one iteration and written in another: the dependence test cannot prove the accesses disjoint
  [[cluster::gpu_parallel]]
  for (int j = MAX(2, i - n + 2); j <= MIN(i, n + 1); j++)
    grid[(i - j + 1) * n + j - 1] = grid[(i - j) * n + j - 1] + 1;
  // CHECK: clamped-bounds.cpp:[[@LINE-1]]:5: note: written here
}
void hyperplaneBeforeRow(int n, int i, double *grid) {
  // CHECK: clamped-bounds.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'grid' may be written in one iteration and written in another: the dependence test cannot prove the accesses disjoint
  [[cluster::gpu_parallel]]
  for (int j = MAX(0, i - n + 2); j <= MIN(i, n); j++)
    grid[(i - j + 1) * n + j - 1] = grid[(i - j) * n + j - 1] + 1;
  // CHECK: clamped-bounds.cpp:[[@LINE-1]]:5: note: written here
}
void mirrorInClamp(int lo, int hi, double *a) {
  // CHECK: clamped-bounds.cpp:[[@LINE+2]]:3: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: a; out: a
  [[cluster::gpu_parallel]]
  for (int i = MAX(0, lo); i < std::min(hi, 100); i++)
    a[i] = a[199 - i] + 1;
}
void mirrorPastClamp(int lo, int hi, double *a) {
  // CHECK: clamped-bounds.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'a' is written in one iteration and read in another: iterations 99 and 100 (with hi = 101, lo = 0) touch the same element
  [[cluster::gpu_parallel]]
  for (int i = MAX(0, lo); i < std::min(hi, 101); i++)
    a[i] = a[199 - i] + 1;
  // CHECK: clamped-bounds.cpp:[[@LINE-1]]:12: note: conflicting read here
}

// PRK's C1z hyperplane spells the stride through a local, `const int nn = 1 - n;`: a local of
// the function defined from values nothing in the function changes stands for its definition.
// Where n changes after it, or a local hides n at the loop, nn stays a symbol of its own
// (which may be 0: a race).
void hyperplaneStrideLocal(int n, double *grid) {
  const int nn = 1 - n;
  for (int i = 2; i <= 2 * n - 2; i++) {
    // CHECK: clamped-bounds.cpp:[[@LINE+2]]:5: remark: loop parallelized across devices: schedule default, level 1 (score 1); in: grid; out: grid
    [[cluster::gpu_parallel]]
    for (int j = MAX(2, i - n + 2); j <= MIN(i, n); j++)
      grid[(i + 1) * n - 1 + j * nn] = grid[i * n - 1 + j * nn] + grid[(i + 1) * n - 2 + j * nn] -
                                       grid[i * n - 2 + j * nn];
  }
}
void hyperplaneStrideChanged(int n, double *grid) {
  const int nn = 1 - n;
  n = n + 1;
  for (int i = 2; i <= 2 * n - 2; i++) {
    // CHECK: clamped-bounds.cpp:[[@LINE+2]]:5: warning: loop not parallelized: 'grid' may be written in one iteration and written in another: the dependence test cannot prove the accesses disjoint
    [[cluster::gpu_parallel]]
    for (int j = MAX(2, i - n + 2); j <= MIN(i, n); j++)
      grid[(i + 1) * n - 1 + j * nn] = grid[i * n - 1 + j * nn] + 1;
    // CHECK: clamped-bounds.cpp:[[@LINE-1]]:7: note: written here
  }
}
void strideLocalHidden(int n, double *grid) {
  const int nn = 1 - n;
  {
    int n = 3;
    // CHECK: clamped-bounds.cpp:[[@LINE+2]]:5: warning: loop not parallelized: 'grid' is written in one iteration and written in another: two iterations (with n = 0, nn = 0) touch the same element
    [[cluster::gpu_parallel]]
    for (int j = 1; j < 10; j++)
      grid[j * nn + n] = 1;
    // CHECK: clamped-bounds.cpp:[[@LINE-1]]:7: note: written here
  }
}
// A clamp whose operand a conversion may change (`std::max<int>` of a long) is no symbol.
void startAtNarrowedMax(long big, int n, double *a) {
  // CHECK: clamped-bounds.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'a' is written through a subscript that is not affine in the loop variables, so iterations may write the same element
  [[cluster::gpu_parallel]]
  for (int i = std::max<int>(big, 1); i < n; i++)
    a[i] = a[i] + 1;
  // CHECK: clamped-bounds.cpp:[[@LINE-1]]:5: note: written here
}
// So is an inner tile's bound: the tile may end past n when the long does not fit.
void innerNarrowedMin(long big, int n, double *out) {
  // CHECK: clamped-bounds.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'out' is written through a subscript over 'i', the variable of an inner loop whose range is not known ('for (int i = it; i < std::min<int>(big, it + 64); ++i)'), so iterations may write the same element
  [[cluster::gpu_parallel]]
  for (int it = 0; it < n; it += 64)
    for (int i = it; i < std::min<int>(big, it + 64); ++i)
      out[i] = 0.0;
  // CHECK: clamped-bounds.cpp:[[@LINE-1]]:7: note: written here
}
