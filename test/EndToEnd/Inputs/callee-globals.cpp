// Callees that read globals, and constants the kernel declares with the host's values
// (test/EndToEnd/callee-globals.test): every loop has a GPU form.
#include <cstdio>
#include <cstdlib>

const int N = 8;
const int M = N * 2;               // a constant made of constants
const double Third = 1.0 / 3.0;    // a floating constant the host evaluates
const float Tenth = 0.1f;
const long long Big = -9223372036854775807LL - 1;
static int readLimit() { return getenv("CLX_NO_SUCH_VARIABLE") ? 1 : 5; }
const int Limit = readLimit();     // const, but known only at run time

double ce[5][13];                  // NPB BT's exact_solution reads such a table
int nx0;
namespace table {
double weights[N];
}
double scale = 2.0;
struct Config {
  double k;
  int shift;
} cfg = {0.5, 3};

static void exact(int i, double d[5]) {
  for (int m = 0; m < 5; m++)
    d[m] = ce[m][0] + ce[m][1] * i + ce[m][12] * nx0;
}
static double weight(int k) { return table::weights[k % N] * Third; }
static double weighted(int i) { return weight(i) + weight(i + 1) + M; } // only through weight
static double scaled(double x) { return x * scale + cfg.k * cfg.shift; }
static double bias(void) { return cfg.k * Limit + Tenth; }
static double twice(int i) { return weighted(i) + weight(i); }          // two paths to weights

int main() {
  for (int m = 0; m < 5; m++)
    for (int k = 0; k < 13; k++)
      ce[m][k] = m + 0.25 * k;
  nx0 = 7;
  for (int k = 0; k < N; k++)
    table::weights[k] = 1.5 * k - 2;
  double out[100][5], w[100], s[100], b[100], t[100];

  [[cluster::gpu_parallel]]
  for (int i = 0; i < 100; i++) {
    double d[5];
    exact(i, d);
    for (int m = 0; m < 5; m++)
      out[i][m] = d[m];
  }

  [[cluster::gpu_parallel]]
  for (int i = 0; i < 100; i++)
    w[i] = weighted(i) + Limit;

  {
    double scale = 100.0; // the function's own 'scale': 'scaled' reads the global one
    [[cluster::gpu_parallel]]
    for (int i = 0; i < 100; i++)
      s[i] = scaled(i);
    s[0] += scale;
  }

  {
    int Limit = 1000; // hides the global constant at the loop: the kernel takes '::Limit'
    [[cluster::gpu_parallel]]
    for (int i = 0; i < 100; i++)
      b[i] = bias() + (Big < 0 ? i : -i) + ::Limit;
    b[1] += Limit;
  }

  auto add = [&](int i) { return twice(i) + scaled(1.0); };
  [[cluster::gpu_parallel]]
  for (int i = 0; i < 100; i++)
    t[i] = add(i);

  double sum = 0;
  for (int i = 0; i < 100; i++) {
    for (int m = 0; m < 5; m++)
      sum += out[i][m];
    sum += w[i] + s[i] + b[i] + t[i];
  }
  printf("%.17g\n", sum);
  for (int i = 0; i < 100; i += 33)
    printf("%.17g %.17g %.17g %.17g %.17g\n", out[i][4], w[i], s[i], b[i], t[i]);
  return 0;
}
