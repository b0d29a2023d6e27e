//===- Support/Log.cpp - Runtime messages on stderr --------------------------===//
#include "Support/Log.h"

#include "Support/ConfigState.h"

#include <cerrno>
#include <mutex>
#include <set>
#include <unistd.h>

namespace clustrix {
namespace rt {

bool logEnabled(LogLevel L) {
  return L != LogLevel::Off && static_cast<uint8_t>(L) <= static_cast<uint8_t>(activeConfig().Log);
}

void logLine(LogLevel L, const std::string &Text) {
  if (!logEnabled(L))
    return;
  std::string Line = "clustrix: ";
  if (L == LogLevel::Error)
    Line += "error: ";
  else if (L == LogLevel::Warn)
    Line += "warning: ";
  Line += Text;
  Line += '\n';
  // One write(2) per line keeps lines whole when several threads log at once.
  const char *P = Line.data();
  size_t Left = Line.size();
  while (Left > 0) {
    ssize_t N = ::write(STDERR_FILENO, P, Left);
    if (N <= 0)
      break;
    P += N;
    Left -= static_cast<size_t>(N);
  }
}

void logOnce(const std::string &Key, LogLevel L, const std::string &Text) {
  static std::mutex M;
  static std::set<std::string> *Seen = new std::set<std::string>();
  {
    std::lock_guard<std::mutex> G(M);
    if (!Seen->insert(Key).second)
      return;
  }
  logLine(L, Text);
}

std::string loopLocation(const LoopInfo &Info) {
  return std::string(Info.File ? Info.File : "<unknown>") + ":" + std::to_string(Info.Line);
}

} // namespace rt
} // namespace clustrix
