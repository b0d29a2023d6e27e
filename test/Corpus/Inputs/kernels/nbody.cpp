/* nbody: gravitational N-body steps on an array of structs with member functions. The force
 * loop writes only the force fields of body i (through clear_force and add_force) and reads
 * only the positions and masses of the others: different fields of one array. Accumulating
 * each pair's force into both bodies (Newton's third law) adds into other iterations'
 * elements: a negative case. */
#include <cmath>
#include "corpus.h"

#define NBODY 40
#define STEPS 4

struct Body {
  double x, y, vx, vy, fx, fy, gx, gy, m;
  void clear_force()
  {
    fx = 0.0;
    fy = 0.0;
  }
  void add_force(double ax, double ay)
  {
    fx += ax;
    fy += ay;
  }
  void move(double dt)
  {
    vx += dt * fx;
    vy += dt * fy;
    x += dt * vx;
    y += dt * vy;
  }
};

static Body p[NBODY];

static void kernel_nbody(int n, int steps, double dt, Body *p)
{
  int s, i, j;
  double dx, dy, d2, inv;

  for (s = 0; s < steps; s++) {
    /* loop forces: parallel; omp: private(j, dx, dy, d2, inv) */
    [[cluster::gpu_parallel]]
    for (i = 0; i < n; i++) {
      p[i].clear_force();
      for (j = 0; j < n; j++) {
        if (j == i)
          continue;
        dx = p[j].x - p[i].x;
        dy = p[j].y - p[i].y;
        d2 = dx * dx + dy * dy + 0.01;
        inv = p[j].m / (d2 * sqrt(d2));
        p[i].add_force(dx * inv, dy * inv);
      }
    }
    /* loop move: parallel */
    [[cluster::gpu_parallel]]
    for (i = 0; i < n; i++)
      p[i].move(dt);
  }

  for (i = 0; i < n; i++) {
    p[i].gx = 0.0;
    p[i].gy = 0.0;
  }
  /* loop pairs: sequential (the pair (i, j) also adds into body j); omp: private(j, dx, dy, d2, inv) */
  [[cluster::gpu_parallel]]
  for (i = 0; i < n; i++)
    for (j = i + 1; j < n; j++) {
      dx = p[j].x - p[i].x;
      dy = p[j].y - p[i].y;
      d2 = dx * dx + dy * dy + 0.01;
      inv = 1.0 / (d2 * sqrt(d2));
      p[i].gx += dx * inv * p[j].m;
      p[i].gy += dy * inv * p[j].m;
      p[j].gx -= dx * inv * p[i].m;
      p[j].gy -= dy * inv * p[i].m;
    }
}

int main(void)
{
  int i;

  for (i = 0; i < NBODY; i++) {
    p[i].x = (double)((i * 17) % 23) / 3;
    p[i].y = (double)((i * 29) % 31) / 4;
    p[i].vx = 0.0;
    p[i].vy = 0.0;
    p[i].m = 1.0 + (double)(i % 3) / 2;
  }
  kernel_nbody(NBODY, STEPS, 0.01, p);
  print_array("bodies", &p[0].x, NBODY * 9);
  return 0;
}
