/* nbody: gravitational N-body steps on an array of structs. The force loop writes only the
 * force fields of body i and reads only the positions and masses of the others: different
 * fields of one array. Accumulating each pair's force into both bodies (Newton's third law)
 * adds into other iterations' elements: a negative case. */
#include <math.h>
#include "corpus.h"

#define NBODY 40
#define STEPS 4

struct body {
  double x, y, vx, vy, fx, fy, gx, gy, m;
};

static struct body p[NBODY];

static void kernel_nbody(int n, int steps, double dt, struct body *p)
{
  int s, i, j;
  double dx, dy, d2, inv;

  for (s = 0; s < steps; s++) {
    /* loop forces: parallel; omp: private(j, dx, dy, d2, inv) */
    [[cluster::gpu_parallel]]
    for (i = 0; i < n; i++) {
      p[i].fx = 0.0;
      p[i].fy = 0.0;
      for (j = 0; j < n; j++) {
        if (j == i)
          continue;
        dx = p[j].x - p[i].x;
        dy = p[j].y - p[i].y;
        d2 = dx * dx + dy * dy + 0.01;
        inv = p[j].m / (d2 * sqrt(d2));
        p[i].fx += dx * inv;
        p[i].fy += dy * inv;
      }
    }
    /* loop move: parallel */
    [[cluster::gpu_parallel]]
    for (i = 0; i < n; i++) {
      p[i].vx += dt * p[i].fx;
      p[i].vy += dt * p[i].fy;
      p[i].x += dt * p[i].vx;
      p[i].y += dt * p[i].vy;
    }
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
