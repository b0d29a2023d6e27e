// Array members of elements reached through references (element-references.test): a reference
// the body binds to an element, and a callee's reference parameter bound to one.
#include <cstdio>
#include <vector>

struct Particle {
  double pos[3];
  double vel[3];
  int kind;
};

static double energy(const Particle &p) {
  return 0.5 * (p.vel[0] * p.vel[0] + p.vel[1] * p.vel[1] + p.vel[2] * p.vel[2]);
}

static void push(Particle &p, double dt) {
  for (int d = 0; d < 3; ++d)
    p.pos[d] += dt * p.vel[d];
}

int main() {
  const int n = 2000;
  std::vector<Particle> ps(n);
  for (int i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) {
      ps[i].pos[d] = i * 0.5 + d;
      ps[i].vel[d] = (i % 13) - 6 + d * 0.25;
      ps[i].kind = i % 3;
    }
  Particle *p = ps.data();
  std::vector<double> e(n);
  double *en = e.data();
  const double dt = 0.01;
  for (int step = 0; step < 3; ++step) {
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; ++i) {
      Particle &q = p[i];
      if (q.kind != 0)
        q.vel[1] -= 9.81 * dt;
      push(q, dt);
      en[i] = energy(p[i]) + q.pos[2];
    }
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += e[i] + ps[i].pos[0] + ps[i].vel[1];
  std::printf("%.6f\n", s);
  return 0;
}
