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
  [[cluster::gpu_parallel(extent(recolour, 10))]]
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
