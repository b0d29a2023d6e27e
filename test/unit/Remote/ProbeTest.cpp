//===- ProbeTest.cpp - nvidia-smi CSV, visibility and probe output --------===//
//
// The strict CSV parser, CUDA_VISIBLE_DEVICES as CUDA applies it, and the probe script's answer
// turned into a report (or the right error).
//
//===----------------------------------------------------------------------===//
#include "clustrix/remote/Devices.h"
#include "clustrix/remote/Probe.h"
#include "clustrix/remote/Session.h"
#include "clustrix/remote/Text.h"

#include <gtest/gtest.h>

using namespace clustrix::remote;

namespace {

std::string gpuLine(int I, int UsedMiB = 0) {
  return std::to_string(I) + ", NVIDIA H100 80GB HBM3, 81559, " + std::to_string(UsedMiB) +
         ", 9.0, GPU-" + std::to_string(I) + "0000000-aaaa-bbbb\n";
}

std::vector<RemoteGpu> eightGpus() {
  std::string Csv;
  for (int I = 0; I < 8; ++I)
    Csv += gpuLine(I);
  return parseGpuCsv(Csv, "h");
}

/// Expects \p Text to be rejected with a ProbeGarbled error containing \p Fragment.
void expectGarbled(const std::string &Text, const std::string &Fragment) {
  try {
    parseGpuCsv(Text, "tensor01");
    FAIL() << "accepted: " << Text;
  } catch (const RemoteError &E) {
    EXPECT_EQ(E.kind(), RemoteErrorKind::ProbeGarbled);
    EXPECT_NE(std::string(E.what()).find("host 'tensor01'"), std::string::npos) << E.what();
    EXPECT_NE(std::string(E.what()).find(Fragment), std::string::npos) << E.what();
  }
}

} // namespace

TEST(GpuCsv, ParsesEveryField) {
  std::vector<RemoteGpu> G = parseGpuCsv(
      "0, NVIDIA H100 80GB HBM3, 81559, 1234, 9.0, GPU-12345678-aaaa\n\n"
      "1, NVIDIA A100-SXM4-40GB, 40960, [N/A], 8.0, GPU-87654321-bbbb\n",
      "h");
  ASSERT_EQ(G.size(), 2u);
  EXPECT_EQ(G[0].Index, 0);
  EXPECT_EQ(G[0].Name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(G[0].MemoryTotalMiB, 81559);
  EXPECT_EQ(G[0].MemoryUsedMiB, 1234);
  EXPECT_EQ(G[0].ComputeMajor, 9);
  EXPECT_EQ(G[0].ComputeMinor, 0);
  EXPECT_EQ(G[0].Uuid, "GPU-12345678-aaaa");
  EXPECT_EQ(G[1].MemoryUsedMiB, -1);
  EXPECT_FALSE(G[1].isFree());
  EXPECT_TRUE(parseGpuCsv("", "h").empty());
}

TEST(GpuCsv, RejectsGarbledLinesNamingHostAndLine) {
  expectGarbled(gpuLine(0) + "1, NVIDIA H100, 81559\n", "line 2 has 3 fields");
  expectGarbled("x, NVIDIA H100, 81559, 0, 9.0, GPU-1234\n", "line 1 has no GPU index");
  expectGarbled("0, , 81559, 0, 9.0, GPU-1234\n", "has no GPU name");
  expectGarbled("0, H100, lots, 0, 9.0, GPU-1234\n", "has no memory total");
  expectGarbled("0, H100, 81559, -5, 9.0, GPU-1234\n", "has no memory used");
  expectGarbled("0, H100, 81559, 0, nine, GPU-1234\n", "has no compute capability");
  expectGarbled("0, H100, 81559, 0, 9.0, 1234\n", "has no GPU UUID");
  expectGarbled(gpuLine(0) + gpuLine(0), "repeats GPU index 0");
  expectGarbled("0, H100, 81559, 0, 9.0, GPU-1234,\n", "has 7 fields");
  expectGarbled("NVIDIA-SMI has failed because it couldn't communicate with the driver\n",
                "line 1 has 1 field, expected 6");
}

TEST(Visibility, UnsetShowsEverything) {
  Visibility V = applyVisibleDevices(eightGpus(), std::nullopt);
  EXPECT_FALSE(V.Restricted);
  EXPECT_EQ(V.Visible.size(), 8u);
}

TEST(Visibility, StrayZeroHidesSevenOfEight) {
  Visibility V = applyVisibleDevices(eightGpus(), std::string("0"));
  EXPECT_TRUE(V.Restricted);
  EXPECT_EQ(V.Visible, std::vector<int>{0});
  EXPECT_TRUE(V.Warnings.empty());
}

TEST(Visibility, KeepsCudaOrderAndSpaces) {
  EXPECT_EQ(applyVisibleDevices(eightGpus(), std::string("5, 3")).Visible,
            (std::vector<int>{5, 3}));
}

TEST(Visibility, EmptyHidesAll) {
  EXPECT_TRUE(applyVisibleDevices(eightGpus(), std::string("")).Visible.empty());
}

TEST(Visibility, StopsAtTheFirstInvalidEntry) {
  Visibility V = applyVisibleDevices(eightGpus(), std::string("1,9,2"));
  EXPECT_EQ(V.Visible, std::vector<int>{1});
  ASSERT_EQ(V.Warnings.size(), 1u);
  EXPECT_NE(V.Warnings[0].find("'9' names no GPU"), std::string::npos) << V.Warnings[0];
  EXPECT_TRUE(applyVisibleDevices(eightGpus(), std::string("-1")).Visible.empty());
  EXPECT_EQ(applyVisibleDevices(eightGpus(), std::string("2,2,3")).Visible, std::vector<int>{2});
  EXPECT_TRUE(applyVisibleDevices(eightGpus(), std::string("MIG-abc")).Visible.empty());
}

TEST(Visibility, UuidPrefixes) {
  EXPECT_EQ(applyVisibleDevices(eightGpus(), std::string("GPU-30000000,GPU-1")).Visible,
            (std::vector<int>{3, 1}));
  // "GPU-" matches every GPU: ambiguous, so CUDA stops there.
  EXPECT_TRUE(applyVisibleDevices(eightGpus(), std::string("GPU-")).Visible.empty());
}

namespace {

HostConfig testHost() {
  HostConfig H;
  H.Name = "tensor01";
  return H;
}

std::string probeStdout(const std::string &Cvd, const std::string &Csv, int Exit) {
  return "module chatter\nCLUSTRIX-READY\nCLUSTRIX-CPUS 64\nCLUSTRIX-CVD " + Cvd + "\n" + Csv +
         "\nCLUSTRIX-PROBE-EXIT " + std::to_string(Exit) + "\n";
}

std::string eightCsv() {
  std::string Csv;
  for (int I = 0; I < 8; ++I)
    Csv += gpuLine(I, I < 6 ? 0 : 40000);
  return Csv;
}

} // namespace

TEST(ProbeOutput, EightGpus) {
  ProbeReport R = parseProbeOutput(testHost(), probeStdout("unset", eightCsv(), 0), "", 0);
  EXPECT_EQ(R.Cpus, 64);
  EXPECT_EQ(R.Gpus.size(), 8u);
  EXPECT_EQ(R.Visible.Visible.size(), 8u);
  EXPECT_TRUE(R.Notes.empty());
}

TEST(ProbeOutput, StrayVisibleDevicesIsReportedWithItsSource) {
  ProbeReport R = parseProbeOutput(testHost(), probeStdout("set 0", eightCsv(), 0), "", 0);
  EXPECT_EQ(R.Gpus.size(), 8u);
  EXPECT_EQ(R.Visible.Visible.size(), 1u);
  ASSERT_EQ(R.Notes.size(), 1u);
  EXPECT_EQ(R.Notes[0], "CUDA_VISIBLE_DEVICES='0' (from the host's login environment or setup "
                        "commands) leaves 1 of the host's 8 GPUs visible");
  HostConfig Configured = testHost();
  Configured.Env = {{"CUDA_VISIBLE_DEVICES", "0"}};
  R = parseProbeOutput(Configured, probeStdout("set 0", eightCsv(), 0), "", 0);
  EXPECT_NE(R.Notes[0].find("from the host's env configuration"), std::string::npos);
}

TEST(ProbeOutput, MissingProbeAndNoDevicesAreZeroGpus) {
  ProbeReport Missing = parseProbeOutput(testHost(), probeStdout("unset", "", 127), "", 0);
  EXPECT_TRUE(Missing.ProbeMissing);
  EXPECT_TRUE(Missing.Gpus.empty());
  EXPECT_EQ(Missing.Cpus, 64);
  ProbeReport None =
      parseProbeOutput(testHost(), probeStdout("unset", "No devices were found", 6), "", 0);
  EXPECT_FALSE(None.ProbeMissing);
  EXPECT_TRUE(None.Gpus.empty());
}

TEST(ProbeOutput, Errors) {
  auto KindOf = [](const std::string &Out, const std::string &Err, int Exit) {
    try {
      parseProbeOutput(testHost(), Out, Err, Exit);
    } catch (const RemoteError &E) {
      EXPECT_EQ(E.host(), "tensor01");
      return E.kind();
    }
    return RemoteErrorKind::Interrupted; // "no error"
  };
  EXPECT_EQ(KindOf("", "module: command not found", 1), RemoteErrorKind::SetupFailed);
  EXPECT_EQ(KindOf(probeStdout("unset", "", 9), "driver not loaded", 0),
            RemoteErrorKind::ProbeFailed);
  EXPECT_EQ(KindOf(probeStdout("unset", "0, H100, x", 0), "", 0), RemoteErrorKind::ProbeGarbled);
  EXPECT_EQ(KindOf("CLUSTRIX-READY\nCLUSTRIX-CVD unset\n", "", 0), RemoteErrorKind::ProbeGarbled);
  EXPECT_EQ(KindOf("CLUSTRIX-READY\nCLUSTRIX-CPUS 4\nCLUSTRIX-CVD unset\n0, H100", "", 0),
            RemoteErrorKind::ProbeGarbled);
}

TEST(ProbeCommand, QuotesHostValuesAndKeepsEnvValuesOffTheCommandLine) {
  HostConfig H = testHost();
  H.Env = {{"CUDA_VISIBLE_DEVICES", "0'; reboot; '"}, {"TOKEN", "s3cret-value"}};
  H.WorkDir = "~/work dir";
  RemoteCommand C = probeCommand(H);
  // Every user of the host can read the command line (ps): the values travel on stdin.
  EXPECT_EQ(C.Text.find("s3cret-value"), std::string::npos) << C.Text;
  EXPECT_EQ(C.Text.find("reboot"), std::string::npos) << C.Text;
  EXPECT_NE(C.Input.find("export CUDA_VISIBLE_DEVICES='0'\\''; reboot; '\\'''"), std::string::npos)
      << C.Input;
  EXPECT_NE(C.Input.find("export TOKEN='s3cret-value'"), std::string::npos) << C.Input;
  EXPECT_NE(C.Text.find("cd -- \"$HOME\"/'work dir'"), std::string::npos) << C.Text;
}

TEST(ProbeOutput, RemoteTextIsMadePrintable) {
  // A GPU name with terminal escapes (clear the screen, set the title) and a byte that is not
  // UTF-8; a CUDA_VISIBLE_DEVICES value and an error excerpt with escapes.
  std::string Csv =
      "0, NVIDIA\x1b[2J\x1b]0;owned\x07 H100\xff, 81559, 0, 9.0, GPU-00000000-aaaa\n";
  ProbeReport R = parseProbeOutput(testHost(), probeStdout("set 0\x1b[31m", Csv, 0), "", 0);
  ASSERT_EQ(R.Gpus.size(), 1u);
  EXPECT_EQ(R.Gpus[0].Name, "NVIDIA\\x1b[2J\\x1b]0;owned\\x07 H100\\xff");
  EXPECT_TRUE(R.Visible.Visible.empty());
  for (const std::string &N : R.Notes)
    EXPECT_EQ(N.find('\x1b'), std::string::npos) << N;
  try {
    parseProbeOutput(testHost(), probeStdout("unset", "", 9), "failed\x1b[2J\xc2\x9b" "1m here", 0);
    FAIL() << "no error";
  } catch (const RemoteError &E) {
    EXPECT_EQ(std::string(E.what()).find('\x1b'), std::string::npos) << E.what();
    EXPECT_NE(std::string(E.what()).find("failed\\x1b[2J\\u009b1m here"), std::string::npos)
        << E.what();
  }
}

TEST(Printable, EscapesControlsAndInvalidUtf8Only) {
  EXPECT_EQ(printable("plain ASCII, 100%"), "plain ASCII, 100%");
  EXPECT_EQ(printable("caf\xc3\xa9 \xe2\x84\xa2"), "caf\xc3\xa9 \xe2\x84\xa2"); // valid UTF-8
  EXPECT_EQ(printable("a\tb\nc\rd"), "a\\tb\\nc\\rd");
  EXPECT_EQ(printable(std::string("\0\x1b\x7f", 3)), "\\x00\\x1b\\x7f");
  EXPECT_EQ(printable("\xc2\x9b"), "\\u009b");             // C1 CSI, as UTF-8
  EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");          // overlong '/'
  EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80"); // a surrogate
  EXPECT_EQ(printable("\xe2\x84"), "\\xe2\\x84");          // cut short
  EXPECT_EQ(truncateUtf8("ab\xc3\xa9", 3), "ab…");
  EXPECT_EQ(truncateUtf8("abc", 3), "abc");
}

TEST(WorkdirAnswer, SkipsLoginChatterAndReadsTheHash) {
  std::string Hash(64, 'a');
  auto A = parseWorkdirAnswer("Welcome to tensor01!\nM\n/home/u/run\n" + Hash + "  -\n", "M");
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Directory, "/home/u/run");
  EXPECT_EQ(A->Hash, Hash);
  A = parseWorkdirAnswer("M\n/home/u/run\n", "M");
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Hash, "");
  EXPECT_FALSE(parseWorkdirAnswer("chatter\n/home/u/run\n", "M"));
  EXPECT_FALSE(parseWorkdirAnswer("M\nrelative\n", "M"));
  EXPECT_FALSE(parseWorkdirAnswer("", "M"));
  A = parseWorkdirAnswer("M\r\n/x\r\n\\" + Hash + "  a\\\\b\n", "M");
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Directory, "/x");
  EXPECT_EQ(A->Hash, ""); // the line of an escaped name is not a hash
}

TEST(CommandExit, Codes) {
  CommandExit E;
  E.Status = 3;
  EXPECT_EQ(E.code(), 3);
  E.Status = -1;
  E.Signal = "TERM";
  EXPECT_EQ(E.code(), 143);
  E.Signal = "KILL";
  EXPECT_EQ(E.code(), 137);
  E.Signal = "";
  E.Interrupted = true;
  EXPECT_EQ(E.code(), 130);
}

TEST(AutoHost, MostFreeGpusThenMostVisible) {
  auto Outcome = [](const std::string &Name, std::vector<int> UsedMiB) {
    HostOutcome O;
    O.Host = Name;
    ProbeReport R;
    for (size_t I = 0; I < UsedMiB.size(); ++I) {
      RemoteGpu G;
      G.Index = static_cast<int>(I);
      G.MemoryTotalMiB = 80000;
      G.MemoryUsedMiB = UsedMiB[I];
      R.Gpus.push_back(G);
    }
    R.Visible = applyVisibleDevices(R.Gpus, std::nullopt);
    O.Report = R;
    return O;
  };
  std::vector<HostOutcome> Outcomes = {Outcome("busy", {70000, 70000, 70000, 0}),
                                       Outcome("two-free", {0, 100, 70000}),
                                       Outcome("two-free-more", {0, 100, 70000, 70000})};
  HostOutcome Failed;
  Failed.Host = "down";
  Failed.Error = RemoteError(RemoteErrorKind::Refused, "down", "refused");
  Outcomes.insert(Outcomes.begin(), Failed);
  ASSERT_NE(pickAutoHost(Outcomes), nullptr);
  EXPECT_EQ(pickAutoHost(Outcomes)->Host, "two-free-more");
  EXPECT_EQ(pickAutoHost({Failed}), nullptr);
}

TEST(PassThrough, OnlyRuntimeVariablesButNotTheConfigPath) {
  char A[] = "CLUSTRIX_LOG=debug", B[] = "CLUSTRIX_CONFIG=/local/clustrix.yml", C[] = "HOME=/root",
       D[] = "CLUSTRIX_DEVICES=cpu";
  char *Environ[] = {A, B, C, D, nullptr};
  auto Env = clustrixEnvironment(Environ);
  ASSERT_EQ(Env.size(), 2u);
  EXPECT_EQ(Env[0], (std::pair<std::string, std::string>("CLUSTRIX_LOG", "debug")));
  EXPECT_EQ(Env[1].first, "CLUSTRIX_DEVICES");
}
