//===- clustrix/remote/Error.h - Errors of remote hosts ---------*- C++ -*-===//
//
// Every failure to reach, probe or run on a remote host is a RemoteError: a kind that callers and
// tests can match, the host's configured name, and a message for people. docs/hosts.md lists every
// kind and what to do about it.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_REMOTE_ERROR_H
#define CLUSTRIX_REMOTE_ERROR_H

#include <stdexcept>
#include <string>

namespace clustrix {
namespace remote {

/// Why talking to a remote host failed. Each kind has one entry in docs/hosts.md.
enum class RemoteErrorKind {
  Dns,              ///< The hostname does not resolve.
  Refused,          ///< Nothing listens on the port (connection refused).
  Unreachable,      ///< No route to the host or network.
  Timeout,          ///< Connecting, the SSH handshake or a command ran past its timeout.
  HostKeyUnknown,   ///< The server's key is not in known_hosts and the policy is strict.
  HostKeyChanged,   ///< known_hosts holds a different key for this host: refused.
  Authentication,   ///< The server accepted none of our keys.
  Identity,         ///< The configured identity file cannot be read or is passphrase-protected.
  Protocol,         ///< The SSH session failed (handshake, channel or SFTP error).
  ConnectionLost,   ///< The connection dropped while a command ran.
  SetupFailed,      ///< The working directory or a `setup` command failed on the host.
  ProbeFailed,      ///< The probe command ran but failed.
  ProbeGarbled,     ///< The probe's output is not the expected CSV.
  CommandFailed,    ///< A helper command (copying the program, hashing) failed on the host.
  Interrupted,      ///< Stopped by the user (Ctrl-C).
};

/// The stable spelling of a kind, as printed in messages and in --json output.
const char *remoteErrorKindName(RemoteErrorKind Kind);

/// A failure on one remote host. what() is "host 'NAME': MESSAGE", with control characters and
/// invalid UTF-8 in MESSAGE escaped (printable()), since it may quote what the host sent.
class RemoteError : public std::runtime_error {
public:
  RemoteError(RemoteErrorKind Kind, std::string Host, const std::string &Message);
  RemoteErrorKind kind() const { return Kind; }
  const std::string &host() const { return Host; }
  /// The message without the host prefix.
  const std::string &detail() const { return Detail; }

private:
  RemoteErrorKind Kind;
  std::string Host;
  std::string Detail;
};

} // namespace remote
} // namespace clustrix

#endif // CLUSTRIX_REMOTE_ERROR_H
