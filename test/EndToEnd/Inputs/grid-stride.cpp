// Collapsed nests on a GPU whose grid has fewer threads than the nest has iterations
// (test/EndToEnd/grid-stride.test): each thread splits its first iteration into the levels'
// indices once, then steps by the grid's size digit by digit with carries. Every iteration writes
// its own element and counts its visit, so an iteration skipped, repeated or mapped to the wrong
// indices shows in the sums. Shapes: a stride longer than a row (carries into the outer level
// with a stride digit there too), a row longer than the stride, a level of extent 1, three levels
// with a carry through the middle, levels that count down or step by 3, and run-time extents.
#include <cstdio>
#include <cstdlib>
#include <vector>

static double Sum(const std::vector<double> &V) {
  double S = 0;
  for (size_t I = 0; I < V.size(); ++I)
    S += V[I] * double(I % 97 + 1);
  return S;
}

static void two(int n, int m, std::vector<double> &Out, std::vector<int> &Visits) {
  double *O = Out.data();
  int *V = Visits.data();
  [[cluster::gpu_parallel(collapse(2))]]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) {
      O[i * m + j] = i * 1000.0 + j;
      V[i * m + j] += 1;
    }
}

static void report(const char *What, const std::vector<double> &Out, const std::vector<int> &V) {
  long Visits = 0, Twice = 0;
  for (int X : V) {
    Visits += X;
    Twice += X > 1;
  }
  std::printf("%s: %zu elements, %ld visits, %ld visited more than once, sum %.1f\n", What,
              Out.size(), Visits, Twice, Sum(Out));
}

template <int B, int C>
static void three(int a, std::vector<double> &Out, std::vector<int> &Visits) {
  double *O = Out.data();
  int *V = Visits.data();
  [[cluster::gpu_parallel(collapse(3))]]
  for (int i = a - 1; i >= 0; --i)
    for (int j = 0; j < 3 * B; j += 3)
      for (int k = C - 1; k >= 0; --k) {
        O[(i * 3 * B + j) * C + k] = i * 1e6 + j * 1e3 + k;
        V[(i * 3 * B + j) * C + k] += 1;
      }
}

template <int B, int C> static void cube(int a) {
  std::vector<double> Out(size_t(a) * 3 * B * C, -1); // j steps by 3
  std::vector<int> V(Out.size(), 0);
  three<B, C>(a, Out, V);
  char What[64];
  std::snprintf(What, sizeof What, "three %d x %d x %d", a, B, C);
  report(What, Out, V);
}

int main(int argc, char **argv) {
  int Scale = argc > 1 ? std::atoi(argv[1]) : 1;
  const int Shapes[][2] = {{37, 101 * Scale}, {5, 3001 * Scale}, {701 * Scale, 1}, {3, 2}};
  for (const auto &S : Shapes) {
    std::vector<double> Out(size_t(S[0]) * S[1], -1);
    std::vector<int> V(Out.size(), 0);
    two(S[0], S[1], Out, V);
    char What[64];
    std::snprintf(What, sizeof What, "two %d x %d", S[0], S[1]);
    report(What, Out, V);
  }
  cube<13, 29>(7 * Scale);
  cube<601, 3>(2 * Scale);
  cube<1, 401>(11 * Scale);
  return 0;
}
