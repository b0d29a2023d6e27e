#include <clustrix/Runtime.h>
#line 1 "/work/wt-harden/test/EndToEnd/Inputs/aliasing.cpp"
// Loops whose safety depends on what their arguments alias: the runtime must compare addresses
// and keep the loop serial when they overlap, so each call's output equals the serial program.
#include <cstdio>
#include <span>
#include <vector>

struct S {
  double arr[64];
};
void shift(S &s, const S &t) {
  { /* clustrix: loop at line 12 runs through libclustrix_rt */
  using __clx_iv0 = int;
  using __clx_ct0 = int;
  const __clx_iv0 __clx_init0 = static_cast<__clx_iv0>(0);
  const __clx_ct0 __clx_bound0 = static_cast<__clx_ct0>(63);
  const auto __clx_stepv0 = (1);
  const bool __clx_up0 = ::clustrix::rt::stepUp(__clx_stepv0);
  const auto __clx_mag0 = ::clustrix::rt::stepMagnitude<__clx_iv0>(__clx_stepv0);
  const ::clustrix::rt::Trip __clx_trip0 = ::clustrix::rt::tripCountMixed<__clx_iv0, __clx_ct0>(__clx_init0, __clx_bound0, ::clustrix::rt::Cmp::LT, __clx_mag0, __clx_up0);
  const ::clustrix::rt::Trip __clx_trip = __clx_trip0;
  static const ::clustrix::rt::RegionInfo __clx_regions[] = {{"s.arr", 2, 1, 1, 1}, {"t.arr", 1, 1, 0, 1}};
  static const ::clustrix::rt::LoopInfo __clx_info = {CLUSTRIX_RT_ABI_VERSION, "/work/wt-harden/test/EndToEnd/Inputs/aliasing.cpp", 12, 3, ::clustrix::rt::Schedule::Default, 0, 0, 0, 1, 1, 8.0, 0, __clx_regions, 2, nullptr, nullptr, 0, nullptr, 0};
  if (__clx_trip.Ok) {
    auto __clx_chunk = [&](std::uint64_t __clx_lo, std::uint64_t __clx_hi, ::clustrix::rt::ChunkContext &__clx_ctx) {
      (void)__clx_ctx;
      for (std::uint64_t __clx_k0 = __clx_lo; __clx_k0 < __clx_hi; ++__clx_k0) {
        __clx_iv0 i = ::clustrix::rt::inductionValue<__clx_iv0>(__clx_init0, __clx_mag0, __clx_up0, __clx_k0);

#line 13 "/work/wt-harden/test/EndToEnd/Inputs/aliasing.cpp"
    s.arr[i] = t.arr[i + 1] + 1;
      }
    };
    static const ::clustrix::rt::BoxTerm __clx_terms[] = {{1ll, 1, {0, 0, 0, 0}}, {1ll, 0, {0, 0, 0, 0}}, {1ll, 1, {0, 0, 0, 0}}};
    static const ::clustrix::rt::BoxExpr __clx_exprs[] = {{0, 1}, {1, 2}};
    static const ::clustrix::rt::BoxAccess __clx_accs[] = {{0, 0}, {1, 1}};
    static const std::uint8_t __clx_rank[] = {1, 1};
    static const ::clustrix::rt::BoxProgram __clx_prog = {1, 0, 0, __clx_terms, __clx_exprs, nullptr, __clx_accs, 2, __clx_rank, 2};
    const std::uint64_t __clx_trips[] = {__clx_trip0.Count};
    const ::clustrix::rt::BoxFrame __clx_frames[] = {
        {(void *)&(s.arr)[0], sizeof(*&(s.arr)[0]), {64, 1, 1}, false, 0},
        {(void *)&(t.arr)[0], sizeof(*&(t.arr)[0]), {64, 1, 1}, false, 0}};
    ::clustrix::rt::ProgramBoxes __clx_boxenv = {&__clx_prog, __clx_trips, nullptr, __clx_frames};
    ::clustrix::rt::LoopArgs __clx_args{};
    __clx_args.TripCount = __clx_trip.Count;
    __clx_args.Host = &::clustrix::rt::chunkThunk<decltype(__clx_chunk)>;
    __clx_args.HostEnv = &__clx_chunk;
    __clx_args.Boxes = &::clustrix::rt::programBoxes;
    __clx_args.BoxEnv = &__clx_boxenv;
    if (::clustrix::rt::runLoop(__clx_info, __clx_args) != ::clustrix::rt::RunStatus::Done) {
      ::clustrix::rt::runInPlace(__clx_chunk, __clx_trip.Count, nullptr, 0);
    }
  } else {
    ::clustrix::rt::noteAsWritten(__clx_info);
    [&]() CLUSTRIX_RT_AS_WRITTEN {
#line 12 "/work/wt-harden/test/EndToEnd/Inputs/aliasing.cpp"
  for (int i = 0; i < 63; ++i)
    s.arr[i] = t.arr[i + 1] + 1;
    }();
  }
}
#line 13 "/work/wt-harden/test/EndToEnd/Inputs/aliasing.cpp"
                                
}
struct G {
  double arr[64];
  void f(const G &other) {
    { /* clustrix: loop at line 19 runs through libclustrix_rt */
  using __clx_iv0 = int;
  using __clx_ct0 = int;
  const __clx_iv0 __clx_init0 = static_cast<__clx_iv0>(0);
  const __clx_ct0 __clx_bound0 = static_cast<__clx_ct0>(63);
  const auto __clx_stepv0 = (1);
  const bool __clx_up0 = ::clustrix::rt::stepUp(__clx_stepv0);
  const auto __clx_mag0 = ::clustrix::rt::stepMagnitude<__clx_iv0>(__clx_stepv0);
  const ::clustrix::rt::Trip __clx_trip0 = ::clustrix::rt::tripCountMixed<__clx_iv0, __clx_ct0>(__clx_init0, __clx_bound0, ::clustrix::rt::Cmp::LT, __clx_mag0, __clx_up0);
  const ::clustrix::rt::Trip __clx_trip = __clx_trip0;
  static const ::clustrix::rt::RegionInfo __clx_regions[] = {{"this->arr", 2, 1, 1, 1}, {"other.arr", 1, 1, 0, 1}};
  static const ::clustrix::rt::LoopInfo __clx_info = {CLUSTRIX_RT_ABI_VERSION, "/work/wt-harden/test/EndToEnd/Inputs/aliasing.cpp", 19, 5, ::clustrix::rt::Schedule::Default, 0, 0, 0, 1, 1, 8.0, 0, __clx_regions, 2, nullptr, nullptr, 0, nullptr, 0};
  if (__clx_trip.Ok) {
    auto __clx_chunk = [&](std::uint64_t __clx_lo, std::uint64_t __clx_hi, ::clustrix::rt::ChunkContext &__clx_ctx) {
      (void)__clx_ctx;
      for (std::uint64_t __clx_k0 = __clx_lo; __clx_k0 < __clx_hi; ++__clx_k0) {
        __clx_iv0 i = ::clustrix::rt::inductionValue<__clx_iv0>(__clx_init0, __clx_mag0, __clx_up0, __clx_k0);

#line 20 "/work/wt-harden/test/EndToEnd/Inputs/aliasing.cpp"
      arr[i] = other.arr[i + 1] * 2;
      }
    };
    static const ::clustrix::rt::BoxTerm __clx_terms[] = {{1ll, 1, {0, 0, 0, 0}}, {1ll, 0, {0, 0, 0, 0}}, {1ll, 1, {0, 0, 0, 0}}};
    static const ::clustrix::rt::BoxExpr __clx_exprs[] = {{0, 1}, {1, 2}};
    static const ::clustrix::rt::BoxAccess __clx_accs[] = {{0, 0}, {1, 1}};
    static const std::uint8_t __clx_rank[] = {1, 1};
    static const ::clustrix::rt::BoxProgram __clx_prog = {1, 0, 0, __clx_terms, __clx_exprs, nullptr, __clx_accs, 2, __clx_rank, 2};
    const std::uint64_t __clx_trips[] = {__clx_trip0.Count};
    const ::clustrix::rt::BoxFrame __clx_frames[] = {
        {(void *)&(this->arr)[0], sizeof(*&(this->arr)[0]), {64, 1, 1}, false, 0},
        {(void *)&(other.arr)[0], sizeof(*&(other.arr)[0]), {64, 1, 1}, false, 0}};
    ::clustrix::rt::ProgramBoxes __clx_boxenv = {&__clx_prog, __clx_trips, nullptr, __clx_frames};
    ::clustrix::rt::LoopArgs __clx_args{};
    __clx_args.TripCount = __clx_trip.Count;
    __clx_args.Host = &::clustrix::rt::chunkThunk<decltype(__clx_chunk)>;
    __clx_args.HostEnv = &__clx_chunk;
    __clx_args.Boxes = &::clustrix::rt::programBoxes;
    __clx_args.BoxEnv = &__clx_boxenv;
    if (::clustrix::rt::runLoop(__clx_info, __clx_args) != ::clustrix::rt::RunStatus::Done) {
      ::clustrix::rt::runInPlace(__clx_chunk, __clx_trip.Count, nullptr, 0);
    }
  } else {
    ::clustrix::rt::noteAsWritten(__clx_info);
    [&]() CLUSTRIX_RT_AS_WRITTEN {
#line 19 "/work/wt-harden/test/EndToEnd/Inputs/aliasing.cpp"
    for (int i = 0; i < 63; ++i)
      arr[i] = other.arr[i + 1] * 2;
    }();
  }
}
#line 20 "/work/wt-harden/test/EndToEnd/Inputs/aliasing.cpp"
                                    
  }
};
void spans(std::span<double> a, std::span<const double> b) {
  { /* clustrix: loop at line 25 runs through libclustrix_rt */
  using __clx_iv0 = int;
  using __clx_ct0 = int;
  const __clx_iv0 __clx_init0 = static_cast<__clx_iv0>(0);
  const __clx_ct0 __clx_bound0 = static_cast<__clx_ct0>(60);
  const auto __clx_stepv0 = (1);
  const bool __clx_up0 = ::clustrix::rt::stepUp(__clx_stepv0);
  const auto __clx_mag0 = ::clustrix::rt::stepMagnitude<__clx_iv0>(__clx_stepv0);
  const ::clustrix::rt::Trip __clx_trip0 = ::clustrix::rt::tripCountMixed<__clx_iv0, __clx_ct0>(__clx_init0, __clx_bound0, ::clustrix::rt::Cmp::LT, __clx_mag0, __clx_up0);
  const ::clustrix::rt::Trip __clx_trip = __clx_trip0;
  static const ::clustrix::rt::RegionInfo __clx_regions[] = {{"a", 2, 1, 1, 1}, {"b", 1, 1, 0, 1}};
  static const char __clx_kernel_src[] = "// GPU form of the loop at /work/wt-harden/test/EndToEnd/Inputs/aliasing.cpp:25, generated by Clustrix.\n"
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
"extern \"C\" __global__ void clustrix_kernel_0be51e17_25_3(unsigned long long __clx_lo, unsigned long long __clx_hi, double *a, const double *b, __clx_iv0 __clx_init0, __clx_uv0 __clx_mag0, bool __clx_up0) {\n"
"  for (unsigned long long __clx_k = __clx_lo + (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; __clx_k < __clx_hi; __clx_k += (unsigned long long)gridDim.x * blockDim.x) {\n"
"    unsigned long long __clx_k0 = __clx_k;\n"
"    __clx_iv0 i = (__clx_iv0)(__clx_up0 \? (__clx_uv0)((__clx_uv0)__clx_init0 + (__clx_uv0)__clx_k0 * __clx_mag0) : (__clx_uv0)((__clx_uv0)__clx_init0 - (__clx_uv0)__clx_k0 * __clx_mag0));\n"
"    a[i] = b[i] + 3;\n"
"  }\n"
"}\n"
"";
  static const ::clustrix::rt::KernelParam __clx_params[] = {{::clustrix::rt::KernelParamKind::Lo, 0, 0}, {::clustrix::rt::KernelParamKind::Hi, 0, 0}, {::clustrix::rt::KernelParamKind::Region, 0, 0}, {::clustrix::rt::KernelParamKind::Region, 1, 0}, {::clustrix::rt::KernelParamKind::Scalar, 0, 4}, {::clustrix::rt::KernelParamKind::Scalar, 1, 4}, {::clustrix::rt::KernelParamKind::Scalar, 2, 1}};
  static const ::clustrix::rt::LoopInfo __clx_info = {CLUSTRIX_RT_ABI_VERSION, "/work/wt-harden/test/EndToEnd/Inputs/aliasing.cpp", 25, 3, ::clustrix::rt::Schedule::Default, 0, 0, 0, 1, 1, 7.0, 0, __clx_regions, 2, "clustrix_kernel_0be51e17_25_3", __clx_kernel_src, 10365864376066508360ull, __clx_params, 7};
  if (__clx_trip.Ok) {
    auto __clx_chunk = [&](std::uint64_t __clx_lo, std::uint64_t __clx_hi, ::clustrix::rt::ChunkContext &__clx_ctx) {
      (void)__clx_ctx;
      for (std::uint64_t __clx_k0 = __clx_lo; __clx_k0 < __clx_hi; ++__clx_k0) {
        __clx_iv0 i = ::clustrix::rt::inductionValue<__clx_iv0>(__clx_init0, __clx_mag0, __clx_up0, __clx_k0);

#line 26 "/work/wt-harden/test/EndToEnd/Inputs/aliasing.cpp"
    a[i] = b[i] + 3;
      }
    };
    static const ::clustrix::rt::BoxTerm __clx_terms[] = {{1ll, 1, {0, 0, 0, 0}}, {1ll, 1, {0, 0, 0, 0}}};
    static const ::clustrix::rt::BoxExpr __clx_exprs[] = {{0, 1}, {1, 1}};
    static const ::clustrix::rt::BoxAccess __clx_accs[] = {{0, 0}, {1, 1}};
    static const std::uint8_t __clx_rank[] = {1, 1};
    static const ::clustrix::rt::BoxProgram __clx_prog = {1, 0, 0, __clx_terms, __clx_exprs, nullptr, __clx_accs, 2, __clx_rank, 2};
    const std::uint64_t __clx_trips[] = {__clx_trip0.Count};
    const ::clustrix::rt::BoxFrame __clx_frames[] = {
        {(void *)(a).data(), sizeof(*(a).data()), {static_cast<std::int64_t>(a.size()), 1, 1}, false, 0},
        {(void *)(b).data(), sizeof(*(b).data()), {static_cast<std::int64_t>(b.size()), 1, 1}, false, 0}};
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
    ::clustrix::rt::noteAsWritten(__clx_info);
    [&]() CLUSTRIX_RT_AS_WRITTEN {
#line 25 "/work/wt-harden/test/EndToEnd/Inputs/aliasing.cpp"
  for (int i = 0; i < 60; ++i)
    a[i] = b[i] + 3;
    }();
  }
}
#line 26 "/work/wt-harden/test/EndToEnd/Inputs/aliasing.cpp"
                    
}
void rows(double (*a)[8], double (*b)[8], int n) {
  { /* clustrix: loop at line 30 runs through libclustrix_rt */
  using __clx_iv0 = int;
  using __clx_ct0 = int;
  const __clx_iv0 __clx_init0 = static_cast<__clx_iv0>(0);
  const __clx_ct0 __clx_bound0 = static_cast<__clx_ct0>(n);
  const auto __clx_stepv0 = (1);
  const bool __clx_up0 = ::clustrix::rt::stepUp(__clx_stepv0);
  const auto __clx_mag0 = ::clustrix::rt::stepMagnitude<__clx_iv0>(__clx_stepv0);
  const ::clustrix::rt::Trip __clx_trip0 = ::clustrix::rt::tripCountMixed<__clx_iv0, __clx_ct0>(__clx_init0, __clx_bound0, ::clustrix::rt::Cmp::LT, __clx_mag0, __clx_up0);
  const ::clustrix::rt::Trip __clx_trip = __clx_trip0;
  static const ::clustrix::rt::RegionInfo __clx_regions[] = {{"a", 2, 2, 0, 1}, {"b", 1, 2, 0, 1}};
  static const char __clx_kernel_src[] = "// GPU form of the loop at /work/wt-harden/test/EndToEnd/Inputs/aliasing.cpp:30, generated by Clustrix.\n"
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
"extern \"C\" __global__ void clustrix_kernel_0be51e17_30_3(unsigned long long __clx_lo, unsigned long long __clx_hi, double (*a)[8], double (*b)[8], __clx_iv0 __clx_init0, __clx_uv0 __clx_mag0, bool __clx_up0) {\n"
"  for (unsigned long long __clx_k = __clx_lo + (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; __clx_k < __clx_hi; __clx_k += (unsigned long long)gridDim.x * blockDim.x) {\n"
"    unsigned long long __clx_k0 = __clx_k;\n"
"    __clx_iv0 i = (__clx_iv0)(__clx_up0 \? (__clx_uv0)((__clx_uv0)__clx_init0 + (__clx_uv0)__clx_k0 * __clx_mag0) : (__clx_uv0)((__clx_uv0)__clx_init0 - (__clx_uv0)__clx_k0 * __clx_mag0));\n"
"    for (int j = 0; j < 8; ++j)\n"
"      a[i][j] = b[i][j] + 1;\n"
"  }\n"
"}\n"
"";
  static const ::clustrix::rt::KernelParam __clx_params[] = {{::clustrix::rt::KernelParamKind::Lo, 0, 0}, {::clustrix::rt::KernelParamKind::Hi, 0, 0}, {::clustrix::rt::KernelParamKind::Region, 0, 0}, {::clustrix::rt::KernelParamKind::Region, 1, 0}, {::clustrix::rt::KernelParamKind::Scalar, 0, 4}, {::clustrix::rt::KernelParamKind::Scalar, 1, 4}, {::clustrix::rt::KernelParamKind::Scalar, 2, 1}};
  static const ::clustrix::rt::LoopInfo __clx_info = {CLUSTRIX_RT_ABI_VERSION, "/work/wt-harden/test/EndToEnd/Inputs/aliasing.cpp", 30, 3, ::clustrix::rt::Schedule::Default, 0, 0, 0, 1, 8, 50.0, 0, __clx_regions, 2, "clustrix_kernel_0be51e17_30_3", __clx_kernel_src, 7644530887714029475ull, __clx_params, 7};
  if (__clx_trip.Ok) {
    auto __clx_chunk = [&](std::uint64_t __clx_lo, std::uint64_t __clx_hi, ::clustrix::rt::ChunkContext &__clx_ctx) {
      (void)__clx_ctx;
      for (std::uint64_t __clx_k0 = __clx_lo; __clx_k0 < __clx_hi; ++__clx_k0) {
        __clx_iv0 i = ::clustrix::rt::inductionValue<__clx_iv0>(__clx_init0, __clx_mag0, __clx_up0, __clx_k0);

#line 31 "/work/wt-harden/test/EndToEnd/Inputs/aliasing.cpp"
    for (int j = 0; j < 8; ++j)
      a[i][j] = b[i][j] + 1;
      }
    };
    static const ::clustrix::rt::BoxTerm __clx_terms[] = {{7ll, 0, {0, 0, 0, 0}}, {1ll, 1, {0, 0, 0, 0}}, {1ll, 1, {1, 0, 0, 0}}, {1ll, 1, {0, 0, 0, 0}}, {1ll, 1, {1, 0, 0, 0}}};
    static const ::clustrix::rt::BoxExpr __clx_exprs[] = {{0, 0}, {0, 1}, {1, 1}, {2, 1}, {3, 1}, {4, 1}};
    static const std::uint16_t __clx_inner[] = {0, 1};
    static const ::clustrix::rt::BoxAccess __clx_accs[] = {{0, 2}, {1, 4}};
    static const std::uint8_t __clx_rank[] = {2, 2};
    static const ::clustrix::rt::BoxProgram __clx_prog = {1, 1, 0, __clx_terms, __clx_exprs, __clx_inner, __clx_accs, 2, __clx_rank, 2};
    const std::uint64_t __clx_trips[] = {__clx_trip0.Count};
    const ::clustrix::rt::BoxFrame __clx_frames[] = {
        {(void *)&(a)[0][0], sizeof(*&(a)[0][0]), {-1, 8, 1}, false, 0},
        {(void *)&(b)[0][0], sizeof(*&(b)[0][0]), {-1, 8, 1}, false, 0}};
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
    ::clustrix::rt::noteAsWritten(__clx_info);
    [&]() CLUSTRIX_RT_AS_WRITTEN {
#line 30 "/work/wt-harden/test/EndToEnd/Inputs/aliasing.cpp"
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 8; ++j)
      a[i][j] = b[i][j] + 1;
    }();
  }
}
#line 32 "/work/wt-harden/test/EndToEnd/Inputs/aliasing.cpp"
                            
}
int limit = 40;
void global_bound(int *a) {
  { /* clustrix: loop at line 37 runs through libclustrix_rt */
  using __clx_iv0 = int;
  using __clx_ct0 = int;
  const __clx_iv0 __clx_init0 = static_cast<__clx_iv0>(0);
  const __clx_ct0 __clx_bound0 = static_cast<__clx_ct0>(limit);
  const auto __clx_stepv0 = (1);
  const bool __clx_up0 = ::clustrix::rt::stepUp(__clx_stepv0);
  const auto __clx_mag0 = ::clustrix::rt::stepMagnitude<__clx_iv0>(__clx_stepv0);
  const ::clustrix::rt::Trip __clx_trip0 = ::clustrix::rt::tripCountMixed<__clx_iv0, __clx_ct0>(__clx_init0, __clx_bound0, ::clustrix::rt::Cmp::LT, __clx_mag0, __clx_up0);
  const ::clustrix::rt::Trip __clx_trip = __clx_trip0;
  static const ::clustrix::rt::RegionInfo __clx_regions[] = {{"a", 2, 1, 1, 1}, {"limit", 1, 1, 0, 0}};
  static const char __clx_kernel_src[] = "// GPU form of the loop at /work/wt-harden/test/EndToEnd/Inputs/aliasing.cpp:37, generated by Clustrix.\n"
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
"extern \"C\" __global__ void clustrix_kernel_0be51e17_37_3(unsigned long long __clx_lo, unsigned long long __clx_hi, int *a, __clx_iv0 __clx_init0, __clx_uv0 __clx_mag0, bool __clx_up0, int limit) {\n"
"  for (unsigned long long __clx_k = __clx_lo + (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; __clx_k < __clx_hi; __clx_k += (unsigned long long)gridDim.x * blockDim.x) {\n"
"    unsigned long long __clx_k0 = __clx_k;\n"
"    __clx_iv0 i = (__clx_iv0)(__clx_up0 \? (__clx_uv0)((__clx_uv0)__clx_init0 + (__clx_uv0)__clx_k0 * __clx_mag0) : (__clx_uv0)((__clx_uv0)__clx_init0 - (__clx_uv0)__clx_k0 * __clx_mag0));\n"
"    a[i] = i - limit;\n"
"  }\n"
"}\n"
"";
  static const ::clustrix::rt::KernelParam __clx_params[] = {{::clustrix::rt::KernelParamKind::Lo, 0, 0}, {::clustrix::rt::KernelParamKind::Hi, 0, 0}, {::clustrix::rt::KernelParamKind::Region, 0, 0}, {::clustrix::rt::KernelParamKind::Scalar, 0, 4}, {::clustrix::rt::KernelParamKind::Scalar, 1, 4}, {::clustrix::rt::KernelParamKind::Scalar, 2, 1}, {::clustrix::rt::KernelParamKind::Scalar, 3, 4}};
  static const ::clustrix::rt::LoopInfo __clx_info = {CLUSTRIX_RT_ABI_VERSION, "/work/wt-harden/test/EndToEnd/Inputs/aliasing.cpp", 37, 3, ::clustrix::rt::Schedule::Default, 0, 0, 0, 1, 1, 5.0, 0, __clx_regions, 2, "clustrix_kernel_0be51e17_37_3", __clx_kernel_src, 6629031858533706334ull, __clx_params, 7};
  if (__clx_trip.Ok) {
    auto __clx_chunk = [&](std::uint64_t __clx_lo, std::uint64_t __clx_hi, ::clustrix::rt::ChunkContext &__clx_ctx) {
      (void)__clx_ctx;
      for (std::uint64_t __clx_k0 = __clx_lo; __clx_k0 < __clx_hi; ++__clx_k0) {
        __clx_iv0 i = ::clustrix::rt::inductionValue<__clx_iv0>(__clx_init0, __clx_mag0, __clx_up0, __clx_k0);

#line 38 "/work/wt-harden/test/EndToEnd/Inputs/aliasing.cpp"
    a[i] = i - limit;
      }
    };
    static const ::clustrix::rt::BoxTerm __clx_terms[] = {{1ll, 1, {0, 0, 0, 0}}};
    static const ::clustrix::rt::BoxExpr __clx_exprs[] = {{0, 1}, {1, 0}};
    static const ::clustrix::rt::BoxAccess __clx_accs[] = {{0, 0}, {1, 1}};
    static const std::uint8_t __clx_rank[] = {1, 1};
    static const ::clustrix::rt::BoxProgram __clx_prog = {1, 0, 0, __clx_terms, __clx_exprs, nullptr, __clx_accs, 2, __clx_rank, 2};
    const std::uint64_t __clx_trips[] = {__clx_trip0.Count};
    const ::clustrix::rt::BoxFrame __clx_frames[] = {
        {(void *)(a), sizeof(*(a)), {-1, 1, 1}, false, 0},
        {(void *)&(limit), sizeof(*&(limit)), {static_cast<std::int64_t>(1), 1, 1}, false, 0}};
    ::clustrix::rt::ProgramBoxes __clx_boxenv = {&__clx_prog, __clx_trips, nullptr, __clx_frames};
    const void *const __clx_scalars[] = {&__clx_init0, &__clx_mag0, &__clx_up0, &limit};
    ::clustrix::rt::LoopArgs __clx_args{};
    __clx_args.TripCount = __clx_trip.Count;
    __clx_args.Host = &::clustrix::rt::chunkThunk<decltype(__clx_chunk)>;
    __clx_args.HostEnv = &__clx_chunk;
    __clx_args.Boxes = &::clustrix::rt::programBoxes;
    __clx_args.BoxEnv = &__clx_boxenv;
    __clx_args.Scalars = __clx_scalars;
    __clx_args.NumScalars = 4;
    if (::clustrix::rt::runLoop(__clx_info, __clx_args) != ::clustrix::rt::RunStatus::Done) {
      ::clustrix::rt::runInPlace(__clx_chunk, __clx_trip.Count, nullptr, 0);
    }
  } else {
    ::clustrix::rt::noteAsWritten(__clx_info);
    [&]() CLUSTRIX_RT_AS_WRITTEN {
#line 37 "/work/wt-harden/test/EndToEnd/Inputs/aliasing.cpp"
  for (int i = 0; i < limit; ++i)
    a[i] = i - limit;
    }();
  }
}
#line 38 "/work/wt-harden/test/EndToEnd/Inputs/aliasing.cpp"
                     
}
struct Buf {
  int n;
  int *data;
  void fill() {
    { /* clustrix: loop at line 45 runs through libclustrix_rt */
  using __clx_iv0 = int;
  using __clx_ct0 = int;
  const __clx_iv0 __clx_init0 = static_cast<__clx_iv0>(0);
  const __clx_ct0 __clx_bound0 = static_cast<__clx_ct0>(n);
  const auto __clx_stepv0 = (1);
  const bool __clx_up0 = ::clustrix::rt::stepUp(__clx_stepv0);
  const auto __clx_mag0 = ::clustrix::rt::stepMagnitude<__clx_iv0>(__clx_stepv0);
  const ::clustrix::rt::Trip __clx_trip0 = ::clustrix::rt::tripCountMixed<__clx_iv0, __clx_ct0>(__clx_init0, __clx_bound0, ::clustrix::rt::Cmp::LT, __clx_mag0, __clx_up0);
  const ::clustrix::rt::Trip __clx_trip = __clx_trip0;
  static const ::clustrix::rt::RegionInfo __clx_regions[] = {{"this->data", 2, 1, 1, 1}, {"this->n", 1, 1, 0, 0}};
  static const char __clx_kernel_src[] = "// GPU form of the loop at /work/wt-harden/test/EndToEnd/Inputs/aliasing.cpp:45, generated by Clustrix.\n"
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
"extern \"C\" __global__ void clustrix_kernel_0be51e17_45_5(unsigned long long __clx_lo, unsigned long long __clx_hi, int *data, __clx_iv0 __clx_init0, __clx_uv0 __clx_mag0, bool __clx_up0, int n) {\n"
"  for (unsigned long long __clx_k = __clx_lo + (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; __clx_k < __clx_hi; __clx_k += (unsigned long long)gridDim.x * blockDim.x) {\n"
"    unsigned long long __clx_k0 = __clx_k;\n"
"    __clx_iv0 i = (__clx_iv0)(__clx_up0 \? (__clx_uv0)((__clx_uv0)__clx_init0 + (__clx_uv0)__clx_k0 * __clx_mag0) : (__clx_uv0)((__clx_uv0)__clx_init0 - (__clx_uv0)__clx_k0 * __clx_mag0));\n"
"    data[i] = n + i;\n"
"  }\n"
"}\n"
"";
  static const ::clustrix::rt::KernelParam __clx_params[] = {{::clustrix::rt::KernelParamKind::Lo, 0, 0}, {::clustrix::rt::KernelParamKind::Hi, 0, 0}, {::clustrix::rt::KernelParamKind::Region, 0, 0}, {::clustrix::rt::KernelParamKind::Scalar, 0, 4}, {::clustrix::rt::KernelParamKind::Scalar, 1, 4}, {::clustrix::rt::KernelParamKind::Scalar, 2, 1}, {::clustrix::rt::KernelParamKind::Scalar, 3, 4}};
  static const ::clustrix::rt::LoopInfo __clx_info = {CLUSTRIX_RT_ABI_VERSION, "/work/wt-harden/test/EndToEnd/Inputs/aliasing.cpp", 45, 5, ::clustrix::rt::Schedule::Default, 0, 0, 0, 1, 1, 5.0, 0, __clx_regions, 2, "clustrix_kernel_0be51e17_45_5", __clx_kernel_src, 6673377391020784186ull, __clx_params, 7};
  if (__clx_trip.Ok) {
    auto __clx_chunk = [&](std::uint64_t __clx_lo, std::uint64_t __clx_hi, ::clustrix::rt::ChunkContext &__clx_ctx) {
      (void)__clx_ctx;
      for (std::uint64_t __clx_k0 = __clx_lo; __clx_k0 < __clx_hi; ++__clx_k0) {
        __clx_iv0 i = ::clustrix::rt::inductionValue<__clx_iv0>(__clx_init0, __clx_mag0, __clx_up0, __clx_k0);

#line 46 "/work/wt-harden/test/EndToEnd/Inputs/aliasing.cpp"
      data[i] = n + i;
      }
    };
    static const ::clustrix::rt::BoxTerm __clx_terms[] = {{1ll, 1, {0, 0, 0, 0}}};
    static const ::clustrix::rt::BoxExpr __clx_exprs[] = {{0, 1}, {1, 0}};
    static const ::clustrix::rt::BoxAccess __clx_accs[] = {{0, 0}, {1, 1}};
    static const std::uint8_t __clx_rank[] = {1, 1};
    static const ::clustrix::rt::BoxProgram __clx_prog = {1, 0, 0, __clx_terms, __clx_exprs, nullptr, __clx_accs, 2, __clx_rank, 2};
    const std::uint64_t __clx_trips[] = {__clx_trip0.Count};
    const ::clustrix::rt::BoxFrame __clx_frames[] = {
        {(void *)(this->data), sizeof(*(this->data)), {-1, 1, 1}, false, 0},
        {(void *)&(this->n), sizeof(*&(this->n)), {static_cast<std::int64_t>(1), 1, 1}, false, 0}};
    ::clustrix::rt::ProgramBoxes __clx_boxenv = {&__clx_prog, __clx_trips, nullptr, __clx_frames};
    const void *const __clx_scalars[] = {&__clx_init0, &__clx_mag0, &__clx_up0, &this->n};
    ::clustrix::rt::LoopArgs __clx_args{};
    __clx_args.TripCount = __clx_trip.Count;
    __clx_args.Host = &::clustrix::rt::chunkThunk<decltype(__clx_chunk)>;
    __clx_args.HostEnv = &__clx_chunk;
    __clx_args.Boxes = &::clustrix::rt::programBoxes;
    __clx_args.BoxEnv = &__clx_boxenv;
    __clx_args.Scalars = __clx_scalars;
    __clx_args.NumScalars = 4;
    if (::clustrix::rt::runLoop(__clx_info, __clx_args) != ::clustrix::rt::RunStatus::Done) {
      ::clustrix::rt::runInPlace(__clx_chunk, __clx_trip.Count, nullptr, 0);
    }
  } else {
    ::clustrix::rt::noteAsWritten(__clx_info);
    [&]() CLUSTRIX_RT_AS_WRITTEN {
#line 45 "/work/wt-harden/test/EndToEnd/Inputs/aliasing.cpp"
    for (int i = 0; i < n; ++i)
      data[i] = n + i;
    }();
  }
}
#line 46 "/work/wt-harden/test/EndToEnd/Inputs/aliasing.cpp"
                      
  }
};

static double sum(const double *p, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s = s * 1.0000001 + p[i];
  return s;
}

int main() {
  S x, y;
  for (int i = 0; i < 64; ++i)
    x.arr[i] = y.arr[i] = i * 0.5;
  shift(x, x);
  shift(y, x);
  std::printf("shift %a %a\n", sum(x.arr, 64), sum(y.arr, 64));
  G g, h;
  for (int i = 0; i < 64; ++i)
    g.arr[i] = h.arr[i] = i;
  g.f(g);
  h.f(g);
  std::printf("member %a %a\n", sum(g.arr, 64), sum(h.arr, 64));
  std::vector<double> v(100);
  for (int i = 0; i < 100; ++i)
    v[i] = i;
  spans(std::span<double>(v.data() + 1, 60), std::span<const double>(v.data(), 60));
  spans(std::span<double>(v.data() + 40, 60), std::span<const double>(v.data(), 60));
  std::printf("spans %a\n", sum(v.data(), 100));
  double m[40][8];
  for (int i = 0; i < 40; ++i)
    for (int j = 0; j < 8; ++j)
      m[i][j] = i * 8 + j;
  rows(m + 1, m, 39);
  rows(m, m + 20, 20);
  std::printf("rows %a\n", sum(&m[0][0], 320));
  int a[64] = {0};
  global_bound(a);
  global_bound(&limit - 3); // writes limit itself on the way
  std::printf("global %d %d %d\n", a[0], a[39], limit);
  std::vector<int> store(80);
  Buf b{30, store.data()};
  b.fill();
  Buf c{20, &c.n}; // writes its own bound
  c.fill();
  std::printf("member bound %d %d %d\n", store[0], store[29], c.n);
}

#if defined(__CUDACC__) && !defined(CLUSTRIX_NO_AOT)
namespace __clx_aot_0 {
// GPU form of the loop at /work/wt-harden/test/EndToEnd/Inputs/aliasing.cpp:25, generated by Clustrix.
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
extern "C" __global__ void clustrix_kernel_0be51e17_25_3(unsigned long long __clx_lo, unsigned long long __clx_hi, double *a, const double *b, __clx_iv0 __clx_init0, __clx_uv0 __clx_mag0, bool __clx_up0) {
  for (unsigned long long __clx_k = __clx_lo + (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; __clx_k < __clx_hi; __clx_k += (unsigned long long)gridDim.x * blockDim.x) {
    unsigned long long __clx_k0 = __clx_k;
    __clx_iv0 i = (__clx_iv0)(__clx_up0 ? (__clx_uv0)((__clx_uv0)__clx_init0 + (__clx_uv0)__clx_k0 * __clx_mag0) : (__clx_uv0)((__clx_uv0)__clx_init0 - (__clx_uv0)__clx_k0 * __clx_mag0));
    a[i] = b[i] + 3;
  }
}
static void *__clx_get() {
  cudaKernel_t K = nullptr;
  return cudaGetKernel(&K, (const void *)&clustrix_kernel_0be51e17_25_3) == cudaSuccess ? (void *)K : nullptr;
}
static const bool __clx_registered = (::clustrix::rt::registerKernelGetter("clustrix_kernel_0be51e17_25_3", 10365864376066508360ull, &__clx_get), true);
extern "C" __global__ void clustrix_kernel_0be51e17_25_3_fmad_probe(const double *In, double *Out) { Out[0] = In[0] * In[1] + In[2]; }
static void *__clx_probe() {
  cudaKernel_t K = nullptr;
  return cudaGetKernel(&K, (const void *)&clustrix_kernel_0be51e17_25_3_fmad_probe) == cudaSuccess ? (void *)K : nullptr;
}
static const bool __clx_probed = (::clustrix::rt::registerKernelGetter("clustrix_kernel_0be51e17_25_3_fmad_probe", 10365864376066508360ull, &__clx_probe), true);
} // namespace __clx_aot_0
namespace __clx_aot_1 {
// GPU form of the loop at /work/wt-harden/test/EndToEnd/Inputs/aliasing.cpp:30, generated by Clustrix.
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
extern "C" __global__ void clustrix_kernel_0be51e17_30_3(unsigned long long __clx_lo, unsigned long long __clx_hi, double (*a)[8], double (*b)[8], __clx_iv0 __clx_init0, __clx_uv0 __clx_mag0, bool __clx_up0) {
  for (unsigned long long __clx_k = __clx_lo + (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; __clx_k < __clx_hi; __clx_k += (unsigned long long)gridDim.x * blockDim.x) {
    unsigned long long __clx_k0 = __clx_k;
    __clx_iv0 i = (__clx_iv0)(__clx_up0 ? (__clx_uv0)((__clx_uv0)__clx_init0 + (__clx_uv0)__clx_k0 * __clx_mag0) : (__clx_uv0)((__clx_uv0)__clx_init0 - (__clx_uv0)__clx_k0 * __clx_mag0));
    for (int j = 0; j < 8; ++j)
      a[i][j] = b[i][j] + 1;
  }
}
static void *__clx_get() {
  cudaKernel_t K = nullptr;
  return cudaGetKernel(&K, (const void *)&clustrix_kernel_0be51e17_30_3) == cudaSuccess ? (void *)K : nullptr;
}
static const bool __clx_registered = (::clustrix::rt::registerKernelGetter("clustrix_kernel_0be51e17_30_3", 7644530887714029475ull, &__clx_get), true);
extern "C" __global__ void clustrix_kernel_0be51e17_30_3_fmad_probe(const double *In, double *Out) { Out[0] = In[0] * In[1] + In[2]; }
static void *__clx_probe() {
  cudaKernel_t K = nullptr;
  return cudaGetKernel(&K, (const void *)&clustrix_kernel_0be51e17_30_3_fmad_probe) == cudaSuccess ? (void *)K : nullptr;
}
static const bool __clx_probed = (::clustrix::rt::registerKernelGetter("clustrix_kernel_0be51e17_30_3_fmad_probe", 7644530887714029475ull, &__clx_probe), true);
} // namespace __clx_aot_1
namespace __clx_aot_2 {
// GPU form of the loop at /work/wt-harden/test/EndToEnd/Inputs/aliasing.cpp:37, generated by Clustrix.
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
extern "C" __global__ void clustrix_kernel_0be51e17_37_3(unsigned long long __clx_lo, unsigned long long __clx_hi, int *a, __clx_iv0 __clx_init0, __clx_uv0 __clx_mag0, bool __clx_up0, int limit) {
  for (unsigned long long __clx_k = __clx_lo + (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; __clx_k < __clx_hi; __clx_k += (unsigned long long)gridDim.x * blockDim.x) {
    unsigned long long __clx_k0 = __clx_k;
    __clx_iv0 i = (__clx_iv0)(__clx_up0 ? (__clx_uv0)((__clx_uv0)__clx_init0 + (__clx_uv0)__clx_k0 * __clx_mag0) : (__clx_uv0)((__clx_uv0)__clx_init0 - (__clx_uv0)__clx_k0 * __clx_mag0));
    a[i] = i - limit;
  }
}
static void *__clx_get() {
  cudaKernel_t K = nullptr;
  return cudaGetKernel(&K, (const void *)&clustrix_kernel_0be51e17_37_3) == cudaSuccess ? (void *)K : nullptr;
}
static const bool __clx_registered = (::clustrix::rt::registerKernelGetter("clustrix_kernel_0be51e17_37_3", 6629031858533706334ull, &__clx_get), true);
extern "C" __global__ void clustrix_kernel_0be51e17_37_3_fmad_probe(const double *In, double *Out) { Out[0] = In[0] * In[1] + In[2]; }
static void *__clx_probe() {
  cudaKernel_t K = nullptr;
  return cudaGetKernel(&K, (const void *)&clustrix_kernel_0be51e17_37_3_fmad_probe) == cudaSuccess ? (void *)K : nullptr;
}
static const bool __clx_probed = (::clustrix::rt::registerKernelGetter("clustrix_kernel_0be51e17_37_3_fmad_probe", 6629031858533706334ull, &__clx_probe), true);
} // namespace __clx_aot_2
namespace __clx_aot_3 {
// GPU form of the loop at /work/wt-harden/test/EndToEnd/Inputs/aliasing.cpp:45, generated by Clustrix.
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
extern "C" __global__ void clustrix_kernel_0be51e17_45_5(unsigned long long __clx_lo, unsigned long long __clx_hi, int *data, __clx_iv0 __clx_init0, __clx_uv0 __clx_mag0, bool __clx_up0, int n) {
  for (unsigned long long __clx_k = __clx_lo + (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; __clx_k < __clx_hi; __clx_k += (unsigned long long)gridDim.x * blockDim.x) {
    unsigned long long __clx_k0 = __clx_k;
    __clx_iv0 i = (__clx_iv0)(__clx_up0 ? (__clx_uv0)((__clx_uv0)__clx_init0 + (__clx_uv0)__clx_k0 * __clx_mag0) : (__clx_uv0)((__clx_uv0)__clx_init0 - (__clx_uv0)__clx_k0 * __clx_mag0));
    data[i] = n + i;
  }
}
static void *__clx_get() {
  cudaKernel_t K = nullptr;
  return cudaGetKernel(&K, (const void *)&clustrix_kernel_0be51e17_45_5) == cudaSuccess ? (void *)K : nullptr;
}
static const bool __clx_registered = (::clustrix::rt::registerKernelGetter("clustrix_kernel_0be51e17_45_5", 6673377391020784186ull, &__clx_get), true);
extern "C" __global__ void clustrix_kernel_0be51e17_45_5_fmad_probe(const double *In, double *Out) { Out[0] = In[0] * In[1] + In[2]; }
static void *__clx_probe() {
  cudaKernel_t K = nullptr;
  return cudaGetKernel(&K, (const void *)&clustrix_kernel_0be51e17_45_5_fmad_probe) == cudaSuccess ? (void *)K : nullptr;
}
static const bool __clx_probed = (::clustrix::rt::registerKernelGetter("clustrix_kernel_0be51e17_45_5_fmad_probe", 6673377391020784186ull, &__clx_probe), true);
} // namespace __clx_aot_3
#endif
