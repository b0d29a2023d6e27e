//===- Support/Allocations.h - Which heap block holds a pointer ---*- C++ -*-===//
//
// The registry behind Runtime.h's allocationLo/allocationHi: the runtime's definitions of malloc
// and its relatives record every live block of at least AllocationThreshold bytes, so that the
// extent of the block holding an arbitrary pointer can be found. docs/data-movement.md
// ("Extents of heap blocks") says when it is active.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_RT_SUPPORT_ALLOCATIONS_H
#define CLUSTRIX_RT_SUPPORT_ALLOCATIONS_H

#include <cstddef>
#include <cstdint>

namespace clustrix {
namespace rt {

/// Blocks of fewer requested bytes are never recorded, so that small allocations cost one
/// comparison; a pointer into one has an unknown extent (its loop runs serially).
constexpr size_t AllocationThreshold = 256;

/// A live heap block: Size bytes at Start, as the program requested them.
struct HeapBlock {
  uintptr_t Start;
  size_t Size;
};

/// Whether the program's malloc, calloc, realloc and free are the runtime's, so that the
/// registry sees every block come and go. False under another allocator (jemalloc, a
/// sanitizer's, a program's own) or in a sanitizer build of the runtime: then nothing is found.
bool allocationRegistryActive() noexcept;

/// The recorded live block that holds P (Start <= P < Start + Size), if any.
bool findAllocation(const void *P, HeapBlock &Out) noexcept;

} // namespace rt
} // namespace clustrix

#endif
