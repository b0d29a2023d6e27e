//===- Plan/Regions.cpp - Box arithmetic for regions ----------------------===//
#include "Plan/Regions.h"
#include "Support/Allocations.h"

#include <algorithm>
#include <cstring>

namespace clustrix {
namespace rt {

bool boxEmpty(const Box &B, unsigned Rank) {
  for (unsigned D = 0; D < Rank; ++D)
    if (B.Hi[D] <= B.Lo[D])
      return true;
  return Rank == 0;
}

uint64_t boxElements(const Box &B, unsigned Rank) {
  if (boxEmpty(B, Rank))
    return 0;
  uint64_t N = 1;
  for (unsigned D = 0; D < Rank; ++D)
    N *= static_cast<uint64_t>(B.Hi[D] - B.Lo[D]);
  return N;
}

int64_t linearIndex(const Box &B, unsigned Rank, const int64_t *Idx) {
  int64_t L = 0;
  for (unsigned D = 0; D < Rank; ++D)
    L = (D == 0 ? 0 : L * B.Extent[D]) + Idx[D];
  return L;
}

void boxLinearHull(const Box &B, unsigned Rank, int64_t &First, int64_t &End) {
  if (boxEmpty(B, Rank)) {
    First = End = 0;
    return;
  }
  int64_t Last[3];
  for (unsigned D = 0; D < Rank; ++D)
    Last[D] = B.Hi[D] - 1;
  First = linearIndex(B, Rank, B.Lo);
  End = linearIndex(B, Rank, Last) + 1;
}

ByteRange boxHull(const Box &B, unsigned Rank) {
  // Without the extent of an inner dimension the addresses are unknown: everything.
  for (unsigned D = 1; D < Rank; ++D)
    if (B.Extent[D] <= 0)
      return boxEmpty(B, Rank) ? ByteRange{} : ByteRange{0, UINTPTR_MAX};
  int64_t First, End;
  boxLinearHull(B, Rank, First, End);
  if (End <= First)
    return {};
  auto Base = reinterpret_cast<intptr_t>(B.Base);
  auto ES = static_cast<intptr_t>(B.ElemSize);
  return {static_cast<uintptr_t>(Base + First * ES), static_cast<uintptr_t>(Base + End * ES)};
}

/// Whether the box's inner indices stay inside the array's rows, so that per-dimension
/// comparison describes its elements exactly.
static bool innerInBounds(const Box &B, unsigned Rank) {
  for (unsigned D = 1; D < Rank; ++D)
    if (B.Lo[D] < 0 || B.Hi[D] > B.Extent[D])
      return false;
  return true;
}

bool boxesIntersect(const Box &A, const Box &B, unsigned Rank) {
  if (boxEmpty(A, Rank) || boxEmpty(B, Rank))
    return false;
  bool SameLayout = A.Base == B.Base && A.ElemSize == B.ElemSize && innerInBounds(A, Rank) &&
                    innerInBounds(B, Rank);
  for (unsigned D = 1; SameLayout && D < Rank; ++D)
    SameLayout = A.Extent[D] == B.Extent[D];
  if (!SameLayout)
    return boxHull(A, Rank).overlaps(boxHull(B, Rank));
  for (unsigned D = 0; D < Rank; ++D)
    if (A.Hi[D] <= B.Lo[D] || B.Hi[D] <= A.Lo[D])
      return false;
  return true;
}

static std::string regionName(const LoopInfo &Info, unsigned R) {
  const char *N = Info.Regions[R].Name;
  return std::string("'") + (N ? N : "?") + "'";
}

/// H, the address hull of box B, from the start of the heap block that holds B's base where the
/// runtime knows one: an access through the region's pointer before its block would be
/// undefined, so a hull that reaches before it (`a[k - 1]` at k = 0 under a hull of sibling
/// loops) says nothing of the block before. The end is kept: a base set before the data it
/// reaches (`p = block - 8`, one-based arrays) may lie in the block before that data, whose
/// end is no bound. Two regions in one block are still compared.
static ByteRange withinBlock(ByteRange H, const Box &B) {
  HeapBlock Block;
  if (H.empty() || !findAllocation(B.Base, Block))
    return H;
  H.Begin = std::max(H.Begin, Block.Start);
  return H;
}

std::string checkAliasing(const LoopInfo &Info, const Box *Whole) {
  for (unsigned A = 0; A < Info.NumRegions; ++A) {
    const RegionInfo &RA = Info.Regions[A];
    for (unsigned B = A + 1; B < Info.NumRegions; ++B) {
      const RegionInfo &RB = Info.Regions[B];
      if (!RA.MayAlias && !RB.MayAlias)
        continue;
      if (!(RA.Access & AccessWrite) && !(RB.Access & AccessWrite))
        continue;
      ByteRange HA = withinBlock(boxHull(Whole[A], RA.Rank), Whole[A]),
                HB = withinBlock(boxHull(Whole[B], RB.Rank), Whole[B]);
      if (HA.overlaps(HB)) {
        unsigned W = (RA.Access & AccessWrite) ? A : B;
        return "regions " + regionName(Info, A) + " and " + regionName(Info, B) +
               " may alias: their address ranges overlap and " + regionName(Info, W) +
               " is written";
      }
    }
  }
  return "";
}

namespace {
/// One write box in the disjointness sweep: its address hull, its chunk, where it is.
struct SweepItem {
  ByteRange Hull;
  size_t Chunk;
  const Box *B;
};

/// Whether two boxes of different chunks among Items (all of region R) share an element: the
/// boxes in order of their hulls' starts, each compared with those whose hulls it overlaps.
/// Comparisons counts across calls and bounds the work on pathological inputs (every hull
/// overlapping every other).
std::string sweepDisjoint(const LoopInfo &Info, size_t R, std::vector<SweepItem> &Items,
                          uint64_t &Comparisons) {
  const uint64_t MaxComparisons = 20000000;
  const unsigned Rank = Info.Regions[R].Rank;
  std::sort(Items.begin(), Items.end(), [](const SweepItem &A, const SweepItem &B) {
    return A.Hull.Begin < B.Hull.Begin;
  });
  std::vector<size_t> Active;
  for (size_t I = 0; I < Items.size(); ++I) {
    const SweepItem &It = Items[I];
    Active.erase(std::remove_if(Active.begin(), Active.end(),
                                [&](size_t J) { return Items[J].Hull.End <= It.Hull.Begin; }),
                 Active.end());
    for (size_t J : Active) {
      if (Items[J].Chunk == It.Chunk)
        continue; // one chunk's writes run in order
      if (++Comparisons > MaxComparisons)
        return "too many overlapping write boxes of " + regionName(Info, R) +
               " to check their disjointness";
      if (boxesIntersect(*It.B, *Items[J].B, Rank))
        return "write boxes of " + regionName(Info, R) + " overlap between chunks " +
               std::to_string(std::min(It.Chunk, Items[J].Chunk)) + " and " +
               std::to_string(std::max(It.Chunk, Items[J].Chunk));
    }
    Active.push_back(I);
  }
  return "";
}
} // namespace

std::string checkWriteDisjoint(const LoopInfo &Info, const std::vector<Box> &ChunkBoxes,
                               size_t NumChunks) {
  const size_t NR = Info.NumRegions;
  uint64_t Comparisons = 0;
  std::vector<SweepItem> Items;
  for (size_t R = 0; R < NR; ++R) {
    const RegionInfo &RI = Info.Regions[R];
    if (!(RI.Access & AccessWrite))
      continue;
    Items.clear();
    for (size_t C = 0; C < NumChunks; ++C) {
      const Box &B = ChunkBoxes[C * NR + R];
      ByteRange H = boxHull(B, RI.Rank);
      if (!H.empty())
        Items.push_back({H, C, &B});
    }
    if (std::string Why = sweepDisjoint(Info, R, Items, Comparisons); !Why.empty())
      return Why;
  }
  return "";
}

std::string checkWriteAccessesDisjoint(const LoopInfo &Info, const BoxProgram &P,
                                       const std::vector<Box> &AccessBoxes, size_t NumChunks) {
  const size_t NA = P.NumAccesses;
  uint64_t Comparisons = 0;
  std::vector<SweepItem> Items;
  for (size_t R = 0; R < Info.NumRegions && R < P.NumRegions; ++R) {
    const RegionInfo &RI = Info.Regions[R];
    if (!(RI.Access & AccessWrite))
      continue;
    Items.clear();
    for (size_t C = 0; C < NumChunks; ++C)
      for (size_t A = 0; A < NA; ++A) {
        if (P.Accesses[A].Region != R || !P.Accesses[A].Write)
          continue;
        const Box &B = AccessBoxes[C * NA + A];
        ByteRange H = boxHull(B, RI.Rank);
        if (!H.empty())
          Items.push_back({H, C, &B});
      }
    if (std::string Why = sweepDisjoint(Info, R, Items, Comparisons); !Why.empty())
      return Why;
  }
  return "";
}

BoxCopy describeBoxCopy(const Box &B, unsigned Rank) {
  BoxCopy C;
  if (boxEmpty(B, Rank)) {
    C.WidthBytes = 0;
    C.Height = C.Depth = 0;
    return C;
  }
  int64_t First, End;
  boxLinearHull(B, Rank, First, End);
  C.OffsetBytes = static_cast<size_t>(First) * B.ElemSize;
  unsigned In = Rank - 1;
  C.WidthBytes = static_cast<size_t>(B.Hi[In] - B.Lo[In]) * B.ElemSize;
  C.Pitch = Rank > 1 ? static_cast<size_t>(B.Extent[In]) * B.ElemSize : C.WidthBytes;
  C.Height = Rank > 1 ? static_cast<size_t>(B.Hi[In - 1] - B.Lo[In - 1]) : 1;
  C.Depth = Rank > 2 ? static_cast<size_t>(B.Hi[0] - B.Lo[0]) : 1;
  C.SlabRows = Rank > 2 ? static_cast<size_t>(B.Extent[1]) : 1;
  return C;
}

size_t boxHullBytes(const Box &B, unsigned Rank) {
  int64_t First, End;
  boxLinearHull(B, Rank, First, End);
  return static_cast<size_t>(End - First) * B.ElemSize;
}

/// Calls F(ArrayOffset, DenseOffset) for every row of the copy.
template <class F> static void forEachRow(const BoxCopy &C, F Fn) {
  for (size_t Z = 0; Z < C.Depth; ++Z)
    for (size_t Y = 0; Y < C.Height; ++Y)
      Fn(C.OffsetBytes + (Z * C.SlabRows + Y) * C.Pitch, (Z * C.Height + Y) * C.WidthBytes);
}

void copyBoxHost(const BoxCopy &C, const void *Src, void *Dst) {
  forEachRow(C, [&](size_t Off, size_t) {
    std::memcpy(static_cast<char *>(Dst) + Off, static_cast<const char *>(Src) + Off,
                C.WidthBytes);
  });
}

void packBox(const BoxCopy &C, const void *Array, void *Dense) {
  forEachRow(C, [&](size_t Off, size_t DOff) {
    std::memcpy(static_cast<char *>(Dense) + DOff, static_cast<const char *>(Array) + Off,
                C.WidthBytes);
  });
}

void unpackBox(const BoxCopy &C, const void *Dense, void *Array) {
  forEachRow(C, [&](size_t Off, size_t DOff) {
    std::memcpy(static_cast<char *>(Array) + Off, static_cast<const char *>(Dense) + DOff,
                C.WidthBytes);
  });
}

} // namespace rt
} // namespace clustrix
