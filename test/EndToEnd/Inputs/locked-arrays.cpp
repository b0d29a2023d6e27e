// A program that page-locks its own arrays, as CUDA programs do (cudaHostRegister; here through
// the driver named by CLUSTRIX_CUDA_LIBRARY, when it is set), then writes single elements
// between resident loops (docs/data-movement.md#residency). From locked memory a copy to a
// device is asynchronous: it reads the host's bytes when the stream reaches it, not when it is
// queued, so the host must not write them before then.
//
//   locked-arrays N STEPS [lock]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <vector>

// Page-locks [P, P + Bytes) with the driver's cuMemHostRegister on device 0's primary context;
// false when there is no driver or it refuses.
static bool lockPages(void *P, size_t Bytes) {
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

// Each step: a loop that reads x, the host's write of x[0], a loop that reads x again. The
// first loop must see x[0] as it was before the write.
void steps(int n, int count, double *x, double *y, double *z) {
  for (int t = 0; t < count; ++t) {
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; ++i) {
      y[i] = x[i] * 2.0 + y[i];
    }
    x[0] = 100.0 + t;
    [[cluster::gpu_parallel]]
    for (int i = 0; i < n; ++i) {
      z[i] = x[i] + y[i];
    }
  }
}

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  int n = std::atoi(argv[1]), count = std::atoi(argv[2]);
  bool lock = argc > 3 && std::strcmp(argv[3], "lock") == 0;
  std::vector<double> x(n), y(n), z(n);
  for (int i = 0; i < n; ++i) {
    x[i] = 0.5 * (i % 17);
    y[i] = 1.0;
    z[i] = 0.0;
  }
  if (lock && !(lockPages(x.data(), n * sizeof(double)) &&
                lockPages(y.data(), n * sizeof(double)) &&
                lockPages(z.data(), n * sizeof(double))))
    std::printf("(pages not locked)\n");
  steps(n, count, x.data(), y.data(), z.data());
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += y[i] * (i % 5 + 1) + z[i];
  std::printf("y[0] %.17g z[0] %.17g sum %.17g\n", y[0], z[0], s);
  return 0;
}
