#include <clustrix/Runtime.h>
#line 1 "examples/matrix-traces/main.cpp"
// The original Python Clustrix example, in C++: 100 products of random size x size matrices,
// each product's trace appended to a results vector, in loop order.
//
//   Python:  for i in range(100):
//                a = np.random.rand(size, size); b = np.random.rand(size, size)
//                results.append(np.trace(a @ b))
//
// The matrices live in flat arrays (matrix k at offset k*size*size, row-major), so the analysis
// can see which part each iteration touches. The size is a compile-time constant (-DSIZE=N to
// change it): with a run-time size the analysis cannot yet split the three-level subscript
// k*size*size + i*size + j (see README.md). Each iteration draws its own random numbers from a
// counter-based generator keyed by (seed, k): no generator state is shared between iterations,
// so the result does not depend on how the iterations are split.
//
//   clustrix++ -O2 main.cpp -o matrix-traces && ./matrix-traces
#include <cstdint>
#include <cstdio>
#include <vector>

// splitmix64: a well-mixed 64-bit value from a counter.
static std::uint64_t mix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// A uniform double in [0, 1) for draw number `n` of stream `stream`.
static double uniform(std::uint64_t stream, std::uint64_t n) {
  return double(mix64(mix64(stream) ^ n) >> 11) * 0x1.0p-53;
}

#ifndef SIZE
#define SIZE 64
#endif
constexpr int size = SIZE;
constexpr long cells = long(size) * size;

int main() {
  const int count = 100;
  const std::uint64_t seed = 42;
  std::vector<double> a(count * cells), b(count * cells), c(count * cells);
  std::vector<double> results;

  { /* clustrix: loop at line 46 runs through libclustrix_rt */
  using __clx_iv0 = int;
  using __clx_ct0 = int;
  const __clx_iv0 __clx_init0 = static_cast<__clx_iv0>(0);
  const __clx_ct0 __clx_bound0 = static_cast<__clx_ct0>(count);
  const auto __clx_stepv0 = (1);
  const bool __clx_up0 = ::clustrix::rt::stepUp(__clx_stepv0);
  const auto __clx_mag0 = ::clustrix::rt::stepMagnitude<__clx_iv0>(__clx_stepv0);
  const ::clustrix::rt::Trip __clx_trip0 = ::clustrix::rt::tripCountMixed<__clx_iv0, __clx_ct0>(__clx_init0, __clx_bound0, ::clustrix::rt::Cmp::LT, __clx_mag0, __clx_up0);
  const ::clustrix::rt::Trip __clx_trip = __clx_trip0;
  static const ::clustrix::rt::RegionInfo __clx_regions[] = {{"a", 3, 1, 0, 0}, {"b", 3, 1, 0, 0}, {"c", 3, 1, 0, 0}};
  static const ::clustrix::rt::LoopInfo __clx_info = {CLUSTRIX_RT_ABI_VERSION, "examples/matrix-traces/main.cpp", 46, 3, ::clustrix::rt::Schedule::Default, 0, 0, 0, 4, 74, 4002372.0, 0, __clx_regions, 3, nullptr, nullptr, 0, nullptr, 0};
  if (__clx_trip.Ok) {
    using __clx_a0_t = std::remove_reference_t<decltype(results)>;
    auto __clx_chunk = [&](std::uint64_t __clx_lo, std::uint64_t __clx_hi, ::clustrix::rt::ChunkContext &__clx_ctx) {
      (void)__clx_ctx;
      __clx_a0_t &results = ::clustrix::rt::appendBuffer<__clx_a0_t>(__clx_ctx, 0);
      for (std::uint64_t __clx_k0 = __clx_lo; __clx_k0 < __clx_hi; ++__clx_k0) {
        __clx_iv0 k = ::clustrix::rt::inductionValue<__clx_iv0>(__clx_init0, __clx_mag0, __clx_up0, __clx_k0);

#line 46 "examples/matrix-traces/main.cpp"
                                  {
    // a = rand(size, size), b = rand(size, size)
    for (int i = 0; i < size; ++i)
      for (int j = 0; j < size; ++j) {
        a[k * cells + i * size + j] = uniform(seed + 2 * k, i * size + j);
        b[k * cells + i * size + j] = uniform(seed + 2 * k + 1, i * size + j);
      }
    // c = a @ b
    for (int i = 0; i < size; ++i)
      for (int j = 0; j < size; ++j) {
        double s = 0.0;
        for (int l = 0; l < size; ++l)
          s += a[k * cells + i * size + l] * b[k * cells + l * size + j];
        c[k * cells + i * size + j] = s;
      }
    // results.append(trace(c))
    double trace = 0.0;
    for (int i = 0; i < size; ++i)
      trace += c[k * cells + i * size + i];
    results.push_back(trace);
  }
      }
    };
    ::clustrix::rt::AppendSlot __clx_apps[] = {::clustrix::rt::appendSlot(results)};
    static const ::clustrix::rt::BoxTerm __clx_terms[] = {{63ll, 0, {0, 0, 0, 0}}, {63ll, 0, {0, 0, 0, 0}}, {63ll, 0, {0, 0, 0, 0}}, {63ll, 0, {0, 0, 0, 0}}, {63ll, 0, {0, 0, 0, 0}}, {63ll, 0, {0, 0, 0, 0}}, {4096ll, 1, {0, 0, 0, 0}}, {64ll, 1, {1, 0, 0, 0}}, {1ll, 1, {2, 0, 0, 0}}, {4096ll, 1, {0, 0, 0, 0}}, {64ll, 1, {3, 0, 0, 0}}, {1ll, 1, {5, 0, 0, 0}}, {4096ll, 1, {0, 0, 0, 0}}, {64ll, 1, {1, 0, 0, 0}}, {1ll, 1, {2, 0, 0, 0}}, {4096ll, 1, {0, 0, 0, 0}}, {1ll, 1, {4, 0, 0, 0}}, {64ll, 1, {5, 0, 0, 0}}, {4096ll, 1, {0, 0, 0, 0}}, {64ll, 1, {3, 0, 0, 0}}, {1ll, 1, {4, 0, 0, 0}}, {4096ll, 1, {0, 0, 0, 0}}, {65ll, 1, {6, 0, 0, 0}}};
    static const ::clustrix::rt::BoxExpr __clx_exprs[] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}, {2, 1}, {3, 0}, {3, 1}, {4, 0}, {4, 1}, {5, 0}, {5, 1}, {6, 3}, {9, 3}, {12, 3}, {15, 3}, {18, 3}, {21, 2}};
    static const std::uint16_t __clx_inner[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    static const ::clustrix::rt::BoxAccess __clx_accs[] = {{0, 12}, {0, 13}, {1, 14}, {1, 15}, {2, 16}, {2, 17}};
    static const std::uint8_t __clx_rank[] = {1, 1, 1};
    static const ::clustrix::rt::BoxProgram __clx_prog = {1, 6, 0, __clx_terms, __clx_exprs, __clx_inner, __clx_accs, 6, __clx_rank, 3};
    const std::uint64_t __clx_trips[] = {__clx_trip0.Count};
    const ::clustrix::rt::BoxFrame __clx_frames[] = {
        {(void *)(a).data(), sizeof(*(a).data()), {static_cast<std::int64_t>(a.size()), 1, 1}, false, 0},
        {(void *)(b).data(), sizeof(*(b).data()), {static_cast<std::int64_t>(b.size()), 1, 1}, false, 0},
        {(void *)(c).data(), sizeof(*(c).data()), {static_cast<std::int64_t>(c.size()), 1, 1}, false, 0}};
    ::clustrix::rt::ProgramBoxes __clx_boxenv = {&__clx_prog, __clx_trips, nullptr, __clx_frames};
    ::clustrix::rt::LoopArgs __clx_args{};
    __clx_args.TripCount = __clx_trip.Count;
    __clx_args.Host = &::clustrix::rt::chunkThunk<decltype(__clx_chunk)>;
    __clx_args.HostEnv = &__clx_chunk;
    __clx_args.Boxes = &::clustrix::rt::programBoxes;
    __clx_args.BoxEnv = &__clx_boxenv;
    __clx_args.Appends = __clx_apps;
    __clx_args.NumAppends = 1;
    if (::clustrix::rt::runLoop(__clx_info, __clx_args) != ::clustrix::rt::RunStatus::Done) {
      void *__clx_own[] = {::clustrix::rt::ownAddress(results)};
      ::clustrix::rt::runInPlace(__clx_chunk, __clx_trip.Count, __clx_own, 0);
    }
  } else {
    [&]() CLUSTRIX_RT_AS_WRITTEN {
#line 46 "examples/matrix-traces/main.cpp"
  for (int k = 0; k < count; ++k) {
    // a = rand(size, size), b = rand(size, size)
    for (int i = 0; i < size; ++i)
      for (int j = 0; j < size; ++j) {
        a[k * cells + i * size + j] = uniform(seed + 2 * k, i * size + j);
        b[k * cells + i * size + j] = uniform(seed + 2 * k + 1, i * size + j);
      }
    // c = a @ b
    for (int i = 0; i < size; ++i)
      for (int j = 0; j < size; ++j) {
        double s = 0.0;
        for (int l = 0; l < size; ++l)
          s += a[k * cells + i * size + l] * b[k * cells + l * size + j];
        c[k * cells + i * size + j] = s;
      }
    // results.append(trace(c))
    double trace = 0.0;
    for (int i = 0; i < size; ++i)
      trace += c[k * cells + i * size + i];
    results.push_back(trace);
  }
    }();
  }
}
#line 66 "examples/matrix-traces/main.cpp"
   

  double sum = 0.0;
  for (double t : results)
    sum += t;
  std::printf("%zu traces of %dx%d matrix products\n", results.size(), size, size);
  for (int k = 0; k < 5; ++k)
    std::printf("trace[%d] = %.9f\n", k, results[k]);
  std::printf("trace[%d] = %.9f\n", count - 1, results[count - 1]);
  std::printf("sum of traces = %.9f\n", sum);
  return 0;
}
