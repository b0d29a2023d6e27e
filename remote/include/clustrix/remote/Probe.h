//===- clustrix/remote/Probe.h - What GPUs a remote host has ----*- C++ -*-===//
//
// The pure half of remote device detection: the shell script that asks a host what it has, the
// parser of its answer (nvidia-smi CSV, strictly checked), and CUDA_VISIBLE_DEVICES applied the way
// CUDA applies it. No I/O here, so every rule is unit-tested without a host.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_REMOTE_PROBE_H
#define CLUSTRIX_REMOTE_PROBE_H

#include "clustrix/remote/Hosts.h"
#include "clustrix/remote/Shell.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clustrix {
namespace remote {

/// One GPU as the probe lists it (nvidia-smi's physical view, which ignores CUDA_VISIBLE_DEVICES).
struct RemoteGpu {
  int Index = 0;                ///< nvidia-smi's index.
  std::string Name;
  int64_t MemoryTotalMiB = 0;
  int64_t MemoryUsedMiB = -1;   ///< -1 when the probe reports it as not available.
  int ComputeMajor = 0, ComputeMinor = 0;
  std::string Uuid;             ///< "GPU-…".

  /// A GPU is free when at most 5% of its memory is in use (used by `--host auto`).
  bool isFree() const;
};

/// Parses the probe's CSV: per line "index, name, memory.total, memory.used, compute_cap, uuid"
/// (units MiB). Blank lines are ignored; anything else that does not fit throws
/// RemoteError(ProbeGarbled) naming \p Host, the line number and the line.
std::vector<RemoteGpu> parseGpuCsv(const std::string &Text, const std::string &Host);

/// Which GPUs a CUDA program on the host would see.
struct Visibility {
  bool Restricted = false;        ///< CUDA_VISIBLE_DEVICES is set.
  std::string Value;              ///< Its value, when set.
  std::vector<int> Visible;       ///< Positions in the GPU list, in CUDA's order (cuda:0 first).
  std::vector<std::string> Warnings; ///< Entries CUDA would stop at, and why.
};

/// Applies CUDA_VISIBLE_DEVICES (\p Value; nullopt when unset) to \p Gpus as the CUDA driver does:
/// a comma-separated list of indices or (prefixes of) UUIDs; the list ends at the first entry that
/// names no GPU, a GPU listed already, or a MIG instance; an empty value hides every GPU.
Visibility applyVisibleDevices(const std::vector<RemoteGpu> &Gpus,
                               const std::optional<std::string> &Value);

/// Everything a probe of one host found.
struct ProbeReport {
  std::string Host;
  int Cpus = 0;                   ///< Online CPUs (nproc).
  std::vector<RemoteGpu> Gpus;    ///< What exists.
  Visibility Visible;             ///< What CUDA programs there see.
  bool ProbeMissing = false;      ///< The probe command is not installed (no nvidia-smi).
  std::vector<std::string> Notes; ///< Warnings for people (hidden GPUs, missing probe).
  bool FromCache = false;
  double AgeSeconds = 0;          ///< Age of a cached answer.
};

/// The command that probes \p Host: prelude (working directory, env, setup), then CPU count, the
/// effective CUDA_VISIBLE_DEVICES and the probe's output between markers. The env values travel
/// on its standard input.
RemoteCommand probeCommand(const HostConfig &Host);

/// Builds the report from what probeCommand printed and its exit status. Throws RemoteError
/// (SetupFailed, ProbeFailed, ProbeGarbled) naming the host. Text the host sent (GPU names,
/// excerpts in errors and notes) is kept printable().
ProbeReport parseProbeOutput(const HostConfig &Host, const std::string &Stdout,
                             const std::string &Stderr, int ExitStatus);

/// The first non-empty line of \p Text, trimmed, made printable() and cut to a readable length
/// ("" when none).
std::string firstLine(const std::string &Text);

} // namespace remote
} // namespace clustrix

#endif // CLUSTRIX_REMOTE_PROBE_H
