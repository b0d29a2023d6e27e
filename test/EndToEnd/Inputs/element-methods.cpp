// Member functions called on array elements (`p[i].move(dt)`), which write some fields of
// element i and read others of every element, and a member of an element reached through
// `(&q[0])->m` while the loop writes whole elements (the runtime finds the overlap).
#include <cmath>
#include <cstdio>

struct Body {
  double x, y, vx, vy, fx, fy, m;
  double hist[2];
  void clearForce() {
    fx = 0.0;
    fy = 0.0;
  }
  void addForce(double ax, double ay) {
    fx += ax;
    fy += ay;
  }
  void move(double dt) {
    vx += dt * fx;
    vy += dt * fy;
    x += dt * vx;
    y += dt * vy;
    hist[0] = x; // an array member of the element
  }
  double lastX() const { return hist[0]; }
};

static Body bodies[600];

static void step(int n, double dt, Body *p) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
    p[i].clearForce();
    for (int j = 0; j < n; j++) {
      if (j == i)
        continue;
      double dx = p[j].x - p[i].x, dy = p[j].y - p[i].y;
      double d2 = dx * dx + dy * dy + 0.01;
      double inv = p[j].m / (d2 * std::sqrt(d2));
      p[i].addForce(dx * inv, dy * inv);
    }
  }
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++)
    p[i].move(dt);
  // Reads the array member of the next element, writes another field of this one.
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n - 1; i++)
    p[i].fy += 1e-3 * p[i + 1].lastX();
}

// Iteration 0 writes bodies[0].hist[1], which every iteration reads: serially, all but the
// first read the new value.
static double stamps[600];
static void stamp(int n) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; i++) {
    bodies[i] = Body{bodies[i].x, bodies[i].y, 0, 0, 0, 0, bodies[i].m, {1.0, 2.0 + i}};
    stamps[i] = (&bodies[0])->hist[1] * i;
  }
}

int main() {
  const int n = 600;
  for (int i = 0; i < n; i++)
    bodies[i] = Body{double((i * 17) % 23) / 3, double((i * 29) % 31) / 4, 0, 0, 0, 0,
                     1.0 + double(i % 3) / 2, {0.0, -1.0}};
  for (int s = 0; s < 3; s++)
    step(n, 0.01, bodies);
  stamp(n);
  double h = 0, t = 0;
  for (int i = 0; i < n; i++) {
    h = h * 0.999 + bodies[i].x + 2 * bodies[i].vy;
    t += stamps[i];
  }
  std::printf("%a %a\n", h, t);
}
