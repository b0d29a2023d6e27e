//===- clustrix/remote/Cache.h - Cached probe answers -----------*- C++ -*-===//
//
// Probing a host costs a connection and a process start there; its answer is kept for the host's
// cache_ttl in a private per-user directory so that repeated `clustrix-devices --host` and
// `clustrix-run --host auto` calls are instant.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_REMOTE_CACHE_H
#define CLUSTRIX_REMOTE_CACHE_H

#include "clustrix/remote/Hosts.h"

#include <optional>
#include <string>

namespace clustrix {
namespace remote {

/// SHA-256 of \p Data, as 64 lowercase hex digits.
std::string sha256Hex(const std::string &Data);

/// SHA-256 of the file \p Path, or "" when it cannot be read.
std::string sha256File(const std::string &Path);

/// A probe's raw answer: what the probe command printed and its exit status.
struct ProbeOutput {
  std::string Stdout, Stderr;
  int ExitStatus = 0;
};

/// One cache file's contents: the key of the settings it answers for, when it was stored, and
/// the probe's answer.
struct CacheEntry {
  std::string Key;
  double Time = 0; ///< Seconds since the epoch.
  ProbeOutput Output;
};

/// Reads a cache file's text; nullopt when it is not a complete entry. The file is ours, in a
/// private directory, but it is read as untrusted input all the same.
std::optional<CacheEntry> parseCacheEntry(const std::string &Text);

/// The probe cache: one file per host, named by the host and keyed by every setting that changes
/// the answer, so that editing a host's configuration invalidates its entry.
class ProbeCache {
public:
  /// The default directory: $XDG_CACHE_HOME/clustrix/hosts or ~/.cache/clustrix/hosts.
  static std::string defaultDirectory();

  explicit ProbeCache(std::string Directory = defaultDirectory());

  /// The cached answer for \p Host if younger than its cache_ttl; \p AgeSeconds receives its age.
  std::optional<ProbeOutput> lookup(const HostConfig &Host, double &AgeSeconds) const;

  /// Stores \p Output for \p Host. Returns false (and stores nothing) when the directory cannot be
  /// made private to this user; the cache is an optimization, so that is not an error.
  bool store(const HostConfig &Host, const ProbeOutput &Output) const;

  /// The key of a host's settings (exposed for tests).
  static std::string keyOf(const HostConfig &Host);

private:
  bool ensurePrivateDirectory() const;
  std::string fileOf(const HostConfig &Host) const;

  std::string Directory;
};

} // namespace remote
} // namespace clustrix

#endif // CLUSTRIX_REMOTE_CACHE_H
