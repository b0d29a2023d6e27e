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

  [[cluster::gpu_parallel]]
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
