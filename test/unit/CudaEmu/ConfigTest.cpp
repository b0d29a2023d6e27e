//===- ConfigTest.cpp - The emulator's settings ---------------------------===//
#include "Config.h"

#include <gtest/gtest.h>

#include <map>

using namespace clustrix::cudaemu;

namespace {

/// Reads a configuration from a fixed set of variables.
bool readFrom(const std::map<std::string, std::string> &Vars, EmuConfig &C, std::string &Err) {
  return readConfig(
      [&](const char *Name) -> const char * {
        auto It = Vars.find(Name);
        return It == Vars.end() ? nullptr : It->second.c_str();
      },
      C, Err);
}

TEST(CudaEmuConfigTest, SizesHaveBinaryUnits) {
  uint64_t B = 0;
  ASSERT_TRUE(parseSize("4096", B));
  EXPECT_EQ(B, 4096u);
  ASSERT_TRUE(parseSize("64K", B));
  EXPECT_EQ(B, 64u << 10);
  ASSERT_TRUE(parseSize("1.5G", B));
  EXPECT_EQ(B, 3ull << 29);
  ASSERT_TRUE(parseSize("512MiB", B));
  EXPECT_EQ(B, 512ull << 20);
  ASSERT_TRUE(parseSize("64.5m", B));
  EXPECT_EQ(B, 129ull << 19);
  EXPECT_FALSE(parseSize("", B));
  EXPECT_FALSE(parseSize("lots", B));
  EXPECT_FALSE(parseSize("12X", B));
  EXPECT_FALSE(parseSize("-1G", B));
}

TEST(CudaEmuConfigTest, DefaultsAreOneGpuOfOneGiB) {
  EmuConfig C;
  std::string Err;
  ASSERT_TRUE(readFrom({}, C, Err)) << Err;
  EXPECT_EQ(C.Gpus, 1u);
  EXPECT_EQ(C.Memory, std::vector<uint64_t>{DefaultMemory});
  EXPECT_EQ(C.Sms, std::vector<int>{4}); // one per 256 MiB
  EXPECT_TRUE(C.Faults.empty());
}

TEST(CudaEmuConfigTest, ListsGiveOneValuePerDeviceAndTheLastRepeats) {
  EmuConfig C;
  std::string Err;
  ASSERT_TRUE(readFrom({{"CLUSTRIX_EMU_GPUS", "4"}, {"CLUSTRIX_EMU_GPU_MEMORY", "2G, 512M"}}, C,
                       Err))
      << Err;
  EXPECT_EQ(C.Memory, (std::vector<uint64_t>{2ull << 30, 512ull << 20, 512ull << 20, 512ull << 20}));
  EXPECT_EQ(C.Sms, (std::vector<int>{8, 2, 2, 2}));
  ASSERT_TRUE(readFrom({{"CLUSTRIX_EMU_GPUS", "2"}, {"CLUSTRIX_EMU_GPU_SMS", "132,1"}}, C, Err));
  EXPECT_EQ(C.Sms, (std::vector<int>{132, 1}));
  EXPECT_FALSE(readFrom({{"CLUSTRIX_EMU_GPUS", "2"}, {"CLUSTRIX_EMU_GPU_MEMORY", "1G,1G,1G"}}, C,
                        Err));
  EXPECT_NE(Err.find("3 values for 2 device(s)"), std::string::npos) << Err;
  EXPECT_FALSE(readFrom({{"CLUSTRIX_EMU_GPU_MEMORY", "512K"}}, C, Err)); // below 1 MiB
  EXPECT_NE(Err.find("CLUSTRIX_EMU_GPU_MEMORY: '512K'"), std::string::npos) << Err;
  EXPECT_FALSE(readFrom({{"CLUSTRIX_EMU_GPUS", "65"}}, C, Err));
  EXPECT_FALSE(readFrom({{"CLUSTRIX_EMU_GPU_SMS", "0"}}, C, Err));
}

TEST(CudaEmuConfigTest, CopyLatencyIsMicroseconds) {
  EmuConfig C;
  std::string Err;
  ASSERT_TRUE(readFrom({}, C, Err)) << Err;
  EXPECT_EQ(C.CopyLatencyUs, 0u);
  ASSERT_TRUE(readFrom({{"CLUSTRIX_EMU_COPY_LATENCY", "300"}}, C, Err)) << Err;
  EXPECT_EQ(C.CopyLatencyUs, 300u);
  EXPECT_FALSE(readFrom({{"CLUSTRIX_EMU_COPY_LATENCY", "1ms"}}, C, Err));
  EXPECT_EQ(Err, "CLUSTRIX_EMU_COPY_LATENCY: '1ms' is not a count of microseconds (0 to 1000000)");
  EXPECT_FALSE(readFrom({{"CLUSTRIX_EMU_COPY_LATENCY", "1000001"}}, C, Err));
}

TEST(CudaEmuConfigTest, PageableAccessPerDevice) {
  EmuConfig C;
  std::string Err;
  ASSERT_TRUE(readFrom({{"CLUSTRIX_EMU_GPUS", "3"}}, C, Err)) << Err;
  EXPECT_EQ(C.Pageable, std::vector<PageableAccess>(3, PageableAccess::Off));
  ASSERT_TRUE(readFrom({{"CLUSTRIX_EMU_GPUS", "3"}, {"CLUSTRIX_EMU_PAGEABLE_ACCESS", "ats, hmm"}}, C,
                       Err))
      << Err;
  EXPECT_EQ(C.Pageable, (std::vector<PageableAccess>{PageableAccess::Ats, PageableAccess::Hmm,
                                                     PageableAccess::Hmm}));
  EXPECT_FALSE(readFrom({{"CLUSTRIX_EMU_PAGEABLE_ACCESS", "yes"}}, C, Err));
  EXPECT_EQ(Err, "CLUSTRIX_EMU_PAGEABLE_ACCESS: 'yes' is not a valid value (off, hmm or ats)");
  EXPECT_FALSE(readFrom({{"CLUSTRIX_EMU_PAGEABLE_ACCESS", "off,off"}}, C, Err));
  EXPECT_EQ(Err, "CLUSTRIX_EMU_PAGEABLE_ACCESS: 2 values for 1 device(s) (off, hmm or ats)");
}

TEST(CudaEmuConfigTest, HostMemoryPageableOrLocked) {
  EmuConfig C;
  std::string Err;
  ASSERT_TRUE(readFrom({}, C, Err)) << Err;
  EXPECT_FALSE(C.AllHostLocked);
  ASSERT_TRUE(readFrom({{"CLUSTRIX_EMU_HOST_MEMORY", "locked"}}, C, Err)) << Err;
  EXPECT_TRUE(C.AllHostLocked);
  ASSERT_TRUE(readFrom({{"CLUSTRIX_EMU_HOST_MEMORY", "pageable"}}, C, Err)) << Err;
  EXPECT_FALSE(C.AllHostLocked);
  EXPECT_FALSE(readFrom({{"CLUSTRIX_EMU_HOST_MEMORY", "pinned"}}, C, Err));
  EXPECT_EQ(Err, "CLUSTRIX_EMU_HOST_MEMORY: 'pinned' is not pageable or locked");
}

TEST(CudaEmuConfigTest, FaultRules) {
  std::vector<FaultRule> R;
  std::string Err;
  ASSERT_TRUE(parseFaults("1:lost@2,*:oom,0:skip-copy-in@3,7:launch,2:register@4,3:partial@2", R,
                          Err))
      << Err;
  ASSERT_EQ(R.size(), 6u);
  EXPECT_EQ(R[0].Device, 1);
  EXPECT_EQ(R[0].Kind, FaultKind::Lost);
  EXPECT_EQ(R[0].Nth, 2u);
  EXPECT_EQ(R[1].Device, -1);
  EXPECT_EQ(R[1].Kind, FaultKind::Oom);
  EXPECT_EQ(R[1].Nth, 1u);
  EXPECT_EQ(R[2].Kind, FaultKind::SkipCopyIn);
  EXPECT_EQ(R[3].Kind, FaultKind::Launch);
  EXPECT_EQ(R[4].Kind, FaultKind::Register);
  EXPECT_EQ(R[4].Nth, 4u);
  EXPECT_EQ(R[5].Kind, FaultKind::Partial);
  EXPECT_EQ(R[5].Device, 3);
  EXPECT_FALSE(R[5].AfterPeerRead);
  ASSERT_TRUE(parseFaults("1:partial@1+peer,*:lost+peer", R, Err)) << Err;
  ASSERT_EQ(R.size(), 2u);
  EXPECT_EQ(R[0].Kind, FaultKind::Partial);
  EXPECT_EQ(R[0].Nth, 1u);
  EXPECT_TRUE(R[0].AfterPeerRead);
  EXPECT_EQ(R[1].Kind, FaultKind::Lost);
  EXPECT_TRUE(R[1].AfterPeerRead);
  EXPECT_FALSE(parseFaults("0:oom@2+peer", R, Err));
  EXPECT_EQ(Err, "'0:oom@2+peer': only lost and partial take +peer");
  EXPECT_FALSE(parseFaults("0:partial@+peer", R, Err));
  EXPECT_FALSE(parseFaults("0:+peer", R, Err));
  EXPECT_FALSE(parseFaults("lost", R, Err));
  EXPECT_NE(Err.find("not DEVICE:KIND[@N][+peer]"), std::string::npos);
  EXPECT_FALSE(parseFaults("cuda0:lost", R, Err));
  EXPECT_FALSE(parseFaults("0:melt", R, Err));
  EXPECT_NE(Err.find("'melt' is not a fault (lost, launch, oom, skip-copy-in, register, partial)"),
            std::string::npos);
  EXPECT_FALSE(parseFaults("0:lost@0", R, Err));
  EmuConfig C;
  EXPECT_FALSE(readFrom({{"CLUSTRIX_EMU_FAULT", "0:melt"}}, C, Err));
  EXPECT_EQ(Err.find("CLUSTRIX_EMU_FAULT: "), 0u) << Err;
}

} // namespace
