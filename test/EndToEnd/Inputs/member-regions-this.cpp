// Regions reached through fields of the object of the member function a loop is in
// (`g.p[i]`, `this->o.inner.p[i]`, `s->p[i]`, a base class's field, a class template's field
// of a class template with a parameter of the same name, an accessor over a private vector):
// each chain is a parameter of the kernel of its own. The object passed as the argument of another (`h.aliasing(h)`) makes two
// chains one array: that call runs serially by the address check. The outputs equal serial.
#include <cstdio>
#include <vector>

struct Sim {
  double *p;
  int n;
  double k;
};
struct Outer {
  Sim inner;
  double bias;
};
struct Part {
  Sim g;
};
struct Holder : Part {
  Outer o;
  Sim *s;
  int n;
  double g_p;
  void implicitChain() {
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; i++)
      g.p[i] = g.k * i + g.n + g_p;
  }
  void explicitNested() {
    [[cluster::gpu_parallel]]
    for (int i = 0; i < this->n; i++)
      this->o.inner.p[i] += this->o.bias + o.inner.k;
  }
  void pointerMember() {
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; i++)
      s->p[i] = s->p[i] * s->k + 1;
  }
  void aliasing(Holder &other) {
    [[cluster::gpu_parallel]]
    for (int i = 1; i < n; i++)
      g.p[i] = other.g.p[i - 1] + 1;
  }
};

template <typename T> struct Arr {
  T *p;
  long n;
  T k;
};
template <typename T> struct Pair {
  Arr<T> d;
  Arr<T> e;
  int n;
  void run() {
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; i++)
      d.p[i] = d.k * i + e.p[i];
  }
};

// LULESH's accessors, over private vectors, called from a function that is not a member.
typedef double Real_t;
class Domain {
public:
  explicit Domain(int n) : m_x(n, 0.5), m_xd(n, 0.25) {}
  Real_t &x(int idx) { return m_x[idx]; }
  Real_t &xd(int idx) { return m_xd[idx]; }

private:
  std::vector<Real_t> m_x, m_xd;
};
static void advance(Domain &domain, int n, Real_t dt) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    domain.x(i) += domain.xd(i) * dt + Real_t(i);
}

int main() {
  const int N = 1000;
  std::vector<double> a(N, 1.0), b(N, 2.0), c(N, 3.0), e(N, 4.0);
  Holder h;
  h.n = N;
  h.g = {a.data(), 7, 0.5};
  h.o = {{b.data(), 3, 0.25}, 1.5};
  Sim sv{c.data(), 2, 1.25};
  h.s = &sv;
  h.g_p = 0.125;
  h.implicitChain();
  h.explicitNested();
  h.pointerMember();
  Holder h2 = h;
  h2.g.p = e.data();
  h.aliasing(h2); // a[i] = e[i - 1] + 1
  h2.aliasing(h2); // e[i] = e[i - 1] + 1: serial, in order
  Pair<float> t;
  std::vector<float> f(N), g(N, 2.0f);
  t.d = {f.data(), N, 0.5f};
  t.e = {g.data(), N, 0.0f};
  t.n = N;
  t.run();
  Domain dom(N);
  advance(dom, N, 0.125);
  advance(dom, N, 0.5);
  for (int i = 0; i < N; i += 111)
    std::printf("%d %a %a %a %a %a %a\n", i, a[i], b[i], c[i], e[i], (double)f[i], dom.x(i));
  return 0;
}
