//===- KernelPrelude.h - The CUDA built-ins of emulated kernels -*- C++ -*-===//
//
// The emulated NVRTC compiles "<this prelude><KernelAbi.h><kernel text><one entry per kernel>" with
// the host's C++ compiler into a shared object. Everything a kernel may use of CUDA is defined
// here in host C++: the thread coordinates (read from the current emulated thread), the block
// barrier, __shared__ memory (one copy per OS thread, and a block's threads run on one OS
// thread), atomics and the device math library (the host's, so results round as on the host).
// What is not here (warp shuffles, __syncwarp, textures, dynamic shared memory) does not
// compile, so a kernel that needs it fails loudly instead of running wrong.
//
//===----------------------------------------------------------------------===//
#include <math.h>
#include <stdio.h>

// @KERNEL_ABI@ (KernelAbi.h is inserted here)

#define __CUDACC__ 1
#define __CUDACC_RTC__ 1
#define __CUDA_ARCH__ 900
#define __CLUSTRIX_CUDAEMU__ 1

#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
#define __launch_bounds__(...)
// Per OS thread: the threads of one block share it, concurrent launches do not.
#define __shared__ static thread_local

typedef __clx_emu_dim3 uint3;
/// CUDA's dim3: three extents, 1 by default.
struct dim3 {
  unsigned x, y, z;
  constexpr dim3(unsigned X = 1, unsigned Y = 1, unsigned Z = 1) : x(X), y(Y), z(Z) {}
  constexpr dim3(__clx_emu_dim3 V) : x(V.x), y(V.y), z(V.z) {}
};

// The emulated thread running now, set by the emulator before it switches to a thread.
static thread_local const __clx_emu_thread *__clx_emu_self;
extern "C" __attribute__((visibility("default"))) const __clx_emu_thread **__clx_emu_self_slot(void) {
  return &__clx_emu_self;
}

#define threadIdx (__clx_emu_self->threadIdx)
#define blockIdx (__clx_emu_self->blockIdx)
#define blockDim (__clx_emu_self->blockDim)
#define gridDim (__clx_emu_self->gridDim)
#define warpSize 32

static inline void __syncthreads(void) { __clx_emu_self->sync(); }
static inline void __threadfence(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
static inline void __threadfence_block(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
static inline void __threadfence_system(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
template <class T> static inline T __ldg(const T *P) { return *P; }

// Bit casts.
static inline float __int_as_float(int V) { float F; __builtin_memcpy(&F, &V, 4); return F; }
static inline float __uint_as_float(unsigned V) { float F; __builtin_memcpy(&F, &V, 4); return F; }
static inline int __float_as_int(float V) { int I; __builtin_memcpy(&I, &V, 4); return I; }
static inline unsigned __float_as_uint(float V) { unsigned I; __builtin_memcpy(&I, &V, 4); return I; }
static inline double __longlong_as_double(long long V) { double D; __builtin_memcpy(&D, &V, 8); return D; }
static inline long long __double_as_longlong(double V) { long long I; __builtin_memcpy(&I, &V, 8); return I; }

// Device math beyond the C library: the host's arithmetic, so results round as on the host.
static inline double rsqrt(double X) { return 1.0 / sqrt(X); }
static inline float rsqrt(float X) { return 1.0f / sqrtf(X); }
static inline float rsqrtf(float X) { return 1.0f / sqrtf(X); }
static inline float __fdividef(float A, float B) { return A / B; }
// (__expf, __logf, __sinf, __cosf, __powf: glibc declares them, with the host's rounding.)
static inline float __saturatef(float X) { return X < 0.0f ? 0.0f : (X > 1.0f ? 1.0f : X); }

// min and max as std::min and std::max compute them (the compiler writes std::min as min).
#define __CLX_EMU_MINMAX(T)                                                                        \
  static inline T min(T A, T B) { return B < A ? B : A; }                                         \
  static inline T max(T A, T B) { return A < B ? B : A; }
__CLX_EMU_MINMAX(int)
__CLX_EMU_MINMAX(unsigned)
__CLX_EMU_MINMAX(long)
__CLX_EMU_MINMAX(unsigned long)
__CLX_EMU_MINMAX(long long)
__CLX_EMU_MINMAX(unsigned long long)
__CLX_EMU_MINMAX(float)
__CLX_EMU_MINMAX(double)
#undef __CLX_EMU_MINMAX
// Mixed types: the usual arithmetic conversions, as CUDA's overloads do.
template <class A, class B> static inline auto min(A X, B Y) -> decltype(X + Y) {
  typedef decltype(X + Y) T;
  return (T)Y < (T)X ? (T)Y : (T)X;
}
template <class A, class B> static inline auto max(A X, B Y) -> decltype(X + Y) {
  typedef decltype(X + Y) T;
  return (T)X < (T)Y ? (T)Y : (T)X;
}

// Atomics: real atomic operations (concurrent launches on one device run on different threads).
#define __CLX_EMU_ATOMIC_INT(T)                                                                    \
  static inline T atomicAdd(T *P, T V) { return __atomic_fetch_add(P, V, __ATOMIC_RELAXED); }     \
  static inline T atomicSub(T *P, T V) { return __atomic_fetch_sub(P, V, __ATOMIC_RELAXED); }     \
  static inline T atomicExch(T *P, T V) { return __atomic_exchange_n(P, V, __ATOMIC_RELAXED); }   \
  static inline T atomicAnd(T *P, T V) { return __atomic_fetch_and(P, V, __ATOMIC_RELAXED); }     \
  static inline T atomicOr(T *P, T V) { return __atomic_fetch_or(P, V, __ATOMIC_RELAXED); }       \
  static inline T atomicXor(T *P, T V) { return __atomic_fetch_xor(P, V, __ATOMIC_RELAXED); }     \
  static inline T atomicCAS(T *P, T Expected, T V) {                                             \
    __atomic_compare_exchange_n(P, &Expected, V, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);     \
    return Expected;                                                                             \
  }                                                                                              \
  static inline T atomicMin(T *P, T V) {                                                         \
    T Old = __atomic_load_n(P, __ATOMIC_RELAXED);                                                \
    while (V < Old &&                                                                            \
           !__atomic_compare_exchange_n(P, &Old, V, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) { \
    }                                                                                            \
    return Old;                                                                                  \
  }                                                                                              \
  static inline T atomicMax(T *P, T V) {                                                         \
    T Old = __atomic_load_n(P, __ATOMIC_RELAXED);                                                \
    while (Old < V &&                                                                            \
           !__atomic_compare_exchange_n(P, &Old, V, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) { \
    }                                                                                            \
    return Old;                                                                                  \
  }
__CLX_EMU_ATOMIC_INT(int)
__CLX_EMU_ATOMIC_INT(unsigned)
__CLX_EMU_ATOMIC_INT(long long)
__CLX_EMU_ATOMIC_INT(unsigned long long)
#undef __CLX_EMU_ATOMIC_INT
// Floating-point atomics through compare-and-swap on the bits.
#define __CLX_EMU_ATOMIC_FLOAT(T, Bits)                                                            \
  static inline T atomicAdd(T *P, T V) {                                                         \
    Bits *B = (Bits *)P;                                                                         \
    Bits Old = __atomic_load_n(B, __ATOMIC_RELAXED), New;                                        \
    T Cur;                                                                                       \
    do {                                                                                         \
      __builtin_memcpy(&Cur, &Old, sizeof(T));                                                   \
      T Sum = Cur + V;                                                                           \
      __builtin_memcpy(&New, &Sum, sizeof(T));                                                   \
    } while (!__atomic_compare_exchange_n(B, &Old, New, true, __ATOMIC_RELAXED,                  \
                                          __ATOMIC_RELAXED));                                    \
    return Cur;                                                                                  \
  }                                                                                              \
  static inline T atomicExch(T *P, T V) {                                                        \
    Bits N, O;                                                                                   \
    __builtin_memcpy(&N, &V, sizeof(T));                                                         \
    O = __atomic_exchange_n((Bits *)P, N, __ATOMIC_RELAXED);                                     \
    T R;                                                                                         \
    __builtin_memcpy(&R, &O, sizeof(T));                                                         \
    return R;                                                                                    \
  }
__CLX_EMU_ATOMIC_FLOAT(float, unsigned)
__CLX_EMU_ATOMIC_FLOAT(double, unsigned long long)
#undef __CLX_EMU_ATOMIC_FLOAT
static inline unsigned atomicInc(unsigned *P, unsigned Limit) {
  unsigned Old = __atomic_load_n(P, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(P, &Old, Old >= Limit ? 0 : Old + 1, true,
                                      __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
  return Old;
}
static inline unsigned atomicDec(unsigned *P, unsigned Limit) {
  unsigned Old = __atomic_load_n(P, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(P, &Old, (Old == 0 || Old > Limit) ? Limit : Old - 1, true,
                                      __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
  return Old;
}

// The entry of each kernel: its parameters' sizes, alignments and pointer-ness, and a function
// that calls it with the parameters the emulator copied at launch.
namespace __clx_emu {
template <class T> struct IsPointer { enum { value = 0 }; };
template <class T> struct IsPointer<T *> { enum { value = 1 }; };
template <unsigned... I> struct Seq {};
template <unsigned N, unsigned... I> struct MakeSeq : MakeSeq<N - 1, N - 1, I...> {};
template <unsigned... I> struct MakeSeq<0, I...> { typedef Seq<I...> type; };
template <class F, F Fn> struct Kernel;
template <class... A, void (*Fn)(A...)> struct Kernel<void (*)(A...), Fn> {
  static constexpr unsigned Sizes[sizeof...(A) + 1] = {unsigned(sizeof(A))..., 0u};
  static constexpr unsigned Aligns[sizeof...(A) + 1] = {unsigned(alignof(A))..., 0u};
  static constexpr unsigned char Pointers[sizeof...(A) + 1] = {
      (unsigned char)IsPointer<A>::value..., 0};
  template <unsigned... I> static void call(void *const *Args, Seq<I...>) {
    (void)Args;
    Fn(*static_cast<A *>(Args[I])...);
  }
  static void invoke(void *const *Args) { call(Args, typename MakeSeq<sizeof...(A)>::type()); }
  static constexpr __clx_emu_kernel entry() {
    return __clx_emu_kernel{CLUSTRIX_EMU_ABI, unsigned(sizeof...(A)), Sizes, Aligns, Pointers,
                            &invoke};
  }
};
} // namespace __clx_emu
#define __CLX_EMU_KERNEL(K)                                                                        \
  extern "C" __attribute__((visibility("default"))) const __clx_emu_kernel __clx_emu_kernel_##K = \
      __clx_emu::Kernel<decltype(&K), &K>::entry();
