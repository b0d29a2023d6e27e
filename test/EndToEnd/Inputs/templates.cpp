// Loops in templates, run (test/EndToEnd/templates.test): a stream class template over float
// and double with BabelStream's five kernels, one text safe for one instantiation and not for
// another, a partial specialization, a member template, a generic lambda, and a member typedef
// whose loop has no GPU form. Prints what each computed, exactly.
#include <cstdio>
#include <vector>

template <class T> class Stream {
public:
  Stream(int n) : n(n), a(n), b(n), c(n) {
    for (int i = 0; i < n; ++i) {
      // Small integers: every sum below is exact in float too, whatever the order.
      a[i] = T(i % 3);
      b[i] = T(i % 2);
      c[i] = T(0);
    }
  }
  void copy() {
    T *pa = a.data(), *pc = c.data();
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; i++)
      pc[i] = pa[i];
  }
  void mul();
  void add() {
    T *pa = a.data(), *pb = b.data(), *pc = c.data();
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; i++)
      pc[i] = pa[i] + pb[i];
  }
  void triad(T scalar) {
    T *pa = a.data(), *pb = b.data(), *pc = c.data();
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; i++)
      pa[i] = pb[i] + scalar * pc[i];
  }
  T dot() {
    T sum = T(0);
    T *pa = a.data(), *pb = b.data();
    [[cluster::gpu_parallel(reduce(+: sum))]]
    for (int i = 0; i < n; i++)
      sum += pa[i] * pb[i];
    return sum;
  }
  double check() const {
    double s = 0;
    for (int i = 0; i < n; ++i)
      s += double(a[i]) * 1000 + double(b[i]) * 100 + double(c[i]) * 10;
    return s;
  }

private:
  int n;
  std::vector<T> a, b, c;
};

template <class U> void Stream<U>::mul() {
  const U scalar = U(2);
  U *pb = b.data(), *pc = c.data();
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    pb[i] = scalar * pc[i];
}

template <class T> double runStream(int n, int steps) {
  Stream<T> s(n);
  double dots = 0;
  for (int t = 0; t < steps; ++t) {
    s.copy();
    s.mul();
    s.add();
    s.triad(T(1));
    dots += double(s.dot());
  }
  return dots + s.check();
}

// a[i] = a[i + N] + 1: independent for N = 0, a carried value for N = 1.
template <int N> void shift(int *a, int n) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    a[i] = a[i + N] + 1;
}

template <class T> struct Box;
template <class T> struct Box<T *> {
  T *p;
  int n;
  void ramp() {
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; ++i)
      p[i] = T(i) * T(3);
  }
};

template <class T> struct Outer {
  template <int K> struct Inner {
    template <class V> static void fill(T *a, V v, int n) {
      [[cluster::gpu_parallel]]
      for (int i = 0; i < n; ++i)
        a[i] += T(v) + K * i;
    }
  };
};

template <class T> struct Named {
  using value_type = T;
  T *p;
  int n;
  void scale() {
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; ++i) {
      value_type v = p[i];
      p[i] = v * 2 + 1;
    }
  }
};

int main() {
  const int n = 4099;
  std::printf("float %.1f\n", runStream<float>(n, 2));
  std::printf("double %.1f\n", runStream<double>(n, 2));

  std::vector<int> s0(n + 1), s1(n + 1);
  for (int i = 0; i <= n; ++i)
    s0[i] = s1[i] = i * 7 % 13;
  shift<0>(s0.data(), n);
  shift<1>(s1.data(), n);
  long t0 = 0, t1 = 0;
  for (int i = 0; i <= n; ++i)
    t0 += s0[i] * (i % 5 + 1), t1 += s1[i] * (i % 5 + 1);
  std::printf("shift %ld %ld\n", t0, t1);

  std::vector<double> d(n);
  std::vector<long> l(n);
  Box<double *>{d.data(), n}.ramp();
  Box<long *>{l.data(), n}.ramp();
  Outer<double>::Inner<3>::fill(d.data(), 2, n);
  Outer<long>::Inner<-1>::fill(l.data(), 5u, n);
  auto bump = [](auto *a, int m) {
    [[cluster::gpu_parallel]]
    for (int i = 0; i < m; ++i)
      a[i] = a[i] * 2 - i;
  };
  bump(d.data(), n);
  bump(l.data(), n);
  Named<double>{d.data(), n}.scale();
  double sd = 0;
  long sl = 0;
  for (int i = 0; i < n; ++i)
    sd += d[i] * (i % 3 + 1), sl += l[i] * (i % 3 + 1);
  std::printf("boxes %.6f %ld\n", sd, sl);
  return 0;
}
