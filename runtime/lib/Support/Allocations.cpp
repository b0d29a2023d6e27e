//===- Support/Allocations.cpp - Which heap block holds a pointer ---------===//
//
// The runtime defines malloc, free and their relatives, weakly, over glibc's own allocator
// (__libc_malloc, ...), and records every live block of at least AllocationThreshold requested
// bytes in an ordered map keyed by its start. A program, a sanitizer or an allocator such as
// jemalloc that defines malloc itself wins without a link error; then allocationRegistryActive
// is false and every extent is unknown.
//
// What keeps the answers sound (an extent too large or too small is wrong data, unknown only
// costs a serial loop):
//  - a block leaves the map before glibc can hand its memory out again: free and realloc erase
//    first and call glibc after (a failed realloc puts the unchanged block back);
//  - a block enters the map after glibc returned it, and any entry overlapping it is stale and
//    dropped;
//  - the map is built on first use in static storage and never destroyed, since ld.so and other
//    libraries allocate before any constructor runs and free after every destructor; its nodes
//    come from pages of their own (mmap, between inaccessible pages), so it never reenters the
//    functions below, and a program writing past its own blocks cannot reach it;
//  - one lock guards it, held across fork by pthread_atfork handlers.
//
//===----------------------------------------------------------------------===//
#include "Support/Allocations.h"

#include "clustrix/Runtime.h"

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iterator>
#include <map>
#include <new>

#include <malloc.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CLUSTRIX_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||                      \
    __has_feature(memory_sanitizer) || __has_feature(hwaddress_sanitizer)
#define CLUSTRIX_SANITIZED 1
#endif
#endif
// A sanitizer's malloc would win anyway; with its runtime the registry is simply not built.
#if defined(__GLIBC__) && !defined(CLUSTRIX_SANITIZED)
#define CLUSTRIX_INTERPOSE_MALLOC 1
#else
#define CLUSTRIX_INTERPOSE_MALLOC 0
#endif

#if CLUSTRIX_INTERPOSE_MALLOC

// glibc's allocator under its own names (exported by libc.so.6 since 2.2.5).
extern "C" {
void *__libc_malloc(size_t Size) noexcept;
void __libc_free(void *P) noexcept;
void *__libc_calloc(size_t N, size_t Size) noexcept;
void *__libc_realloc(void *P, size_t Size) noexcept;
void *__libc_memalign(size_t Align, size_t Size) noexcept;
void *__libc_valloc(size_t Size) noexcept;
void *__libc_pvalloc(size_t Size) noexcept;
}

namespace clustrix {
namespace rt {
namespace {

// Constant-initialized: usable before any constructor. Recursive, so that a fork handler of
// another library that runs while ours holds the lock (on the forking thread) may still allocate.
pthread_mutex_t Lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
struct Held {
  Held() { pthread_mutex_lock(&Lock); }
  ~Held() { pthread_mutex_unlock(&Lock); }
  Held(const Held &) = delete;
  Held &operator=(const Held &) = delete;
};

/// The map's nodes, in pages of their own (mmap) with an inaccessible page on each side, never
/// from the interposed malloc below: a program that writes past the end of one of its blocks
/// (Rodinia particlefilter's objxy, at small frames) damages its own memory, as it would
/// without the runtime, never the registry. One size of node (std::map's); under Lock, which is
/// recursive, since a node handle may be dropped outside the registry's own calls.
class NodePool {
public:
  void *take(size_t Size) noexcept {
    Held H;
    if (NodeSize == 0)
      NodeSize = (Size + 15) & ~size_t(15);
    if (Size > NodeSize)
      return nullptr; // another size: std::map never asks for one
    if (Free) {
      void *P = Free;
      Free = *static_cast<void **>(P);
      return P;
    }
    if ((!Next || Next + NodeSize > End) && !grow())
      return nullptr;
    void *P = Next;
    Next += NodeSize;
    return P;
  }
  void give(void *P) noexcept {
    Held H;
    *static_cast<void **>(P) = Free;
    Free = P;
  }

private:
  bool grow() noexcept {
    const size_t Page = size_t(getpagesize()), Data = 16 * Page;
    void *M = mmap(nullptr, Data + 2 * Page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (M == MAP_FAILED)
      return false;
    char *D = static_cast<char *>(M) + Page;
    if (mprotect(D, Data, PROT_READ | PROT_WRITE) != 0) {
      munmap(M, Data + 2 * Page);
      return false;
    }
    Next = D;
    End = D + Data;
    return true;
  }
  size_t NodeSize = 0;
  void *Free = nullptr;
  char *Next = nullptr, *End = nullptr;
};
NodePool Pool; // constant-initialized: usable before any constructor

/// The map's allocator: the node pool.
template <class T> struct PoolAllocator {
  using value_type = T;
  PoolAllocator() = default;
  template <class U> PoolAllocator(const PoolAllocator<U> &) noexcept {}
  T *allocate(size_t N) {
    if (N == 1)
      if (void *P = Pool.take(sizeof(T)))
        return static_cast<T *>(P);
    throw std::bad_alloc();
  }
  void deallocate(T *P, size_t) noexcept { Pool.give(P); }
  friend bool operator==(const PoolAllocator &, const PoolAllocator &) { return true; }
  friend bool operator!=(const PoolAllocator &, const PoolAllocator &) { return false; }
};

using BlockMap = std::map<uintptr_t, size_t, std::less<uintptr_t>,
                          PoolAllocator<std::pair<const uintptr_t, size_t>>>;
using BlockNode = BlockMap::node_type;
alignas(BlockMap) unsigned char Storage[sizeof(BlockMap)];
BlockMap *Blocks; // in Storage once built; never destroyed

BlockMap &blocksLocked() {
  if (!Blocks)
    Blocks = new (Storage) BlockMap();
  return *Blocks;
}

/// Drops every entry overlapping [Start, Start + Size): glibc just handed that memory out, so
/// such an entry can only be stale.
void dropOverlapsLocked(BlockMap &M, uintptr_t Start, size_t Size) {
  auto It = M.lower_bound(Start);
  if (It != M.begin()) {
    auto Prev = std::prev(It);
    if (Prev->first + Prev->second > Start)
      M.erase(Prev);
  }
  while (It != M.end() && It->first - Start < Size)
    It = M.erase(It);
}

/// Records the block [P, P + Size); Node, when given, is reused for it (no allocation).
void record(void *P, size_t Size, BlockNode Node = BlockNode()) noexcept {
  int SavedErrno = errno;
  uintptr_t Start = reinterpret_cast<uintptr_t>(P);
  {
    Held H;
    BlockMap &M = blocksLocked();
    dropOverlapsLocked(M, Start, Size);
    if (Node) {
      Node.key() = Start;
      Node.mapped() = Size;
      M.insert(std::move(Node));
    } else {
      try {
        M.emplace(Start, Size);
      } catch (...) {
        // No memory for the entry: the block stays unknown, which is sound.
      }
    }
  }
  errno = SavedErrno;
}

/// Removes P's entry, if any, and hands it back (empty when P was not recorded).
BlockNode take(void *P) noexcept {
  Held H;
  if (!Blocks)
    return BlockNode();
  return Blocks->extract(reinterpret_cast<uintptr_t>(P));
}

/// Whether a block at P may have been recorded: only those whose usable size reaches the
/// threshold (the requested size is never above the usable one).
bool mayBeRecorded(void *P) noexcept { return malloc_usable_size(P) >= AllocationThreshold; }

bool validAlignment(size_t Align) { return Align != 0 && (Align & (Align - 1)) == 0; }

void lockForFork() { pthread_mutex_lock(&Lock); }
void unlockInParent() { pthread_mutex_unlock(&Lock); }
// The child's one thread has a new id, so it cannot unlock a recursive mutex the parent's
// thread holds; the map is consistent (the lock was held), so a fresh lock is right.
void unlockInChild() {
  static const pthread_mutex_t Fresh = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
  std::memcpy(static_cast<void *>(&Lock), &Fresh, sizeof Lock);
}

// Installed from a constructor, not from malloc: pthread_atfork itself allocates.
__attribute__((constructor)) void installForkHandlers() {
  pthread_atfork(&lockForFork, &unlockInParent, &unlockInChild);
}

} // namespace
} // namespace rt
} // namespace clustrix

namespace rt = clustrix::rt;

// The definitions, under names of their own (hidden); malloc and its relatives below are weak
// aliases of them, so that allocationRegistryActive can tell whether the program's calls reach
// them.
#define CLUSTRIX_ALLOC_IMPL extern "C" __attribute__((visibility("hidden")))

CLUSTRIX_ALLOC_IMPL void *clustrix_rt_malloc(size_t Size) noexcept {
  void *P = __libc_malloc(Size);
  if (__builtin_expect(Size >= rt::AllocationThreshold, 0) && P)
    rt::record(P, Size);
  return P;
}

CLUSTRIX_ALLOC_IMPL void clustrix_rt_free(void *P) noexcept {
  if (P && rt::mayBeRecorded(P))
    rt::take(P); // before glibc may reuse the memory; the entry is freed with the handle
  __libc_free(P);
}

CLUSTRIX_ALLOC_IMPL void *clustrix_rt_calloc(size_t N, size_t Size) noexcept {
  void *P = __libc_calloc(N, Size);
  size_t Bytes;
  if (P && !__builtin_mul_overflow(N, Size, &Bytes) && Bytes >= rt::AllocationThreshold)
    rt::record(P, Bytes);
  return P;
}

CLUSTRIX_ALLOC_IMPL void *clustrix_rt_realloc(void *Old, size_t Size) noexcept {
  if (!Old)
    return clustrix_rt_malloc(Size);
  // Out of the map before glibc may move or free the block; back in if nothing happened.
  rt::BlockNode Node = rt::mayBeRecorded(Old) ? rt::take(Old) : rt::BlockNode();
  void *P = __libc_realloc(Old, Size);
  if (P) {
    if (Size >= rt::AllocationThreshold)
      rt::record(P, Size, std::move(Node));
  } else if (Size != 0 && Node) {
    // Failed: Old is untouched and still the program's. (Size 0 freed it: glibc returns null.)
    size_t OldSize = Node.mapped();
    rt::record(Old, OldSize, std::move(Node));
  }
  return P;
}

CLUSTRIX_ALLOC_IMPL void *clustrix_rt_reallocarray(void *Old, size_t N, size_t Size) noexcept {
  size_t Bytes;
  if (__builtin_mul_overflow(N, Size, &Bytes)) {
    errno = ENOMEM;
    return nullptr;
  }
  // Through the symbol, as glibc's reallocarray does: the realloc the program uses.
  return realloc(Old, Bytes);
}

CLUSTRIX_ALLOC_IMPL void *clustrix_rt_memalign(size_t Align, size_t Size) noexcept {
  void *P = __libc_memalign(Align, Size);
  if (__builtin_expect(Size >= rt::AllocationThreshold, 0) && P)
    rt::record(P, Size);
  return P;
}

CLUSTRIX_ALLOC_IMPL int clustrix_rt_posix_memalign(void **Out, size_t Align,
                                                   size_t Size) noexcept {
  if (Align % sizeof(void *) != 0 || !rt::validAlignment(Align))
    return EINVAL;
  void *P = clustrix_rt_memalign(Align, Size);
  if (!P)
    return ENOMEM;
  *Out = P;
  return 0;
}

// C17: an alignment that is not a power of two is not supported (null, EINVAL as glibc 2.38).
CLUSTRIX_ALLOC_IMPL void *clustrix_rt_aligned_alloc(size_t Align, size_t Size) noexcept {
  if (!rt::validAlignment(Align)) {
    errno = EINVAL;
    return nullptr;
  }
  return clustrix_rt_memalign(Align, Size);
}

CLUSTRIX_ALLOC_IMPL void *clustrix_rt_valloc(size_t Size) noexcept {
  void *P = __libc_valloc(Size);
  if (__builtin_expect(Size >= rt::AllocationThreshold, 0) && P)
    rt::record(P, Size);
  return P;
}

// pvalloc promises whole pages; what is recorded never exceeds what glibc reports usable.
CLUSTRIX_ALLOC_IMPL void *clustrix_rt_pvalloc(size_t Size) noexcept {
  void *P = __libc_pvalloc(Size);
  if (!P)
    return P;
  size_t Page = static_cast<size_t>(getpagesize());
  size_t Bytes = Size > SIZE_MAX - (Page - 1) ? Size : (Size + Page - 1) & ~(Page - 1);
  size_t Usable = malloc_usable_size(P);
  if (Bytes > Usable)
    Bytes = Usable;
  if (Bytes >= rt::AllocationThreshold)
    rt::record(P, Bytes);
  return P;
}

#define CLUSTRIX_ALLOC_ALIAS(Name) __attribute__((weak, alias("clustrix_rt_" #Name)))
extern "C" {
void *malloc(size_t Size) noexcept CLUSTRIX_ALLOC_ALIAS(malloc);
void free(void *P) noexcept CLUSTRIX_ALLOC_ALIAS(free);
void *calloc(size_t N, size_t Size) noexcept CLUSTRIX_ALLOC_ALIAS(calloc);
void *realloc(void *P, size_t Size) noexcept CLUSTRIX_ALLOC_ALIAS(realloc);
void *reallocarray(void *P, size_t N, size_t Size) noexcept CLUSTRIX_ALLOC_ALIAS(reallocarray);
int posix_memalign(void **Out, size_t Align, size_t Size) noexcept
    CLUSTRIX_ALLOC_ALIAS(posix_memalign);
void *aligned_alloc(size_t Align, size_t Size) noexcept CLUSTRIX_ALLOC_ALIAS(aligned_alloc);
void *memalign(size_t Align, size_t Size) noexcept CLUSTRIX_ALLOC_ALIAS(memalign);
void *valloc(size_t Size) noexcept CLUSTRIX_ALLOC_ALIAS(valloc);
void *pvalloc(size_t Size) noexcept CLUSTRIX_ALLOC_ALIAS(pvalloc);
}

bool rt::allocationRegistryActive() noexcept {
  // Each address is the definition the program's calls reach (read through the GOT; volatile so
  // that no compiler folds the comparison with the alias's target).
  void *(*volatile Malloc)(size_t) = &malloc;
  void (*volatile Free)(void *) = &free;
  void *(*volatile Calloc)(size_t, size_t) = &calloc;
  void *(*volatile Realloc)(void *, size_t) = &realloc;
  return Malloc == &clustrix_rt_malloc && Free == &clustrix_rt_free &&
         Calloc == &clustrix_rt_calloc && Realloc == &clustrix_rt_realloc;
}

bool rt::findAllocation(const void *P, HeapBlock &Out) noexcept {
  if (!P || !allocationRegistryActive())
    return false;
  uintptr_t Addr = reinterpret_cast<uintptr_t>(P);
  Held H;
  if (!Blocks)
    return false;
  auto It = Blocks->upper_bound(Addr);
  if (It == Blocks->begin())
    return false;
  --It;
  if (Addr - It->first >= It->second)
    return false;
  Out = {It->first, It->second};
  return true;
}

#else // !CLUSTRIX_INTERPOSE_MALLOC

bool clustrix::rt::allocationRegistryActive() noexcept { return false; }

bool clustrix::rt::findAllocation(const void *, HeapBlock &) noexcept { return false; }

#endif

int64_t clustrix::rt::allocationLo(const void *P, size_t ElemSize) noexcept {
  HeapBlock B;
  if (ElemSize == 0 || !findAllocation(P, B))
    return 0;
  return -static_cast<int64_t>((reinterpret_cast<uintptr_t>(P) - B.Start) / ElemSize);
}

int64_t clustrix::rt::allocationHi(const void *P, size_t ElemSize) noexcept {
  HeapBlock B;
  if (ElemSize == 0 || !findAllocation(P, B))
    return -1;
  return static_cast<int64_t>((B.Start + B.Size - reinterpret_cast<uintptr_t>(P)) / ElemSize);
}
