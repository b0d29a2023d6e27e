// Iterative GPU work, the shape that data residency is for (issue: device residency): loops
// called again and again on the same arrays. Built with clustrix++ -O2; the hand-written CUDA
// counterparts are in bench/gpu/HandWritten.cu (`jacobi-steps`, `stream`).
//
//   BenchIter <serial|clustrix> jacobi-steps M STEPS   two 5-point sweeps a step (a->b, b->a)
//   BenchIter <serial|clustrix> stream N REPS          BabelStream's copy and triad, REPS times
//   BenchIter <serial|clustrix> stream-steps N REPS    the same two loops in one time-step loop
//
// Prints "total_ns T check C warmup_ns W" for jacobi-steps (every step, and the copy back the
// host's read of the result needs; W is the one step on another grid that pays the runtime's
// one-time costs first, as the hand-written program creates its context before its clock), and "copy_GBps X triad_GBps Y check C" for stream: the median of REPS
// calls of each kernel, counting the bytes the kernel itself moves (2 and 3 arrays); and
// "total_ns T check C elements_wrong W" for stream-steps (REPS steps and the host's read of the
// result; W counts the elements that differ from the recurrence computed on one scalar). The
// stream loops are called from a timed host loop, which no residency scope can cover; in
// stream-steps they stay on the device, and the difference of two step counts gives their
// resident bandwidth (bench/resident/steps.py computes it, as scripts/gpu-check.sh runs it).
//
// BENCHITER_LOCK=1 page-locks stream-steps' arrays before the clock starts, as a CUDA program
// does with cudaHostRegister (here cuMemHostRegister, through the driver that
// CLUSTRIX_CUDA_LIBRARY names, or libcuda.so.1): the runtime then copies them straight between
// them and the GPU, at the link's speed (bench/resident/copies.py shows the copies).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <string>
#include <vector>

namespace {

/// Page-locks [P, P + Bytes) on device 0's primary context; false when there is no driver or
/// it refuses.
bool lockPages(void *P, size_t Bytes) {
  const char *Lib = std::getenv("CLUSTRIX_CUDA_LIBRARY");
  void *H = dlopen(Lib && *Lib ? Lib : "libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (!H)
    return false;
  using InitFn = int (*)(unsigned);
  using GetFn = int (*)(int *, int);
  using RetainFn = int (*)(void **, int);
  using SetFn = int (*)(void *);
  using RegFn = int (*)(void *, size_t, unsigned);
  auto Init = reinterpret_cast<InitFn>(dlsym(H, "cuInit"));
  auto Get = reinterpret_cast<GetFn>(dlsym(H, "cuDeviceGet"));
  auto Retain = reinterpret_cast<RetainFn>(dlsym(H, "cuDevicePrimaryCtxRetain"));
  auto Set = reinterpret_cast<SetFn>(dlsym(H, "cuCtxSetCurrent"));
  auto Reg = reinterpret_cast<RegFn>(dlsym(H, "cuMemHostRegister_v2"));
  int Dev = 0;
  void *Ctx = nullptr;
  return Init && Get && Retain && Set && Reg && Init(0) == 0 && Get(&Dev, 0) == 0 &&
         Retain(&Ctx, Dev) == 0 && Set(Ctx) == 0 && Reg(P, Bytes, 0) == 0;
}

void sweepSerial(int m, const double *a, double *b) {
  for (int i = 1; i < m - 1; ++i)
    for (int j = 1; j < m - 1; ++j)
      b[i * m + j] = 0.25 * (a[(i - 1) * m + j] + a[(i + 1) * m + j] + a[i * m + j - 1] +
                             a[i * m + j + 1]);
}

void jacobiSerial(int m, int steps, double *a, double *b) {
  for (int t = 0; t < steps; ++t) {
    sweepSerial(m, a, b);
    sweepSerial(m, b, a);
  }
}

// collapse(2), as an OpenMP programmer writes it: one GPU thread per point, as the hand-written
// kernel's 2-D grid has, not one per row.
void jacobiClustrix(int m, int steps, double *a, double *b) {
  for (int t = 0; t < steps; ++t) {
    [[cluster::gpu_parallel(collapse(2))]]
    for (int i = 1; i < m - 1; ++i) {
      for (int j = 1; j < m - 1; ++j)
        b[i * m + j] = 0.25 * (a[(i - 1) * m + j] + a[(i + 1) * m + j] + a[i * m + j - 1] +
                               a[i * m + j + 1]);
    }
    [[cluster::gpu_parallel(collapse(2))]]
    for (int i = 1; i < m - 1; ++i) {
      for (int j = 1; j < m - 1; ++j)
        a[i * m + j] = 0.25 * (b[(i - 1) * m + j] + b[(i + 1) * m + j] + b[i * m + j - 1] +
                               b[i * m + j + 1]);
    }
  }
}

void copySerial(long n, const double *a, double *c) {
  for (long i = 0; i < n; ++i)
    c[i] = a[i];
}
void triadSerial(long n, double s, double *a, const double *b, const double *c) {
  for (long i = 0; i < n; ++i)
    a[i] = b[i] + s * c[i];
}
void streamStepsSerial(long n, int reps, double s, double *a, const double *b, double *c) {
  for (int r = 0; r < reps; ++r) {
    copySerial(n, a, c);
    triadSerial(n, s, a, b, c);
  }
}

void streamStepsClustrix(long n, int reps, double s, double *a, const double *b, double *c) {
  for (int r = 0; r < reps; ++r) {
    [[cluster::gpu_parallel]]
    for (long i = 0; i < n; ++i) {
      c[i] = a[i];
    }
    [[cluster::gpu_parallel]]
    for (long i = 0; i < n; ++i) {
      a[i] = b[i] + s * c[i];
    }
  }
}

void copyClustrix(long n, const double *a, double *c) {
  [[cluster::gpu_parallel]]
  for (long i = 0; i < n; ++i) {
    c[i] = a[i];
  }
}
void triadClustrix(long n, double s, double *a, const double *b, const double *c) {
  [[cluster::gpu_parallel]]
  for (long i = 0; i < n; ++i) {
    a[i] = b[i] + s * c[i];
  }
}

double checksum(const std::vector<double> &v) {
  double s = 0.0;
  for (double x : v)
    s += x;
  return s;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: BenchIter <serial|clustrix> <jacobi-steps|stream> N STEPS\n");
    return 2;
  }
  const std::string how = argv[1], what = argv[2];
  const long n = std::atol(argv[3]);
  const int steps = std::atoi(argv[4]);
  const bool clx = how == "clustrix";
  if ((!clx && how != "serial") || n < 3 || steps < 1) {
    std::fprintf(stderr, "BenchIter: bad arguments\n");
    return 2;
  }
  using Clock = std::chrono::steady_clock;
  if (what == "jacobi-steps") {
    const int m = int(n);
    std::vector<double> a(size_t(m) * m), b;
    for (size_t i = 0; i < a.size(); ++i)
      a[i] = double(i % 31);
    b = a; // the edges of both grids are fixed
    // The hand-written program creates its context and allocates its buffers before its clock
    // starts (cudaFree(nullptr), cudaMalloc). Clustrix's one-time costs (finding the devices,
    // their contexts, compiling or loading the kernels, the pinned staging buffer, the buffers
    // its cache then keeps) are paid here, by one step on another grid of the same size, and
    // printed apart: warmup_ns.
    double warm = 0.0;
    if (clx) {
      std::vector<double> wa = a, wb = a;
      auto w0 = Clock::now();
      jacobiClustrix(m, 1, wa.data(), wb.data());
      warm = std::chrono::duration<double, std::nano>(Clock::now() - w0).count();
    }
    auto t0 = Clock::now();
    (clx ? jacobiClustrix : jacobiSerial)(m, steps, a.data(), b.data());
    double check = checksum(a); // the host's read of the result is inside the timed region
    double ns = std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
    std::printf("total_ns %.1f check %.17g warmup_ns %.1f\n", ns, check, warm);
    return 0;
  }
  if (what == "stream-steps") {
    std::vector<double> a(n, 0.1), b(n, 0.2), c(n, 0.0);
    if (const char *L = std::getenv("BENCHITER_LOCK"); clx && L && std::strcmp(L, "1") == 0) {
      for (std::vector<double> *V : {&a, &b, &c})
        if (!lockPages(V->data(), V->size() * sizeof(double))) {
          std::fprintf(stderr, "BenchIter: BENCHITER_LOCK=1, but the pages could not be locked\n");
          return 2;
        }
    }
    auto t0 = Clock::now();
    // Triad's scalar 1.0: a grows by b every step, so the check tells every step count apart.
    (clx ? streamStepsClustrix : streamStepsSerial)(n, steps, 1.0, a.data(), b.data(), c.data());
    double check = checksum(a) + checksum(c);
    double ns = std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
    // Every element follows the same recurrence: each must equal it, computed on one scalar.
    double ea = 0.1, ec = 0.0;
    for (int r = 0; r < steps; ++r) {
      ec = ea;
      ea = 0.2 + 1.0 * ec;
    }
    long bad = 0;
    for (long i = 0; i < n; ++i)
      bad += a[i] != ea || c[i] != ec;
    std::printf("total_ns %.1f check %.17g elements_wrong %ld\n", ns, check, bad);
    return bad != 0;
  }
  if (what == "stream") {
    std::vector<double> a(n, 0.1), b(n, 0.2), c(n, 0.0);
    std::vector<double> tc, tt;
    for (int r = 0; r < steps + 1; ++r) {
      auto t0 = Clock::now();
      (clx ? copyClustrix : copySerial)(n, a.data(), c.data());
      auto t1 = Clock::now();
      (clx ? triadClustrix : triadSerial)(n, 0.4, a.data(), b.data(), c.data());
      auto t2 = Clock::now();
      if (r > 0) {
        tc.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count());
        tt.push_back(std::chrono::duration<double, std::nano>(t2 - t1).count());
      }
    }
    double check = checksum(a) + checksum(c);
    std::printf("copy_GBps %.1f triad_GBps %.1f check %.17g\n", 2.0 * 8 * n / median(tc),
                3.0 * 8 * n / median(tt), check);
    return 0;
  }
  std::fprintf(stderr, "BenchIter: unknown loop '%s'\n", argv[2]);
  return 2;
}
