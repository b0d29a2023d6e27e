//===- CudaTest.cpp - Tests of the CUDA path that need no GPU -------------===//
#include "CUDA/CudaBackend.h"
#include "CUDA/CudaDriver.h"
#include "CUDA/KernelCache.h"
#include "CUDA/KernelRegistry.h"
#include "CUDA/Nvrtc.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <sys/stat.h>
#include <unistd.h>

#ifdef CLUSTRIX_TEST_CUDA_H
#include <cuda.h>
#endif

using namespace clustrix;
using namespace clustrix::rt;
using namespace clustrix::rt::cuda;

namespace {

#ifdef CLUSTRIX_TEST_CUDA_H
// The runtime's own declarations must match the driver's.
static_assert(sizeof(Memcpy3D) == sizeof(CUDA_MEMCPY3D), "CUDA_MEMCPY3D layout");
#define SAME_OFFSET(F) static_assert(offsetof(Memcpy3D, F) == offsetof(CUDA_MEMCPY3D, F), #F)
SAME_OFFSET(srcMemoryType);
SAME_OFFSET(srcHost);
SAME_OFFSET(srcDevice);
SAME_OFFSET(srcPitch);
SAME_OFFSET(srcHeight);
SAME_OFFSET(dstXInBytes);
SAME_OFFSET(dstMemoryType);
SAME_OFFSET(dstHost);
SAME_OFFSET(dstDevice);
SAME_OFFSET(dstPitch);
SAME_OFFSET(dstHeight);
SAME_OFFSET(WidthInBytes);
SAME_OFFSET(Height);
SAME_OFFSET(Depth);
static_assert(int(clustrix::rt::cuda::CU_MEMORYTYPE_HOST) == int(::CU_MEMORYTYPE_HOST), "memory type");
static_assert(unsigned(clustrix::rt::cuda::CU_EVENT_DISABLE_TIMING) == unsigned(::CU_EVENT_DISABLE_TIMING), "event flag");
static_assert(int(clustrix::rt::cuda::CU_POINTER_ATTRIBUTE_MEMORY_TYPE) == int(::CU_POINTER_ATTRIBUTE_MEMORY_TYPE), "pointer attribute");
static_assert(int(clustrix::rt::cuda::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT) == int(::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT), "attr");
static_assert(int(clustrix::rt::cuda::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR) == int(::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR), "attr");
static_assert(int(clustrix::rt::cuda::CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS) == int(::CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS), "attr");
static_assert(int(clustrix::rt::cuda::CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES) == int(::CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES), "attr");
static_assert(int(clustrix::rt::cuda::CU_DEVICE_ATTRIBUTE_CLOCK_RATE) == int(::CU_DEVICE_ATTRIBUTE_CLOCK_RATE), "attr");
static_assert(int(clustrix::rt::cuda::CUDA_ERROR_LAUNCH_FAILED) == int(::CUDA_ERROR_LAUNCH_FAILED), "error code");
static_assert(int(clustrix::rt::cuda::CUDA_ERROR_NOT_READY) == int(::CUDA_ERROR_NOT_READY), "error code");
#endif

TEST(CudaTest, MissingDriverIsAbsentCleanly) {
  DriverApi Api = DriverApi::load("libclustrix-no-such-driver.so.1");
  EXPECT_FALSE(Api.Loaded);
  EXPECT_NE(Api.Error.find("cannot load libclustrix-no-such-driver.so.1"), std::string::npos);
  EXPECT_EQ(Api.cuInit, nullptr);
  // A library without the driver's entry points is also absent, naming the first one missing.
  Api = DriverApi::load("libm.so.6");
  EXPECT_FALSE(Api.Loaded);
  EXPECT_NE(Api.Error.find("entry point cuInit is missing"), std::string::npos) << Api.Error;
}

#ifdef CLUSTRIX_TEST_CUDA_STUB
TEST(CudaTest, StubDriverResolvesButFailsToInitialize) {
  DriverApi Api = DriverApi::load(CLUSTRIX_TEST_CUDA_STUB);
  ASSERT_TRUE(Api.Loaded) << Api.Error;
  // The optional entry points the runtime looks up by name are found by those names.
  EXPECT_TRUE(Api.hasEvents());
  EXPECT_NE(Api.cuMemcpyPeerAsync, nullptr);
  EXPECT_NE(Api.cuPointerGetAttribute, nullptr);
  std::string Err;
  EXPECT_FALSE(CLUSTRIX_CU(Api, Err, cuInit(0)));
  EXPECT_NE(Err.find("cuInit(0) failed at "), std::string::npos) << Err;
  EXPECT_NE(Err.find("CudaTest.cpp:"), std::string::npos) << Err;
}
#endif

TEST(CudaTest, PreparingOnAnAbsentDriverFailsCleanly) {
  if (DriverApi::get().Loaded)
    GTEST_SKIP() << "a CUDA driver is present";
  LoopInfo Info{};
  LoopArgs Args{};
  Lane L;
  L.Owner = &cudaBackend();
  L.Info.Kind = DeviceKind::CUDA;
  std::string Err;
  EXPECT_EQ(cudaBackend().prepare(L, Info, Args, RunOptions(), Err), nullptr);
  EXPECT_NE(Err.find("no CUDA driver"), std::string::npos);
  EXPECT_FALSE(cudaBackend().lost(L));
}

TEST(CudaTest, BackendIsListedBeforeTheHost) {
  const std::vector<const Backend *> &All = backends();
  ASSERT_GE(All.size(), 2u);
  EXPECT_EQ(All.front(), &cudaBackend());
  EXPECT_STREQ(All.front()->name(), "cuda");
  EXPECT_FALSE(All.front()->isHost());
  // The host, then other MPI ranks' devices (MPI/), which are no host.
  ASSERT_GE(All.size(), 3u);
  EXPECT_TRUE(All[All.size() - 2]->isHost());
  EXPECT_STREQ(All.back()->name(), "mpi");
  EXPECT_FALSE(All.back()->isHost());
}

TEST(CudaTest, LoopsNeedAGpuForm) {
  RegionInfo Regions[] = {{"a", AccessRead, 1, 0, 0}};
  KernelParam Params[] = {{KernelParamKind::Lo, 0, 0}, {KernelParamKind::Region, 1, 0}};
  LoopInfo Info{};
  Info.Regions = Regions;
  Info.NumRegions = 1;
  LoopArgs Args{};
  std::string Why;
  EXPECT_FALSE(loopRunsOnCuda(Info, Args, Why));
  EXPECT_EQ(Why, "the loop has no GPU form");
  Info.KernelName = "k";
  Info.KernelSource = "extern \"C\" __global__ void k() {}";
  EXPECT_FALSE(loopRunsOnCuda(Info, Args, Why));
  EXPECT_EQ(Why, "the loop's regions have no box function");
  Args.Boxes = [](void *, uint64_t, uint64_t, Box *) {};
  Info.Params = Params;
  Info.NumParams = 2;
  EXPECT_FALSE(loopRunsOnCuda(Info, Args, Why));
  EXPECT_NE(Why.find("kernel parameter 1"), std::string::npos);
  Params[1].Index = 0;
  EXPECT_TRUE(loopRunsOnCuda(Info, Args, Why));
  AppendSlot App{};
  Args.Appends = &App;
  Args.NumAppends = 1;
  EXPECT_FALSE(loopRunsOnCuda(Info, Args, Why));
}

TEST(CudaTest, GridCoversTheRangeWithABoundedBlockCount) {
  EXPECT_EQ(gridBlocks(1, 132), 1u);
  EXPECT_EQ(gridBlocks(BlockThreads * 10 + 1, 132), 11u);
  EXPECT_EQ(gridBlocks(uint64_t(1) << 40, 132), 132u * 8);
  EXPECT_EQ(gridBlocks(0, 0), 1u);
}

TEST(CudaTest, NvrtcCompilesAKernelForSm90) {
#ifdef CLUSTRIX_TEST_NVRTC
  NvrtcApi Api = NvrtcApi::load(CLUSTRIX_TEST_NVRTC);
#else
  NvrtcApi Api = NvrtcApi::get();
#endif
  if (!Api.Loaded)
    GTEST_SKIP() << "NVRTC is not available: " << Api.Error;
  EXPECT_GE(Api.version(), 12000);
  // The shape the rewriter generates: a grid-stride loop over [Lo, Hi) and per-block partials.
  const char *Src = R"(
extern "C" __global__ void clustrix_k(unsigned long long Lo, unsigned long long Hi,
                                      const float *x, float *y, float a, double *part) {
  __shared__ double s[256];
  double acc = 0;
  for (unsigned long long k = Lo + blockIdx.x * blockDim.x + threadIdx.x; k < Hi;
       k += (unsigned long long)gridDim.x * blockDim.x) {
    y[k] = a * x[k] + y[k];
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
)";
  std::vector<char> Cubin;
  std::string Log;
  ASSERT_TRUE(compileToCubin(Api, Src, "clustrix_k", 90, Cubin, Log)) << Log;
  ASSERT_GT(Cubin.size(), 4u);
  EXPECT_EQ(std::string(Cubin.data() + 1, 3), "ELF");
  EXPECT_FALSE(compileToCubin(Api, "this is not CUDA", "bad", 90, Cubin, Log));
  EXPECT_NE(Log.find("NVRTC failed to compile bad for sm_90"), std::string::npos) << Log;
}

TEST(CudaTest, KernelCacheIsPrivateAndRoundTrips) {
  char Tmp[] = "/tmp/clustrix-cache-XXXXXX";
  ASSERT_NE(::mkdtemp(Tmp), nullptr);
  std::string Dir = std::string(Tmp) + "/a/clustrix";
  KernelCache C(Dir);
  std::string Err;
  ASSERT_TRUE(C.open(Err)) << Err;
  struct stat St;
  ASSERT_EQ(::stat(Dir.c_str(), &St), 0);
  EXPECT_EQ(St.st_mode & 0777, 0700u);
  std::string Key = KernelCache::key(0xabcdef0123456789ull, 90, 13000, 13000);
  EXPECT_EQ(Key, "abcdef0123456789-sm90-drv13000-nvrtc13000-fmad0");
  std::vector<char> Image = {'\x7f', 'E', 'L', 'F', 0, 1, 2, 3}, Back;
  EXPECT_FALSE(C.load(Key, Back));
  ASSERT_TRUE(C.store(Key, Image, Err)) << Err;
  ASSERT_TRUE(C.load(Key, Back));
  EXPECT_EQ(Back, Image);
  // A file under another key's name is not taken for it.
  ASSERT_EQ(::rename((Dir + "/" + Key + ".cubin").c_str(), (Dir + "/other.cubin").c_str()), 0);
  EXPECT_FALSE(C.load("other", Back));
  // A directory others may write to is refused.
  ASSERT_EQ(::chmod(Dir.c_str(), 0777), 0);
  EXPECT_FALSE(C.open(Err));
  EXPECT_NE(Err.find("writable by other users"), std::string::npos);
  std::remove((Dir + "/other.cubin").c_str());
  ::rmdir(Dir.c_str());
  ::rmdir((std::string(Tmp) + "/a").c_str());
  ::rmdir(Tmp);
}

TEST(CudaTest, DefaultCacheDirectoryFollowsXdg) {
  const char *Home = std::getenv("HOME");
  std::string SavedHome = Home ? Home : "";
  ::setenv("XDG_CACHE_HOME", "/x/cache", 1);
  EXPECT_EQ(defaultKernelCacheDir(), "/x/cache/clustrix");
  ::unsetenv("XDG_CACHE_HOME");
  ::setenv("HOME", "/home/u", 1);
  EXPECT_EQ(defaultKernelCacheDir(), "/home/u/.cache/clustrix");
  if (Home)
    ::setenv("HOME", SavedHome.c_str(), 1);
}

} // namespace

// nvcc-built sources register a getter per kernel; the backend finds it by name and hash only.
static int GetterCalls = 0;
static void *fakeKernelHandle() {
  ++GetterCalls;
  return reinterpret_cast<void *>(0x1234);
}

TEST(CudaTest, KernelGettersAreFoundByNameAndHash) {
  clustrix::rt::registerKernelGetter("clustrix_kernel_test_1_1", 42, &fakeKernelHandle);
  clustrix::rt::registerKernelGetter(nullptr, 42, &fakeKernelHandle); // ignored
  clustrix::rt::registerKernelGetter("clustrix_kernel_test_2_1", 42, nullptr); // ignored
  EXPECT_EQ(clustrix::rt::cuda::findKernelGetter("clustrix_kernel_test_1_1", 42),
            &fakeKernelHandle);
  EXPECT_EQ(clustrix::rt::cuda::findKernelGetter("clustrix_kernel_test_1_1", 43), nullptr);
  EXPECT_EQ(clustrix::rt::cuda::findKernelGetter("clustrix_kernel_test_2_1", 42), nullptr);
  EXPECT_EQ(clustrix::rt::cuda::findKernelGetter(nullptr, 42), nullptr);
  EXPECT_EQ(GetterCalls, 0); // looking up never calls the getter
}
