//===- ConfigTest.cpp - Tests of the configuration loader -----------------===//
#include "clustrix/Config.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <cstdio>
#include <sys/stat.h>
#include <unistd.h>

using namespace clustrix;

namespace {

/// Parses Text and returns the error, failing the test when there is none.
ConfigError errorOf(const std::string &Text) {
  try {
    parseConfig(Text, "c.yml");
  } catch (const ConfigError &E) {
    return E;
  }
  ADD_FAILURE() << "no error for:\n" << Text;
  return ConfigError("", 0, 0, "");
}

void expectError(const std::string &Text, int Line, int Column, const std::string &Part) {
  ConfigError E = errorOf(Text);
  EXPECT_EQ(E.file(), "c.yml");
  EXPECT_EQ(E.line(), Line) << E.what();
  EXPECT_EQ(E.column(), Column) << E.what();
  EXPECT_NE(std::string(E.what()).find(Part), std::string::npos) << E.what();
  EXPECT_EQ(std::string(E.what()).rfind("c.yml:" + std::to_string(Line) + ":" +
                                        std::to_string(Column) + ": ", 0),
            0u)
      << E.what();
}

TEST(ConfigTest, EveryKeyParses) {
  RuntimeConfig C = parseConfig("auto_gpu_parallel: false\n"
                                "max_gpu_parallel_jobs: 4\n"
                                "min_iters_per_device: 100\n"
                                "serial_threshold: 0\n"
                                "adaptive: off\n"
                                "default_schedule: cyclic\n"
                                "chunk_size: 64\n"
                                "devices: [cuda:0, 2, cpu:4]\n"
                                "kernel_cache: /tmp/k\n"
                                "log_level: debug\n"
                                "pinned_staging_bytes: 32M\n"
                                "pack_threads: 3\n"
                                "pack_streaming: off\n"
                                "host_register: on\n"
                                "pageable_access: yes\n"
                                "worker_spin_us: 0\n"
                                "cuda_memory_limit: 1M\n"
                                "trace: /tmp/t.json\n"
                                "hosts:\n  - name: a\n    whatever: [1, 2]\n",
                                "c.yml");
  EXPECT_FALSE(C.AutoGpuParallel);
  EXPECT_EQ(C.MaxGpuParallelJobs, 4u);
  EXPECT_EQ(C.MinItersPerDevice, 100u);
  EXPECT_EQ(C.SerialThreshold, 0u);
  EXPECT_FALSE(C.Adaptive);
  EXPECT_EQ(C.DefaultSchedule, rt::Schedule::Cyclic);
  EXPECT_EQ(C.ChunkSize, 64u);
  EXPECT_EQ(C.Devices, "cuda:0,2,cpu:4");
  EXPECT_EQ(C.KernelCache, "/tmp/k");
  EXPECT_EQ(C.Log, LogLevel::Debug);
  EXPECT_EQ(C.PinnedStagingBytes, 32u << 20);
  EXPECT_EQ(C.PackThreads, 3u);
  EXPECT_FALSE(C.PackStreaming);
  EXPECT_TRUE(C.HostRegister);
  EXPECT_TRUE(C.PageableAccess);
  EXPECT_EQ(C.WorkerSpinMicroseconds, 0u);
  EXPECT_EQ(C.CudaMemoryLimit, 1u << 20);
  EXPECT_EQ(C.Trace, "/tmp/t.json");
}

TEST(ConfigTest, TraceNeedsAPath) {
  EXPECT_TRUE(parseConfig("# nothing\n", "c.yml").Trace.empty());
  expectError("trace: \"\"\n", 1, 8, "trace must be a file path");
}

TEST(ConfigTest, EmptyFileMeansDefaults) {
  RuntimeConfig C = parseConfig("# nothing\n", "c.yml");
  RuntimeConfig D;
  EXPECT_EQ(C.MinItersPerDevice, D.MinItersPerDevice);
  EXPECT_EQ(C.Log, LogLevel::Warn);
  EXPECT_EQ(C.PinnedStagingBytes, 64u << 20);
  EXPECT_EQ(C.PackThreads, 0u);
  EXPECT_TRUE(C.PackStreaming);
  EXPECT_FALSE(C.HostRegister);
  EXPECT_FALSE(C.PageableAccess);
}

TEST(ConfigTest, PackThreadsRange) {
  expectError("pack_threads: 65\n", 1, 15, "pack_threads");
}

TEST(ConfigTest, PackStreamingIsABoolean) {
  expectError("pack_streaming: fast\n", 1, 17, "pack_streaming");
}

TEST(ConfigTest, SyntaxError) {
  // Found at the end of the input: reported at the end of the last line, not on a line past it.
  expectError("devices: cpu\nlog_level: [info\n", 2, 17, "syntax error");
  expectError("devices: cpu\nlog_level: [info\n\n\n", 2, 17, "syntax error");
  expectError("devices: [cpu\nlog_level: info\n", 2, 10, "syntax error");
}

TEST(ConfigTest, DidYouMean) {
  expectError("min_iters_per_devise: 3\n", 1, 1,
              "unknown key 'min_iters_per_devise'; did you mean 'min_iters_per_device'?");
  expectError("host:\n  - name: a\n", 1, 1, "did you mean 'hosts'?");
  EXPECT_EQ(std::string(errorOf("frobnicate: 1\n").what()).find("did you mean"),
            std::string::npos);
  EXPECT_EQ(suggestSpelling("log_levl", {"log_level", "devices"}), "log_level");
  EXPECT_EQ(suggestSpelling("xyz", {"log_level", "devices"}), "");
}

TEST(ConfigTest, UnknownKey) {
  expectError("devices: cpu\n  \nmin_iter_per_device: 3\n", 3, 1,
              "unknown key 'min_iter_per_device'");
}

TEST(ConfigTest, RepeatedKey) {
  expectError("devices: cpu\ndevices: cuda\n", 2, 1, "appears twice");
  // A second hosts: section too, although the runtime does not read the section.
  expectError("hosts:\n  - name: a\nlog_level: info\nhosts:\n  - name: b\n", 4, 1,
              "'hosts' appears twice");
}

TEST(ConfigTest, WrongType) {
  expectError("chunk_size: [1, 2]\n", 1, 13, "expected a single value, found a sequence");
  expectError("log_level:\n  a: b\n", 2, 3, "found a mapping");
  expectError("chunk_size:\n", 1, 1, "found nothing");
  // Nothing on the last line, with and without its newline: that line, not one past the file.
  expectError("devices: cpu\nchunk_size:", 2, 1, "found nothing");
  expectError("devices: cpu\nchunk_size:\n\n", 2, 1, "found nothing");
  expectError("min_iters_per_device: many\n", 1, 23, "expected an unsigned integer");
  expectError("auto_gpu_parallel: perhaps\n", 1, 20, "expected a boolean");
  expectError("- devices\n", 1, 1, "expected a mapping");
}

TEST(ConfigTest, OutOfRange) {
  expectError("min_iters_per_device: 0\n", 1, 23, "out of range (1 to");
  expectError("serial_threshold: -5\n", 1, 19, "must not be negative");
  expectError("max_gpu_parallel_jobs: 5000\n", 1, 24, "out of range");
  expectError("pinned_staging_bytes: 100G\n", 1, 23, "out of range");
}

TEST(ConfigTest, BadNamedValues) {
  expectError("default_schedule: guided\n", 1, 19, "unknown schedule 'guided'");
  expectError("log_level: verbose\n", 1, 12, "unknown log level 'verbose'");
  expectError("devices: tpu:1\n", 1, 10, "unknown device kind 'tpu'");
  expectError("devices: cpu:0\n", 1, 10, "cpu worker count must be 1 to 1024");
  expectError("devices: [cpu, [cuda]]\n", 1, 16, "expected a device name");
}

TEST(ConfigTest, ErrorWithoutPositionNamesOnlyTheFile) {
  ConfigError E("f.yml", 0, 0, "cannot read the file");
  EXPECT_STREQ(E.what(), "f.yml: cannot read the file");
  EXPECT_THROW(loadConfigFile("/nonexistent/clustrix.yml"), ConfigError);
}

TEST(ConfigTest, EnvironmentOverridesAndReportsBadValues) {
  RuntimeConfig C;
  ::setenv("CLUSTRIX_MIN_ITERS_PER_DEVICE", "7", 1);
  ::setenv("CLUSTRIX_LOG", "info", 1);
  applyEnvironment(C);
  EXPECT_EQ(C.MinItersPerDevice, 7u);
  EXPECT_EQ(C.Log, LogLevel::Info);
  ::setenv("CLUSTRIX_SCHEDULE", "sideways", 1);
  try {
    applyEnvironment(C);
    ADD_FAILURE() << "no error";
  } catch (const ConfigError &E) {
    EXPECT_EQ(E.file(), "CLUSTRIX_SCHEDULE");
    EXPECT_EQ(E.line(), 0);
  }
  ::unsetenv("CLUSTRIX_SCHEDULE");
  ::unsetenv("CLUSTRIX_MIN_ITERS_PER_DEVICE");
  ::unsetenv("CLUSTRIX_LOG");
}

TEST(ConfigTest, ConfigureOverridesAndValidates) {
  resetConfiguration();
  ::setenv("CLUSTRIX_DEVICES", "cpu:3", 1);
  EXPECT_EQ(currentConfig().Devices, "cpu:3");
  configure("devices", "cpu:2");
  EXPECT_EQ(currentConfig().Devices, "cpu:2");
  EXPECT_THROW(configure("devics", "cpu"), ConfigError);
  EXPECT_THROW(configure("chunk_size", "lots"), ConfigError);
  RuntimeConfig Mine;
  Mine.MinItersPerDevice = 5;
  configure(Mine);
  EXPECT_EQ(currentConfig().MinItersPerDevice, 5u);
  EXPECT_EQ(currentConfig().Devices, ""); // the whole set replaced, environment included
  ::unsetenv("CLUSTRIX_DEVICES");
  resetConfiguration();
  EXPECT_EQ(currentConfig().MinItersPerDevice, 30u);
}

TEST(ConfigTest, LookupOrder) {
  char Dir[] = "/tmp/clustrix-config-XXXXXX";
  ASSERT_NE(::mkdtemp(Dir), nullptr);
  std::string D = Dir;
  ::setenv("XDG_CONFIG_HOME", D.c_str(), 1);
  ::unsetenv("CLUSTRIX_CONFIG");
  char Cwd[4096];
  ASSERT_NE(::getcwd(Cwd, sizeof(Cwd)), nullptr);
  ASSERT_EQ(::chdir(Dir), 0);
  EXPECT_EQ(findConfigFile(), "");
  ASSERT_EQ(::mkdir((D + "/clustrix").c_str(), 0700), 0);
  std::ofstream(D + "/clustrix/clustrix.yml") << "devices: cpu\n";
  EXPECT_EQ(findConfigFile(), D + "/clustrix/clustrix.yml");
  std::ofstream(D + "/clustrix.yml") << "devices: cpu\n";
  EXPECT_EQ(findConfigFile(), "clustrix.yml");
  ::setenv("CLUSTRIX_CONFIG", (D + "/clustrix/clustrix.yml").c_str(), 1);
  EXPECT_EQ(findConfigFile(), D + "/clustrix/clustrix.yml");
  ::setenv("CLUSTRIX_CONFIG", (D + "/none.yml").c_str(), 1);
  EXPECT_THROW(findConfigFile(), ConfigError);
  ::unsetenv("CLUSTRIX_CONFIG");
  ::unsetenv("XDG_CONFIG_HOME");
  ASSERT_EQ(::chdir(Cwd), 0);
  std::remove((D + "/clustrix.yml").c_str());
  std::remove((D + "/clustrix/clustrix.yml").c_str());
  ::rmdir((D + "/clustrix").c_str());
  ::rmdir(Dir);
}

} // namespace
