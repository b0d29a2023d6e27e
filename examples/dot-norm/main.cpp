// Reductions: a dot product, a Euclidean norm, a maximum and a count, in one annotated loop.
//
// Integer sums (`hits`) are recognised by themselves. Floating-point reductions need the reduce
// clause, because splitting the loop adds the partial sums in a different order than the serial
// loop, which may change the last bits; the clause says that is acceptable. Partial results are
// combined in a fixed order, so a given device count always gives the same bits. The vectors
// here hold exactly representable values (multiples of 1/8) whose sums stay exact, so this
// program prints the serial result whatever the split.
//
//   clustrix++ -O2 main.cpp -o dot-norm && ./dot-norm [n]        (n: default 10000000)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  const long n = argc > 1 ? std::atol(argv[1]) : 10000000;
  std::vector<double> x(n), y(n);
  for (long i = 0; i < n; ++i) {
    x[i] = double(i % 17) * 0.125 - 1.0;
    y[i] = double(i % 13) * 0.5 - 3.0;
  }

  double dot = 0.0, squares = 0.0, largest = 0.0;
  long hits = 0; // how many products are positive: an integer sum needs no clause
  [[cluster::gpu_parallel(reduce(+: dot, squares), reduce(max: largest))]]
  for (long i = 0; i < n; ++i) {
    const double p = x[i] * y[i];
    dot += p;
    squares += x[i] * x[i];
    largest = std::fmax(largest, std::fabs(y[i]));
    if (p > 0.0)
      hits += 1;
  }

  std::printf("n = %ld\n", n);
  std::printf("x . y   = %.6f\n", dot);
  std::printf("|x|     = %.9f\n", std::sqrt(squares));
  std::printf("max |y| = %.3f\n", largest);
  std::printf("positive products: %ld\n", hits);
  return 0;
}
