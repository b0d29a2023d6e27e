//===- cudaemu/Fiber.h - A block's threads as fibers ------------*- C++ -*-===//
//
// A launch runs on one OS thread: its blocks one after another, and the threads of a block as
// fibers on that thread, switched only at __syncthreads. A block's threads therefore run
// concurrently in the sense the kernel can observe (every thread reaches a barrier before any
// passes it, and they share the block's __shared__ memory), without an OS thread each.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_CUDAEMU_FIBER_H
#define CLUSTRIX_CUDAEMU_FIBER_H

#include <cstdint>
#include "KernelAbi.h"

#include <cstddef>
#include <vector>

namespace clustrix {
namespace cudaemu {

/// Where a kernel module keeps the emulated thread it is running (its __clx_emu_self_slot).
using SelfSlotFn = const __clx_emu_thread **(*)();

/// Runs grids on the calling OS thread (one runner per thread, see current()).
class BlockRunner {
public:
  /// The calling thread's runner.
  static BlockRunner &current();
  ~BlockRunner();

  /// Runs Kernel over a grid of Grid blocks of Block threads with the given parameters; returns
  /// when every thread of every block has returned. Only the first MaxBlocks blocks run (a
  /// kernel that faults part way, for the partial@N fault).
  void runGrid(const __clx_emu_kernel &Kernel, SelfSlotFn Slot, void *const *Args,
               __clx_emu_dim3 Grid, __clx_emu_dim3 Block, uint64_t MaxBlocks = UINT64_MAX);

private:
  struct Fiber;
  BlockRunner() = default;
  void runBlock(__clx_emu_dim3 BlockIdx);
  char *takeStack();
  static void fiberMain();
  static void barrier();

  std::vector<Fiber> Fibers;
  std::vector<char *> FreeStacks, AllStacks;
  Fiber *Current = nullptr;
  void *SchedulerSp = nullptr;
  const __clx_emu_kernel *Kernel = nullptr;
  void *const *Args = nullptr;
  const __clx_emu_thread **Self = nullptr;
  __clx_emu_dim3 GridDim{1, 1, 1}, BlockDim{1, 1, 1};
};

} // namespace cudaemu
} // namespace clustrix

#endif
