/*===- KernelAbi.h - What the emulator and a kernel module share -*- C++ -*-===
 *
 * A kernel module is a shared object the emulated NVRTC compiles from the kernel text with the
 * host's compiler. This header is compiled into both sides: the emulator includes it, and the
 * emulated NVRTC puts its text at the top of every kernel program (after KernelPrelude.h's
 * system headers). Plain C structs: the two sides may come from different compilers.
 *
 *===----------------------------------------------------------------------===*/
#ifndef CLUSTRIX_CUDAEMU_KERNELABI_H
#define CLUSTRIX_CUDAEMU_KERNELABI_H

/* Changes with any change of the structs below; modules of another revision are refused. */
#define CLUSTRIX_EMU_ABI 1

/* CUDA's uint3 (threadIdx, blockIdx) and the value of dim3 (blockDim, gridDim). */
struct __clx_emu_dim3 {
  unsigned x, y, z;
};

/* What one kernel thread sees of itself, and its block's barrier. */
struct __clx_emu_thread {
  struct __clx_emu_dim3 threadIdx, blockIdx, blockDim, gridDim;
  void (*sync)(void); /* __syncthreads(): returns when every thread of the block reached it */
};

/* One kernel of a module: exported as __clx_emu_kernel_<name>, next to the kernel itself. */
struct __clx_emu_kernel {
  unsigned abi;                     /* CLUSTRIX_EMU_ABI */
  unsigned num_params;
  const unsigned *sizes;            /* per parameter: sizeof */
  const unsigned *aligns;           /* alignof */
  const unsigned char *is_pointer;  /* 1 for a pointer parameter (checked at launch) */
  void (*invoke)(void *const *args); /* calls the kernel for the current thread */
};

#endif
