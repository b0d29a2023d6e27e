// Every construct the analysis accepts, each in its own annotated loop, with deterministic
// output. Built with and without Clustrix, the outputs must be identical.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

struct Particle {
  double X, V;
};

static double kick(double V, double Dt) { return V + 0.5 * Dt * std::sqrt(V * V + 1.0); }
static int square(int A) { return A * A; }
static void store(double &Out, double V) { Out = V; }

class Grid {
public:
  explicit Grid(int N) : Cells(N * N), N(N) {}
  void fill() {
    [[cluster::gpu_parallel]]
    for (int I = 0; I < N * N; ++I)
      Cells[I] = (I * 7) % 13;
  }
  long total() const {
    long S = 0;
    [[cluster::gpu_parallel]]
    for (int I = 0; I < N * N; ++I)
      S += Cells[I];
    return S;
  }

private:
  std::vector<int> Cells;
  int N;
};

int main(int argc, char **argv) {
  const int N = argc > 1 ? std::atoi(argv[1]) : 3001;
  const int M = 37;
  std::vector<double> X(N), Y(N, 1.0), Z(N, 0.0);
  for (int I = 0; I < N; ++I)
    X[I] = std::sin(I * 0.01);

  // Element-wise, with a call to a visible function.
  [[cluster::gpu_parallel]]
  for (int I = 0; I < N; ++I)
    Y[I] = kick(X[I], 0.1) + Y[I];

  // Integer reduction, min and max (automatic), float sum with a clause.
  long ISum = 0;
  int Lo = 1 << 30, Hi = -(1 << 30);
  double FSum = 0.0;
  [[cluster::gpu_parallel(reduce(+: FSum))]]
  for (int I = 0; I < N; ++I) {
    ISum += square(I % 100);
    Lo = std::min(Lo, (I * 31) % 1009);
    if ((I * 17) % 2003 > Hi)
      Hi = (I * 17) % 2003;
    FSum += X[I] * 0.5;
  }

  // Ordered append, conditional.
  std::vector<int> Picked;
  [[cluster::gpu_parallel]]
  for (int I = 0; I < N; ++I)
    if (I % 7 == 3)
      Picked.push_back(I * 2);

  // Column writes: iteration I writes column I of a row-major N x M matrix.
  std::vector<double> A(N * M);
  [[cluster::gpu_parallel]]
  for (int I = 0; I < N; ++I)
    for (int J = 0; J < M; ++J)
      A[J * N + I] = I + 0.001 * J;

  // Conditional writes.
  [[cluster::gpu_parallel]]
  for (int I = 0; I < N; ++I)
    if (X[I] > 0)
      Z[I] = X[I] * 2;

  // Strided: even elements from odd ones.
  std::vector<double> S(2 * N + 2, 1.5);
  [[cluster::gpu_parallel]]
  for (int I = 0; I < 2 * N; I += 2)
    S[I] = S[I + 1] * 3;

  // Reversed.
  std::vector<long> R(N);
  [[cluster::gpu_parallel]]
  for (int I = N - 1; I >= 0; --I)
    R[I] = (long)I * I - 5;

  // Unsigned, with a step of 3 and a != test.
  std::vector<unsigned> U(3 * N + 3, 0);
  [[cluster::gpu_parallel]]
  for (unsigned I = 0; I != 3u * (unsigned)N; I += 3)
    U[I] = I / 3 + 1;

  // collapse(2) over a 2-D C array.
  static double C2[40][50];
  [[cluster::gpu_parallel(collapse(2))]]
  for (int I = 0; I < 40; ++I)
    for (int J = 0; J < 50; ++J)
      C2[I][J] = I * 100 + J;

  // A lambda called in the body, writing through a reference helper.
  auto Scale = [](double V) { return 3 * V - 1; };
  std::vector<double> L(N);
  [[cluster::gpu_parallel]]
  for (int I = 0; I < N; ++I)
    store(L[I], Scale(X[I]));

  // Structs.
  std::vector<Particle> P(N);
  for (int I = 0; I < N; ++I)
    P[I] = {I * 1.0, (I % 5) * 0.25};
  [[cluster::gpu_parallel(schedule(dynamic, 64))]]
  for (int I = 0; I < N; ++I) {
    P[I].V = kick(P[I].V, 0.01);
    P[I].X += P[I].V * 0.01;
  }

  // Range-based for over a vector, cyclic schedule.
  std::vector<int> Q(N);
  for (int I = 0; I < N; ++I)
    Q[I] = I;
  [[cluster::gpu_parallel(schedule(cyclic, 16))]]
  for (int &V : Q)
    V = V * 3 + 1;

  // Induction variable declared before the loop keeps its final value.
  int K;
  std::array<int, 100> Arr{};
  [[cluster::gpu_parallel]]
  for (K = 0; K < 100; K += 7)
    Arr[K] = K;

  // Structured bindings declared before the loop, read in it.
  auto [BScale, BShift] = std::pair<double, int>(0.5, 3);
  std::vector<double> B(N);
  [[cluster::gpu_parallel]]
  for (int I = 0; I < N; ++I)
    B[I] = BScale * X[I] + BShift;

  // A step known only at run time, zero here: the trip count cannot be represented, so the loop
  // runs exactly as written (and is not entered).
  int Step = argc > 9 ? 1 : 0;
  long Visited = 0;
  [[cluster::gpu_parallel]]
  for (int I = N; I < 3; I += Step)
    Visited += I;

  // Methods: a member vector, and a member reduction.
  Grid G(40);
  G.fill();
  long GT = G.total();

  // Output: everything, in a fixed format.
  double YS = 0, AS = 0, ZS = 0, SS = 0, LS = 0, PS = 0;
  long RS = 0, QS = 0, US = 0, AR = 0;
  for (int I = 0; I < N; ++I)
    YS += Y[I], ZS += Z[I], LS += L[I], PS += P[I].X + P[I].V, RS += R[I], QS += Q[I];
  for (double V : A)
    AS += V;
  for (double V : S)
    SS += V;
  for (unsigned V : U)
    US += V;
  for (int V : Arr)
    AR += V;
  double BS = 0;
  for (double V : B)
    BS += V;
  double CS = 0;
  for (auto &Row : C2)
    for (double V : Row)
      CS += V;
  std::printf("Y %.9f\nsums %ld %d %d %.6f\n", YS, ISum, Lo, Hi, FSum);
  std::printf("picked %zu first %d last %d\n", Picked.size(), Picked.front(), Picked.back());
  long Order = 0;
  for (size_t I = 0; I < Picked.size(); ++I)
    Order += (long)(I + 1) * Picked[I];
  std::printf("picked order %ld\n", Order);
  std::printf("A %.6f Z %.9f S %.3f R %ld U %ld C %.1f\n", AS, ZS, SS, RS, US, CS);
  std::printf("L %.9f P %.9f Q %ld K %d Arr %ld G %ld\n", LS, PS, QS, K, AR, GT);
  std::printf("B %.9f visited %ld\n", BS, Visited);
  // Bit for bit, where no reassociation is expected (a loop the runtime keeps serial).
  if (std::getenv("CONSTRUCTS_EXACT"))
    std::printf("exact %a %a\n", FSum, YS);
  return 0;
}
