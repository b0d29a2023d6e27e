/* The runtime's C interface used by a C compiler alone (test/Runtime/c-header.test): the header
 * leaks no macro, and its entry points count trips as Runtime.h does and run a loop with a
 * reduction through a chunk function, on as many workers as CLUSTRIX_DEVICES says. */
#include <clustrix/runtime_c.h>

#if defined(bool) || defined(Schedule) || defined(RegionInfo) || defined(CLUSTRIX_C_BOOL)
#error "runtime_c.h leaks a macro"
#endif

#include <stdio.h>

struct env {
  const long *v;
};

static void chunk(void *envp, uint64_t lo, uint64_t hi, clustrix_ChunkContext *ctx) {
  const struct env *e = (const struct env *)envp;
  long *sum = (long *)ctx->Partials[0];
  uint64_t k;
  for (k = lo; k < hi; ++k)
    *sum += e->v[k];
}

int main(void) {
  static long v[1000];
  long sum = 0;
  int i, ran;
  struct env e;
  clustrix_ReductionSlot red;
  clustrix_LoopArgs args = {0};
  clustrix_LoopInfo info = {0};
  /* for (int i = 10; i > -3; i -= 4): 10, 6, 2, -2. */
  clustrix_Trip t = clustrix_trip_count(clustrix_ScalarKind_I32, clustrix_ScalarKind_I32,
                                        (uint64_t)10, (uint64_t)(int64_t)-3, clustrix_Cmp_GT, 4,
                                        0);
  printf("down: %llu %d\n", (unsigned long long)t.Count, (int)t.Ok);
  /* for (unsigned char c = 250; c != 4; ++c): wraps after 255. */
  t = clustrix_trip_count(clustrix_ScalarKind_U8, clustrix_ScalarKind_U8, 250, 4, clustrix_Cmp_NE,
                          1, 1);
  printf("wrap: %llu %d\n", (unsigned long long)t.Count, (int)t.Ok);
  /* for (int i = 0; i != 7; i += 2) never meets its bound. */
  t = clustrix_trip_count(clustrix_ScalarKind_I32, clustrix_ScalarKind_I32, 0, 7, clustrix_Cmp_NE,
                          2, 1);
  printf("never: %d\n", (int)t.Ok);
  {
    clustrix_Trip a = {(uint64_t)1 << 40, 1}, b = {(uint64_t)1 << 30, 1};
    t = clustrix_trip_product(a, b);
    printf("product: %d\n", (int)t.Ok);
  }
  printf("induction: %d\n", (int)clustrix_induction((uint64_t)10, 4, 0, 3));

  for (i = 0; i < 1000; ++i)
    v[i] = i * 3 - 7;
  e.v = v;
  red.Kind = clustrix_ScalarKind_I64;
  red.Op = clustrix_ReduceOp_Add;
  red.Target = &sum;
  info.AbiVersion = CLUSTRIX_RT_ABI_VERSION;
  info.File = "c-header.c";
  info.Line = 1;
  info.Column = 1;
  info.Sched = clustrix_Schedule_Dynamic;
  info.ChunkSize = 7;
  info.Level = 1;
  info.Score = 1;
  info.WorkPerIter = 1;
  args.TripCount = 1000;
  args.Host = &chunk;
  args.HostEnv = &e;
  args.Reductions = &red;
  args.NumReductions = 1;
  ran = clustrix_run_loop(&info, &args);
  if (!ran) {
    void *own[1];
    clustrix_ChunkContext ctx;
    own[0] = &sum;
    ctx.Partials = own;
    ctx.Lo = 0;
    ctx.Hi = 1000;
    ctx.Device = -1;
    chunk(&e, 0, 1000, &ctx);
  }
  printf("sum: %ld\n", sum);
  return 0;
}
