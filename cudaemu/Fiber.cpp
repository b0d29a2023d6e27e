//===- cudaemu/Fiber.cpp - A block's threads as fibers --------------------===//
//
// On x86-64 a fiber switch saves the callee-saved registers and the SSE/x87 control words on
// the old stack and restores them from the new one (a few nanoseconds); elsewhere ucontext's
// swapcontext does the same, with a system call per switch.
//
//===----------------------------------------------------------------------===//
#include "Fiber.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sys/mman.h>

#if !defined(__x86_64__)
#include <ucontext.h>
#endif

namespace clustrix {
namespace cudaemu {

namespace {

/// Stack of one emulated thread. Only the pages a kernel touches are ever backed by memory.
constexpr size_t StackBytes = size_t(256) << 10;
constexpr size_t GuardBytes = 4096;

thread_local BlockRunner *ThisRunner = nullptr;

} // namespace

#if defined(__x86_64__)
extern "C" void __clustrix_cudaemu_switch(void **Save, void *To);
asm(R"(
  .text
  .p2align 4
  .globl __clustrix_cudaemu_switch
  .hidden __clustrix_cudaemu_switch
  .type __clustrix_cudaemu_switch,@function
__clustrix_cudaemu_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size __clustrix_cudaemu_switch,.-__clustrix_cudaemu_switch
)");
#endif

struct BlockRunner::Fiber {
  __clx_emu_thread Ctx;
  char *Stack = nullptr;
  bool Done = false;
#if defined(__x86_64__)
  void *Sp = nullptr;
#else
  ucontext_t Uc;
#endif
};

namespace {

#if defined(__x86_64__)
/// A fresh stack whose first switch "returns" into Entry with the ABI's alignment.
void *initialFrame(char *Stack, void (*Entry)()) {
  uintptr_t Top = reinterpret_cast<uintptr_t>(Stack + StackBytes) & ~uintptr_t(15);
  void **Sp = reinterpret_cast<void **>(Top);
  *--Sp = nullptr;                           // Entry's return address: it never returns
  *--Sp = reinterpret_cast<void *>(Entry);   // popped by the switch's ret
  for (int I = 0; I < 6; ++I)
    *--Sp = nullptr;                         // rbp, rbx, r12-r15
  --Sp;
  uint32_t Mxcsr;
  uint16_t Fpucw;
  asm volatile("stmxcsr %0" : "=m"(Mxcsr));
  asm volatile("fnstcw %0" : "=m"(Fpucw));
  std::memcpy(reinterpret_cast<char *>(Sp), &Mxcsr, 4);
  std::memcpy(reinterpret_cast<char *>(Sp) + 4, &Fpucw, 2);
  return Sp;
}
#endif

} // namespace

BlockRunner &BlockRunner::current() {
  static thread_local std::unique_ptr<BlockRunner> Runner;
  if (!Runner)
    Runner.reset(new BlockRunner());
  return *Runner;
}

BlockRunner::~BlockRunner() {
  for (char *S : AllStacks)
    ::munmap(S - GuardBytes, StackBytes + GuardBytes);
}

char *BlockRunner::takeStack() {
  if (!FreeStacks.empty()) {
    char *S = FreeStacks.back();
    FreeStacks.pop_back();
    return S;
  }
  void *P = ::mmap(nullptr, StackBytes + GuardBytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (P == MAP_FAILED) {
    std::fprintf(stderr, "clustrix-cudaemu: cannot allocate a thread stack\n");
    std::abort();
  }
  ::mprotect(P, GuardBytes, PROT_NONE); // an overflow faults instead of corrupting a neighbour
  char *S = static_cast<char *>(P) + GuardBytes;
  AllStacks.push_back(S);
  return S;
}

void BlockRunner::fiberMain() {
  BlockRunner &R = *ThisRunner;
  Fiber &F = *R.Current;
  R.Kernel->invoke(R.Args);
  F.Done = true;
#if defined(__x86_64__)
  __clustrix_cudaemu_switch(&F.Sp, R.SchedulerSp);
#else
  setcontext(static_cast<ucontext_t *>(R.SchedulerSp));
#endif
  __builtin_unreachable();
}

void BlockRunner::barrier() {
  BlockRunner &R = *ThisRunner;
  Fiber &F = *R.Current;
#if defined(__x86_64__)
  __clustrix_cudaemu_switch(&F.Sp, R.SchedulerSp);
#else
  swapcontext(&F.Uc, static_cast<ucontext_t *>(R.SchedulerSp));
#endif
}

void BlockRunner::runGrid(const __clx_emu_kernel &K, SelfSlotFn Slot, void *const *A,
                          __clx_emu_dim3 Grid, __clx_emu_dim3 Block, uint64_t MaxBlocks) {
  BlockRunner *Outer = ThisRunner;
  ThisRunner = this;
  Kernel = &K;
  Args = A;
  Self = Slot();
  GridDim = Grid;
  BlockDim = Block;
  Fibers.resize(size_t(Block.x) * Block.y * Block.z);
  uint64_t Ran = 0;
  for (unsigned Z = 0; Z < Grid.z; ++Z)
    for (unsigned Y = 0; Y < Grid.y; ++Y)
      for (unsigned X = 0; X < Grid.x && Ran < MaxBlocks; ++X, ++Ran)
        runBlock({X, Y, Z});
  *Self = nullptr;
  ThisRunner = Outer;
}

void BlockRunner::runBlock(__clx_emu_dim3 BlockIdx) {
  size_t T = 0;
  for (unsigned Z = 0; Z < BlockDim.z; ++Z)
    for (unsigned Y = 0; Y < BlockDim.y; ++Y)
      for (unsigned X = 0; X < BlockDim.x; ++X, ++T) {
        Fiber &F = Fibers[T];
        F.Ctx.threadIdx = {X, Y, Z};
        F.Ctx.blockIdx = BlockIdx;
        F.Ctx.blockDim = BlockDim;
        F.Ctx.gridDim = GridDim;
        F.Ctx.sync = &BlockRunner::barrier;
        F.Done = false;
        F.Stack = nullptr;
      }
#if !defined(__x86_64__)
  ucontext_t Scheduler;
  SchedulerSp = &Scheduler;
#endif
  // Rounds: every live thread runs until it returns or reaches the next barrier; a round ends
  // with all live threads at the same barrier, which the next round lets them pass.
  size_t Live = Fibers.size();
  while (Live > 0) {
    for (Fiber &F : Fibers) {
      if (F.Done)
        continue;
      Current = &F;
      *Self = &F.Ctx;
      bool Fresh = !F.Stack;
      if (Fresh)
        F.Stack = takeStack();
#if defined(__x86_64__)
      if (Fresh)
        F.Sp = initialFrame(F.Stack, &BlockRunner::fiberMain);
      __clustrix_cudaemu_switch(&SchedulerSp, F.Sp);
#else
      if (Fresh) {
        getcontext(&F.Uc);
        F.Uc.uc_stack.ss_sp = F.Stack;
        F.Uc.uc_stack.ss_size = StackBytes;
        F.Uc.uc_link = nullptr;
        makecontext(&F.Uc, &BlockRunner::fiberMain, 0);
      }
      swapcontext(&Scheduler, &F.Uc);
#endif
      if (F.Done) {
        FreeStacks.push_back(F.Stack); // the next thread reuses it
        --Live;
      }
    }
  }
  Current = nullptr;
}

} // namespace cudaemu
} // namespace clustrix
