// Ordinary code in GPU forms (issue 12, item 9): macros used in the body (object-like,
// function-like, nested, one calling std::sqrt, M_PI from <cmath>), a typedef'd anonymous
// struct, a struct defined in its typedef, a typedef of double, member functions (inline, out of
// line, a constructor, a static one), a lambda defined in the body and one of the function that
// captures by reference, conditional directives and a loop hint, records without names inside
// records. Each loop below has a GPU form; their outputs equal the serial ones.
#include <cmath>
#include <cstdio>

#define COUNT 3000
#define SQ(x) ((x) * (x))
#define NORM(a, b) std::sqrt(SQ(a) + SQ(b))
#define HALF 0.5
#define AT(arr, k) arr[(k)]

typedef double real;
typedef struct {
  real x, y;
} Point;
typedef struct cell_s {
  double v;
  int tag;
  struct cell_s *next; // a type that refers to itself
} cell_t;

struct Acc {
  double sum, scale;
  Acc() = default;
  Acc(double s, double k) : sum(s), scale(k) {}
  void add(double v);
  double get() const { return sum * scale; }
  static double twice(double v) { return 2 * v; }
};
void Acc::add(double v) { sum += std::sqrt(v * v + 1.0); }

// Records without names inside records (MUMmerGPU's MatchCoord): declared by their parent's text.
struct Coord {
  union {
    Acc *acc;
    long edge;
  };
  struct {
    int lo, hi;
  } range;
};

static Coord coords[COUNT];
static Point pts[COUNT];
static cell_t cells[COUNT];
static Acc accs[COUNT];
static double a[COUNT], b[COUNT], c[COUNT];

// The device compiler defines __CUDA_ARCH__; the kernel takes the host's branch.
static double bias(double v) {
#ifdef __CUDA_ARCH__
  return v + 100;
#else
  return v + 1;
#endif
}

static void run(int n, double s) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    a[i] = HALF * NORM(AT(b, i), i * HALF) + M_PI;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
    real d = pts[i].x * pts[i].y;
    pts[i].x = d + 1;
  }
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    cells[i].v = cells[i].v * 2 + cells[i].tag;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
    accs[i].add(a[i]);
    c[i] = accs[i].get() + Acc::twice(b[i]);
  }
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
    Acc local(b[i], 0.25);
    local.add(1.0);
    b[i] = local.get();
  }
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
    auto sq = [](double v) { return v * v; };
    a[i] = sq(b[i]) + 1;
  }
  auto scale = [&](double v) { return v * s; };
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    c[i] += scale(b[i]);
  // A loop hint through the pragma operator (the Parallel Research Kernels' PRAGMA_SIMD).
#define PRAGMA(x) _Pragma(#x)
#define PRAGMA_SIMD PRAGMA(clang loop vectorize(enable))
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
    PRAGMA_SIMD
    for (int k = 0; k < 4; k++)
      c[i] += b[i] * k;
  }
  // A plain struct's assignment (NPB FT's `u1[k][j][i] = u0[k][j][i]` of a dcomplex).
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    pts[i] = Point{pts[i].y, pts[i].x + c[i]};
  // Preprocessor directives in the body and a callee, settled as the host settled them.
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
#ifdef NEVER_DEFINED
    c[i] = -1;
#else
    c[i] += bias(b[i]);
#endif
#pragma unroll
    for (int k = 0; k < 2; k++)
      c[i] += k * HALF;
  }
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    b[i] += coords[i].range.hi - coords[i].range.lo + coords[i].edge % 3;
}

int main() {
  const int n = COUNT;
  for (int i = 0; i < n; i++) {
    pts[i] = Point{i * 0.5, 1.0 / (i + 1)};
    cells[i] = cell_t{double(i % 7), i % 3, nullptr};
    accs[i] = Acc(double(i % 5), 0.5);
    coords[i].edge = i * 7;
    coords[i].range.lo = i % 11;
    coords[i].range.hi = i % 11 + i % 4;
    b[i] = (i % 13) * 0.25;
  }
  run(n, 1.5);
  double h = 0;
  for (int i = 0; i < n; i++)
    h = h * 0.999 + pts[i].x + cells[i].v + a[i] + b[i] + c[i];
  std::printf("%a\n", h);
}
