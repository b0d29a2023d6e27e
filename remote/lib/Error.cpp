//===- remote/Error.cpp - Errors of remote hosts --------------------------===//
//
// Names of the error kinds and the host-prefixed message.
//
//===----------------------------------------------------------------------===//
#include "clustrix/remote/Error.h"

#include "clustrix/remote/Text.h"

namespace clustrix {
namespace remote {

const char *remoteErrorKindName(RemoteErrorKind Kind) {
  switch (Kind) {
  case RemoteErrorKind::Dns: return "dns";
  case RemoteErrorKind::Refused: return "refused";
  case RemoteErrorKind::Unreachable: return "unreachable";
  case RemoteErrorKind::Timeout: return "timeout";
  case RemoteErrorKind::HostKeyUnknown: return "host-key-unknown";
  case RemoteErrorKind::HostKeyChanged: return "host-key-changed";
  case RemoteErrorKind::Authentication: return "authentication";
  case RemoteErrorKind::Identity: return "identity";
  case RemoteErrorKind::Protocol: return "protocol";
  case RemoteErrorKind::ConnectionLost: return "connection-lost";
  case RemoteErrorKind::SetupFailed: return "setup-failed";
  case RemoteErrorKind::ProbeFailed: return "probe-failed";
  case RemoteErrorKind::ProbeGarbled: return "probe-garbled";
  case RemoteErrorKind::CommandFailed: return "command-failed";
  case RemoteErrorKind::Interrupted: return "interrupted";
  }
  return "unknown";
}

// Messages quote what hosts and servers sent (error excerpts, a server's disconnect reason), so
// they are made printable here, once for every error.
RemoteError::RemoteError(RemoteErrorKind Kind, std::string Host, const std::string &Message)
    : std::runtime_error("host '" + printable(Host) + "': " + printable(Message)), Kind(Kind),
      Host(std::move(Host)), Detail(printable(Message)) {}

} // namespace remote
} // namespace clustrix
