// Member types of classes in loops on GPUs (member-types.test): each is declared in the kernel
// in a struct of its own, apart from its class, which the kernel does not declare.
#include <cstdio>
#include <vector>

namespace sim {
class Mesh {
public:
  enum Kind { Fixed, Free };
  enum class Axis : int { X = 1, Y = 2 };
  enum { Dim = 2 };
  using value_type = double;
  typedef value_type Real;
  struct Node {
    Real x[Dim];
    Kind kind = Free;
    Node *self;
    Real norm1() const { return x[0] + x[1]; }
    Real weighted(Axis a) const;
  };
  struct Part {
    struct Tag {
      int id;
    };
    Tag tag;
  };

  std::vector<Node> nodes;
  std::vector<Part> parts;
  Real scale = 0.5;

  // A loop in a member function names the member types unqualified.
  void relax() {
    Node *n = nodes.data();
    int m = (int)nodes.size();
    Real f = scale;
    [[cluster::gpu_parallel]]
    for (int i = 0; i < m; ++i) {
      if (n[i].kind == Free) {
        Real s = f * n[i].norm1();
        n[i].x[0] += s;
        n[i].x[1] += n[i].weighted(Axis::Y);
      }
    }
  }

private:
  struct Hidden {
    double w;
  };
  std::vector<Hidden> hidden;

public:
  void weigh(double *out) {
    Hidden *h = hidden.data();
    int m = (int)hidden.size();
    [[cluster::gpu_parallel]]
    for (int i = 0; i < m; ++i)
      out[i] = h[i].w * Dim;
  }
  void fill(int m) {
    hidden.resize(m);
    for (int i = 0; i < m; ++i)
      hidden[i].w = i % 5;
  }
};

// Defined outside its class.
Mesh::Real Mesh::Node::weighted(Mesh::Axis a) const { return a == Axis::X ? x[0] : 2 * x[1]; }
} // namespace sim

// A file-scope record and typedef that use member types, and a function that takes one.
struct Sample {
  sim::Mesh::Node node;
  sim::Mesh::Part::Tag tag;
};
typedef sim::Mesh::Part::Tag TagT;

static double score(double x, sim::Mesh::Kind k) {
  return k == sim::Mesh::Fixed ? x : x * sim::Mesh::Dim;
}

// A loop body that is one expression ending in a respelled name (the kernel once kept only as
// many characters of the new spelling as the old one had).
namespace flags {
enum Bit { Low = 1, High = 4 };
void tail(int *o, int m) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < m; ++i)
    o[i] = i + High;
}
} // namespace flags

// An unnamed namespace's class.
namespace {
struct Grid {
  struct Cell {
    double v;
  };
};
} // namespace

int main() {
  const int m = 1000;
  sim::Mesh mesh;
  mesh.nodes.resize(m);
  mesh.parts.resize(m);
  for (int i = 0; i < m; ++i) {
    mesh.nodes[i].x[0] = i;
    mesh.nodes[i].x[1] = i % 7;
    mesh.nodes[i].kind = i % 3 ? sim::Mesh::Free : sim::Mesh::Fixed;
    mesh.parts[i].tag.id = i % 11;
  }
  mesh.relax();

  std::vector<Sample> samples(m);
  std::vector<double> out(m);
  sim::Mesh::Node *n = mesh.nodes.data();
  sim::Mesh::Part *parts = mesh.parts.data();
  Sample *s = samples.data();
  double *o = out.data();
  [[cluster::gpu_parallel]]
  for (int i = 0; i < m; ++i) {
    TagT t = parts[i].tag;
    s[i].node = n[i];
    s[i].tag = t;
    o[i] = score(n[i].x[0], n[i].kind) + t.id;
  }

  mesh.fill(m);
  std::vector<double> w(m);
  mesh.weigh(w.data());

  std::vector<Grid::Cell> cells(m);
  Grid::Cell *c = cells.data();
  [[cluster::gpu_parallel]]
  for (int i = 0; i < m; ++i)
    c[i].v = i * 0.25 + sim::Mesh::Dim;

  std::vector<int> bits(m);
  flags::tail(bits.data(), m);

  double sum = 0;
  for (int i = 0; i < m; ++i)
    sum += mesh.nodes[i].x[0] + mesh.nodes[i].x[1] + out[i] + samples[i].node.x[1] +
           samples[i].tag.id + w[i] + cells[i].v + bits[i];
  std::printf("%.6f\n", sum);
  return 0;
}
