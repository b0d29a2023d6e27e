//===- DriverTest.cpp - The emulated CUDA driver and NVRTC ----------------===//
//
// Everything goes through the runtime's own loaders (DriverApi, NvrtcApi, compileToCubin), so
// these tests exercise exactly the entry points and options the runtime uses. The emulated
// machine: six devices, cuda3 small (8 MiB), cuda4 and cuda5 kept for launches that break them.
//
//===----------------------------------------------------------------------===//
#include "CUDA/CudaDriver.h"
#include "CUDA/Nvrtc.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

using namespace clustrix::rt::cuda;

constexpr CUresult CUDA_ERROR_INVALID_VALUE = 1;

namespace {

// Set before the first cuInit reads them.
const bool Configured = [] {
  ::setenv("CLUSTRIX_EMU_GPUS", "6", 1);
  ::setenv("CLUSTRIX_EMU_GPU_MEMORY", "256M,256M,256M,8M,64M,64M", 1);
  ::unsetenv("CLUSTRIX_EMU_GPU_SMS");
  ::unsetenv("CLUSTRIX_EMU_FAULT");
  // Device 5 can use the host's pageable memory (HMM); the others cannot.
  ::setenv("CLUSTRIX_EMU_PAGEABLE_ACCESS", "off,off,off,off,off,hmm", 1);
  // Copies of page-locked memory wait this long on their stream (no other test locks memory).
  ::setenv("CLUSTRIX_EMU_COPY_LATENCY", "20000", 1);
  return true;
}();

const DriverApi &api() {
  static const DriverApi Api = DriverApi::load(CLUSTRIX_TEST_CUDAEMU);
  return Api;
}

const NvrtcApi &nvrtc() {
  static const NvrtcApi Api = NvrtcApi::load(CLUSTRIX_TEST_CUDAEMU);
  return Api;
}

/// Makes device Ordinal's primary context current on this thread.
void use(int Ordinal) {
  const DriverApi &A = api();
  ASSERT_EQ(A.cuInit(0), CUDA_SUCCESS);
  CUdevice D;
  ASSERT_EQ(A.cuDeviceGet(&D, Ordinal), CUDA_SUCCESS);
  CUcontext C;
  ASSERT_EQ(A.cuDevicePrimaryCtxRetain(&C, D), CUDA_SUCCESS);
  ASSERT_EQ(A.cuCtxSetCurrent(C), CUDA_SUCCESS);
}

// Kernels in the shape the compiler emits: a grid-stride loop, per-block partials combined in
// shared memory across __syncthreads, plus one kernel that reads a neighbour's shared slot
// after a barrier and one that uses atomics.
const char *Kernels = R"(
extern "C" __global__ void scale_sum(unsigned long long Lo, unsigned long long Hi,
                                     const double *x, double *y, double a, double *part) {
  __shared__ double s[256];
  double acc = 0;
  for (unsigned long long k = Lo + blockIdx.x * blockDim.x + threadIdx.x; k < Hi;
       k += (unsigned long long)gridDim.x * blockDim.x) {
    y[k] = a * x[k];
    acc += y[k];
  }
  s[threadIdx.x] = acc;
  __syncthreads();
  for (unsigned w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) s[threadIdx.x] += s[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) part[blockIdx.x] = s[0];
}
extern "C" __global__ void neighbour(int *out) {
  __shared__ int s[256];
  s[threadIdx.x] = (int)(threadIdx.x + 1000 * blockIdx.x);
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
}
extern "C" __global__ void out_of_bounds(int *p) { p[1 << 22] = 1; }
extern "C" __global__ void count(unsigned long long *n, int *hi) {
  atomicAdd(n, 1ull);
  atomicMax(hi, (int)(blockIdx.x * blockDim.x + threadIdx.x));
}
)";

/// The kernels above, compiled once, as the runtime compiles kernel text.
const std::vector<char> &image() {
  static std::vector<char> Cubin = [] {
    std::vector<char> C;
    std::string Log;
    EXPECT_TRUE(compileToCubin(nvrtc(), Kernels, "emu_test", 90, C, Log)) << Log;
    return C;
  }();
  return Cubin;
}

CUfunction function(const char *Name) {
  CUmodule M = nullptr;
  CUfunction F = nullptr;
  EXPECT_EQ(api().cuModuleLoadData(&M, image().data()), CUDA_SUCCESS);
  EXPECT_EQ(api().cuModuleGetFunction(&F, M, Name), CUDA_SUCCESS);
  return F;
}

/// Runs scale_sum over [0, N) on the current device with Grid blocks; checks y and the partials.
void scaleSum(uint64_t N, unsigned Grid, double A) {
  const DriverApi &Api = api();
  CUfunction F = function("scale_sum");
  std::vector<double> X(N), Y(N, -1.0), Part(Grid, -1.0);
  for (uint64_t K = 0; K < N; ++K)
    X[K] = static_cast<double>(K % 7);
  CUdeviceptr DX, DY, DP;
  ASSERT_EQ(Api.cuMemAlloc(&DX, N * 8), CUDA_SUCCESS);
  ASSERT_EQ(Api.cuMemAlloc(&DY, N * 8), CUDA_SUCCESS);
  ASSERT_EQ(Api.cuMemAlloc(&DP, Grid * 8), CUDA_SUCCESS);
  CUstream S;
  ASSERT_EQ(Api.cuStreamCreate(&S, 1), CUDA_SUCCESS);
  ASSERT_EQ(Api.cuMemcpyHtoDAsync(DX, X.data(), N * 8, S), CUDA_SUCCESS);
  unsigned long long Lo = 0, Hi = N;
  void *Params[] = {&Lo, &Hi, &DX, &DY, &A, &DP};
  ASSERT_EQ(Api.cuLaunchKernel(F, Grid, 1, 1, 256, 1, 1, 0, S, Params, nullptr), CUDA_SUCCESS);
  ASSERT_EQ(Api.cuMemcpyDtoHAsync(Y.data(), DY, N * 8, S), CUDA_SUCCESS);
  ASSERT_EQ(Api.cuMemcpyDtoHAsync(Part.data(), DP, Grid * 8, S), CUDA_SUCCESS);
  ASSERT_EQ(Api.cuStreamSynchronize(S), CUDA_SUCCESS);
  std::vector<double> Want(Grid, 0.0);
  for (uint64_t K = 0; K < N; ++K) {
    ASSERT_EQ(Y[K], A * X[K]) << K;
    Want[(K / 256) % Grid] += A * X[K]; // integers: any order gives the same sum
  }
  for (unsigned B = 0; B < Grid; ++B)
    EXPECT_EQ(Part[B], Want[B]) << "block " << B;
  EXPECT_EQ(Api.cuMemFree(DX), CUDA_SUCCESS);
  EXPECT_EQ(Api.cuMemFree(DY), CUDA_SUCCESS);
  EXPECT_EQ(Api.cuMemFree(DP), CUDA_SUCCESS);
  EXPECT_EQ(Api.cuStreamDestroy(S), CUDA_SUCCESS);
}

TEST(CudaEmuTest, ExportsWhatTheRuntimeResolves) {
  ASSERT_TRUE(Configured);
  ASSERT_TRUE(api().Loaded) << api().Error;
  ASSERT_TRUE(nvrtc().Loaded) << nvrtc().Error;
  EXPECT_EQ(api().cuKernelGetFunction, nullptr); // ahead-of-time kernels are GPU-only
  EXPECT_EQ(nvrtc().version(), 99010);           // never mistaken for a real NVRTC's cache key
  int V = 0;
  ASSERT_EQ(api().cuDriverGetVersion(&V), CUDA_SUCCESS);
  EXPECT_EQ(V, 13000);
}

TEST(CudaEmuTest, DevicesFollowTheEnvironment) {
  const DriverApi &A = api();
  int N = -1;
  EXPECT_EQ(A.cuDeviceGetCount(&N), CUDA_ERROR_NOT_INITIALIZED); // before cuInit
  ASSERT_EQ(A.cuInit(0), CUDA_SUCCESS);
  ASSERT_EQ(A.cuDeviceGetCount(&N), CUDA_SUCCESS);
  EXPECT_EQ(N, 6);
  char Name[64];
  ASSERT_EQ(A.cuDeviceGetName(Name, sizeof(Name), 0), CUDA_SUCCESS);
  EXPECT_STREQ(Name, "Clustrix emulated GPU");
  size_t Total = 0;
  ASSERT_EQ(A.cuDeviceTotalMem(&Total, 3), CUDA_SUCCESS);
  EXPECT_EQ(Total, size_t(8) << 20);
  int Major = 0, Minor = -1, Sms = 0;
  A.cuDeviceGetAttribute(&Major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0);
  A.cuDeviceGetAttribute(&Minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0);
  A.cuDeviceGetAttribute(&Sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0);
  EXPECT_EQ(Major, 9);
  EXPECT_EQ(Minor, 0);
  EXPECT_EQ(Sms, 1); // one per 256 MiB
  CUdevice D;
  EXPECT_EQ(A.cuDeviceGet(&D, 6), CUDA_ERROR_INVALID_DEVICE);
  EXPECT_EQ(A.cuCtxSetCurrent(nullptr), CUDA_SUCCESS);
  CUdeviceptr P;
  EXPECT_NE(A.cuMemAlloc(&P, 16), CUDA_SUCCESS); // no current context
}

TEST(CudaEmuTest, FreshMemoryIsPoisoned) {
  use(0);
  const DriverApi &A = api();
  CUdeviceptr P;
  ASSERT_EQ(A.cuMemAlloc(&P, 4096), CUDA_SUCCESS);
  std::vector<uint32_t> Words(1024, 0);
  ASSERT_EQ(A.cuMemcpyDtoHAsync(Words.data(), P, 4096, nullptr), CUDA_SUCCESS);
  for (uint32_t W : Words)
    ASSERT_EQ(W, 0xFFF4CDCDu);
  float F;
  double Dbl;
  std::memcpy(&F, Words.data(), 4);
  std::memcpy(&Dbl, Words.data(), 8);
  EXPECT_TRUE(std::isnan(F));
  EXPECT_TRUE(std::isnan(Dbl));
  EXPECT_EQ(A.cuMemFree(P), CUDA_SUCCESS);
  EXPECT_EQ(A.cuMemFree(P), CUDA_ERROR_INVALID_VALUE); // twice
}

TEST(CudaEmuTest, OutOfMemoryIsReal) {
  use(3); // 8 MiB
  const DriverApi &A = api();
  CUdeviceptr Big, More;
  ASSERT_EQ(A.cuMemAlloc(&Big, 6 << 20), CUDA_SUCCESS);
  size_t Free = 0, Total = 0;
  ASSERT_EQ(A.cuMemGetInfo(&Free, &Total), CUDA_SUCCESS);
  EXPECT_EQ(Total, size_t(8) << 20);
  EXPECT_EQ(Free, size_t(2) << 20);
  EXPECT_EQ(A.cuMemAlloc(&More, 4 << 20), CUDA_ERROR_OUT_OF_MEMORY);
  ASSERT_EQ(A.cuMemFree(Big), CUDA_SUCCESS);
  ASSERT_EQ(A.cuMemAlloc(&More, 4 << 20), CUDA_SUCCESS);
  EXPECT_EQ(A.cuMemFree(More), CUDA_SUCCESS);
}

TEST(CudaEmuTest, CopiesCheckTheirDevicePointers) {
  use(1);
  const DriverApi &A = api();
  CUdeviceptr Mine;
  ASSERT_EQ(A.cuMemAlloc(&Mine, 64), CUDA_SUCCESS);
  use(0);
  CUdeviceptr Other;
  ASSERT_EQ(A.cuMemAlloc(&Other, 64), CUDA_SUCCESS);
  char Host[128] = {0};
  use(1);
  EXPECT_EQ(A.cuMemcpyHtoDAsync(Mine, Host, 64, nullptr), CUDA_SUCCESS);
  EXPECT_EQ(A.cuMemcpyHtoDAsync(Mine, Host, 128, nullptr), CUDA_ERROR_INVALID_VALUE); // past the end
  EXPECT_EQ(A.cuMemcpyHtoDAsync(Other, Host, 64, nullptr), CUDA_ERROR_INVALID_VALUE); // cuda0's
  EXPECT_EQ(A.cuMemcpyHtoDAsync(reinterpret_cast<CUdeviceptr>(Host), Host, 64, nullptr),
            CUDA_ERROR_INVALID_VALUE); // host memory
  EXPECT_EQ(A.cuMemFree(Mine), CUDA_SUCCESS);
  EXPECT_EQ(A.cuMemFree(Other), CUDA_SUCCESS);
}

// cuMemHostRegister: a range overlapping locked memory is refused, as the driver refuses it;
// copies from registered memory are asynchronous; and one that runs after its memory was
// unregistered copies nothing and says so (a program must wait for its copies first).
TEST(CudaEmuTest, RegisteredHostMemoryIsLockedUntilUnregistered) {
  use(1);
  const DriverApi &A = api();
  ASSERT_NE(A.cuMemHostRegister, nullptr);
  ASSERT_NE(A.cuMemHostUnregister, nullptr);
  std::vector<double> Host(1 << 16, 2.5);
  char *P = reinterpret_cast<char *>(Host.data());
  EXPECT_EQ(A.cuMemHostRegister(nullptr, 64, 0), CUDA_ERROR_INVALID_VALUE);
  ASSERT_EQ(A.cuMemHostRegister(P, 4096, 0), CUDA_SUCCESS);
  EXPECT_EQ(A.cuMemHostRegister(P + 2048, 4096, 0), 712); // overlaps: already registered
  EXPECT_EQ(A.cuMemHostUnregister(P + 8), 713);           // not the start of a range
  CUdeviceptr D;
  ASSERT_EQ(A.cuMemAlloc(&D, 4096), CUDA_SUCCESS);
  CUstream S;
  ASSERT_EQ(A.cuStreamCreate(&S, 1), CUDA_SUCCESS);
  ASSERT_EQ(A.cuMemcpyHtoDAsync(D, P, 4096, S), CUDA_SUCCESS);
  ASSERT_EQ(A.cuStreamSynchronize(S), CUDA_SUCCESS);
  std::vector<double> Back(512, 0);
  ASSERT_EQ(A.cuMemcpyDtoHAsync(Back.data(), D, 4096, nullptr), CUDA_SUCCESS);
  EXPECT_EQ(Back[511], 2.5);
  ASSERT_EQ(A.cuMemHostUnregister(P), CUDA_SUCCESS);
  EXPECT_EQ(A.cuMemHostUnregister(P), 713); // twice
  // Registered again, a copy queued (it waits 20 ms on its stream, as a link's latency) and the
  // memory unregistered before the stream made it: the copy is not made.
  ASSERT_EQ(A.cuMemHostRegister(P, 4096, 0), CUDA_SUCCESS);
  std::fill(Host.begin(), Host.begin() + 512, 7.0);
  ASSERT_EQ(A.cuMemcpyHtoDAsync(D, P, 4096, S), CUDA_SUCCESS);
  ASSERT_EQ(A.cuMemHostUnregister(P), CUDA_SUCCESS);
  ASSERT_EQ(A.cuStreamSynchronize(S), CUDA_SUCCESS);
  ASSERT_EQ(A.cuMemcpyDtoHAsync(Back.data(), D, 4096, nullptr), CUDA_SUCCESS);
  EXPECT_EQ(Back[0], 2.5) << "the copy ran on unregistered memory";
  EXPECT_EQ(A.cuMemFree(D), CUDA_SUCCESS);
  EXPECT_EQ(A.cuStreamDestroy(S), CUDA_SUCCESS);
}

// Events order work across devices on the devices themselves: a stream told to wait for an
// event recorded on another device's stream runs its next operations only once that stream
// reached the record. Here device 1's copy from locked memory takes 20 ms on its stream; the
// copy from device 1 to device 2 queued behind the event brings its result, not the poison of
// fresh memory. Each call checks its handles and its contexts.
TEST(CudaEmuTest, EventsOrderStreamsOfTwoDevices) {
  const DriverApi &A = api();
  ASSERT_TRUE(A.hasEvents());
  use(1);
  std::vector<double> Host(512, 3.0);
  ASSERT_EQ(A.cuMemHostRegister(Host.data(), 4096, 0), CUDA_SUCCESS);
  CUdeviceptr D1, D2;
  CUstream S1, S2;
  CUevent E1, E2;
  ASSERT_EQ(A.cuMemAlloc(&D1, 4096), CUDA_SUCCESS);
  ASSERT_EQ(A.cuStreamCreate(&S1, 1), CUDA_SUCCESS);
  ASSERT_EQ(A.cuEventCreate(&E1, CU_EVENT_DISABLE_TIMING), CUDA_SUCCESS);
  use(2);
  ASSERT_EQ(A.cuMemAlloc(&D2, 4096), CUDA_SUCCESS);
  ASSERT_EQ(A.cuStreamCreate(&S2, 1), CUDA_SUCCESS);
  ASSERT_EQ(A.cuEventCreate(&E2, 0), CUDA_SUCCESS);
  // A wait for an event never recorded waits for nothing.
  ASSERT_EQ(A.cuStreamWaitEvent(S2, E2, 0), CUDA_SUCCESS);
  ASSERT_EQ(A.cuStreamSynchronize(S2), CUDA_SUCCESS);
  // The wrong context, flags, stream or handle.
  EXPECT_EQ(A.cuEventRecord(E1, S2), 201);        // device 1's event on device 2's stream
  EXPECT_EQ(A.cuStreamWaitEvent(S1, E2, 0), 201); // device 1's stream from device 2
  EXPECT_EQ(A.cuStreamWaitEvent(S2, E1, 1), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(A.cuEventRecord(E2, nullptr), 801);
  EXPECT_EQ(A.cuEventRecord(reinterpret_cast<CUevent>(Host.data()), S2), 400);
  use(1);
  ASSERT_EQ(A.cuMemcpyHtoDAsync(D1, Host.data(), 4096, S1), CUDA_SUCCESS); // 20 ms
  ASSERT_EQ(A.cuEventRecord(E1, S1), CUDA_SUCCESS);
  use(2);
  CUcontext C1, C2;
  CUdevice Dev;
  ASSERT_EQ(A.cuDeviceGet(&Dev, 1), CUDA_SUCCESS);
  ASSERT_EQ(A.cuDevicePrimaryCtxRetain(&C1, Dev), CUDA_SUCCESS);
  ASSERT_EQ(A.cuDeviceGet(&Dev, 2), CUDA_SUCCESS);
  ASSERT_EQ(A.cuDevicePrimaryCtxRetain(&C2, Dev), CUDA_SUCCESS);
  ASSERT_EQ(A.cuStreamWaitEvent(S2, E1, 0), CUDA_SUCCESS);
  ASSERT_EQ(A.cuMemcpyPeerAsync(D2, C2, D1, C1, 4096, S2), CUDA_SUCCESS);
  ASSERT_EQ(A.cuStreamSynchronize(S2), CUDA_SUCCESS);
  std::vector<double> Back(512, 0);
  ASSERT_EQ(A.cuMemcpyDtoHAsync(Back.data(), D2, 4096, nullptr), CUDA_SUCCESS);
  EXPECT_EQ(Back[0], 3.0) << "the copy from device 1 ran before device 1's own copy";
  EXPECT_EQ(Back[511], 3.0);
  EXPECT_EQ(A.cuEventDestroy(E2), CUDA_SUCCESS);
  EXPECT_EQ(A.cuEventDestroy(E2), 400);
  EXPECT_EQ(A.cuMemFree(D2), CUDA_SUCCESS);
  EXPECT_EQ(A.cuStreamDestroy(S2), CUDA_SUCCESS);
  use(1);
  EXPECT_EQ(A.cuEventDestroy(E1), CUDA_SUCCESS);
  EXPECT_EQ(A.cuMemFree(D1), CUDA_SUCCESS);
  EXPECT_EQ(A.cuStreamDestroy(S1), CUDA_SUCCESS);
  EXPECT_EQ(A.cuMemHostUnregister(Host.data()), CUDA_SUCCESS);
}

// Timing events (what a trace uses to time a queued copy on the device): cuEventElapsedTime
// gives the time between the moments the stream reached the two records, so a copy from locked
// memory that the emulator delays by 20 ms measures at least that once cuEventSynchronize
// returned. An event never recorded is not ready; one made with CU_EVENT_DISABLE_TIMING is
// refused, as by CUDA.
TEST(CudaEmuTest, TimingEventsMeasureAStreamsWork) {
  const DriverApi &A = api();
  ASSERT_TRUE(A.hasTimedEvents());
  use(1);
  std::vector<double> Host(512, 3.0);
  ASSERT_EQ(A.cuMemHostRegister(Host.data(), 4096, 0), CUDA_SUCCESS);
  CUdeviceptr D;
  CUstream S;
  CUevent T0, T1, NoTiming;
  ASSERT_EQ(A.cuMemAlloc(&D, 4096), CUDA_SUCCESS);
  ASSERT_EQ(A.cuStreamCreate(&S, 1), CUDA_SUCCESS);
  ASSERT_EQ(A.cuEventCreate(&T0, 0), CUDA_SUCCESS);
  ASSERT_EQ(A.cuEventCreate(&T1, 0), CUDA_SUCCESS);
  ASSERT_EQ(A.cuEventCreate(&NoTiming, CU_EVENT_DISABLE_TIMING), CUDA_SUCCESS);
  float Ms = -1;
  EXPECT_EQ(A.cuEventElapsedTime(&Ms, T0, T1), CUDA_ERROR_NOT_READY); // never recorded
  ASSERT_EQ(A.cuEventRecord(T0, S), CUDA_SUCCESS);
  ASSERT_EQ(A.cuMemcpyHtoDAsync(D, Host.data(), 4096, S), CUDA_SUCCESS); // 20 ms
  ASSERT_EQ(A.cuEventRecord(T1, S), CUDA_SUCCESS);
  ASSERT_EQ(A.cuEventRecord(NoTiming, S), CUDA_SUCCESS);
  ASSERT_EQ(A.cuEventSynchronize(T1), CUDA_SUCCESS);
  ASSERT_EQ(A.cuEventElapsedTime(&Ms, T0, T1), CUDA_SUCCESS);
  EXPECT_GE(Ms, 19.0f);
  EXPECT_LT(Ms, 10000.0f);
  EXPECT_EQ(A.cuEventSynchronize(NoTiming), CUDA_SUCCESS);
  EXPECT_EQ(A.cuEventElapsedTime(&Ms, T0, NoTiming), 400);
  EXPECT_EQ(A.cuEventElapsedTime(nullptr, T0, T1), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(A.cuEventSynchronize(reinterpret_cast<CUevent>(Host.data())), 400);
  EXPECT_EQ(A.cuEventDestroy(T0), CUDA_SUCCESS);
  EXPECT_EQ(A.cuEventDestroy(T1), CUDA_SUCCESS);
  EXPECT_EQ(A.cuEventDestroy(NoTiming), CUDA_SUCCESS);
  EXPECT_EQ(A.cuMemFree(D), CUDA_SUCCESS);
  EXPECT_EQ(A.cuStreamDestroy(S), CUDA_SUCCESS);
  EXPECT_EQ(A.cuMemHostUnregister(Host.data()), CUDA_SUCCESS);
}

TEST(CudaEmuTest, PitchedCopiesMoveOnlyTheBox) {
  use(0);
  const DriverApi &A = api();
  // A 6 x 10 array of ints; the box is rows 1-3, columns 2-6.
  const size_t Rows = 6, Cols = 10, Pitch = Cols * 4;
  std::vector<int> Host(Rows * Cols), Back(Rows * Cols, 7);
  for (size_t I = 0; I < Host.size(); ++I)
    Host[I] = static_cast<int>(I);
  CUdeviceptr D;
  ASSERT_EQ(A.cuMemAlloc(&D, Rows * Pitch), CUDA_SUCCESS);
  CUstream S;
  ASSERT_EQ(A.cuStreamCreate(&S, 1), CUDA_SUCCESS);
  Memcpy3D M;
  std::memset(&M, 0, sizeof(M));
  M.srcMemoryType = CU_MEMORYTYPE_HOST;
  M.srcHost = reinterpret_cast<const char *>(Host.data()) + 1 * Pitch + 2 * 4;
  M.srcPitch = Pitch;
  M.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  M.dstDevice = D + 1 * Pitch + 2 * 4;
  M.dstPitch = Pitch;
  M.WidthInBytes = 5 * 4;
  M.Height = 3;
  M.Depth = 1;
  ASSERT_EQ(A.cuMemcpy3DAsync(&M, S), CUDA_SUCCESS);
  ASSERT_EQ(A.cuMemcpyDtoHAsync(Back.data(), D, Rows * Pitch, S), CUDA_SUCCESS);
  ASSERT_EQ(A.cuStreamSynchronize(S), CUDA_SUCCESS);
  for (size_t R = 0; R < Rows; ++R)
    for (size_t C = 0; C < Cols; ++C) {
      bool In = R >= 1 && R < 4 && C >= 2 && C < 7;
      EXPECT_EQ(static_cast<uint32_t>(Back[R * Cols + C]),
                In ? static_cast<uint32_t>(Host[R * Cols + C]) : 0xFFF4CDCDu)
          << R << "," << C;
    }
  M.Height = 7; // past the allocation
  EXPECT_EQ(A.cuMemcpy3DAsync(&M, S), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(A.cuMemFree(D), CUDA_SUCCESS);
  EXPECT_EQ(A.cuStreamDestroy(S), CUDA_SUCCESS);
}

TEST(CudaEmuTest, KernelsRunWithBarriersAndSharedMemory) {
  use(0);
  scaleSum(100003, 13, 2.0); // 13 blocks, each thread many grid-stride steps
  scaleSum(200, 4, -1.5);    // blocks with idle threads
  // Every thread reads its neighbour's shared slot after the barrier.
  const DriverApi &A = api();
  CUfunction F = function("neighbour");
  const unsigned Blocks = 3, Threads = 256;
  CUdeviceptr Out;
  ASSERT_EQ(A.cuMemAlloc(&Out, Blocks * Threads * 4), CUDA_SUCCESS);
  void *Params[] = {&Out};
  ASSERT_EQ(A.cuLaunchKernel(F, Blocks, 1, 1, Threads, 1, 1, 0, nullptr, Params, nullptr),
            CUDA_SUCCESS);
  std::vector<int> Got(Blocks * Threads);
  ASSERT_EQ(A.cuMemcpyDtoHAsync(Got.data(), Out, Got.size() * 4, nullptr), CUDA_SUCCESS);
  for (unsigned B = 0; B < Blocks; ++B)
    for (unsigned T = 0; T < Threads; ++T)
      ASSERT_EQ(Got[B * Threads + T], static_cast<int>((T + 1) % Threads + 1000 * B));
  EXPECT_EQ(A.cuMemFree(Out), CUDA_SUCCESS);
}

TEST(CudaEmuTest, AtomicsCountEveryThread) {
  use(0);
  const DriverApi &A = api();
  CUfunction F = function("count");
  CUdeviceptr N, Hi;
  ASSERT_EQ(A.cuMemAlloc(&N, 8), CUDA_SUCCESS);
  ASSERT_EQ(A.cuMemAlloc(&Hi, 4), CUDA_SUCCESS);
  unsigned long long Zero = 0;
  int Low = -1;
  ASSERT_EQ(A.cuMemcpyHtoDAsync(N, &Zero, 8, nullptr), CUDA_SUCCESS);
  ASSERT_EQ(A.cuMemcpyHtoDAsync(Hi, &Low, 4, nullptr), CUDA_SUCCESS);
  void *Params[] = {&N, &Hi};
  ASSERT_EQ(A.cuLaunchKernel(F, 5, 2, 1, 32, 4, 1, 0, nullptr, Params, nullptr), CUDA_SUCCESS);
  unsigned long long Count = 0;
  int Max = 0;
  ASSERT_EQ(A.cuMemcpyDtoHAsync(&Count, N, 8, nullptr), CUDA_SUCCESS);
  ASSERT_EQ(A.cuMemcpyDtoHAsync(&Max, Hi, 4, nullptr), CUDA_SUCCESS);
  EXPECT_EQ(Count, 5u * 2 * 32 * 4);
  EXPECT_EQ(Max, 4 * 32 + 31); // the largest blockIdx.x * blockDim.x + threadIdx.x
  A.cuMemFree(N);
  A.cuMemFree(Hi);
}

TEST(CudaEmuTest, ConcurrentLaunchesOnDevicesDoNotShareState) {
  std::vector<std::thread> Threads;
  std::vector<int> Failures(3, 0);
  for (int D = 0; D < 3; ++D)
    Threads.emplace_back([D, &Failures] {
      use(D);
      for (int I = 0; I < 6; ++I) {
        scaleSum(20000 + 1000 * D + I, 4 + D, 1.0 + D);
        if (::testing::Test::HasFailure())
          Failures[D] = 1;
      }
    });
  for (std::thread &T : Threads)
    T.join();
  EXPECT_EQ(Failures, std::vector<int>(3, 0));
}

TEST(CudaEmuTest, LaunchesRejectHostPointers) {
  use(4);
  const DriverApi &A = api();
  CUfunction F = function("neighbour");
  std::vector<int> Host(256);
  int *P = Host.data();
  void *Params[] = {&P};
  std::string Err;
  EXPECT_FALSE(CLUSTRIX_CU(A, Err, cuLaunchKernel(F, 1, 1, 1, 256, 1, 1, 0, nullptr, Params,
                                                  nullptr)));
  EXPECT_NE(Err.find("CUDA_ERROR_ILLEGAL_ADDRESS (700)"), std::string::npos) << Err;
  CUdeviceptr X;
  EXPECT_EQ(A.cuMemAlloc(&X, 16), 700); // the context is unusable from then on, as on a GPU
}

// The runtime asks whether the program's memory is page-locked before it stages a copy.
TEST(CudaEmuTest, PointerAttributesTellLockedMemory) {
  use(0);
  const DriverApi &A = api();
  ASSERT_NE(A.cuPointerGetAttribute, nullptr);
  unsigned Type = 0;
  CUdeviceptr Dev;
  ASSERT_EQ(A.cuMemAlloc(&Dev, 256), CUDA_SUCCESS);
  ASSERT_EQ(A.cuPointerGetAttribute(&Type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, Dev), CUDA_SUCCESS);
  EXPECT_EQ(Type, unsigned(CU_MEMORYTYPE_DEVICE));
  void *Pinned = nullptr;
  ASSERT_EQ(A.cuMemAllocHost(&Pinned, 4096), CUDA_SUCCESS);
  auto Addr = [](const void *P) { return static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(P)); };
  ASSERT_EQ(A.cuPointerGetAttribute(&Type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, Addr(Pinned) + 4095),
            CUDA_SUCCESS);
  EXPECT_EQ(Type, unsigned(CU_MEMORYTYPE_HOST));
  std::vector<char> Pageable(8192);
  EXPECT_EQ(A.cuPointerGetAttribute(&Type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, Addr(Pageable.data())),
            CUDA_ERROR_INVALID_VALUE);
  char *Page = reinterpret_cast<char *>((reinterpret_cast<uintptr_t>(Pageable.data()) + 4095) &
                                        ~uintptr_t(4095));
  ASSERT_EQ(A.cuMemHostRegister(Page, 4096, 0), CUDA_SUCCESS);
  ASSERT_EQ(A.cuPointerGetAttribute(&Type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, Addr(Page)),
            CUDA_SUCCESS);
  EXPECT_EQ(Type, unsigned(CU_MEMORYTYPE_HOST));
  ASSERT_EQ(A.cuMemHostUnregister(Page), CUDA_SUCCESS);
  EXPECT_EQ(A.cuPointerGetAttribute(&Type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, Addr(Page)),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(A.cuPointerGetAttribute(&Type, 1 /* CONTEXT */, Dev), 801 /* NOT_SUPPORTED */);
  EXPECT_EQ(A.cuMemFreeHost(Pinned), CUDA_SUCCESS);
  EXPECT_EQ(A.cuMemFree(Dev), CUDA_SUCCESS);
}

TEST(CudaEmuTest, PageableAccessIsPerDevice) {
  use(0);
  const DriverApi &A = api();
  int Pageable = -1, HostTables = -1;
  ASSERT_EQ(A.cuDeviceGetAttribute(&Pageable, CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS, 0),
            CUDA_SUCCESS);
  EXPECT_EQ(Pageable, 0);
  ASSERT_EQ(A.cuDeviceGetAttribute(&Pageable, CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS, 5),
            CUDA_SUCCESS);
  EXPECT_EQ(Pageable, 1);
  ASSERT_EQ(A.cuDeviceGetAttribute(
                &HostTables, CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES, 5),
            CUDA_SUCCESS);
  EXPECT_EQ(HostTables, 0);
  // Device 5 takes the host's memory, and its kernel writes there.
  use(5);
  CUfunction F = function("neighbour");
  std::vector<int> Host(512, -1);
  int *P = Host.data();
  void *Params[] = {&P};
  ASSERT_EQ(A.cuLaunchKernel(F, 2, 1, 1, 256, 1, 1, 0, nullptr, Params, nullptr), CUDA_SUCCESS);
  EXPECT_EQ(Host[0], 1);
  EXPECT_EQ(Host[255], 0);
  EXPECT_EQ(Host[256], 1001);
}

TEST(CudaEmuTest, LaunchesRejectAnotherDevicesPointers) {
  use(0);
  const DriverApi &A = api();
  CUdeviceptr Other;
  ASSERT_EQ(A.cuMemAlloc(&Other, 1024), CUDA_SUCCESS);
  use(5); // which can use the host's memory, never another device's
  CUfunction F = function("neighbour");
  void *Params[] = {&Other};
  EXPECT_EQ(A.cuLaunchKernel(F, 1, 1, 1, 256, 1, 1, 0, nullptr, Params, nullptr), 700);
  use(0);
  EXPECT_EQ(A.cuMemFree(Other), CUDA_SUCCESS);
}

TEST(CudaEmuDeathTest, OutOfBoundsAccessesFaultAndSaySo) {
  ::testing::FLAGS_gtest_death_test_style = "threadsafe";
  EXPECT_DEATH(
      {
        use(0);
        const DriverApi &A = api();
        CUfunction F = function("out_of_bounds");
        CUdeviceptr P;
        A.cuMemAlloc(&P, 64);
        void *Params[] = {&P};
        A.cuLaunchKernel(F, 1, 1, 1, 1, 1, 1, 0, nullptr, Params, nullptr);
      },
      "clustrix-cudaemu: cuda0: access to device address 0x[0-9a-f]+, outside every allocation");
}

TEST(CudaEmuTest, ModulesBelongToTheirContext) {
  use(1);
  CUfunction F = function("neighbour");
  use(2);
  const DriverApi &A = api();
  CUdeviceptr Out;
  ASSERT_EQ(A.cuMemAlloc(&Out, 1024), CUDA_SUCCESS);
  void *Params[] = {&Out};
  EXPECT_EQ(A.cuLaunchKernel(F, 1, 1, 1, 256, 1, 1, 0, nullptr, Params, nullptr),
            400); // CUDA_ERROR_INVALID_HANDLE: cuda1's function launched on cuda2
  EXPECT_EQ(A.cuMemFree(Out), CUDA_SUCCESS);
  CUmodule M;
  EXPECT_EQ(A.cuModuleLoadData(&M, "\x7f" "ELF not an emulated module......"), 200);
}

TEST(CudaEmuTest, NvrtcReportsCompileErrorsWithTheirLine) {
  std::vector<char> Cubin;
  std::string Log;
  EXPECT_FALSE(compileToCubin(nvrtc(), "extern \"C\" __global__ void k() {\n  undeclared = 1;\n}\n",
                              "broken", 90, Cubin, Log));
  EXPECT_NE(Log.find("NVRTC failed to compile broken for sm_90: NVRTC_ERROR_COMPILATION"),
            std::string::npos)
      << Log;
  EXPECT_NE(Log.find("broken.cu:2:"), std::string::npos) << Log;
  EXPECT_NE(Log.find("undeclared"), std::string::npos) << Log;
}

} // namespace
