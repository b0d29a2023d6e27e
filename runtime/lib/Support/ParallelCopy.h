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

/// Copies Rows rows of Width bytes from Src (rows SrcPitch bytes apart) to Dst (rows DstPitch
/// apart). With Threads > 1 and at least MinParallelBytes in all, the bytes are split among
/// that many threads; otherwise the calling thread copies them all.
void copyRows(char *Dst, size_t DstPitch, const char *Src, size_t SrcPitch, size_t Rows,
              size_t Width, unsigned Threads, size_t MinParallelBytes = size_t(4) << 20);

} // namespace clustrix::rt

#endif // CLUSTRIX_RT_SUPPORT_PARALLELCOPY_H
