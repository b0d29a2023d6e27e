#include <clustrix/Runtime.h>
#line 1 "test/Analysis/canonical.cpp"
// Loops that are not in canonical form, whose bounds change, or that leave early are refused
// with the reason at the offending part of the loop.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark}}:"
// REQUIRES: compiler

void form(int n, double *b, unsigned u) {
                           
  // CHECK: {{.*}}canonical.cpp:[[@LINE+2]]:3: warning: loop not parallelized: induction variable 'x' has type 'double', not an integer type
  // CHECK: {{.*}}canonical.cpp:[[@LINE+1]]:15: note: declared here
  for (double x = 0; x < n; x += 1) {
    b[0] = x;
  }
                           
  // CHECK: {{.*}}canonical.cpp:[[@LINE+1]]:3: warning: loop not parallelized: the loop initializes more than one variable
  for (int i = 0, j = 0; i < n; ++i) {
    b[i] = j;
  }
                           
  // CHECK: {{.*}}canonical.cpp:[[@LINE+2]]:3: warning: loop not parallelized: the condition does not compare the induction variable 'i'
  // CHECK: {{.*}}canonical.cpp:[[@LINE+1]]:19: note: condition here
  for (int i = 0; i * i < n; ++i) {
    b[i] = 1;
  }
                           
  // CHECK: {{.*}}canonical.cpp:[[@LINE+2]]:3: warning: loop not parallelized: the increment is not '++', '--', '+=' or '-=' of the induction variable
  // CHECK: {{.*}}canonical.cpp:[[@LINE+1]]:26: note: increment here
  for (int i = 1; i < n; i *= 2) {
    b[i] = 1;
  }
                           
  // CHECK: {{.*}}canonical.cpp:[[@LINE+2]]:3: warning: loop not parallelized: the condition is not a comparison of the induction variable with a bound
  // CHECK: {{.*}}canonical.cpp:[[@LINE+1]]:19: note: condition here
  for (int i = 0; i == 0; ++i) {
    b[i] = 1;
  }
  int k = 0;
                           
  // CHECK: {{.*}}canonical.cpp:[[@LINE+1]]:3: warning: loop not parallelized: the loop does not start by initializing one induction variable
  for (; k < n; ++k) {
    b[k] = 1;
  }
                           
  // CHECK: {{.*}}canonical.cpp:[[@LINE+1]]:3: warning: loop not parallelized: the increment is not '++', '--', '+=' or '-=' of the induction variable
  for (int i = 0; i < n;) {
    b[i++] = 1;
  }
}

void direction(int n, double *b, unsigned u) {
                           
  // CHECK: {{.*}}canonical.cpp:[[@LINE+2]]:3: warning: loop not parallelized: induction variable 'i' moves away from the bound: it decreases while the condition needs it to increase
  // CHECK: {{.*}}canonical.cpp:[[@LINE+1]]:19: note: condition here
  for (int i = 0; i < n; --i) {
    b[i] = 1;
  }
                           
  // CHECK: {{.*}}canonical.cpp:[[@LINE+2]]:3: warning: loop not parallelized: the condition 'i >= 0' is always true for unsigned 'i', so the loop only ends by wrapping around
  // CHECK: {{.*}}canonical.cpp:[[@LINE+1]]:24: note: condition here
  for (unsigned i = u; i >= 0; --i) {
    b[i] = 1;
  }
                           
  // CHECK: {{.*}}canonical.cpp:[[@LINE+2]]:3: warning: loop not parallelized: the step is zero, so the loop never ends
  // CHECK: {{.*}}canonical.cpp:[[@LINE+1]]:31: note: step here
  for (int i = 0; i < n; i += 0) {
    b[i] = 1;
  }
}

void invariance(int n, int step, double *b) {
                           
  // CHECK: {{.*}}canonical.cpp:[[@LINE+2]]:3: warning: loop not parallelized: the bound 'n' reads 'n', which the loop modifies
  // CHECK: {{.*}}canonical.cpp:[[@LINE+1]]:23: note: bound here
  for (int i = 0; i < n; ++i) {
    n--;
    b[i] = 1;
  }
                           
  // CHECK: {{.*}}canonical.cpp:[[@LINE+4]]:3: warning: loop not parallelized: the step 'step' may change
  // CHECK: {{.*}}canonical.cpp:[[@LINE+3]]:31: note: step here
  // CHECK: {{.*}}canonical.cpp:[[@LINE+4]]:5: note: also: 'step' is declared outside the loop and written by every iteration; declare it inside the loop body
  // CHECK: {{.*}}canonical.cpp:[[@LINE+2]]:5: note: also: 'b' may be written in one iteration and written in another: the dependence test cannot prove the accesses disjoint
  for (int i = 0; i < n; i += step) {
    b[i] = 1;
    step = 2;
  }
                           
  // CHECK: {{.*}}canonical.cpp:[[@LINE+2]]:3: warning: loop not parallelized: the body modifies the induction variable 'i'
  // CHECK: {{.*}}canonical.cpp:[[@LINE+2]]:5: note: modified here
  for (int i = 0; i < n; ++i) {
    i += 1;
    b[i] = 1;
  }
                           
  // CHECK: {{.*}}canonical.cpp:[[@LINE+3]]:3: warning: loop not parallelized: the address of the induction variable is taken
  // CHECK: {{.*}}canonical.cpp:[[@LINE+4]]:7: note: also: reads memory through '*p', whose extent the analysis cannot determine
  // CHECK: {{.*}}canonical.cpp:[[@LINE+3]]:5: note: also: 'b' is written through a subscript that is not affine in the loop variables, so iterations may write the same element
  for (int i = 0; i < n; ++i) {
    int *p = &i;
    b[*p] = 1;
  }
}

int exits(int n, double *b) {
                           
  // CHECK: {{.*}}canonical.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'break' leaves the loop early
  // CHECK: {{.*}}canonical.cpp:[[@LINE+3]]:7: note: 'break' here
  for (int i = 0; i < n; ++i) {
    if (b[i] < 0)
      break;
    b[i] = 1;
  }
                           
  // CHECK: {{.*}}canonical.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'return' leaves the loop early
  // CHECK: {{.*}}canonical.cpp:[[@LINE+3]]:7: note: 'return' here
  for (int i = 0; i < n; ++i) {
    if (b[i] < 0)
      return i;
    b[i] = 1;
  }
                           
  // CHECK: {{.*}}canonical.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'goto' in the loop body
  // CHECK: {{.*}}canonical.cpp:[[@LINE+3]]:7: note: 'goto' here
  for (int i = 0; i < n; ++i) {
    if (b[i] < 0)
      goto done;
    b[i] = 1;
  }
done:
  // break and continue inside the body's own loops and switches are fine.
  { /* clustrix: loop at line 133 runs through libclustrix_rt */
  using __clx_iv0 = int;
  using __clx_ct0 = int;
  const __clx_iv0 __clx_init0 = static_cast<__clx_iv0>(0);
  const __clx_ct0 __clx_bound0 = static_cast<__clx_ct0>(n);
  const auto __clx_stepv0 = (1);
  const bool __clx_up0 = ::clustrix::rt::stepUp(__clx_stepv0);
  const auto __clx_mag0 = ::clustrix::rt::stepMagnitude<__clx_iv0>(__clx_stepv0);
  const ::clustrix::rt::Trip __clx_trip0 = ::clustrix::rt::tripCountMixed<__clx_iv0, __clx_ct0>(__clx_init0, __clx_bound0, ::clustrix::rt::Cmp::LT, __clx_mag0, __clx_up0);
  const ::clustrix::rt::Trip __clx_trip = __clx_trip0;
  static const ::clustrix::rt::RegionInfo __clx_regions[] = {{"b", 2, 1, 0, 1}};
  static const char __clx_kernel_src[] = "// GPU form of the loop at test/Analysis/canonical.cpp:133, generated by Clustrix.\n"
"namespace __clx_std {\n"
"typedef signed char int8_t; typedef unsigned char uint8_t;\n"
"typedef short int16_t; typedef unsigned short uint16_t;\n"
"typedef int int32_t; typedef unsigned int uint32_t;\n"
"typedef long int64_t; typedef unsigned long uint64_t;\n"
"typedef unsigned long size_t; typedef long ptrdiff_t; typedef long intptr_t; typedef unsigned long uintptr_t;\n"
"}\n"
"namespace std { using namespace __clx_std; }\n"
"using namespace __clx_std;\n"
"typedef int __clx_iv0;\n"
"typedef unsigned int __clx_uv0;\n"
"extern \"C\" __global__ void clustrix_kernel_a451ac50_133_3(unsigned long long __clx_lo, unsigned long long __clx_hi, double *b, __clx_iv0 __clx_init0, __clx_uv0 __clx_mag0, bool __clx_up0) {\n"
"  for (unsigned long long __clx_k = __clx_lo + (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; __clx_k < __clx_hi; __clx_k += (unsigned long long)gridDim.x * blockDim.x) {\n"
"    unsigned long long __clx_k0 = __clx_k;\n"
"    __clx_iv0 i = (__clx_iv0)(__clx_up0 \? (__clx_uv0)((__clx_uv0)__clx_init0 + (__clx_uv0)__clx_k0 * __clx_mag0) : (__clx_uv0)((__clx_uv0)__clx_init0 - (__clx_uv0)__clx_k0 * __clx_mag0));\n"
"    {\n"
"    for (int j = 0; j < 4; ++j)\n"
"      if (j == 2)\n"
"        break;\n"
"    switch (i % 2) {\n"
"    case 0:\n"
"      b[i] = 0;\n"
"      break;\n"
"    default:\n"
"      continue;\n"
"    }\n"
"  }\n"
"  }\n"
"}\n"
"";
  static const ::clustrix::rt::KernelParam __clx_params[] = {{::clustrix::rt::KernelParamKind::Lo, 0, 0}, {::clustrix::rt::KernelParamKind::Hi, 0, 0}, {::clustrix::rt::KernelParamKind::Region, 0, 0}, {::clustrix::rt::KernelParamKind::Scalar, 0, 4}, {::clustrix::rt::KernelParamKind::Scalar, 1, 4}, {::clustrix::rt::KernelParamKind::Scalar, 2, 1}};
  static const ::clustrix::rt::LoopInfo __clx_info = {CLUSTRIX_RT_ABI_VERSION, "test/Analysis/canonical.cpp", 133, 3, ::clustrix::rt::Schedule::Default, 0, 0, 0, 2, 17, 10.0, 0, __clx_regions, 1, "clustrix_kernel_a451ac50_133_3", __clx_kernel_src, 14652108657836791856ull, __clx_params, 6};
  if (__clx_trip.Ok) {
    auto __clx_chunk = [&](std::uint64_t __clx_lo, std::uint64_t __clx_hi, ::clustrix::rt::ChunkContext &__clx_ctx) {
      (void)__clx_ctx;
      for (std::uint64_t __clx_k0 = __clx_lo; __clx_k0 < __clx_hi; ++__clx_k0) {
        __clx_iv0 i = ::clustrix::rt::inductionValue<__clx_iv0>(__clx_init0, __clx_mag0, __clx_up0, __clx_k0);

#line 133 "test/Analysis/canonical.cpp"
                              {
    for (int j = 0; j < 4; ++j)
      if (j == 2)
        break;
    switch (i % 2) {
    case 0:
      b[i] = 0;
      break;
    default:
      continue;
    }
  }
      }
    };
    static const ::clustrix::rt::BoxTerm __clx_terms[] = {{3ll, 0, {0, 0, 0, 0}}, {1ll, 1, {0, 0, 0, 0}}};
    static const ::clustrix::rt::BoxExpr __clx_exprs[] = {{0, 0}, {0, 1}, {1, 1}};
    static const std::uint16_t __clx_inner[] = {0, 1};
    static const ::clustrix::rt::BoxAccess __clx_accs[] = {{0, 2}};
    static const std::uint8_t __clx_rank[] = {1};
    static const ::clustrix::rt::BoxProgram __clx_prog = {1, 1, 0, __clx_terms, __clx_exprs, __clx_inner, __clx_accs, 1, __clx_rank, 1};
    const std::uint64_t __clx_trips[] = {__clx_trip0.Count};
    const ::clustrix::rt::BoxFrame __clx_frames[] = {
        {(void *)(b), sizeof(*(b)), {-1, 1, 1}, false, 0}};
    ::clustrix::rt::ProgramBoxes __clx_boxenv = {&__clx_prog, __clx_trips, nullptr, __clx_frames};
    const void *const __clx_scalars[] = {&__clx_init0, &__clx_mag0, &__clx_up0};
    ::clustrix::rt::LoopArgs __clx_args{};
    __clx_args.TripCount = __clx_trip.Count;
    __clx_args.Host = &::clustrix::rt::chunkThunk<decltype(__clx_chunk)>;
    __clx_args.HostEnv = &__clx_chunk;
    __clx_args.Boxes = &::clustrix::rt::programBoxes;
    __clx_args.BoxEnv = &__clx_boxenv;
    __clx_args.Scalars = __clx_scalars;
    __clx_args.NumScalars = 3;
    if (::clustrix::rt::runLoop(__clx_info, __clx_args) != ::clustrix::rt::RunStatus::Done) {
      ::clustrix::rt::runInPlace(__clx_chunk, __clx_trip.Count, nullptr, 0);
    }
  } else {
    [&]() CLUSTRIX_RT_AS_WRITTEN {
#line 133 "test/Analysis/canonical.cpp"
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < 4; ++j)
      if (j == 2)
        break;
    switch (i % 2) {
    case 0:
      b[i] = 0;
      break;
    default:
      continue;
    }
  }
    }();
  }
}
#line 144 "test/Analysis/canonical.cpp"
   
  return 0;
}

#if defined(__CUDACC__) && !defined(CLUSTRIX_NO_AOT)
namespace __clx_aot_0 {
// GPU form of the loop at test/Analysis/canonical.cpp:133, generated by Clustrix.
namespace __clx_std {
typedef signed char int8_t; typedef unsigned char uint8_t;
typedef short int16_t; typedef unsigned short uint16_t;
typedef int int32_t; typedef unsigned int uint32_t;
typedef long int64_t; typedef unsigned long uint64_t;
typedef unsigned long size_t; typedef long ptrdiff_t; typedef long intptr_t; typedef unsigned long uintptr_t;
}
namespace std { using namespace __clx_std; }
using namespace __clx_std;
typedef int __clx_iv0;
typedef unsigned int __clx_uv0;
extern "C" __global__ void clustrix_kernel_a451ac50_133_3(unsigned long long __clx_lo, unsigned long long __clx_hi, double *b, __clx_iv0 __clx_init0, __clx_uv0 __clx_mag0, bool __clx_up0) {
  for (unsigned long long __clx_k = __clx_lo + (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; __clx_k < __clx_hi; __clx_k += (unsigned long long)gridDim.x * blockDim.x) {
    unsigned long long __clx_k0 = __clx_k;
    __clx_iv0 i = (__clx_iv0)(__clx_up0 ? (__clx_uv0)((__clx_uv0)__clx_init0 + (__clx_uv0)__clx_k0 * __clx_mag0) : (__clx_uv0)((__clx_uv0)__clx_init0 - (__clx_uv0)__clx_k0 * __clx_mag0));
    {
    for (int j = 0; j < 4; ++j)
      if (j == 2)
        break;
    switch (i % 2) {
    case 0:
      b[i] = 0;
      break;
    default:
      continue;
    }
  }
  }
}
static void *__clx_get() {
  cudaKernel_t K = nullptr;
  return cudaGetKernel(&K, (const void *)&clustrix_kernel_a451ac50_133_3) == cudaSuccess ? (void *)K : nullptr;
}
static const bool __clx_registered = (::clustrix::rt::registerKernelGetter("clustrix_kernel_a451ac50_133_3", 14652108657836791856ull, &__clx_get), true);
extern "C" __global__ void clustrix_kernel_a451ac50_133_3_fmad_probe(const double *In, double *Out) { Out[0] = In[0] * In[1] + In[2]; }
static void *__clx_probe() {
  cudaKernel_t K = nullptr;
  return cudaGetKernel(&K, (const void *)&clustrix_kernel_a451ac50_133_3_fmad_probe) == cudaSuccess ? (void *)K : nullptr;
}
static const bool __clx_probed = (::clustrix::rt::registerKernelGetter("clustrix_kernel_a451ac50_133_3_fmad_probe", 14652108657836791856ull, &__clx_probe), true);
} // namespace __clx_aot_0
#endif
