//===- Support/Log.h - Runtime messages on stderr -----------------*- C++ -*-===//
//
// Every message the runtime prints goes through here: one line, starting `clustrix: `, written
// with a single write so that lines of concurrent loops do not interleave.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_RT_SUPPORT_LOG_H
#define CLUSTRIX_RT_SUPPORT_LOG_H

#include "clustrix/Config.h"
#include "clustrix/Runtime.h"

#include <string>

namespace clustrix {
namespace rt {

/// Whether messages of level L are printed under the active configuration.
bool logEnabled(LogLevel L);

/// Prints one line: `clustrix: ` (plus `error: ` or `warning: ` by level) and Text.
void logLine(LogLevel L, const std::string &Text);

/// Prints Text at level L the first time Key is seen in this process.
void logOnce(const std::string &Key, LogLevel L, const std::string &Text);

/// `file:line` of a loop, as every per-loop message names it.
std::string loopLocation(const LoopInfo &Info);

} // namespace rt
} // namespace clustrix

#endif
