//===- MPI/HostKernel.h - A loop's GPU form run on CPU threads --*- C++ -*-===//
//
// A rank that serves chunks runs the loop's kernel text, never the host chunk function: that
// function and its environment live in rank 0's stack. On a rank's CPU the kernel text is compiled
// by the host's C++ compiler with the CUDA built-ins of the emulated driver (cudaemu/
// KernelPrelude.h, the same prelude, so the same kernel text means the same thing) and run as a
// grid of blocks of one thread, one OS thread per block: a block of one thread needs no barrier,
// and the kernel's grid-stride loop covers the chunk whatever the grid.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_RT_MPI_HOSTKERNEL_H
#define CLUSTRIX_RT_MPI_HOSTKERNEL_H

#include <cstdint>
#include <string>

namespace clustrix {
namespace rt {
namespace mpi {

struct HostKernelEntry;

/// A kernel compiled for the host, loaded in this process.
class HostKernel {
public:
  /// Compiles Source (once per process per Hash and Name) and finds kernel Name in it; null,
  /// with Err holding the compiler's first lines, when that fails.
  static const HostKernel *get(const std::string &Name, const std::string &Source, uint64_t Hash,
                               std::string &Err);
  /// Runs the kernel as a grid of Grid blocks of one thread, block B on its own OS thread
  /// (the caller runs block 0). Args: one pointer per parameter to its value, as cuLaunchKernel
  /// takes them.
  void launch(unsigned Grid, void *const *Args) const;
  unsigned numParams() const;

  const HostKernelEntry *Entry = nullptr;
  const void **(*SelfSlot)() = nullptr;
};

/// The host compiler: CLUSTRIX_HOST_CXX, else the clang++ found when the runtime was built.
std::string hostCompiler();

} // namespace mpi
} // namespace rt
} // namespace clustrix

#endif
