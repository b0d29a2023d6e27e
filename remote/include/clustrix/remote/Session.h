//===- clustrix/remote/Session.h - One SSH connection to a host --*- C++ -*-===//
//
// A real SSH client over libssh: host keys checked against known_hosts by the host's policy,
// public-key authentication from an identity file or the agent, and every step bounded by the
// host's timeouts. Commands get their standard input from us (the environment block, a file)
// and stream their output through callbacks.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_REMOTE_SESSION_H
#define CLUSTRIX_REMOTE_SESSION_H

#include "clustrix/remote/Hosts.h"
#include "clustrix/remote/Shell.h"

#include <functional>
#include <memory>
#include <string>

namespace clustrix {
namespace remote {

/// How a remote command ended.
struct CommandExit {
  int Status = -1;          ///< Exit status, or -1 when it ended by a signal.
  std::string Signal;       ///< The signal's name ("INT", "KILL") when it ended by one.
  bool Interrupted = false; ///< We stopped it because the caller asked (Ctrl-C).

  /// The status a local shell would report: Status, or 128 + the signal's number.
  int code() const;
};

/// Where a streaming command's output goes, and how the caller asks it to stop.
struct CommandIO {
  std::function<void(const char *, size_t)> Stdout; ///< Called as stdout data arrives.
  std::function<void(const char *, size_t)> Stderr; ///< Called as stderr data arrives.
  /// Polled at least every 100 ms; returning true sends SIGINT to the command, then (after a
  /// grace period) closes the channel, which kills the command's process group.
  std::function<bool()> ShouldStop;
};

/// A command's whole output, for short helper commands.
struct CapturedCommand {
  std::string Stdout, Stderr;
  CommandExit Exit;
};

/// One authenticated SSH connection to one configured host. Not thread-safe; use one per thread.
class SshSession {
public:
  /// Connects, verifies the host key, authenticates. Throws RemoteError naming the host.
  explicit SshSession(const HostConfig &Host);
  ~SshSession();
  SshSession(const SshSession &) = delete;
  SshSession &operator=(const SshSession &) = delete;

  const HostConfig &host() const { return Host; }

  /// Runs \p Command: its text as the shell command, its input written to the command's
  /// standard input; streams the output. \p TimeoutSeconds > 0 bounds the run, counted from when
  /// the input was written (RemoteError Timeout, after stopping the command). Throws RemoteError
  /// for a lost connection or channel failure; a command that fails is a normal return.
  CommandExit run(const RemoteCommand &Command, const CommandIO &IO, double TimeoutSeconds);

  /// Runs \p Command and returns its output (at most 16 MiB of each stream).
  CapturedCommand capture(const RemoteCommand &Command, double TimeoutSeconds);

  class Impl;

private:
  HostConfig Host;
  std::unique_ptr<Impl> P;
};

} // namespace remote
} // namespace clustrix

#endif // CLUSTRIX_REMOTE_SESSION_H
