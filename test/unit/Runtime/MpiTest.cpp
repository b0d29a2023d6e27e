//===- MpiTest.cpp - The MPI backend's pieces that need no launcher -------===//
#include "MPI/HostKernel.h"
#include "MPI/MpiApi.h"
#include "MPI/Wire.h"
#include "MPI/World.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdlib>
#include <vector>

#ifdef CLUSTRIX_TEST_MPI_H
#define OMPI_SKIP_MPICXX 1 // the C++ bindings would need libmpi at link time
#include <mpi.h>
#endif

using namespace clustrix::rt;
using namespace clustrix::rt::mpi;

TEST(MpiTest, WireRoundTrip) {
  Writer W;
  W.put<uint32_t>(7);
  W.putString("rank1:cuda0");
  W.put<double>(2.5);
  char *P = W.reserve(3);
  P[0] = 'a', P[1] = 'b', P[2] = 'c';
  Reader R(W.Bytes.data(), W.Bytes.size());
  EXPECT_EQ(R.get<uint32_t>(), 7u);
  EXPECT_EQ(R.getString(), "rank1:cuda0");
  EXPECT_EQ(R.get<double>(), 2.5);
  size_t N = R.bytes();
  ASSERT_EQ(N, 3u);
  EXPECT_EQ(std::string(R.take(N), N), "abc");
  EXPECT_TRUE(R.ok());
  EXPECT_TRUE(R.atEnd());
}

TEST(MpiTest, TruncatedMessagesTurnTheReaderBad) {
  Writer W;
  W.putString("a long enough string");
  for (size_t Cut = 0; Cut < W.Bytes.size(); ++Cut) {
    Reader R(W.Bytes.data(), Cut);
    R.getString();
    EXPECT_FALSE(R.ok()) << "cut at " << Cut;
    EXPECT_EQ(R.get<uint64_t>(), 0u);
  }
  // A length that claims more than the message holds.
  Writer Big;
  Big.put<uint64_t>(~0ull);
  Reader R(Big.Bytes.data(), Big.Bytes.size());
  EXPECT_EQ(R.take(R.bytes()), nullptr);
  EXPECT_FALSE(R.ok());
}

TEST(MpiTest, LauncherWorldSize) {
  for (const char *V : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "SLURM_NTASKS",
                        "SLURM_PROCID", "PMIX_RANK", "PMI_RANK", "OMPI_COMM_WORLD_RANK"})
    ::unsetenv(V);
  EXPECT_EQ(launcherWorldSize(), 1);
  ::setenv("OMPI_COMM_WORLD_SIZE", "3", 1);
  EXPECT_EQ(launcherWorldSize(), 3);
  ::unsetenv("OMPI_COMM_WORLD_SIZE");
  // A batch script has SLURM_NTASKS but no task of srun; srun without MPI wire-up neither.
  ::setenv("SLURM_NTASKS", "2", 1);
  EXPECT_EQ(launcherWorldSize(), 1);
  ::setenv("SLURM_PROCID", "0", 1);
  EXPECT_EQ(launcherWorldSize(), 1);
  ::setenv("PMIX_RANK", "0", 1);
  EXPECT_EQ(launcherWorldSize(), 2);
  for (const char *V : {"SLURM_NTASKS", "SLURM_PROCID", "PMIX_RANK"})
    ::unsetenv(V);
}

TEST(MpiTest, MissingLibraryIsAnError) {
  ::setenv("CLUSTRIX_MPI_LIBRARY", "/nonexistent/libmpi.so.40", 1);
  const Api &A = Api::get();
  ::unsetenv("CLUSTRIX_MPI_LIBRARY");
  EXPECT_FALSE(A.Loaded);
  EXPECT_EQ(A.Error.rfind("cannot load /nonexistent/libmpi.so.40: ", 0), 0u) << A.Error;
}

// The kernel text's shape that the compiler emits: a grid-stride loop and one partial per block.
TEST(MpiTest, HostKernelRunsAGridOfOneThreadBlocks) {
  const char *Source =
      "extern \"C\" __global__ void k(unsigned long long lo, unsigned long long hi, double *out,"
      " int scale, long *part) {\n"
      "  long s = 0;\n"
      "  for (unsigned long long i = lo + blockIdx.x * blockDim.x + threadIdx.x; i < hi;"
      " i += gridDim.x * blockDim.x) { out[i] = double(i) * scale; s += (long)i; }\n"
      "  __shared__ long sh[256];\n"
      "  sh[threadIdx.x] = s; __syncthreads();\n"
      "  if (threadIdx.x == 0) part[blockIdx.x] = sh[0];\n"
      "}\n";
  std::string Err;
  const HostKernel *K = HostKernel::get("k", Source, 42, Err);
  ASSERT_NE(K, nullptr) << Err;
  EXPECT_EQ(K->numParams(), 5u);
  std::vector<double> Out(100, -1.0);
  std::vector<long> Part(3, -1);
  unsigned long long Lo = 10, Hi = 90;
  double *OutP = Out.data();
  int Scale = 3;
  long *PartP = Part.data();
  void *Args[] = {&Lo, &Hi, &OutP, &Scale, &PartP};
  K->launch(3, Args);
  long Sum = 0;
  for (size_t I = 0; I < Out.size(); ++I)
    EXPECT_EQ(Out[I], I >= 10 && I < 90 ? 3.0 * I : -1.0) << I;
  for (long P : Part)
    Sum += P;
  EXPECT_EQ(Sum, (10 + 89) * 80 / 2);
  // The same kernel again is not compiled again.
  EXPECT_EQ(HostKernel::get("k", Source, 42, Err), K);
}

TEST(MpiTest, HostKernelCompileErrorsSayWhere) {
  std::string Err;
  EXPECT_EQ(HostKernel::get("bad", "extern \"C\" __global__ void bad() { undeclared(); }", 7, Err),
            nullptr);
  EXPECT_NE(Err.find(" failed on the kernel text of bad: bad.cu:1:"), std::string::npos) << Err;
  EXPECT_NE(Err.find("undeclared"), std::string::npos) << Err;
}

#ifdef CLUSTRIX_TEST_MPI_H
// The runtime's own declarations of Open MPI's ABI, against <mpi.h>.
static_assert(sizeof(MPI_Status) == sizeof(Status), "MPI_Status");
static_assert(offsetof(MPI_Status, MPI_SOURCE) == offsetof(Status, Source), "MPI_SOURCE");
static_assert(offsetof(MPI_Status, MPI_TAG) == offsetof(Status, Tag), "MPI_TAG");
static_assert(offsetof(MPI_Status, MPI_ERROR) == offsetof(Status, Error), "MPI_ERROR");
static_assert(MPI_SUCCESS == Success, "MPI_SUCCESS");
static_assert(MPI_THREAD_SERIALIZED == ThreadSerialized, "MPI_THREAD_SERIALIZED");
static_assert(MPI_THREAD_MULTIPLE == ThreadMultiple, "MPI_THREAD_MULTIPLE");
static_assert(sizeof(MPI_Comm) == sizeof(Comm) && sizeof(MPI_Request) == sizeof(Request) &&
                  sizeof(MPI_Datatype) == sizeof(Datatype),
              "handles are pointers");
#define CLUSTRIX_TEXT(X) #X
#define CLUSTRIX_EXPANDED(X) CLUSTRIX_TEXT(X)
TEST(MpiTest, PredefinedHandlesAreTheNamedObjects) {
  // Open MPI's MPI_COMM_WORLD, MPI_BYTE and MPI_ERRORS_RETURN are the addresses of these objects,
  // which the runtime resolves by name.
  EXPECT_NE(std::string(CLUSTRIX_EXPANDED(MPI_COMM_WORLD)).find("&(ompi_mpi_comm_world)"),
            std::string::npos);
  EXPECT_NE(std::string(CLUSTRIX_EXPANDED(MPI_BYTE)).find("&(ompi_mpi_byte)"), std::string::npos);
  EXPECT_NE(std::string(CLUSTRIX_EXPANDED(MPI_ERRORS_RETURN)).find("&(ompi_mpi_errors_return)"),
            std::string::npos);
}
#endif
