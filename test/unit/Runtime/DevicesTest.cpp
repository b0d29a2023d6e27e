//===- DevicesTest.cpp - Tests of discovery, formats and lanes ------------===//
#include "CUDA/CudaBackend.h"
#include "Exec/Lanes.h"
#include "Support/DeviceSet.h"
#include "clustrix/Devices.h"

#include <gtest/gtest.h>

using namespace clustrix;
using namespace clustrix::rt;

namespace {

DeviceReport twoGpus() {
  DeviceReport R;
  for (int I = 0; I < 2; ++I) {
    DeviceInfo D;
    D.Kind = DeviceKind::CUDA;
    D.Index = I;
    D.Name = I ? "NVIDIA L4" : "NVIDIA H100 80GB HBM3";
    D.TotalMemory = (I ? 24ull : 80ull) << 30;
    D.FreeMemory = (I ? 20ull : 79ull) << 30;
    D.ComputeMajor = I ? 8 : 9;
    D.ComputeMinor = I ? 9 : 0;
    D.Multiprocessors = I ? 58 : 132;
    D.ClockKHz = I ? 2040000 : 1980000;
    R.Devices.push_back(D);
  }
  DeviceInfo Cpu;
  Cpu.Name = "Test CPU";
  Cpu.Threads = 16;
  R.Devices.push_back(Cpu);
  R.CudaAvailable = true;
  R.DriverVersion = 13000;
  return R;
}

TEST(DevicesTest, TableNamesEveryDevice) {
  std::string T = formatDeviceTable(twoGpus());
  EXPECT_NE(T.find("cuda0   NVIDIA H100 80GB HBM3"), std::string::npos) << T;
  EXPECT_NE(T.find("79.0 / 80.0"), std::string::npos) << T;
  EXPECT_NE(T.find("9.0"), std::string::npos);
  EXPECT_NE(T.find("132 SMs"), std::string::npos);
  EXPECT_NE(T.find("1980 MHz"), std::string::npos);
  EXPECT_NE(T.find("16 threads"), std::string::npos);
  EXPECT_NE(T.find("CUDA: 2 device(s), driver 13.0"), std::string::npos) << T;
  DeviceReport R = twoGpus();
  R.Host = "node7";
  R.Notes.push_back("CUDA_VISIBLE_DEVICES=0 hides 7 of this machine's 8 GPUs");
  T = formatDeviceTable(R);
  EXPECT_EQ(T.rfind("host node7\n", 0), 0u);
  EXPECT_NE(T.find("note: CUDA_VISIBLE_DEVICES=0 hides 7"), std::string::npos);
}

TEST(DevicesTest, JsonIsOneObjectPerHost) {
  DeviceReport R = twoGpus();
  R.CudaStatus = "say \"hi\"\n";
  std::string J = formatDeviceJson(R);
  EXPECT_EQ(J.rfind("{\"host\":\"localhost\",\"cuda_available\":true,\"gpu_count\":2,"
                    "\"gpus_total\":null,\"cuda_visible_devices\":null,",
                    0),
            0u)
      << J;
  EXPECT_EQ(J.find('\n'), std::string::npos) << J;
  EXPECT_NE(J.find("\"cuda_status\":\"say \\\"hi\\\"\\n\""), std::string::npos) << J;
  EXPECT_NE(J.find("\"compute_capability\":\"8.9\""), std::string::npos);
  EXPECT_NE(J.find("{\"kind\":\"cpu\",\"name\":\"Test CPU\",\"threads\":16}"), std::string::npos);
  std::string A = formatDeviceJson(std::vector<DeviceReport>{R, DeviceReport()});
  EXPECT_EQ(A.front(), '[');
  EXPECT_EQ(A.back(), ']');
  EXPECT_NE(A.find("},{\"host\""), std::string::npos);
}

TEST(DevicesTest, JsonCarriesHiddenGpusAndStaysValidUtf8) {
  DeviceReport R = twoGpus();
  R.TotalGpus = 8;
  R.CudaVisibleDevices = "0,1";
  R.Devices[0].Name = "bad \xff\xfe name";
  std::string J = formatDeviceJson(R);
  EXPECT_NE(J.find("\"gpu_count\":2,\"gpus_total\":8,\"cuda_visible_devices\":\"0,1\""),
            std::string::npos)
      << J;
  EXPECT_NE(J.find("bad \xef\xbf\xbd\xef\xbf\xbd name"), std::string::npos) << J; // U+FFFD
  std::string P = formatProbeLines(R);
  EXPECT_NE(P.find("GPU_COUNT:2\n"), std::string::npos) << P;
  EXPECT_NE(P.find("GPU_TOTAL:8\nCUDA_VISIBLE_DEVICES:0,1\n"), std::string::npos) << P;
  DeviceReport Back;
  ASSERT_TRUE(parseProbeLines(P, Back));
  EXPECT_EQ(Back.TotalGpus, 8);
  ASSERT_TRUE(Back.CudaVisibleDevices);
  EXPECT_EQ(*Back.CudaVisibleDevices, "0,1");
}

TEST(DevicesTest, ProbeLinesRoundTrip) {
  std::string P = formatProbeLines(twoGpus());
  EXPECT_EQ(P.rfind("GPU_COUNT:2\nCUDA_AVAILABLE:True\nCPU_THREADS:16\n", 0), 0u) << P;
  DeviceReport Back;
  ASSERT_TRUE(parseProbeLines(P, Back));
  ASSERT_EQ(Back.gpuCount(), 2);
  EXPECT_TRUE(Back.CudaAvailable);
  EXPECT_EQ(Back.Devices[0].Name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(Back.Devices[1].ComputeMajor, 8);
  EXPECT_EQ(Back.Devices[1].ComputeMinor, 9);
  EXPECT_EQ(Back.Devices[0].Multiprocessors, 132);
  EXPECT_EQ(Back.Devices[0].TotalMemory, 80ull << 30);
  EXPECT_EQ(Back.Devices[2].Threads, 16);
}

TEST(DevicesTest, LegacyProbeIsEnough) {
  DeviceReport R;
  R.Host = "old";
  ASSERT_TRUE(parseProbeLines("some banner\r\nGPU_COUNT:8\r\nCUDA_AVAILABLE:True\r\n", R));
  EXPECT_EQ(R.gpuCount(), 8);
  EXPECT_EQ(R.Host, "old");
  EXPECT_TRUE(R.CudaAvailable);
  EXPECT_FALSE(parseProbeLines("CUDA_AVAILABLE:True\n", R));
  EXPECT_FALSE(parseProbeLines("GPU_COUNT:eight\n", R));
}

TEST(DevicesTest, ProbeLinesClaimAtMostMaxProbeGpus) {
  // A few bytes from a host must not make a million device entries (a fuzz finding).
  DeviceReport R;
  ASSERT_TRUE(parseProbeLines("GPU_COUNT:1024\n", R));
  EXPECT_EQ(R.gpuCount(), 1024);
  EXPECT_FALSE(parseProbeLines("GPU_COUNT:1025\n", R));
  EXPECT_FALSE(parseProbeLines("GPU_COUNT:55551\n", R));
  EXPECT_FALSE(parseProbeLines("GPU_COUNT:2\nGPU_TOTAL:100000\n", R));
  std::string Many = "GPU_COUNT:0\n";
  for (int I = 0; I <= MaxProbeGpus; ++I)
    Many += "GPU_" + std::to_string(I) + ":x|1|8.0|1\n";
  EXPECT_FALSE(parseProbeLines(Many, R));
  // A number is the whole value: not the part before a NUL.
  EXPECT_FALSE(parseProbeLines(std::string("GPU_COUNT:2\0junk\n", 17), R));
}

TEST(DevicesTest, DiscoveryWithoutDriverStillListsTheCpu) {
  // This machine may or may not have a driver; either way the CPU is last and sane.
  DeviceReport R = discoverLocalDevices(false);
  ASSERT_FALSE(R.Devices.empty());
  EXPECT_EQ(R.Devices.back().Kind, DeviceKind::CPU);
  EXPECT_GE(R.Devices.back().Threads, 1);
  if (!R.CudaAvailable) {
    EXPECT_FALSE(R.CudaStatus.empty());
  }
  EXPECT_EQ(R.CudaAvailable, R.gpuCount() > 0);
}

TEST(DevicesTest, DeviceSetsParse) {
  DeviceSpec S;
  std::string Err;
  ASSERT_TRUE(parseDeviceSpec("cuda:0,2", S, Err));
  EXPECT_FALSE(S.Auto);
  EXPECT_TRUE(S.Cuda);
  EXPECT_FALSE(S.Cpu);
  EXPECT_EQ(S.CudaOrdinals, (std::vector<int>{0, 2}));
  ASSERT_TRUE(parseDeviceSpec("cuda,cpu:3", S, Err));
  EXPECT_TRUE(S.Cuda && S.Cpu);
  EXPECT_EQ(S.CpuWorkers, 3u);
  ASSERT_TRUE(parseDeviceSpec(" auto ", S, Err));
  EXPECT_TRUE(S.Auto);
  EXPECT_FALSE(parseDeviceSpec("cpu,2", S, Err));
  EXPECT_NE(Err.find("must follow 'cuda:N'"), std::string::npos);
  EXPECT_FALSE(parseDeviceSpec("cuda:1,1", S, Err));
  EXPECT_FALSE(parseDeviceSpec("cpu,,cuda", S, Err));
  EXPECT_FALSE(parseDeviceSpec("cpu:x", S, Err));
}

TEST(DevicesTest, LanesFollowTheSetting) {
  DeviceReport R = twoGpus();
  LaneSet S = buildLanes("", R);
  ASSERT_EQ(S.Lanes.size(), 2u); // automatic: the GPUs
  EXPECT_TRUE(S.hasAccelerators());
  EXPECT_EQ(S.Lanes[1].Name, "cuda1");
  EXPECT_GT(S.Lanes[0].Weight, S.Lanes[1].Weight); // 132 SMs outweigh 58
  EXPECT_GT(S.Lanes[1].Weight, 100.0);               // a GPU outweighs a CPU worker
  S = buildLanes("cuda:1,cpu:2", R);
  ASSERT_EQ(S.Lanes.size(), 3u);
  EXPECT_EQ(S.Lanes[0].Name, "cuda1");
  EXPECT_EQ(S.Lanes[2].Name, "cpu1");
  S = buildLanes("cuda:5", R);
  EXPECT_TRUE(S.Lanes.front().Owner->isHost());
  ASSERT_EQ(S.Warnings.size(), 2u);
  EXPECT_NE(S.Warnings[0].find("cuda:5 does not exist"), std::string::npos);
  EXPECT_NE(S.Warnings[1].find("using the CPU"), std::string::npos);
  S = buildLanes("cpu", R);
  EXPECT_EQ(S.Lanes.size(), 16u);
  EXPECT_TRUE(S.Warnings.empty());
  DeviceReport NoGpu;
  NoGpu.Devices.push_back(R.Devices.back());
  NoGpu.CudaStatus = "no CUDA driver";
  NoGpu.Notes.push_back("CUDA_VISIBLE_DEVICES= is set");
  S = buildLanes("auto", NoGpu);
  EXPECT_EQ(S.Lanes.size(), 16u);
  ASSERT_EQ(S.Warnings.size(), 1u); // the note, since CUDA was wanted
  S = buildLanes("cuda", NoGpu);
  EXPECT_EQ(S.Lanes.size(), 16u);
  EXPECT_NE(S.Warnings[0].find("no CUDA device is usable (no CUDA driver)"), std::string::npos);
}

// pageable_access: a GPU uses the host's memory in place only when the setting asks and the
// device can; such a lane keeps no data for residency, the others do.
TEST(DevicesTest, PageableAccessMarksTheLanesThatCan) {
  DeviceReport R = twoGpus();
  R.Devices[1].PageableMemoryAccess = true;
  LaneSet Off = buildLanes("cuda,cpu:1", R);
  LaneSet On = buildLanes("cuda,cpu:1", R, /*PageableAccess=*/true);
  ASSERT_EQ(On.Lanes.size(), 3u);
  EXPECT_FALSE(Off.Lanes[0].HostMemory || Off.Lanes[1].HostMemory || Off.Lanes[2].HostMemory);
  EXPECT_FALSE(On.Lanes[0].HostMemory);
  EXPECT_TRUE(On.Lanes[1].HostMemory);
  EXPECT_FALSE(On.Lanes[2].HostMemory); // a CPU worker runs in place anyway
  EXPECT_TRUE(On.Lanes[0].Owner->keepsData(On.Lanes[0]));
  EXPECT_FALSE(On.Lanes[1].Owner->keepsData(On.Lanes[1]));
  EXPECT_TRUE(Off.Lanes[1].Owner->keepsData(Off.Lanes[1]));
  EXPECT_FALSE(On.Lanes[2].Owner->keepsData(On.Lanes[2]));
}

} // namespace
