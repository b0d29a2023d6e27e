// Names, thread state and conversions (design rules 7, 8 and 9): every loop below either runs
// wide with the serial program's result, or is refused and runs serially as written. The
// output is compared with the serial build on several worker counts (thread-state.test).
#include <cerrno>
#include <cfenv>
#include <cmath>
#include <cstdio>
#include <sys/wait.h>
#include <unistd.h>

namespace cfg {
double limit = 2.0;
double *out;
} // namespace cfg
struct Config {
  static double scale;
};
double Config::scale = 3.0;
thread_local double factor = 1.0;

constexpr int N = 4000;
double a[N], b[N], z[N];
long long big[N];

static void print(const char *What, const double *V) {
  double S = 0;
  for (int I = 0; I < N; ++I)
    S += V[I] * (I % 7 + 1);
  std::printf("%s %a\n", What, S);
}

static void names() {
  double limit = 5.0, scale = 7.0; // hide nothing the generated code names
  cfg::out = a;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < N; ++i)
    cfg::out[i] = b[i] * cfg::limit * Config::scale + limit * scale;
  print("names", a);
}

static void threadLocal() {
  factor = 3.0; // the caller's instance; every other thread's is 1.0
  [[cluster::gpu_parallel]] // refused: thread_local
  for (int i = 0; i < N; ++i)
    a[i] = b[i] * factor;
  print("thread_local", a);
  double f = factor; // the nearest safe form: a copy made on the caller's thread
  [[cluster::gpu_parallel]]
  for (int i = 0; i < N; ++i)
    a[i] = b[i] * f + 1;
  print("thread_local copied", a);
}

static void errnoAfter() {
  errno = 0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < N; ++i)
    a[i] = b[i] * 2;
  std::printf("errno after a loop that sets none: %d\n", errno);
  errno = 0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < N; ++i)
    a[i] = std::log(b[i] - 100); // EDOM below 100, ERANGE at 100 (i = 1000), none above
  std::printf("errno after log: %d\n", errno);
  errno = 0;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < N; ++i)
    z[i] = std::sqrt(b[i] - 3990); // EDOM in the first iterations only
  std::printf("errno after sqrt: %d\n", errno);
}

static void floatingPoint() {
  std::fesetround(FE_UPWARD);
  [[cluster::gpu_parallel]]
  for (int i = 0; i < N; ++i)
    a[i] = b[i] / 3.0;
  std::fesetround(FE_TONEAREST);
  print("rounded upward", a);
  std::feclearexcept(FE_ALL_EXCEPT);
  [[cluster::gpu_parallel]]
  for (int i = 0; i < N; ++i)
    z[i] = i == 3333 ? 1.0 / (b[i] - b[i]) : b[i] * 0.5;
  std::printf("divbyzero %d invalid %d\n", std::fetestexcept(FE_DIVBYZERO) != 0,
              std::fetestexcept(FE_INVALID) != 0);
  z[3333] = 0;
  print("z", z);
}

static void conversions() {
  int s = 0;
  [[cluster::gpu_parallel]] // refused: each step truncates to int
  for (int i = 0; i < N; ++i)
    s += b[i] * 0.3 - 7.25;
  int m = 1 << 30;
  [[cluster::gpu_parallel]] // refused: compares in long long, stores into int
  for (int i = 0; i < N; ++i)
    if (big[i] < m)
      m = big[i];
  long long w = 0;
  [[cluster::gpu_parallel]] // accepted: int widened to long long is exact
  for (int i = 0; i < N; ++i)
    w += static_cast<int>(b[i]) * 3 - 1000;
  std::printf("s %d m %d w %lld\n", s, m, w);
}

static void inChild() {
  std::fflush(stdout);
  pid_t P = fork();
  if (P == 0) {
    [[cluster::gpu_parallel]]
    for (int i = 0; i < N; ++i)
      a[i] = b[i] + 0.25;
    print("child", a);
    std::fflush(stdout);
    _exit(0);
  }
  int Status = 0;
  waitpid(P, &Status, 0);
  std::printf("child exited %d\n", WIFEXITED(Status) ? WEXITSTATUS(Status) : -1);
}

// Private members reached through accessors from a free function (pointers to members declared
// by the rewriter before it).
class Field {
public:
  explicit Field(int n) : v(new double[n]), w(new double[n]) {}
  ~Field() {
    delete[] v;
    delete[] w;
  }
  double &at(int i) { return v[i]; }
  double &other(int i) { return w[i]; }

private:
  double *v, *w;
};

static void privates() {
  Field F(N);
  for (int i = 0; i < N; ++i)
    F.other(i) = b[i];
  [[cluster::gpu_parallel]]
  for (int i = 0; i < N; ++i)
    F.at(i) = F.other(i) * 0.5 + i;
  for (int i = 0; i < N; ++i)
    a[i] = F.at(i);
  print("privates", a);
}

// The attribute inside a preprocessor conditional, as `#pragma omp parallel for` converted in
// place: the rewrite keeps the conditional balanced.
static void conditionalAttribute() {
#ifdef _OPENMP
#pragma omp parallel for
#else
  [[cluster::gpu_parallel]]
#endif
  for (int i = 0; i < N; ++i)
    a[i] = b[i] * 3 - 1;
  print("conditional", a);
}

int main() {
  for (int i = 0; i < N; ++i) {
    b[i] = i * 0.1 + 0.05 * (i % 3);
    big[i] = (i * 7919LL) % 100003 - 50000 + (i == 2500 ? -4294967296LL * 3 + 17 : 0);
  }
  b[1000] = 100; // log(0): ERANGE
  names();
  threadLocal();
  errnoAfter();
  floatingPoint();
  conversions();
  inChild();
  privates();
  conditionalAttribute();
  names();
}
