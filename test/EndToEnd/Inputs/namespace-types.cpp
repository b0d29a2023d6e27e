// Types of namespaces in loops that run on GPUs (namespace-types.test): the kernel declares
// each inside its namespace and spells it with its whole qualifier wherever its own code names
// it, however the source reached it.
#include <cstdio>

struct Vec { double x, y; }; // a file-scope type with the name of a namespace's type

namespace geo {
struct Vec { double x, y, z; };
enum Axis { X, Y, Z };                  // unscoped: its enumerators are geo's names
enum class Unit { Metre = 1, Foot = 3 }; // scoped
using real = double;
typedef Vec Point;
inline real dot(const Vec &a, const Vec &b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline real pick(const Point &p, Axis A) { return A == X ? p.x : A == Y ? p.y : p.z; }
namespace detail {
struct Pair { Vec a, b; };  // a field of the enclosing namespace's type, named unqualified
inline real span(const Pair &p) { return dot(p.a, p.b); }
} // namespace detail
inline namespace v2 {
struct Weight { real w; real scaled(real f) const { return w * f; } };
} // namespace v2
struct Body {
  Vec pos;
  real mass;
  real energy(real v) const; // defined outside its class
  real moment() const { return mass * dot(pos, pos); } // calls a namespace function
};
real Body::energy(real v) const { return 0.5 * mass * v * v; }

// A loop inside the namespace: every name unqualified.
void scale(Vec *out, const Vec *in, int n, Unit u) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    Vec v = in[i];
    real f = u == Unit::Foot ? 0.3048 : 1.0;
    out[i] = Vec{v.x * f, v.y * f, pick(v, Z) * f};
  }
}

// A range-for whose element type is written unqualified.
void bump(Body (&bodies)[64]) {
  [[cluster::gpu_parallel]]
  for (Body &b : bodies)
    b.mass += 1.0;
}
} // namespace geo

using namespace geo::detail;

// Class templates: the kernel declares each template once, for all its instances, and names an
// instance written unqualified inside its namespace with the qualifier (`::box::Pair<int>`).
namespace box {
template <typename T> struct Pair { T first, second; };
inline double sum(const Pair<double> &p, const Pair<int> &q) {
  Pair<double> t{p.first + q.first, p.second};
  return t.first * 2 + t.second;
}
} // namespace box
double templates(int n) {
  static box::Pair<double> pd[64];
  static box::Pair<int> pi[64];
  static double r[64];
  for (int i = 0; i < n; ++i) {
    pd[i] = {0.5 * i, 1.0};
    pi[i] = {i, -i};
  }
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    r[i] = box::sum(pd[i], pi[i]) + pi[i].second;
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += r[i];
  return s;
}

// A type of an unnamed namespace, named from a function of that namespace: `::Cell` in the
// kernel, declared there in an unnamed namespace too.
namespace {
struct Cell { double v; int k; };
double unnamed(int n) {
  static Cell cells[64];
  static double r[64];
  for (int i = 0; i < n; ++i)
    cells[i] = {0.25 * i, i % 3};
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    Cell c = cells[i];
    r[i] = c.v * c.k;
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += r[i];
  return s;
}
} // namespace

int main() {
  const int n = 64;
  static geo::Vec a[n], b[n];
  static ::Vec flat[n];
  static Pair pairs[n];
  static geo::Body bodies[n];
  static geo::Weight weights[n];
  static double out[n], out2[n], out3[n];
  for (int i = 0; i < n; ++i) {
    a[i] = {i * 0.5, i * 0.25, 1.0 + i};
    flat[i] = {double(i), -1.0 * i};
    pairs[i] = {{1.0 * i, 2.0, 3.0}, {0.5, 0.25 * i, 1.0}};
    bodies[i] = {{0.1 * i, 0.2, 0.3}, 1.0 + i};
    weights[i] = {0.75 + i};
  }
  geo::scale(b, a, n, geo::Unit::Foot);
  geo::bump(bodies);
  // Qualified, through a using-directive, a typedef and an alias of the namespace, both Vecs.
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    geo::Point p = a[i];
    geo::real d = geo::dot(p, b[i]) + span(pairs[i]);
    ::Vec q = flat[i];
    out[i] = d + q.x * q.y + geo::pick(p, geo::Y) + static_cast<int>(geo::Unit::Metre);
  }
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    out2[i] = bodies[i].energy(2.0) + bodies[i].moment() + weights[i].scaled(0.5);
  // A namespace's enumerators, unqualified through a using-declaration.
  using geo::Axis;
  using geo::X;
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    Axis ax = i % 2 ? X : geo::Z;
    out3[i] = geo::pick(a[i], ax);
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += out[i] + 2 * out2[i] + 3 * out3[i] + b[i].x + b[i].y + b[i].z + bodies[i].mass;
  std::printf("%.6f %.6f %.6f %.6f %.6f\n", s, out[n - 1], out2[n - 1], b[n - 1].z, templates(n) + unnamed(n));
  return 0;
}
