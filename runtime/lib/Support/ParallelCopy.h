//===- Support/ParallelCopy.h - Row copies on several threads -------------===//
//
// Packing a box into pinned staging memory (and unpacking it) is a host memcpy that one thread
// does at a fraction of the link's speed: a PCIe 5 link moves 50 GB/s, one core copies 5-10.
// copyRows splits a large copy into byte ranges of equal size, one per thread (the caller's
// and short-lived ones), so that the copy keeps pace with the transfer it feeds.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_RT_SUPPORT_PARALLELCOPY_H
#define CLUSTRIX_RT_SUPPORT_PARALLELCOPY_H

#include <cstddef>

namespace clustrix::rt {

/// Least bytes copyRows splits among threads by default: below it, starting the parts costs
/// about what they save.
constexpr size_t MinParallelCopyBytes = size_t(4) << 20;

/// How copyRows writes its destination.
enum class Stores {
  Cached,   ///< memcpy: for a destination the host reads next (unpacking into the program).
  Streaming ///< stores that bypass the caches where the machine has them (x86: movntdq),
            ///< fenced before the copy returns: for a destination that only a device reads
            ///< next (pinned staging). They skip reading each line before writing it, a
            ///< third of the memory traffic of a cached copy.
};

/// Copies Rows rows of Width bytes from Src (rows SrcPitch bytes apart) to Dst (rows DstPitch
/// apart). With Threads > 1 and at least MinParallelBytes in all, the bytes are split among
/// that many threads; otherwise the calling thread copies them all.
void copyRows(char *Dst, size_t DstPitch, const char *Src, size_t SrcPitch, size_t Rows,
              size_t Width, unsigned Threads, size_t MinParallelBytes = MinParallelCopyBytes,
              Stores How = Stores::Cached);

} // namespace clustrix::rt

#endif // CLUSTRIX_RT_SUPPORT_PARALLELCOPY_H
