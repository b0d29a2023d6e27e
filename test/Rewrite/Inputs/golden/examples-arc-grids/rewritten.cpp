#include <clustrix/Runtime.h>
#line 1 "examples/arc-grids/main.cpp"
// An ARC-style batch: 800 small integer grids (25 x 25 cells, colours 0-9) mapped through a
// pipeline of per-grid operations, the outputs in input order. This is the workload the original
// Python Clustrix spread over GPUs with its batch optimizer; here it is one annotated loop.
//
// Each grid is stored at offset g*625 of one flat int array, row-major. The pipeline per grid:
//   1. rotate a quarter turn clockwise         (into the scratch array `turned`)
//   2. recolour through a palette              (a table lookup: a data-dependent subscript)
//   3. outline: a coloured cell on the border or with an empty neighbour becomes colour 5
//   4. count the coloured cells                (one number per grid, appended in grid order)
//
//   clustrix++ -O2 main.cpp -o arc-grids && ./arc-grids [grids]        (grids: default 800)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr int W = 25;          // grid width and height
constexpr int CELLS = W * W;   // cells per grid

// A deterministic "random" colour for cell c of grid g: about a third of the cells are coloured.
static int cellColour(std::uint32_t g, std::uint32_t c) {
  std::uint32_t h = (g * 2654435761u) ^ (c * 2246822519u);
  h ^= h >> 15;
  h *= 2246822519u;
  h ^= h >> 13;
  return h % 3 == 0 ? int(1 + h / 3 % 9) : 0;
}

int main(int argc, char **argv) {
  const int grids = argc > 1 ? std::atoi(argv[1]) : 800;
  std::vector<int> input(long(grids) * CELLS), turned(input.size()), recoloured(input.size()),
      output(input.size());
  for (int g = 0; g < grids; ++g)
    for (int c = 0; c < CELLS; ++c)
      input[long(g) * CELLS + c] = cellColour(g, c);
  const int palette[10] = {0, 2, 3, 4, 6, 7, 8, 9, 1, 5};
  const int *recolour = palette; // read through a pointer: extent() below gives its length
  std::vector<int> coloured; // cells left coloured, per grid, in grid order
  long changed = 0;          // cells the outline step changed, over all grids

  // extent(recolour, 10): the table is read at data-dependent places, so Clustrix copies all
  // of it to each device; the clause says how long it is.
  { /* clustrix: loop at line 44 runs through libclustrix_rt */
  using __clx_iv0 = int;
  using __clx_ct0 = int;
  const __clx_iv0 __clx_init0 = static_cast<__clx_iv0>(0);
  const __clx_ct0 __clx_bound0 = static_cast<__clx_ct0>(grids);
  const auto __clx_stepv0 = (1);
  const bool __clx_up0 = ::clustrix::rt::stepUp(__clx_stepv0);
  const auto __clx_mag0 = ::clustrix::rt::stepMagnitude<__clx_iv0>(__clx_stepv0);
  const ::clustrix::rt::Trip __clx_trip0 = ::clustrix::rt::tripCountMixed<__clx_iv0, __clx_ct0>(__clx_init0, __clx_bound0, ::clustrix::rt::Cmp::LT, __clx_mag0, __clx_up0);
  const ::clustrix::rt::Trip __clx_trip = __clx_trip0;
  static const ::clustrix::rt::RegionInfo __clx_regions[] = {{"turned", 3, 1, 0, 0}, {"input", 1, 1, 0, 0}, {"recoloured", 3, 1, 0, 0}, {"recolour", 1, 1, 0, 1}, {"output", 2, 1, 0, 0}};
  static const ::clustrix::rt::LoopInfo __clx_info = {CLUSTRIX_RT_ABI_VERSION, "examples/arc-grids/main.cpp", 44, 3, ::clustrix::rt::Schedule::Default, 0, 0, 0, 4, 78, 57587.0, 0, __clx_regions, 5, nullptr, nullptr, 0, nullptr, 0};
  if (__clx_trip.Ok) {
    using __clx_r0_t = std::remove_reference_t<decltype(changed)>;
    using __clx_a0_t = std::remove_reference_t<decltype(coloured)>;
    auto __clx_chunk = [&](std::uint64_t __clx_lo, std::uint64_t __clx_hi, ::clustrix::rt::ChunkContext &__clx_ctx) {
      (void)__clx_ctx;
      __clx_r0_t &changed = ::clustrix::rt::partial<__clx_r0_t>(__clx_ctx, 0);
      __clx_a0_t &coloured = ::clustrix::rt::appendBuffer<__clx_a0_t>(__clx_ctx, 0);
      for (std::uint64_t __clx_k0 = __clx_lo; __clx_k0 < __clx_hi; ++__clx_k0) {
        __clx_iv0 g = ::clustrix::rt::inductionValue<__clx_iv0>(__clx_init0, __clx_mag0, __clx_up0, __clx_k0);

#line 44 "examples/arc-grids/main.cpp"
                                  {
    const long base = static_cast<long>(g) * CELLS;
    // 1. rotate: row r of the result is column r of the input, read bottom to top
    for (int r = 0; r < W; ++r)
      for (int c = 0; c < W; ++c)
        turned[base + r * W + c] = input[base + (W - 1 - c) * W + r];
    // 2. recolour
    for (int r = 0; r < W; ++r)
      for (int c = 0; c < W; ++c)
        recoloured[base + r * W + c] = recolour[turned[base + r * W + c]];
    // 3. outline: border cells first, then interior cells, whose four neighbours lie inside
    //    the grid (written as two loops so every read stays inside grid g)
    int count = 0;
    for (int r = 0; r < W; ++r)
      for (int c = 0; c < W; ++c) {
        int v = recoloured[base + r * W + c];
        bool border = r == 0 || c == 0 || r == W - 1 || c == W - 1;
        if (v != 0 && border && v != 5) {
          v = 5;
          ++changed;
        }
        count += v != 0;
        output[base + r * W + c] = v;
      }
    for (int r = 1; r < W - 1; ++r)
      for (int c = 1; c < W - 1; ++c) {
        int v = recoloured[base + r * W + c];
        if (v != 0 && v != 5 &&
            (recoloured[base + (r - 1) * W + c] == 0 || recoloured[base + (r + 1) * W + c] == 0 ||
             recoloured[base + r * W + c - 1] == 0 || recoloured[base + r * W + c + 1] == 0)) {
          output[base + r * W + c] = 5;
          ++changed;
        }
      }
    // 4. one number per grid, in grid order
    coloured.push_back(count);
  }
      }
    };
    ::clustrix::rt::ReductionSlot __clx_reds[] = {::clustrix::rt::reductionSlot(changed, ::clustrix::rt::ReduceOp::Add)};
    ::clustrix::rt::AppendSlot __clx_apps[] = {::clustrix::rt::appendSlot(coloured)};
    static const ::clustrix::rt::BoxTerm __clx_terms[] = {{24ll, 0, {0, 0, 0, 0}}, {24ll, 0, {0, 0, 0, 0}}, {24ll, 0, {0, 0, 0, 0}}, {24ll, 0, {0, 0, 0, 0}}, {24ll, 0, {0, 0, 0, 0}}, {24ll, 0, {0, 0, 0, 0}}, {1ll, 0, {0, 0, 0, 0}}, {23ll, 0, {0, 0, 0, 0}}, {1ll, 0, {0, 0, 0, 0}}, {23ll, 0, {0, 0, 0, 0}}, {625ll, 1, {0, 0, 0, 0}}, {25ll, 1, {1, 0, 0, 0}}, {1ll, 1, {2, 0, 0, 0}}, {625ll, 1, {0, 0, 0, 0}}, {25ll, 1, {3, 0, 0, 0}}, {1ll, 1, {4, 0, 0, 0}}, {600ll, 0, {0, 0, 0, 0}}, {625ll, 1, {0, 0, 0, 0}}, {1ll, 1, {1, 0, 0, 0}}, {-25ll, 1, {2, 0, 0, 0}}, {625ll, 1, {0, 0, 0, 0}}, {25ll, 1, {3, 0, 0, 0}}, {1ll, 1, {4, 0, 0, 0}}, {625ll, 1, {0, 0, 0, 0}}, {25ll, 1, {5, 0, 0, 0}}, {1ll, 1, {6, 0, 0, 0}}, {625ll, 1, {0, 0, 0, 0}}, {25ll, 1, {7, 0, 0, 0}}, {1ll, 1, {8, 0, 0, 0}}, {-25ll, 0, {0, 0, 0, 0}}, {625ll, 1, {0, 0, 0, 0}}, {25ll, 1, {7, 0, 0, 0}}, {1ll, 1, {8, 0, 0, 0}}, {25ll, 0, {0, 0, 0, 0}}, {625ll, 1, {0, 0, 0, 0}}, {25ll, 1, {7, 0, 0, 0}}, {1ll, 1, {8, 0, 0, 0}}, {-1ll, 0, {0, 0, 0, 0}}, {625ll, 1, {0, 0, 0, 0}}, {25ll, 1, {7, 0, 0, 0}}, {1ll, 1, {8, 0, 0, 0}}, {1ll, 0, {0, 0, 0, 0}}, {625ll, 1, {0, 0, 0, 0}}, {25ll, 1, {7, 0, 0, 0}}, {1ll, 1, {8, 0, 0, 0}}, {625ll, 1, {0, 0, 0, 0}}, {25ll, 1, {5, 0, 0, 0}}, {1ll, 1, {6, 0, 0, 0}}, {625ll, 1, {0, 0, 0, 0}}, {25ll, 1, {7, 0, 0, 0}}, {1ll, 1, {8, 0, 0, 0}}};
    static const ::clustrix::rt::BoxExpr __clx_exprs[] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}, {2, 1}, {3, 0}, {3, 1}, {4, 0}, {4, 1}, {5, 0}, {5, 1}, {6, 1}, {7, 1}, {8, 1}, {9, 1}, {10, 3}, {13, 3}, {16, 4}, {20, 3}, {23, 3}, {26, 3}, {29, 4}, {33, 4}, {37, 4}, {41, 4}, {45, 3}, {48, 3}};
    static const std::uint16_t __clx_inner[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    static const ::clustrix::rt::BoxAccess __clx_accs[] = {{0, 16}, {0, 17}, {1, 18}, {2, 19}, {2, 20}, {2, 21}, {2, 22}, {2, 23}, {2, 24}, {2, 25}, {4, 26}, {4, 27}};
    static const std::uint8_t __clx_rank[] = {1, 1, 1, 1, 1};
    static const ::clustrix::rt::BoxProgram __clx_prog = {1, 8, 0, __clx_terms, __clx_exprs, __clx_inner, __clx_accs, 12, __clx_rank, 5};
    const std::uint64_t __clx_trips[] = {__clx_trip0.Count};
    const ::clustrix::rt::BoxFrame __clx_frames[] = {
        {(void *)(turned).data(), sizeof(*(turned).data()), {static_cast<std::int64_t>(turned.size()), 1, 1}, false, 0},
        {(void *)(input).data(), sizeof(*(input).data()), {static_cast<std::int64_t>(input.size()), 1, 1}, false, 0},
        {(void *)(recoloured).data(), sizeof(*(recoloured).data()), {static_cast<std::int64_t>(recoloured.size()), 1, 1}, false, 0},
        {(void *)(recolour), sizeof(*(recolour)), {static_cast<std::int64_t>(10), 1, 1}, true, static_cast<std::int64_t>(10)},
        {(void *)(output).data(), sizeof(*(output).data()), {static_cast<std::int64_t>(output.size()), 1, 1}, false, 0}};
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
      void *__clx_own[] = {::clustrix::rt::ownAddress(changed), ::clustrix::rt::ownAddress(coloured)};
      ::clustrix::rt::runInPlace(__clx_chunk, __clx_trip.Count, __clx_own, 1);
    }
  } else {
    [&]() CLUSTRIX_RT_AS_WRITTEN {
#line 44 "examples/arc-grids/main.cpp"
  for (int g = 0; g < grids; ++g) {
    const long base = static_cast<long>(g) * CELLS;
    // 1. rotate: row r of the result is column r of the input, read bottom to top
    for (int r = 0; r < W; ++r)
      for (int c = 0; c < W; ++c)
        turned[base + r * W + c] = input[base + (W - 1 - c) * W + r];
    // 2. recolour
    for (int r = 0; r < W; ++r)
      for (int c = 0; c < W; ++c)
        recoloured[base + r * W + c] = recolour[turned[base + r * W + c]];
    // 3. outline: border cells first, then interior cells, whose four neighbours lie inside
    //    the grid (written as two loops so every read stays inside grid g)
    int count = 0;
    for (int r = 0; r < W; ++r)
      for (int c = 0; c < W; ++c) {
        int v = recoloured[base + r * W + c];
        bool border = r == 0 || c == 0 || r == W - 1 || c == W - 1;
        if (v != 0 && border && v != 5) {
          v = 5;
          ++changed;
        }
        count += v != 0;
        output[base + r * W + c] = v;
      }
    for (int r = 1; r < W - 1; ++r)
      for (int c = 1; c < W - 1; ++c) {
        int v = recoloured[base + r * W + c];
        if (v != 0 && v != 5 &&
            (recoloured[base + (r - 1) * W + c] == 0 || recoloured[base + (r + 1) * W + c] == 0 ||
             recoloured[base + r * W + c - 1] == 0 || recoloured[base + r * W + c + 1] == 0)) {
          output[base + r * W + c] = 5;
          ++changed;
        }
      }
    // 4. one number per grid, in grid order
    coloured.push_back(count);
  }
    }();
  }
}
#line 80 "examples/arc-grids/main.cpp"
   

  // A checksum that depends on the order of the grids and of their cells.
  std::uint64_t hash = 1469598103934665603ull;
  for (int v : output)
    hash = (hash ^ std::uint64_t(v)) * 1099511628211ull;
  long total = 0;
  for (int n : coloured)
    total += n;
  std::printf("%d grids of %dx%d\n", grids, W, W);
  std::printf("grid 0, first row after the pipeline:");
  for (int c = 0; c < W; ++c)
    std::printf(" %d", output[c]);
  std::printf("\ncoloured cells in grids 0-4: %d %d %d %d %d\n", coloured[0], coloured[1],
              coloured[2], coloured[3], coloured[4]);
  std::printf("coloured cells in total: %ld, recoloured by the outline: %ld\n", total, changed);
  std::printf("checksum of all outputs: %016llx\n", (unsigned long long)hash);
  return 0;
}
