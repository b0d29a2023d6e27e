/* Regions reached through fields of a variable (XSBench's `SD.p_energy_samples[i]`): a local
   struct, a pointer to a struct, a struct inside a struct, a global struct, and two pointers to
   one struct (whose regions overlap: that loop runs serially). Each loop has a GPU form, in
   which the field chain is a parameter of its own; the outputs equal the serial program's. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  double *energy;
  int *mat;
  int n;
  double scale;
} SimData;

typedef struct {
  SimData inner;
  double bias;
} Outer;

static SimData global_sd;

static double pick(unsigned long long *seed) {
  *seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(*seed >> 11) / 9007199254740992.0;
}

static void sample(SimData SD, int lookups) {
  int i;
  [[cluster::gpu_parallel]]
  for (i = 0; i < lookups; i++) {
    unsigned long long seed = 12345ULL + (unsigned long long)i;
    double e = pick(&seed);
    SD.energy[i] = e * SD.scale;
    SD.mat[i] = (int)(e * 12) + SD.n;
  }
}

static void through_pointer(SimData *S, int lookups) {
  int i;
  [[cluster::gpu_parallel]]
  for (i = 0; i < lookups; i++)
    S->energy[i] = S->energy[i] * S->scale + S->mat[i];
}

static void nested(Outer o, int lookups) {
  int i;
  [[cluster::gpu_parallel]]
  for (i = 0; i < lookups; i++)
    o.inner.energy[i] += o.bias * o.inner.mat[i];
}

static void global_struct(int lookups) {
  int i;
  [[cluster::gpu_parallel]]
  for (i = 0; i < lookups; i++)
    global_sd.energy[i] = global_sd.energy[i] * 0.5 + i;
}

/* Two pointers to one struct: the regions' address ranges overlap, and the loop runs serially. */
static void shift(SimData *s, const SimData *t, int lookups) {
  int i;
  [[cluster::gpu_parallel]]
  for (i = 0; i < lookups - 1; i++)
    s->energy[i] = t->energy[i + 1];
}

int main(void) {
  const int n = 5000;
  SimData sd;
  Outer o;
  double h = 0;
  int i;
  sd.energy = (double *)malloc(n * sizeof(double));
  sd.mat = (int *)malloc(n * sizeof(int));
  sd.n = 3;
  sd.scale = 1.5;
  sample(sd, n);
  through_pointer(&sd, n);
  o.inner = sd;
  o.bias = 0.25;
  nested(o, n);
  global_sd = sd;
  global_struct(n);
  shift(&sd, &sd, n);
  for (i = 0; i < n; i++)
    h = h * 0.999 + sd.energy[i] + sd.mat[i];
  printf("%a\n", h);
  free(sd.energy);
  free(sd.mat);
  return 0;
}
