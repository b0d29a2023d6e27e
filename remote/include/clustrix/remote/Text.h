//===- clustrix/remote/Text.h - Remote text made safe to print --*- C++ -*-===//
//
// What a remote host sends (GPU names, error excerpts, a server's disconnect reason) is data
// from another machine. Printed raw, an escape sequence in it would drive the user's terminal
// (move the cursor, rewrite earlier lines, set the window title), and invalid UTF-8 would make
// the JSON output invalid. Every such string passes through printable() before it is kept.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_REMOTE_TEXT_H
#define CLUSTRIX_REMOTE_TEXT_H

#include <string>

namespace clustrix {
namespace remote {

/// \p Bytes with every control character (C0, DEL, and the C1 range U+0080 to U+009F) written
/// as a visible escape (`\e`-style: `\x1b`, `\t`, `\n`, `\u009b`) and every byte that is not
/// part of valid UTF-8 as `\xNN`. Printable ASCII and valid UTF-8 text stay as they are, so the
/// result is valid UTF-8 with no control characters.
std::string printable(const std::string &Bytes);

/// At most \p MaxBytes of the valid UTF-8 text \p Text, cut at a character boundary, with "…"
/// appended when anything was cut.
std::string truncateUtf8(const std::string &Text, size_t MaxBytes);

} // namespace remote
} // namespace clustrix

#endif // CLUSTRIX_REMOTE_TEXT_H
