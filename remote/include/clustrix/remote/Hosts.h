//===- clustrix/remote/Hosts.h - The hosts: section of clustrix.yml --*- C++ -*-===//
//
// The remote hosts a user can reach over SSH, as configured in the `hosts:` section of the same
// clustrix.yml the runtime reads. docs/hosts.md is the reference for every key.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_REMOTE_HOSTS_H
#define CLUSTRIX_REMOTE_HOSTS_H

#include "clustrix/Config.h"

#include <string>
#include <utility>
#include <vector>

namespace clustrix {
namespace remote {

/// What to do with a server key that known_hosts does not list. A key that differs from the one
/// listed is always refused.
enum class HostKeyPolicy {
  Strict,    ///< Refuse unknown keys (the default): add them with ssh-keyscan or ssh first.
  AcceptNew, ///< Accept an unknown key and record it in the known_hosts file.
};

/// The default probe: one CSV line per GPU.
extern const char *const DefaultProbeCommand;

/// One remote host, with every default applied. Paths keep a leading "~/" (expanded locally for
/// local files, by the remote shell for remote ones).
struct HostConfig {
  std::string Name;              ///< How the user names the host (`--host NAME`).
  std::string Hostname;          ///< DNS name or address to connect to; defaults to Name.
  int Port = 22;
  std::string User;              ///< Empty: the local user name.
  std::string IdentityFile;      ///< Private key file; empty: the agent or the default keys.
  bool UseAgent = false;         ///< Authenticate only with the SSH agent ($SSH_AUTH_SOCK).
  std::string KnownHostsFile;    ///< Empty: ~/.ssh/known_hosts.
  HostKeyPolicy KeyPolicy = HostKeyPolicy::Strict;
  double ConnectTimeout = 10;    ///< Seconds, for the TCP connect and each SSH handshake step.
  double CommandTimeout = 60;    ///< Seconds, for the probe and helper commands.
  double RunTimeout = 0;         ///< Seconds a `clustrix-run` program may run; 0: no limit.
  double CacheTtl = 300;         ///< Seconds a probe answer stays valid; 0: never cached.
  std::vector<std::pair<std::string, std::string>> Env; ///< Set on the host, in this order.
  std::vector<std::string> Setup; ///< Shell commands run first (module loads), in order.
  std::string WorkDir = "~/.clustrix/run"; ///< Remote working directory (created if missing).
  std::string Probe = DefaultProbeCommand;  ///< Lists the host's GPUs as nvidia-smi CSV.
  std::string File;              ///< The configuration file it came from, and where its name is.
  int Line = 0, Column = 0;

  /// The value the host's configuration gives CUDA_VISIBLE_DEVICES, if it sets it.
  const std::string *configuredVisibleDevices() const;
};

/// Everything a clustrix.yml holds: the runtime's settings and the hosts.
struct Configuration {
  RuntimeConfig Runtime;
  std::vector<HostConfig> Hosts;
};

/// Reads and validates the whole YAML file \p Path: the runtime's keys (clustrix::parseConfig:
/// unknown and repeated top-level keys, bad values) and the `hosts:` section. Throws ConfigError
/// (file:line:column) for the first problem. The tools check a file with this, so that a file
/// they accept is one the runtime accepts too.
Configuration loadConfiguration(const std::string &Path);

/// The same, from YAML text; \p FileName is only used in errors.
Configuration parseConfiguration(const std::string &Text, const std::string &FileName);

/// The hosts of the whole file \p Path, validated as loadConfiguration() does. A file without a
/// `hosts:` section yields no hosts.
std::vector<HostConfig> loadHosts(const std::string &Path);

/// Only the `hosts:` section of YAML text (other top-level keys are not looked at); \p FileName
/// is only used in errors. Throws ConfigError (file:line:column) for every bad value or key.
std::vector<HostConfig> parseHosts(const std::string &Text, const std::string &FileName);

/// The file to read hosts from: \p Explicit when not empty (it must exist), else
/// clustrix::findConfigFile(). Empty when there is none.
std::string resolveConfigFile(const std::string &Explicit);

/// The host named \p Name, or nullptr.
const HostConfig *findHost(const std::vector<HostConfig> &Hosts, const std::string &Name);

/// The local home directory: $HOME when it is set and not empty, else the passwd entry's. The one
/// rule for every local "~/": paths in the configuration, the default keys (~/.ssh/id_*),
/// known_hosts and the probe cache.
std::string localHome();

/// Expands a leading "~/" (or a lone "~") with localHome().
std::string expandLocalPath(const std::string &Path);

} // namespace remote
} // namespace clustrix

#endif // CLUSTRIX_REMOTE_HOSTS_H
