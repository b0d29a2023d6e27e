#include <clustrix/Runtime.h>
#line 1 "test/Analysis/report.cpp"
// The JSON report: one record per annotated loop with its decision, reasons, regions (may_alias
// for pointer parameters), reductions, appends and score.
// RUN: %clustrix_cxx -fsyntax-only -fplugin-arg-clustrix-remarks=off -fplugin-arg-clustrix-refusals=ignore -fplugin-arg-clustrix-report=%t.json %s
// RUN: FileCheck %s --input-file=%t.json
// RUN: echo 'int main() { return 0; }' > %t.plain.cpp
// RUN: %clustrix_cxx -fsyntax-only -fplugin-arg-clustrix-report=%t.empty.json %t.plain.cpp
// RUN: FileCheck %s --check-prefix=EMPTY --input-file=%t.empty.json
// REQUIRES: compiler
#include <vector>

void accepted(int n, double *dst, const double *src, std::vector<int> &keep) {
  int count = 0;
  { /* clustrix: loop at line 14 runs through libclustrix_rt */
  using __clx_iv0 = int;
  using __clx_ct0 = int;
  const __clx_iv0 __clx_init0 = static_cast<__clx_iv0>(0);
  const __clx_ct0 __clx_bound0 = static_cast<__clx_ct0>(n);
  const auto __clx_stepv0 = (1);
  const bool __clx_up0 = ::clustrix::rt::stepUp(__clx_stepv0);
  const auto __clx_mag0 = ::clustrix::rt::stepMagnitude<__clx_iv0>(__clx_stepv0);
  const ::clustrix::rt::Trip __clx_trip0 = ::clustrix::rt::tripCountMixed<__clx_iv0, __clx_ct0>(__clx_init0, __clx_bound0, ::clustrix::rt::Cmp::LT, __clx_mag0, __clx_up0);
  const ::clustrix::rt::Trip __clx_trip = __clx_trip0;
  static const ::clustrix::rt::RegionInfo __clx_regions[] = {{"dst", 2, 1, 1, 1}, {"src", 1, 1, 0, 1}};
  static const ::clustrix::rt::LoopInfo __clx_info = {CLUSTRIX_RT_ABI_VERSION, "test/Analysis/report.cpp", 14, 3, ::clustrix::rt::Schedule::Cyclic, 4, 0, 0, 1, 6, 9.0, 0, __clx_regions, 2, nullptr, nullptr, 0, nullptr, 0};
  if (__clx_trip.Ok) {
    using __clx_r0_t = std::remove_reference_t<decltype(count)>;
    using __clx_a0_t = std::remove_reference_t<decltype(keep)>;
    auto __clx_chunk = [&](std::uint64_t __clx_lo, std::uint64_t __clx_hi, ::clustrix::rt::ChunkContext &__clx_ctx) {
      (void)__clx_ctx;
      __clx_r0_t &count = ::clustrix::rt::partial<__clx_r0_t>(__clx_ctx, 0);
      __clx_a0_t &keep = ::clustrix::rt::appendBuffer<__clx_a0_t>(__clx_ctx, 0);
      for (std::uint64_t __clx_k0 = __clx_lo; __clx_k0 < __clx_hi; ++__clx_k0) {
        __clx_iv0 i = ::clustrix::rt::inductionValue<__clx_iv0>(__clx_init0, __clx_mag0, __clx_up0, __clx_k0);

#line 14 "test/Analysis/report.cpp"
                              {
    dst[i] = src[i];
    count += 1;
    if (src[i] > 0)
      keep.push_back(i);
  }
      }
    };
    ::clustrix::rt::ReductionSlot __clx_reds[] = {::clustrix::rt::reductionSlot(count, ::clustrix::rt::ReduceOp::Add)};
    ::clustrix::rt::AppendSlot __clx_apps[] = {::clustrix::rt::appendSlot(keep)};
    static const ::clustrix::rt::BoxTerm __clx_terms[] = {{1ll, 1, {0, 0, 0, 0}}, {1ll, 1, {0, 0, 0, 0}}, {1ll, 1, {0, 0, 0, 0}}};
    static const ::clustrix::rt::BoxExpr __clx_exprs[] = {{0, 1}, {1, 1}, {2, 1}};
    static const ::clustrix::rt::BoxAccess __clx_accs[] = {{0, 0}, {1, 1}, {1, 2}};
    static const std::uint8_t __clx_rank[] = {1, 1};
    static const ::clustrix::rt::BoxProgram __clx_prog = {1, 0, 0, __clx_terms, __clx_exprs, nullptr, __clx_accs, 3, __clx_rank, 2};
    const std::uint64_t __clx_trips[] = {__clx_trip0.Count};
    const ::clustrix::rt::BoxFrame __clx_frames[] = {
        {(void *)(dst), sizeof(*(dst)), {-1, 1, 1}, false, 0},
        {(void *)(src), sizeof(*(src)), {-1, 1, 1}, false, 0}};
    ::clustrix::rt::ProgramBoxes __clx_boxenv = {&__clx_prog, __clx_trips, nullptr, __clx_frames};
    ::clustrix::rt::LoopArgs __clx_args{};
    __clx_args.TripCount = __clx_trip.Count;
    __clx_args.Host = &::clustrix::rt::chunkThunk<decltype(__clx_chunk)>;
    __clx_args.HostEnv = &__clx_chunk;
    __clx_args.Boxes = &::clustrix::rt::programBoxes;
    __clx_args.BoxEnv = &__clx_boxenv;
    __clx_args.Reductions = __clx_reds;
    __clx_args.NumReductions = 1;
    __clx_args.Appends = __clx_apps;
    __clx_args.NumAppends = 1;
    if (::clustrix::rt::runLoop(__clx_info, __clx_args) != ::clustrix::rt::RunStatus::Done) {
      void *__clx_own[] = {::clustrix::rt::ownAddress(count), ::clustrix::rt::ownAddress(keep)};
      ::clustrix::rt::runInPlace(__clx_chunk, __clx_trip.Count, __clx_own, 1);
    }
  } else {
    [&]() CLUSTRIX_RT_AS_WRITTEN {
#line 14 "test/Analysis/report.cpp"
  for (int i = 0; i < n; ++i) {
    dst[i] = src[i];
    count += 1;
    if (src[i] > 0)
      keep.push_back(i);
  }
    }();
  }
}
#line 19 "test/Analysis/report.cpp"
   
  (void)count;
}

void refused(int n, double *a) {
  double sum = 0;
                           
  for (int i = 1; i < n; ++i) {
    a[i] = a[i - 1];
    sum += a[i];
  }
  (void)sum;
}

// CHECK:      "clustrix_report": 1,
// CHECK:      "loops": [
// CHECK:          "appends": [
// CHECK-NEXT:       "keep"
// CHECK-NEXT:     ],
// CHECK-NEXT:     "automatic": false,
// CHECK-NEXT:     "collapse": 1,
// CHECK-NEXT:     "column": 3,
// CHECK-NEXT:     "decision": "accepted",
// CHECK-NEXT:     "file": "{{.*}}report.cpp",
// CHECK-NEXT:     "function": "accepted",
// CHECK-NEXT:     "gpu": false,
// CHECK-NEXT:     "gpu_reason": "ordered appends run on CPU devices",
// CHECK-NEXT:     "level": 1,
// CHECK-NEXT:     "line": 14,
// CHECK-NEXT:     "reasons": [],
// CHECK-NEXT:     "reductions": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "clause": false,
// CHECK-NEXT:         "op": "+",
// CHECK-NEXT:         "var": "count"
// CHECK-NEXT:       }
// CHECK-NEXT:     ],
// CHECK-NEXT:     "regions": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "access": "write",
// CHECK-NEXT:         "affine": true,
// CHECK-NEXT:         "extent": "",
// CHECK-NEXT:         "full_write": true,
// CHECK-NEXT:         "may_alias": true,
// CHECK-NEXT:         "name": "dst",
// CHECK-NEXT:         "rank": 1,
// CHECK-NEXT:         "subscripts": [
// CHECK-NEXT:           [
// CHECK-NEXT:             "__clx_k0"
// CHECK-NEXT:           ]
// CHECK-NEXT:         ]
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "access": "read",
// CHECK:              "may_alias": true,
// CHECK-NEXT:         "name": "src",
// CHECK:          "schedule": "cyclic",
// CHECK-NEXT:     "score": {{[0-9]+}},
// CHECK-NEXT:     "work_per_iteration": {{[0-9.]+}}
// CHECK:          "decision": "refused",
// CHECK:          "function": "refused",
// CHECK:          "line": 26,
// CHECK-NEXT:     "reasons": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "column": 5,
// CHECK-NEXT:         "kind": "float-reduction",
// CHECK-NEXT:         "line": 28,
// CHECK-NEXT:         "message": "'sum' is a floating-point reduction, whose rounding depends on the order of the iterations",
// CHECK-NEXT:         "suggestion": "reduce(+: sum)"
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "column": 12,
// CHECK-NEXT:         "kind": "array-dependence",
// CHECK-NEXT:         "line": 27,
// CHECK-NEXT:         "message": "'a' is written in one iteration and read in another (dependence distance 1)"
// CHECK-NEXT:       }
// CHECK-NEXT:     ],
// CHECK-NEXT:     "reductions": [],
// CHECK-NEXT:     "regions": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "access": "read-write",

// EMPTY:      "clustrix_report": 1,
// EMPTY-NEXT: "loops": []
