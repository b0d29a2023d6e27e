//===- clustrix/remote/Shell.h - Building remote shell commands --*- C++ -*-===//
//
// Everything sent to a remote host is one POSIX shell command line plus what is written to its
// standard input. These functions build both so that no configured or user-supplied string (an
// argument, an environment value, a path) can do more than be that one word: every such value is
// single-quoted. Environment values travel on standard input, never on the command line, because
// every user of the host can read a command line with `ps`.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_REMOTE_SHELL_H
#define CLUSTRIX_REMOTE_SHELL_H

#include <string>
#include <utility>
#include <vector>

namespace clustrix {
namespace remote {

/// Environment variables in the order they are exported.
using EnvList = std::vector<std::pair<std::string, std::string>>;

/// Quotes \p Value as one POSIX shell word: 'it'\''s' for "it's". Always quoted, even when safe,
/// so that the result never depends on the remote shell's notion of special characters.
std::string shellQuote(const std::string &Value);

/// A remote path as a shell word. A leading "~/" (or a lone "~") means the remote home directory
/// and becomes "$HOME"/'rest'; everything else is quoted whole.
std::string shellPath(const std::string &Path);

/// True when \p Name is a valid environment variable name ([A-Za-z_][A-Za-z0-9_]*).
bool isValidEnvName(const std::string &Name);

/// A command for a host. Text is what sshd hands to the login shell: it appears in the host's
/// process list for as long as the shell (or a subshell of it) runs, so it holds no secret.
/// Input is written to the command's standard input first; only the command reads it.
struct RemoteCommand {
  std::string Text;
  std::string Input;
  std::string InputFile; ///< A local file streamed to standard input after Input.
  bool EndInput = false; ///< Close standard input once everything was written.
};

/// The parts of a remote command line that every command on a host shares: the working directory
/// (created if missing), the host's environment, its setup commands. Setup commands are the one
/// place where raw shell text is used, on purpose: they are the user's own commands (module loads).
struct ShellPrelude {
  std::string WorkDir; ///< Empty: stay in the login directory.
  EnvList Env;         ///< Exported in this order.
  std::vector<std::string> Setup; ///< Run in order; any failure stops the command.
};

/// The standard-input block that carries \p Env: a line count, then that many lines of
/// `export NAME='value'`. Throws std::invalid_argument for an invalid name or a NUL in a value.
std::string environmentInput(const EnvList &Env);

/// Wraps \p Body, shell text, into a command that first reads the block environmentInput(\p Env)
/// from standard input (into a shell variable that preludeCommand's text evaluates), then makes
/// the remote process group die when our channel closes (when we cancel, time out or the
/// connection drops) and get SIGINT for each line we write to the channel after the block; the
/// body's standard input is /dev/null. See docs/hosts.md ("How remote processes are stopped").
RemoteCommand guardedCommand(const std::string &Body, const EnvList &Env = {});

/// "mkdir -p DIR && cd DIR && <export the env block> && SETUP1 && ... && " as one prefix, for a
/// body given to guardedCommand together with the same \p Prelude.Env; \p Marker, when not
/// empty, is printed on stdout once the prelude succeeded, so that a caller can tell a failing
/// setup from a failing command. Throws std::invalid_argument for an invalid variable name.
std::string preludeCommand(const ShellPrelude &Prelude, const std::string &Marker = "");

/// guardedCommand(preludeCommand(\p Prelude, \p Marker) + \p Body, \p Prelude.Env).
RemoteCommand preludedCommand(const ShellPrelude &Prelude, const std::string &Marker,
                              const std::string &Body);

/// "exec 'PROGRAM' 'ARG1' ...": runs \p Argv[0] with arguments, replacing the shell.
std::string execCommand(const std::vector<std::string> &Argv);

} // namespace remote
} // namespace clustrix

#endif // CLUSTRIX_REMOTE_SHELL_H
