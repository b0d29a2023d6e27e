//===- MPI/HostKernel.cpp - A loop's GPU form run on CPU threads ----------===//
#include "MPI/HostKernel.h"

#include "KernelAbi.h"
#include "Support/Spawn.h"

#include <cerrno>
#include <cstdlib>
#include <dlfcn.h>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>


#ifndef CLUSTRIX_HOST_KERNEL_CXX
#define CLUSTRIX_HOST_KERNEL_CXX "clang++-19"
#endif

namespace clustrix {
namespace rt {
namespace mpi {

struct HostKernelEntry : __clx_emu_kernel {};

namespace {

/// cudaemu/KernelPrelude.h with KernelAbi.h inserted (generated at build time).
const char Prelude[] =
#include "KernelPrelude.inc"
    ;

void noBarrier() {} // a block of one thread reaches every barrier alone

/// The first lines of a compiler log, for an error message.
std::string head(const std::string &Log) {
  size_t End = 0;
  for (int Lines = 0; Lines < 6 && End != std::string::npos; ++Lines)
    End = Log.find('\n', End ? End + 1 : 0);
  return Log.substr(0, End);
}

std::unique_ptr<HostKernel> build(const std::string &Name, const std::string &Source,
                                  std::string &Err) {
  const char *Tmp = std::getenv("TMPDIR");
  std::string Base = Tmp && *Tmp ? Tmp : "/tmp";
  std::string Dir = Base + "/clustrix-hostkernel-XXXXXX";
  if (!::mkdtemp(&Dir[0])) {
    Err = "cannot create a temporary directory in " + Base;
    return nullptr;
  }
  std::string Cpp = Dir + "/kernel.cpp", So = Dir + "/kernel.so", Log = Dir + "/compile.log";
  auto Clean = [&] {
    ::unlink(Cpp.c_str());
    ::unlink(So.c_str());
    ::unlink(Log.c_str());
    ::rmdir(Dir.c_str());
  };
  {
    std::ofstream Out(Cpp, std::ios::binary);
    Out << Prelude << "\n#line 1 \"" << Name << ".cu\"\n"
        << Source << "\n__CLX_EMU_KERNEL(" << Name << ")\n";
    if (!Out) {
      Err = "cannot write " + Cpp;
      Clean();
      return nullptr;
    }
  }
  // -ffp-contract=off: a*b+c rounds twice, as in the host chunk function (and as the CUDA path's
  // --fmad=false asks of a GPU).
  std::vector<std::string> Argv = {hostCompiler(), "-std=c++17", "-O2", "-fPIC", "-shared",
                                   "-fvisibility=hidden", "-ffp-contract=off", "-w", "-x", "c++",
                                   "-o", So, Cpp};
  int Status = support::spawnLogged(Argv, Log);
  if (Status != 0) {
    Err = Status < 0 ? "cannot run " + Argv[0] + " (set CLUSTRIX_HOST_CXX)"
                     : Argv[0] + " failed on the kernel text of " + Name + ": " +
                           head(support::readFile(Log));
    Clean();
    return nullptr;
  }
  void *H = ::dlopen(So.c_str(), RTLD_NOW | RTLD_LOCAL);
  Clean(); // the mapping stays
  if (!H) {
    const char *E = ::dlerror();
    Err = "cannot load the compiled kernel " + Name + (E ? std::string(": ") + E : "");
    return nullptr;
  }
  auto K = std::make_unique<HostKernel>();
  K->Entry = static_cast<const HostKernelEntry *>(
      ::dlsym(H, ("__clx_emu_kernel_" + Name).c_str()));
  K->SelfSlot = reinterpret_cast<const void **(*)()>(::dlsym(H, "__clx_emu_self_slot"));
  if (!K->Entry || !K->SelfSlot || K->Entry->abi != CLUSTRIX_EMU_ABI) {
    Err = "the compiled kernel text has no kernel " + Name;
    return nullptr;
  }
  return K;
}

} // namespace

std::string hostCompiler() {
  if (const char *X = std::getenv("CLUSTRIX_HOST_CXX"); X && *X)
    return X;
  struct stat St;
  if (::stat(CLUSTRIX_HOST_KERNEL_CXX, &St) == 0)
    return CLUSTRIX_HOST_KERNEL_CXX;
  return "c++";
}

const HostKernel *HostKernel::get(const std::string &Name, const std::string &Source,
                                  uint64_t Hash, std::string &Err) {
  static std::mutex M;
  static auto *Kernels = new std::map<std::pair<std::string, uint64_t>, std::unique_ptr<HostKernel>>();
  std::lock_guard<std::mutex> G(M);
  auto &K = (*Kernels)[{Name, Hash}];
  if (!K)
    K = build(Name, Source, Err); // a failure is tried again by the next chunk
  return K.get();
}

unsigned HostKernel::numParams() const { return Entry->num_params; }

void HostKernel::launch(unsigned Grid, void *const *Args) const {
  if (Grid == 0)
    Grid = 1;
  auto Block = [&](unsigned B) {
    __clx_emu_thread Self;
    Self.threadIdx = {0, 0, 0};
    Self.blockIdx = {B, 0, 0};
    Self.blockDim = {1, 1, 1};
    Self.gridDim = {Grid, 1, 1};
    Self.sync = &noBarrier;
    *SelfSlot() = &Self;
    Entry->invoke(Args);
    *SelfSlot() = nullptr;
  };
  std::vector<std::thread> Threads;
  Threads.reserve(Grid - 1);
  for (unsigned B = 1; B < Grid; ++B)
    Threads.emplace_back(Block, B);
  Block(0);
  for (std::thread &T : Threads)
    T.join();
}

} // namespace mpi
} // namespace rt
} // namespace clustrix
