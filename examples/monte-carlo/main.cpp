// A batch of independent Monte-Carlo paths: pricing a European call option by simulating the
// stock price along many random paths (geometric Brownian motion, 64 time steps per path).
//
// Paths share no state. In particular there is no shared random-number generator: path p draws
// its normal variates from a counter-based generator keyed by (seed, p, step), so each path gets
// the same numbers whichever device runs it, and the program prints the serial result for any
// number of devices. Each path's payoff goes to its own element of `payoff`; the average is
// taken after the loop, in path order.
//
//   clustrix++ -O2 main.cpp -o monte-carlo && ./monte-carlo [paths]      (default 200000)
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

// splitmix64: a well-mixed 64-bit value from a counter.
static std::uint64_t mix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// A standard normal variate for (path, step), by the Box-Muller transform.
static double normal(std::uint64_t seed, std::uint64_t path, std::uint64_t step) {
  std::uint64_t r = mix64(seed ^ mix64(path * 1024 + step));
  double u1 = (double((r >> 11) & 0xffffffffull) + 1.0) * 0x1.0p-32; // (0, 1]
  double u2 = double(mix64(r) >> 11) * 0x1.0p-53;                     // [0, 1)
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

int main(int argc, char **argv) {
  const long paths = argc > 1 ? std::atol(argv[1]) : 200000;
  const int steps = 64;
  const double s0 = 100.0, strike = 105.0, rate = 0.03, sigma = 0.2, years = 1.0;
  const double dt = years / steps;
  const double drift = (rate - 0.5 * sigma * sigma) * dt, vol = sigma * std::sqrt(dt);
  const std::uint64_t seed = 2024;
  std::vector<double> payoff(paths);
  long inTheMoney = 0;

  [[cluster::gpu_parallel]]
  for (long p = 0; p < paths; ++p) {
    double logPrice = std::log(s0);
    for (int t = 0; t < steps; ++t)
      logPrice += drift + vol * normal(seed, p, t);
    const double price = std::exp(logPrice);
    payoff[p] = price > strike ? price - strike : 0.0;
    if (price > strike)
      ++inTheMoney;
  }

  double sum = 0.0;
  for (double v : payoff)
    sum += v;
  const double value = std::exp(-rate * years) * sum / paths;
  std::printf("%ld paths of %d steps\n", paths, steps);
  std::printf("paths ending in the money: %ld\n", inTheMoney);
  std::printf("option value: %.6f\n", value);
  std::printf("payoff of path 0: %.6f, of the last path: %.6f\n", payoff[0], payoff[paths - 1]);
  return 0;
}
