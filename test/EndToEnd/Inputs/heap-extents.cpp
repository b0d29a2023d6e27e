// Gather reads through pointers whose extent the source does not give (docs/data-movement.md):
// the runtime takes the heap block that holds each pointer. A table from malloc, from new[],
// a pointer into the middle of a block read below itself, and, serial, a stack table (no
// block) and a table in the same block as the output.
#include <cstdio>
#include <cstdlib>

static long long digest(const int *o, int n) {
  long long s = 0;
  for (int i = 0; i < n; ++i)
    s = s * 31 + o[i];
  return s;
}

static void gather(int n, int *o, const int *t, const int *ix) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i)
    o[i] = t[ix[i]] + i;
}

int main() {
  const int n = 4000, m = 500;
  int *ix = (int *)std::malloc(n * sizeof(int));
  int *out = (int *)std::malloc(n * sizeof(int));
  // A table from malloc.
  int *heap = (int *)std::malloc(m * sizeof(int));
  for (int k = 0; k < m; ++k)
    heap[k] = (k * 37) % 1001;
  for (int i = 0; i < n; ++i)
    ix[i] = (i * 13) % m;
  gather(n, out, heap, ix);
  std::printf("malloc %lld\n", digest(out, n));
  // From new[].
  int *fresh = new int[m];
  for (int k = 0; k < m; ++k)
    fresh[k] = (k * 11) % 997;
  gather(n, out, fresh, ix);
  std::printf("new %lld\n", digest(out, n));
  // A pointer 40 elements into its block, read from p[-40] to p[m - 41].
  int *mid = heap + 40;
  for (int i = 0; i < n; ++i)
    ix[i] = (i * 7) % m - 40;
  gather(n, out, mid, ix);
  std::printf("interior %lld\n", digest(out, n));
  // A stack table: no block, serial.
  int stack[64];
  for (int k = 0; k < 64; ++k)
    stack[k] = k * 3;
  for (int i = 0; i < n; ++i)
    ix[i] = (i * 5) % 64;
  gather(n, out, stack, ix);
  std::printf("stack %lld\n", digest(out, n));
  // The table after the output in one block: one block, both regions; serial.
  int *both = (int *)std::malloc((n + m) * sizeof(int));
  for (int k = 0; k < n + m; ++k)
    both[k] = k % 17;
  for (int i = 0; i < n; ++i)
    ix[i] = (i * 3) % m;
  gather(n, both, both + n, ix);
  std::printf("same-block %lld\n", digest(both, n));
  // The output itself, read at other iterations' positions: only serial is right.
  for (int i = 0; i < n; ++i)
    ix[i] = (i * 3 + 1) % n;
  gather(n, both, both, ix);
  std::printf("same-array %lld\n", digest(both, n));
  std::free(both);
  delete[] fresh;
  std::free(heap);
  std::free(out);
  std::free(ix);
  return 0;
}
