// A loop Clustrix refuses, and the same loop fixed.
//
// Both versions centre each row of a matrix (subtract the row's mean) and add up the squares of
// the centred values. The first builds a std::vector inside the loop body and adds a double to
// `total` without saying that reordering that sum is acceptable: Clustrix refuses it with two
// reasons, at their lines, and the loop stays serial (it still works, it is just not split). The
// second keeps its per-row scratch in one array allocated before the loop, one slice per row,
// and names the reduction with reduce(+: total).
//
//   clustrix++ -O2 main.cpp -o refused-loop && ./refused-loop [rows] [cols]   (default 2000 x 500)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

static double valueAt(long r, long c) { return double((r * 7 + c * 3) % 29) * 0.25; }

// Refused: allocation in the body, and a floating-point sum without a reduce clause.
static double centreRowsRefused(const double *m, double *out, int rows, int cols) {
  double total = 0.0;
  [[cluster::gpu_parallel]]
  for (int r = 0; r < rows; ++r) {
    std::vector<double> row(m + r * cols, m + (r + 1) * cols);
    double mean = 0.0;
    for (int c = 0; c < cols; ++c)
      mean += row[c];
    mean /= cols;
    for (int c = 0; c < cols; ++c) {
      out[r * cols + c] = row[c] - mean;
      total += (row[c] - mean) * (row[c] - mean);
    }
  }
  return total;
}

// Accepted: the scratch is a slice of one array made before the loop, and the sum is a declared
// reduction.
static double centreRowsFixed(const double *m, double *out, double *scratch, int rows, int cols) {
  double total = 0.0;
  [[cluster::gpu_parallel(reduce(+: total))]]
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c)
      scratch[r * cols + c] = m[r * cols + c];
    double mean = 0.0;
    for (int c = 0; c < cols; ++c)
      mean += scratch[r * cols + c];
    mean /= cols;
    for (int c = 0; c < cols; ++c) {
      out[r * cols + c] = scratch[r * cols + c] - mean;
      total += (scratch[r * cols + c] - mean) * (scratch[r * cols + c] - mean);
    }
  }
  return total;
}

int main(int argc, char **argv) {
  const int rows = argc > 1 ? std::atoi(argv[1]) : 2000;
  const int cols = argc > 2 ? std::atoi(argv[2]) : 500;
  std::vector<double> m(long(rows) * cols), out1(m.size()), out2(m.size()), scratch(m.size());
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      m[long(r) * cols + c] = valueAt(r, c);

  const double t1 = centreRowsRefused(m.data(), out1.data(), rows, cols);
  const double t2 = centreRowsFixed(m.data(), out2.data(), scratch.data(), rows, cols);
  std::printf("%d x %d matrix, rows centred\n", rows, cols);
  // The reduction may add in another order than the serial loop; round the sums for printing.
  std::printf("sum of squares (refused loop): %.6e\n", t1);
  std::printf("sum of squares (fixed loop):   %.6e\n", t2);
  std::printf("centred matrices equal: %s\n", out1 == out2 ? "yes" : "no");
  return 0;
}
