//===- clustrix/remote/Devices.h - Probing hosts and running there --*- C++ -*-===//
//
// What the tools call: probe one host or all of them (concurrently, each bounded by its own
// timeouts, answers cached), pick the host with the most free GPUs, and run a program on a host
// with its output streamed back.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_REMOTE_DEVICES_H
#define CLUSTRIX_REMOTE_DEVICES_H

#include "clustrix/remote/Error.h"
#include "clustrix/remote/Hosts.h"
#include "clustrix/remote/Probe.h"

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clustrix {
namespace remote {

/// How probing uses the cache.
struct ProbeOptions {
  bool UseCache = true;  ///< Answer from the cache when it is fresh.
  std::string CacheDirectory; ///< Empty: ProbeCache::defaultDirectory().
};

/// Probes \p Host (or answers from the cache). Throws RemoteError.
ProbeReport probeHost(const HostConfig &Host, const ProbeOptions &Options = {});

/// One host's outcome in a multi-host probe: a report or the error.
struct HostOutcome {
  std::string Host;
  std::optional<ProbeReport> Report;
  std::optional<RemoteError> Error;
};

/// Probes every host concurrently, in configuration order; never throws for one host's failure.
std::vector<HostOutcome> probeHosts(const std::vector<HostConfig> &Hosts,
                                    const ProbeOptions &Options = {});

/// The host `--host auto` picks from probed outcomes: the most free visible GPUs, then the most
/// visible GPUs, then the first configured. nullptr when no host answered.
const HostOutcome *pickAutoHost(const std::vector<HostOutcome> &Outcomes);

/// A program to run remotely and where its output goes.
struct RunRequest {
  std::vector<std::string> Argv;    ///< Local program path, then its arguments.
  /// Seconds the program may run; 0 means no limit; unset: the host's run_timeout.
  std::optional<double> TimeoutSeconds;
  std::vector<std::pair<std::string, std::string>> PassEnv; ///< Exported before the host's env.
  std::function<void(const char *, size_t)> Stdout, Stderr;
  std::function<bool()> ShouldStop; ///< Ctrl-C; see CommandIO::ShouldStop.
  std::function<void(const std::string &)> Progress; ///< Status lines for --verbose (may be empty).
  /// Called just before the program is started: from then on Ctrl-C goes to the program.
  std::function<void()> OnStart;
};

/// Copies the program to the host's working directory (skipping an identical copy), runs it there
/// and returns its exit code (128 + n for signal n; 130 when interrupted). Throws RemoteError; a
/// Timeout after OnStart was called is the program's run timeout.
int runOnHost(const HostConfig &Host, const RunRequest &Request);

/// What the host answered when asked for its working directory and the hash of the program
/// already there: the lines after \p Marker (login chatter may come before it).
struct WorkdirAnswer {
  std::string Directory; ///< Absolute (pwd -P).
  std::string Hash;      ///< 64 hex digits of the program there, or "" when there is none.
};

/// Reads that answer; nullopt when the marker or an absolute directory is missing.
std::optional<WorkdirAnswer> parseWorkdirAnswer(const std::string &Stdout,
                                                const std::string &Marker);

/// The runtime's variables (CLUSTRIX_*) of \p Environ that a remote run passes through; the
/// configuration file's path is local and is left out.
std::vector<std::pair<std::string, std::string>> clustrixEnvironment(char **Environ);

} // namespace remote
} // namespace clustrix

#endif // CLUSTRIX_REMOTE_DEVICES_H
