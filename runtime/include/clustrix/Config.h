//===- clustrix/Config.h - Runtime configuration ----------------*- C++ -*-===//
//
// The runtime's settings: read from clustrix.yml (found in the documented order), overridden by
// environment variables and by clustrix::configure() calls. docs/configuration.md is the reference.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_CONFIG_H
#define CLUSTRIX_CONFIG_H

#include "clustrix/Runtime.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace clustrix {

/// A configuration error, always naming where: file, line and column (1-based; 0 when unknown).
class ConfigError : public std::runtime_error {
public:
  ConfigError(std::string File, int Line, int Column, const std::string &Message);
  const std::string &file() const { return File; }
  int line() const { return Line; }
  int column() const { return Column; }

private:
  std::string File;
  int Line;
  int Column;
};

/// The configuration file the runtime reads, in this order: $CLUSTRIX_CONFIG (which must exist),
/// ./clustrix.yml, $XDG_CONFIG_HOME/clustrix/clustrix.yml (or ~/.config/clustrix/clustrix.yml).
/// Empty when there is none.
std::string findConfigFile();

/// How much the runtime writes to stderr. Off is silent even for errors.
enum class LogLevel : uint8_t { Off, Error, Warn, Info, Debug };

/// The runtime's settings. Defaults are the values a program gets with no file, no environment
/// variable and no configure() call; docs/configuration.md describes each key.
struct RuntimeConfig {
  bool AutoGpuParallel = true;          ///< auto_gpu_parallel: false runs every loop serially.
  uint32_t MaxGpuParallelJobs = 0;      ///< max_gpu_parallel_jobs: devices per loop, 0 = all.
  uint64_t MinItersPerDevice = 30;      ///< min_iters_per_device: at least 1.
  uint64_t SerialThreshold = 32768;     ///< serial_threshold: trip count x work per iteration.
  bool Adaptive = true;                 ///< adaptive: time serial against wide, keep the faster.
  rt::Schedule DefaultSchedule = rt::Schedule::Block; ///< default_schedule.
  uint64_t ChunkSize = 0;               ///< chunk_size for cyclic/dynamic; 0 = automatic.
  std::string Devices;                  ///< devices: a device set; empty = automatic.
  std::string KernelCache;              ///< kernel_cache: a directory; empty = per-user default.
  LogLevel Log = LogLevel::Warn;        ///< log_level.
  uint64_t PinnedStagingBytes = 64ull << 20; ///< pinned_staging_bytes per CUDA device.
  uint32_t PackThreads = 0;             ///< pack_threads: threads that fill and empty staging; 0 = up to 8.
  bool PackStreaming = true;            ///< pack_streaming: fill staging with streaming stores.
  bool HostRegister = false;            ///< host_register: page-lock large ranges and copy them directly.
  bool PageableAccess = false;          ///< pageable_access: kernels use the host's memory where a GPU can.
  uint64_t CudaMemoryLimit = 0;         ///< cuda_memory_limit: device bytes a chunk may use; 0 = free memory.
  uint64_t WorkerSpinMicroseconds = 200; ///< worker_spin_us: idle workers spin this long.
  bool Residency = true;                ///< residency: false copies back after every loop call.
  bool ResidencyCheck = false;          ///< residency_check: poison stale host copies (tests).
  std::string Trace;                    ///< trace: a file for the timeline; empty = none.
};

/// Parses configuration text (YAML). FileName is used in errors only. Keys absent from the text
/// keep their defaults; the `hosts` key is accepted and left to the remote-hosts module.
/// \throws ConfigError for a syntax error, an unknown or repeated key, a wrong type or a value out
/// of range, naming FileName, line and column.
RuntimeConfig parseConfig(const std::string &Text, const std::string &FileName);

/// Reads and parses one configuration file. \throws ConfigError.
RuntimeConfig loadConfigFile(const std::string &Path);

/// Applies the CLUSTRIX_<KEY> environment variables (CLUSTRIX_LOG for log_level) to C.
/// \throws ConfigError naming the variable (line and column 0) for a bad value; C then keeps
/// every value applied before the bad one.
void applyEnvironment(RuntimeConfig &C);

/// Sets one key for this process, above the file and the environment, with the same syntax as
/// the file's scalar values, e.g. configure("devices", "cpu:4"). \throws ConfigError.
void configure(const std::string &Key, const std::string &Value);

/// Replaces the file and environment settings for this process; later configure(Key, Value)
/// calls still apply on top.
void configure(const RuntimeConfig &C);

/// Forgets every configure() call and re-reads the file and the environment at the next use.
void resetConfiguration();

/// The effective settings: file, then environment, then configure(). A bad file or variable is
/// reported once on stderr (`clustrix: error: FILE:LINE:COL: ...`) and ignored, so a program
/// never stops because of its configuration: it runs with the remaining settings.
RuntimeConfig currentConfig();

/// The candidate closest to \p Word within a small edit distance (at most 3, and a third of the
/// candidate's length), for "did you mean" hints of configuration keys; "" when none is close.
std::string suggestSpelling(const std::string &Word, const std::vector<std::string> &Candidates);

/// Name of a log level as the configuration spells it ("warn").
const char *logLevelName(LogLevel L);
/// Name of a schedule as the configuration spells it ("block").
const char *scheduleName(rt::Schedule S);

} // namespace clustrix

#endif // CLUSTRIX_CONFIG_H
