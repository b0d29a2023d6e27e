// Loops with cyclic and dynamic schedules and small chunks (about 200 chunks of 16 iterations),
// called CALLS times each: a cyclic loop, a dynamic loop with an integer reduction, a cyclic
// loop with a reduction, and a loop without a schedule clause (which gets the configured
// default schedule). The output, checksums of integer work, must equal the serial program's.
//
// Usage: launches WHICH CALLS, WHICH one of cyclic, dynamic, cyclic-sum, default, all.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

constexpr int N = 3200;

static void cyclicLoop(std::vector<int64_t> &A, int Call) {
  int64_t *P = A.data();
  [[cluster::gpu_parallel(schedule(cyclic, 16))]]
  for (int I = 0; I < N; ++I)
    P[I] = P[I] * 3 + I % 7 + Call;
}

static int64_t dynamicSum(const std::vector<int64_t> &A, std::vector<int64_t> &B, int Call) {
  const int64_t *P = A.data();
  int64_t *Q = B.data();
  int64_t S = 0;
  [[cluster::gpu_parallel(schedule(dynamic, 16), reduce(+: S))]]
  for (int I = 0; I < N; ++I) {
    Q[I] = P[I] % 1000 + Call;
    S += Q[I] * (I % 5 + 1);
  }
  return S;
}

static int64_t cyclicSum(const std::vector<int64_t> &A, int Call) {
  const int64_t *P = A.data();
  int64_t S = 0;
  [[cluster::gpu_parallel(schedule(cyclic, 16), reduce(+: S))]]
  for (int I = 0; I < N; ++I)
    S += P[I] % 997 + Call;
  return S;
}

static void defaultLoop(std::vector<int64_t> &A, int Call) {
  int64_t *P = A.data();
  [[cluster::gpu_parallel]]
  for (int I = 0; I < N; ++I)
    P[I] = (P[I] + I * 11 + Call) % 100003;
}

int main(int Argc, char **Argv) {
  if (Argc != 3) {
    std::fprintf(stderr, "usage: launches cyclic|dynamic|cyclic-sum|default|all CALLS\n");
    return 2;
  }
  const char *Which = Argv[1];
  int Calls = std::atoi(Argv[2]);
  bool All = std::strcmp(Which, "all") == 0;
  std::vector<int64_t> A(N), B(N, 0);
  for (int I = 0; I < N; ++I)
    A[I] = I % 13;
  int64_t Sums = 0;
  for (int C = 0; C < Calls; ++C) {
    if (All || std::strcmp(Which, "cyclic") == 0)
      cyclicLoop(A, C);
    if (All || std::strcmp(Which, "dynamic") == 0)
      Sums += dynamicSum(A, B, C);
    if (All || std::strcmp(Which, "cyclic-sum") == 0)
      Sums += cyclicSum(A, C);
    if (All || std::strcmp(Which, "default") == 0)
      defaultLoop(A, C);
  }
  int64_t CheckA = 0, CheckB = 0;
  for (int I = 0; I < N; ++I) {
    CheckA = (CheckA * 31 + A[I]) % 1000000007;
    CheckB = (CheckB * 37 + B[I]) % 1000000007;
  }
  std::printf("%s %d: A %lld B %lld sums %lld\n", Which, Calls, static_cast<long long>(CheckA),
              static_cast<long long>(CheckB), static_cast<long long>(Sums));
  return 0;
}
