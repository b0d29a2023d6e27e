//===- Support/ParallelCopy.cpp - Row copies on several threads -----------===//
#include "Support/ParallelCopy.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <unistd.h>
#include <vector>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

using namespace clustrix::rt;

namespace {

/// Copies N bytes with streaming stores where the machine has them (Stores::Streaming); the
/// caller fences.
void streamCopy(char *Dst, const char *Src, size_t N) {
#if defined(__SSE2__)
  // Whole 16-byte stores to aligned addresses; the ragged ends through memcpy.
  size_t Head = (16 - (reinterpret_cast<uintptr_t>(Dst) & 15)) & 15;
  if (N < Head + 64) {
    std::memcpy(Dst, Src, N);
    return;
  }
  std::memcpy(Dst, Src, Head);
  Dst += Head;
  Src += Head;
  N -= Head;
  size_t I = 0;
  for (; I + 64 <= N; I += 64) {
    __m128i A = _mm_loadu_si128(reinterpret_cast<const __m128i *>(Src + I));
    __m128i B = _mm_loadu_si128(reinterpret_cast<const __m128i *>(Src + I + 16));
    __m128i C = _mm_loadu_si128(reinterpret_cast<const __m128i *>(Src + I + 32));
    __m128i D = _mm_loadu_si128(reinterpret_cast<const __m128i *>(Src + I + 48));
    _mm_stream_si128(reinterpret_cast<__m128i *>(Dst + I), A);
    _mm_stream_si128(reinterpret_cast<__m128i *>(Dst + I + 16), B);
    _mm_stream_si128(reinterpret_cast<__m128i *>(Dst + I + 32), C);
    _mm_stream_si128(reinterpret_cast<__m128i *>(Dst + I + 48), D);
  }
  for (; I + 16 <= N; I += 16)
    _mm_stream_si128(reinterpret_cast<__m128i *>(Dst + I),
                     _mm_loadu_si128(reinterpret_cast<const __m128i *>(Src + I)));
  std::memcpy(Dst + I, Src + I, N - I);
#else
  std::memcpy(Dst, Src, N);
#endif
}

/// Copies bytes [Begin, End) of the rows laid end to end.
void copyRange(char *Dst, size_t DstPitch, const char *Src, size_t SrcPitch, size_t Width,
               size_t Begin, size_t End, Stores How) {
  while (Begin < End) {
    size_t Row = Begin / Width, Col = Begin % Width;
    size_t N = std::min(Width - Col, End - Begin);
    if (How == Stores::Streaming)
      streamCopy(Dst + Row * DstPitch + Col, Src + Row * SrcPitch + Col, N);
    else
      std::memcpy(Dst + Row * DstPitch + Col, Src + Row * SrcPitch + Col, N);
    Begin += N;
  }
#if defined(__SSE2__)
  // Streaming stores are weakly ordered: visible to the device before the copy is issued.
  if (How == Stores::Streaming)
    _mm_sfence();
#endif
}

/// The threads that copy parts for copyRows, kept between copies: a copy of a few MiB takes
/// about as long as starting threads for it would. Started as copies ask for them (at most the
/// most parts one copy asked for, less one: the caller copies a part itself); they wait for
/// parts on a queue and never block inside one, so callers on several threads share them
/// without deadlock. A process that fork()s gets a pool of its own in the child (whose copy
/// of this one has no threads): the pool belongs to the process that made it.
class CopyPool {
public:
  static CopyPool &get() {
    // Never destroyed: its threads wait on it until the process ends. A child of fork() leaves
    // its parent's copy alone (a lock in it may have been held at the fork), and no lock is
    // taken to find the pool.
    static std::atomic<CopyPool *> Pool{nullptr};
    CopyPool *P = Pool.load(std::memory_order_acquire);
    const pid_t Self = getpid();
    while (!P || P->Owner != Self) {
      auto *Fresh = new CopyPool();
      if (Pool.compare_exchange_strong(P, Fresh, std::memory_order_acq_rel))
        return *Fresh;
      delete Fresh; // another thread made one first (no thread started on ours yet)
    }
    return *P;
  }

  /// Runs Parts[1..] on the pool and Parts[0] on the calling thread; returns when all are done.
  /// Without a thread to be had, the caller copies the rest too.
  void run(std::vector<std::function<void()>> &Parts) {
    struct Latch {
      std::mutex M;
      std::condition_variable Done;
      size_t Left;
    } L;
    L.Left = Parts.size() - 1;
    size_t Queued = 0;
    {
      std::lock_guard<std::mutex> G(M);
      grow(Parts.size() - 1);
      if (Workers > 0)
        for (size_t I = 1; I < Parts.size(); ++I, ++Queued)
          Queue.push_back([&L, &Part = Parts[I]] {
            Part();
            std::lock_guard<std::mutex> G(L.M);
            if (--L.Left == 0)
              L.Done.notify_one();
          });
    }
    if (Queued)
      Wake.notify_all();
    Parts[0]();
    if (!Queued) {
      for (size_t I = 1; I < Parts.size(); ++I)
        Parts[I]();
      return;
    }
    std::unique_lock<std::mutex> G(L.M);
    L.Done.wait(G, [&] { return L.Left == 0; });
  }

private:
  CopyPool() : Owner(getpid()) {}

  /// Starts threads until there are N (M held); stops at the first that cannot start.
  void grow(size_t N) {
    N = std::min<size_t>(N, 63);
    while (Workers < N) {
      try {
        std::thread([this] { work(); }).detach();
      } catch (...) {
        return;
      }
      ++Workers;
    }
  }

  void work() {
    std::unique_lock<std::mutex> G(M);
    for (;;) {
      Wake.wait(G, [&] { return !Queue.empty(); });
      std::function<void()> Part = std::move(Queue.front());
      Queue.pop_front();
      G.unlock();
      Part();
      G.lock();
    }
  }

  const pid_t Owner;
  std::mutex M;
  std::condition_variable Wake;
  std::deque<std::function<void()>> Queue;
  size_t Workers = 0;
};

} // namespace

void clustrix::rt::copyRows(char *Dst, size_t DstPitch, const char *Src, size_t SrcPitch,
                            size_t Rows, size_t Width, unsigned Threads,
                            size_t MinParallelBytes, Stores How) {
  size_t Total = Rows * Width;
  if (Total == 0)
    return;
  if (Threads <= 1 || Total < MinParallelBytes) {
    copyRange(Dst, DstPitch, Src, SrcPitch, Width, 0, Total, How);
    return;
  }
  // Equal parts, each at least 1 MiB; cut at 64-byte multiples so no two threads write one
  // cache line of a dense destination.
  size_t Parts = std::min<size_t>(Threads, std::max<size_t>(1, Total >> 20));
  size_t Step = (Total / Parts + 63) & ~size_t(63);
  std::vector<std::function<void()>> Work;
  for (size_t B = 0; B < Total; B += Step) {
    size_t E = std::min(Total, B + Step);
    Work.push_back([=] { copyRange(Dst, DstPitch, Src, SrcPitch, Width, B, E, How); });
  }
  if (Work.size() == 1) {
    Work[0]();
    return;
  }
  CopyPool::get().run(Work);
}
