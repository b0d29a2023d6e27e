//===- Plan/Regions.h - Box arithmetic for regions -------------*- C++ -*-===//
//
// What the runtime checks and copies is described by boxes (per-dimension index ranges of a
// row-major array). This file holds the arithmetic: address hulls, element-set intersection,
// the run-time alias and disjointness checks, and a box's strided copy as the pitched 3-D copy
// the CUDA driver performs (with a host implementation of the same copy, used for staging and
// by the tests to prove that only the box's elements move).
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_RT_PLAN_REGIONS_H
#define CLUSTRIX_RT_PLAN_REGIONS_H

#include "clustrix/Runtime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace clustrix {
namespace rt {

/// A half-open range of addresses.
struct ByteRange {
  uintptr_t Begin = 0, End = 0;
  bool empty() const { return End <= Begin; }
  bool overlaps(const ByteRange &O) const {
    return !empty() && !O.empty() && Begin < O.End && O.Begin < End;
  }
};

/// Whether the box holds no element.
bool boxEmpty(const Box &B, unsigned Rank);
/// Number of elements in the box.
uint64_t boxElements(const Box &B, unsigned Rank);
/// Linear element offset of index (Idx[0], ..., Idx[Rank-1]) in the box's array.
int64_t linearIndex(const Box &B, unsigned Rank, const int64_t *Idx);
/// Element offsets [First, Last + 1) spanned by the box in its array (its hull).
void boxLinearHull(const Box &B, unsigned Rank, int64_t &First, int64_t &End);
/// Addresses spanned by the box: from its first to one past its last element.
ByteRange boxHull(const Box &B, unsigned Rank);
/// Whether two boxes share an element. Boxes of the same array layout (base, element size and
/// inner extents) are compared per dimension, so interleaved boxes whose hulls overlap are
/// still found disjoint; boxes of different layouts fall back to their address hulls.
bool boxesIntersect(const Box &A, const Box &B, unsigned Rank);

/// The run-time alias check: for every pair of regions where one may alias and one is written,
/// whether their whole-loop hulls (Whole[R], the boxes of iterations [0, TripCount)) overlap.
/// Returns the reason to stay serial, or an empty string.
std::string checkAliasing(const LoopInfo &Info, const Box *Whole);

/// The run-time disjointness check: ChunkBoxes holds NumRegions boxes per chunk. For every
/// written region, whether the boxes of two different chunks share an element. Returns the
/// reason to stay serial, or an empty string. Chunks are compared in sweep order of their hulls,
/// so the cost stays near linear when the boxes are disjoint.
std::string checkWriteDisjoint(const LoopInfo &Info, const std::vector<Box> &ChunkBoxes,
                               size_t NumChunks);

/// The box of each access that writes, on its own (its region's frame), over normalized
/// iterations [Lo, Hi): Out gets B.Program->NumAccesses boxes, empty for the accesses that only
/// read. Where accesses of a region reach different parts of it (a mirrored write: row j and
/// column j of a matrix), their hull covers what neither writes, and these boxes do not.
/// False when a written region's frame is its whole array (no box describes its accesses).
bool programWriteAccessBoxes(const ProgramBoxes &B, uint64_t Lo, uint64_t Hi, Box *Out);

/// Everything the boxes of Args depend on but the range (its box program, trips, symbols and
/// frames), as words in Key: two calls with equal keys get equal boxes for equal ranges. False,
/// with Key empty, when Args's boxes come from another function than programBoxes.
bool programBoxesKey(const LoopArgs &Args, std::vector<int64_t> &Key);

/// The work of Samples evenly spaced iterations of [0, TripCount) (iteration S * (TripCount -
/// 1) / (Samples - 1)), estimated as the trips of the inner loops whose bounds the program
/// holds: a triangular nest's inner loop runs from the outer variable to the end, and its
/// iterations' work falls from first to last. False, with Work empty, when the program has no
/// inner loop (every iteration alike). For planBlockBalanced (Plan/Planner.h).
bool programIterationWork(const ProgramBoxes &B, uint64_t TripCount, size_t Samples,
                          std::vector<double> &Work);

/// checkWriteDisjoint over the boxes of single accesses: AccessBoxes holds NumAccesses boxes per
/// chunk (programWriteAccessBoxes). For every written region, whether a box of one chunk shares
/// an element with a box of another chunk (of the same access or of another one writing the
/// region). Returns the reason to stay serial, or an empty string.
std::string checkWriteAccessesDisjoint(const LoopInfo &Info, const BoxProgram &P,
                                       const std::vector<Box> &AccessBoxes, size_t NumChunks);

/// A box's copy as a pitched 3-D copy: Depth slabs of Height rows of WidthBytes, rows Pitch
/// bytes apart and slabs Pitch * SlabRows bytes apart, starting Offset bytes into the array.
/// Rank 1 and 2 boxes have Depth (and Height) 1.
struct BoxCopy {
  size_t OffsetBytes = 0;
  size_t WidthBytes = 0;
  size_t Height = 1;
  size_t Depth = 1;
  size_t Pitch = 0;      ///< Bytes between rows (the array's innermost extent x element size).
  size_t SlabRows = 1;   ///< Rows between slabs (the array's middle extent).
};

/// Describes the copy of box B's elements. The same description applies to the array on the host
/// and to a device copy that keeps the array's layout from the box's first element on, which is
/// what lets kernels index a rebased pointer with global indices.
BoxCopy describeBoxCopy(const Box &B, unsigned Rank);

/// Bytes of a device buffer holding box B in the array's layout: its hull.
size_t boxHullBytes(const Box &B, unsigned Rank);

/// Copies the box's elements between two buffers of the same layout; Src and Dst point at the
/// array's element (0, ..., 0) (or at its rebased stand-in). Elements outside the box are not
/// touched.
void copyBoxHost(const BoxCopy &C, const void *Src, void *Dst);
/// Packs the box's elements densely into Dst (WidthBytes x Height x Depth), or unpacks them.
void packBox(const BoxCopy &C, const void *Array, void *Dense);
void unpackBox(const BoxCopy &C, const void *Dense, void *Array);

} // namespace rt
} // namespace clustrix

#endif
