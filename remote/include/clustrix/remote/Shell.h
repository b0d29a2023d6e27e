//===- clustrix/remote/Shell.h - Building remote shell commands --*- C++ -*-===//
//
// Everything sent to a remote host is one POSIX shell command line. These functions build it so
// that no configured or user-supplied string (an argument, an environment value, a path) can do
// more than be that one word: every such value is single-quoted.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_REMOTE_SHELL_H
#define CLUSTRIX_REMOTE_SHELL_H

#include <map>
#include <string>
#include <vector>

namespace clustrix {
namespace remote {

/// Quotes \p Value as one POSIX shell word: 'it'\''s' for "it's". Always quoted, even when safe,
/// so that the result never depends on the remote shell's notion of special characters.
std::string shellQuote(const std::string &Value);

/// A remote path as a shell word. A leading "~/" (or a lone "~") means the remote home directory
/// and becomes "$HOME"/'rest'; everything else is quoted whole.
std::string shellPath(const std::string &Path);

/// True when \p Name is a valid environment variable name ([A-Za-z_][A-Za-z0-9_]*).
bool isValidEnvName(const std::string &Name);

/// The parts of a remote command line that every command on a host shares: the working directory
/// (created if missing), the host's environment, its setup commands. Setup commands are the one
/// place where raw shell text is used, on purpose: they are the user's own commands (module loads).
struct ShellPrelude {
  std::string WorkDir;                             ///< Empty: stay in the login directory.
  std::vector<std::pair<std::string, std::string>> Env;  ///< Exported in this order.
  std::vector<std::string> Setup;                  ///< Run in order; any failure stops the command.
};

/// Wraps \p Body so that the remote process group dies when our channel closes (when we cancel,
/// time out or the connection drops) and gets SIGINT for each line we write to the channel; the
/// commands' standard input is /dev/null. See docs/hosts.md ("How remote processes are stopped").
std::string guardedCommand(const std::string &Body);

/// "mkdir -p DIR && cd DIR && export K=V && ... && SETUP1 && ... && " as one prefix; \p Marker, when
/// not empty, is printed on stdout once the prelude succeeded, so that a caller can tell a failing
/// setup from a failing command. Throws std::invalid_argument for an invalid variable name.
std::string preludeCommand(const ShellPrelude &Prelude, const std::string &Marker = "");

/// "exec 'PROGRAM' 'ARG1' ...": runs \p Argv[0] with arguments, replacing the shell.
std::string execCommand(const std::vector<std::string> &Argv);

} // namespace remote
} // namespace clustrix

#endif // CLUSTRIX_REMOTE_SHELL_H
