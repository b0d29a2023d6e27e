#include <clustrix/Runtime.h>
#line 1 "test/Analysis/constructs.cpp"
// Bodies that cannot run on a device, or whose effects the analysis cannot follow: the refusal
// names the call, the construct or the variable.
// RUN: %clustrix_cxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="{{warning|error|remark}}:"
// REQUIRES: compiler
#include <cstdio>
#include <cstdlib>
#include <vector>

double external(double);
struct Shape {
  virtual double area() const { return 0; }
};
int fact(int k) { return k <= 1 ? 1 : k * fact(k - 1); }
double vsum(int k, ...) { return k; }

void calls(int n, double *a, Shape *s, double (*fp)(double), std::vector<double> &v) {
                           
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:3: warning: loop not parallelized: calls 'external', whose definition is not visible in this translation unit
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:12: note: call here
  for (int i = 0; i < n; ++i) {
    a[i] = external(a[i]);
  }
                           
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:3: warning: loop not parallelized: calls virtual function 'Shape::area'
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:12: note: virtual call here
  for (int i = 0; i < n; ++i) {
    a[i] = s[i].area();
  }
                           
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:3: warning: loop not parallelized: calls through a function pointer
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:12: note: indirect call here
  for (int i = 0; i < n; ++i) {
    a[i] = fp(a[i]);
  }
                           
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:3: warning: loop not parallelized: calls 'fact' recursively
  // CHECK: {{.*}}constructs.cpp:[[@LINE-24]]:43: note: recursive call here
  for (int i = 0; i < n; ++i) {
    a[i] = fact(i);
  }
                           
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:3: warning: loop not parallelized: calls variadic function 'vsum'
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:12: note: call here
  for (int i = 0; i < n; ++i) {
    a[i] = vsum(1, i);
  }
                           
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'at' may throw, which a device cannot do; use operator[]
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:12: note: call here
  for (int i = 0; i < n; ++i) {
    a[i] = v.at(i);
  }
}

struct Counter {
  mutable int calls = 0;
  int next() const { return calls++; }
};
int global;

void constructs(int n, double *a, const Counter &c, volatile int &vol) {
                           
  // CHECK: {{.*}}constructs.cpp:[[@LINE+3]]:3: warning: loop not parallelized: dynamic allocation cannot happen on a device
  // CHECK: {{.*}}constructs.cpp:[[@LINE+3]]:17: note: allocation here
  // CHECK: {{.*}}constructs.cpp:[[@LINE+3]]:12: note: also: reads memory through 't[0]', whose extent the analysis cannot determine
  for (int i = 0; i < n; ++i) {
    double *t = new double[4];
    a[i] = t[0];
  }
                           
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:3: warning: loop not parallelized: calls 'printf', which cannot run on a device
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:5: note: call here
  for (int i = 0; i < n; ++i) {
    printf("%d\n", i);
  }
                           
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'seen' has static or thread-local storage, which a device cannot share
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:16: note: declared here
  for (int i = 0; i < n; ++i) {
    static int seen = 0;
    a[i] = seen;
  }
                           
  // CHECK: {{.*}}constructs.cpp:[[@LINE+1]]:3: warning: loop not parallelized: 'vol' is volatile
  for (int i = 0; i < n; ++i) {
    a[i] = vol;
  }
                           
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:3: warning: loop not parallelized: inline assembly cannot run on a device
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:5: note: assembly here
  for (int i = 0; i < n; ++i) {
    asm("nop");
    a[i] = 0;
  }
                           
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:3: warning: loop not parallelized: const member function 'next' writes mutable member 'calls', which every iteration shares
  // CHECK: {{.*}}constructs.cpp:[[@LINE-40]]:29: note: written here
  for (int i = 0; i < n; ++i) {
    a[i] = c.next();
  }
                           
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:3: warning: loop not parallelized: exceptions cannot be used on a device
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:5: note: 'try' here
  for (int i = 0; i < n; ++i) {
    try {
      a[i] = 0;
    } catch (...) {
    }
  }
                           
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:3: warning: loop not parallelized: exceptions cannot be used on a device
  // CHECK: {{.*}}constructs.cpp:[[@LINE+3]]:7: note: 'throw' here
  for (int i = 0; i < n; ++i) {
    if (a[i] < 0)
      throw i;
  }
}

// The address of a shared scalar escapes; a mutable lambda keeps state between calls.
void escapes(int n, double *a) {
  int shared = 0;
                           
  // CHECK: {{.*}}constructs.cpp:[[@LINE+3]]:3: warning: loop not parallelized: reads memory through '*p', whose extent the analysis cannot determine
  // CHECK: {{.*}}constructs.cpp:[[@LINE+4]]:12: note: access here
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:14: note: also: the address of 'shared' escapes, so iterations may share it
  for (int i = 0; i < n; ++i) {
    int *p = &shared;
    a[i] = *p;
  }
  int c = 0;
  auto next = [c]() mutable { return c++; };
                           
  // CHECK: {{.*}}constructs.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'c' carries a value from one iteration to the next
  // CHECK: {{.*}}constructs.cpp:[[@LINE-3]]:38: note: written here and read by a later iteration
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:12: note: also: 'next' carries a value from one iteration to the next
  for (int i = 0; i < n; ++i) {
    a[i] = next();
  }
}

// A vector that is appended to may not be used otherwise.
void appends(int n, const double *x, double *y, std::vector<double> &out) {
                           
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'out' is appended to and also used otherwise in the loop
  // CHECK: {{.*}}constructs.cpp:[[@LINE+3]]:12: note: used here
  for (int i = 0; i < n; ++i) {
    out.push_back(x[i]);
    y[i] = out.size();
  }
                           
  // CHECK: {{.*}}constructs.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'out' is appended to and also indexed in the loop
  // CHECK: {{.*}}constructs.cpp:[[@LINE+4]]:5: note: indexed here
  // CHECK: {{.*}}constructs.cpp:[[@LINE+3]]:5: note: also: 'out' is written in one iteration and written in another: every iteration touches the same element
  for (int i = 0; i < n; ++i) {
    out.push_back(x[i]);
    out[0] = 1;
  }
}

// Templates, macros, collapse misuse, nesting and the disable clause.
template <class T> void tmpl(int n, T *a) {
                           
  // CHECK: {{.*}}constructs.cpp:[[@LINE+1]]:3: warning: loop not parallelized: loops in templates are not supported; call a non-template function from the template
  for (int i = 0; i < n; ++i) {
    a[i] = 0;
  }
}
template void tmpl<float>(int, float *);

// CHECK: {{.*}}constructs.cpp:[[@LINE+1]]:25: warning: loop not parallelized: the loop is written inside a macro, which cannot be rewritten
#define ZERO_LOOP(a, n) for (int i = 0; i < n; ++i) { a[i] = 0; }
void macros(int n, double *a) {
                           
  ZERO_LOOP(a, n)
}

void collapses(int n, int m, double *a) {
                                        
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'collapse(2)' needs 2 perfectly nested 'for' loops
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:5: note: this statement is not a 'for' loop
  for (int i = 0; i < n; ++i) {
    a[i] = 0;
  }
                                        
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'collapse' needs perfectly nested loops, but this loop's body has other statements
  // CHECK: {{.*}}constructs.cpp:[[@LINE+1]]:31: note: body here
  for (int i = 0; i < n; ++i) {
    a[i] = 1;
    for (int j = 0; j < m; ++j)
      a[i * m + j] = 0;
  }
                                        
  // CHECK: {{.*}}constructs.cpp:[[@LINE+3]]:3: warning: loop not parallelized: 'collapse' needs a rectangular nest, but the bound of the loop over 'j' depends on 'i'
  // CHECK: {{.*}}constructs.cpp:[[@LINE+3]]:25: note: bound here
  // CHECK: {{.*}}constructs.cpp:[[@LINE+3]]:7: note: also: 'a' may be written in one iteration and written in another: the dependence test cannot prove the accesses disjoint
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j) {
      a[i * n + j] = 0;
    }
                                        
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:3: warning: loop not parallelized: 'collapse' needs a rectangular nest, but the step of the loop over 'j' depends on 'i'
  // CHECK: {{.*}}constructs.cpp:[[@LINE+2]]:33: note: step here
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; j += i + 1)
      a[i * m + j] = 0;
}

void nested(int n, double *a) {
  { /* clustrix: loop at line 211 runs through libclustrix_rt */
  using __clx_iv0 = int;
  using __clx_ct0 = int;
  const __clx_iv0 __clx_init0 = static_cast<__clx_iv0>(0);
  const __clx_ct0 __clx_bound0 = static_cast<__clx_ct0>(n);
  const auto __clx_stepv0 = (1);
  const bool __clx_up0 = ::clustrix::rt::stepUp(__clx_stepv0);
  const auto __clx_mag0 = ::clustrix::rt::stepMagnitude<__clx_iv0>(__clx_stepv0);
  const ::clustrix::rt::Trip __clx_trip0 = ::clustrix::rt::tripCountMixed<__clx_iv0, __clx_ct0>(__clx_init0, __clx_bound0, ::clustrix::rt::Cmp::LT, __clx_mag0, __clx_up0);
  const ::clustrix::rt::Trip __clx_trip = __clx_trip0;
  static const ::clustrix::rt::RegionInfo __clx_regions[] = {{"a", 2, 1, 0, 1}};
  static const char __clx_kernel_src[] = "// GPU form of the loop at test/Analysis/constructs.cpp:211, generated by Clustrix.\n"
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
"extern \"C\" __global__ void clustrix_kernel_71872caa_211_3(unsigned long long __clx_lo, unsigned long long __clx_hi, double *a, __clx_iv0 __clx_init0, __clx_uv0 __clx_mag0, bool __clx_up0) {\n"
"  for (unsigned long long __clx_k = __clx_lo + (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; __clx_k < __clx_hi; __clx_k += (unsigned long long)gridDim.x * blockDim.x) {\n"
"    unsigned long long __clx_k0 = __clx_k;\n"
"    __clx_iv0 i = (__clx_iv0)(__clx_up0 \? (__clx_uv0)((__clx_uv0)__clx_init0 + (__clx_uv0)__clx_k0 * __clx_mag0) : (__clx_uv0)((__clx_uv0)__clx_init0 - (__clx_uv0)__clx_k0 * __clx_mag0));\n"
"    {\n"
"    [[cluster::gpu_parallel]]\n"
"    // CHECK: {{.*}}constructs.cpp:[[@LINE+1]]:5: warning: loop not parallelized: the loop is inside the loop parallelized at line [[#@LINE-2]], and runs serially within each of its iterations\n"
"    for (int j = 0; j < 8; ++j) {\n"
"      a[i * 8 + j] = 0;\n"
"    }\n"
"  }\n"
"  }\n"
"}\n"
"";
  static const ::clustrix::rt::KernelParam __clx_params[] = {{::clustrix::rt::KernelParamKind::Lo, 0, 0}, {::clustrix::rt::KernelParamKind::Hi, 0, 0}, {::clustrix::rt::KernelParamKind::Region, 0, 0}, {::clustrix::rt::KernelParamKind::Scalar, 0, 4}, {::clustrix::rt::KernelParamKind::Scalar, 1, 4}, {::clustrix::rt::KernelParamKind::Scalar, 2, 1}};
  static const ::clustrix::rt::LoopInfo __clx_info = {CLUSTRIX_RT_ABI_VERSION, "test/Analysis/constructs.cpp", 211, 3, ::clustrix::rt::Schedule::Default, 0, 0, 0, 1, 8, 42.0, 0, __clx_regions, 1, "clustrix_kernel_71872caa_211_3", __clx_kernel_src, 14450699121378704374ull, __clx_params, 6};
  if (__clx_trip.Ok) {
    auto __clx_chunk = [&](std::uint64_t __clx_lo, std::uint64_t __clx_hi, ::clustrix::rt::ChunkContext &__clx_ctx) {
      (void)__clx_ctx;
      for (std::uint64_t __clx_k0 = __clx_lo; __clx_k0 < __clx_hi; ++__clx_k0) {
        __clx_iv0 i = ::clustrix::rt::inductionValue<__clx_iv0>(__clx_init0, __clx_mag0, __clx_up0, __clx_k0);

#line 211 "test/Analysis/constructs.cpp"
                              {
                             
    // CHECK: {{.*}}constructs.cpp:[[@LINE+1]]:5: warning: loop not parallelized: the loop is inside the loop parallelized at line [[#@LINE-2]], and runs serially within each of its iterations
    for (int j = 0; j < 8; ++j) {
      a[i * 8 + j] = 0;
    }
  }
      }
    };
    static const ::clustrix::rt::BoxTerm __clx_terms[] = {{7ll, 0, {0, 0, 0, 0}}, {8ll, 1, {0, 0, 0, 0}}, {1ll, 1, {1, 0, 0, 0}}};
    static const ::clustrix::rt::BoxExpr __clx_exprs[] = {{0, 0}, {0, 1}, {1, 2}};
    static const std::uint16_t __clx_inner[] = {0, 1};
    static const ::clustrix::rt::BoxAccess __clx_accs[] = {{0, 2}};
    static const std::uint8_t __clx_rank[] = {1};
    static const ::clustrix::rt::BoxProgram __clx_prog = {1, 1, 0, __clx_terms, __clx_exprs, __clx_inner, __clx_accs, 1, __clx_rank, 1};
    const std::uint64_t __clx_trips[] = {__clx_trip0.Count};
    const ::clustrix::rt::BoxFrame __clx_frames[] = {
        {(void *)(a), sizeof(*(a)), {-1, 1, 1}, false, 0}};
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
#line 211 "test/Analysis/constructs.cpp"
  for (int i = 0; i < n; ++i) {
                             
    // CHECK: {{.*}}constructs.cpp:[[@LINE+1]]:5: warning: loop not parallelized: the loop is inside the loop parallelized at line [[#@LINE-2]], and runs serially within each of its iterations
    for (int j = 0; j < 8; ++j) {
      a[i * 8 + j] = 0;
    }
  }
    }();
  }
}
#line 217 "test/Analysis/constructs.cpp"
   
  // Disabled loops stay serial with a remark.
                                    
  // CHECK: {{.*}}constructs.cpp:[[@LINE+1]]:3: remark: loop not parallelized: disabled by 'gpu_parallel(disable)'
  for (int i = 0; i < n; ++i) {
    a[i] = 0;
  }
}

#if defined(__CUDACC__) && !defined(CLUSTRIX_NO_AOT)
namespace __clx_aot_0 {
// GPU form of the loop at test/Analysis/constructs.cpp:211, generated by Clustrix.
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
extern "C" __global__ void clustrix_kernel_71872caa_211_3(unsigned long long __clx_lo, unsigned long long __clx_hi, double *a, __clx_iv0 __clx_init0, __clx_uv0 __clx_mag0, bool __clx_up0) {
  for (unsigned long long __clx_k = __clx_lo + (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; __clx_k < __clx_hi; __clx_k += (unsigned long long)gridDim.x * blockDim.x) {
    unsigned long long __clx_k0 = __clx_k;
    __clx_iv0 i = (__clx_iv0)(__clx_up0 ? (__clx_uv0)((__clx_uv0)__clx_init0 + (__clx_uv0)__clx_k0 * __clx_mag0) : (__clx_uv0)((__clx_uv0)__clx_init0 - (__clx_uv0)__clx_k0 * __clx_mag0));
    {
    [[cluster::gpu_parallel]]
    // CHECK: {{.*}}constructs.cpp:[[@LINE+1]]:5: warning: loop not parallelized: the loop is inside the loop parallelized at line [[#@LINE-2]], and runs serially within each of its iterations
    for (int j = 0; j < 8; ++j) {
      a[i * 8 + j] = 0;
    }
  }
  }
}
static void *__clx_get() {
  cudaKernel_t K = nullptr;
  return cudaGetKernel(&K, (const void *)&clustrix_kernel_71872caa_211_3) == cudaSuccess ? (void *)K : nullptr;
}
static const bool __clx_registered = (::clustrix::rt::registerKernelGetter("clustrix_kernel_71872caa_211_3", 14450699121378704374ull, &__clx_get), true);
extern "C" __global__ void clustrix_kernel_71872caa_211_3_fmad_probe(const double *In, double *Out) { Out[0] = In[0] * In[1] + In[2]; }
static void *__clx_probe() {
  cudaKernel_t K = nullptr;
  return cudaGetKernel(&K, (const void *)&clustrix_kernel_71872caa_211_3_fmad_probe) == cudaSuccess ? (void *)K : nullptr;
}
static const bool __clx_probed = (::clustrix::rt::registerKernelGetter("clustrix_kernel_71872caa_211_3_fmad_probe", 14450699121378704374ull, &__clx_probe), true);
} // namespace __clx_aot_0
#endif
