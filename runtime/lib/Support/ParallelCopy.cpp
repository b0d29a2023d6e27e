//===- Support/ParallelCopy.cpp - Row copies on several threads -----------===//
#include "Support/ParallelCopy.h"

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

using namespace clustrix::rt;

namespace {

/// Copies bytes [Begin, End) of the rows laid end to end.
void copyRange(char *Dst, size_t DstPitch, const char *Src, size_t SrcPitch, size_t Width,
               size_t Begin, size_t End) {
  while (Begin < End) {
    size_t Row = Begin / Width, Col = Begin % Width;
    size_t N = std::min(Width - Col, End - Begin);
    std::memcpy(Dst + Row * DstPitch + Col, Src + Row * SrcPitch + Col, N);
    Begin += N;
  }
}

} // namespace

void clustrix::rt::copyRows(char *Dst, size_t DstPitch, const char *Src, size_t SrcPitch,
                            size_t Rows, size_t Width, unsigned Threads,
                            size_t MinParallelBytes) {
  size_t Total = Rows * Width;
  if (Total == 0)
    return;
  if (Threads <= 1 || Total < MinParallelBytes) {
    copyRange(Dst, DstPitch, Src, SrcPitch, Width, 0, Total);
    return;
  }
  // Equal parts, each at least 1 MiB; cut at 64-byte multiples so no two threads write one
  // cache line of a dense destination.
  size_t Parts = std::min<size_t>(Threads, std::max<size_t>(1, Total >> 20));
  size_t Step = (Total / Parts + 63) & ~size_t(63);
  std::vector<std::thread> Helpers;
  Helpers.reserve(Parts - 1);
  for (size_t P = 1; P < Parts && P * Step < Total; ++P) {
    size_t B = P * Step, E = std::min(Total, B + Step);
    try {
      Helpers.emplace_back(copyRange, Dst, DstPitch, Src, SrcPitch, Width, B, E);
    } catch (...) { // no thread to be had: this one copies the part
      copyRange(Dst, DstPitch, Src, SrcPitch, Width, B, E);
    }
  }
  copyRange(Dst, DstPitch, Src, SrcPitch, Width, 0, std::min(Total, Step));
  for (std::thread &T : Helpers)
    T.join();
}
