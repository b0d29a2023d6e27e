//===- remote/Shell.cpp - Building remote shell commands ------------------===//
//
// Quoting and the fixed shell fragments every remote command is made of.
//
//===----------------------------------------------------------------------===//
#include "clustrix/remote/Shell.h"

#include <stdexcept>

namespace clustrix {
namespace remote {

std::string shellQuote(const std::string &Value) {
  // Inside single quotes nothing is special except the closing quote itself, which is written
  // as '\'' (close, escaped quote, reopen).
  std::string Out = "'";
  for (char C : Value) {
    if (C == '\'')
      Out += "'\\''";
    else
      Out += C;
  }
  Out += "'";
  return Out;
}

std::string shellPath(const std::string &Path) {
  if (Path == "~")
    return "\"$HOME\"";
  if (Path.compare(0, 2, "~/") == 0)
    return "\"$HOME\"/" + shellQuote(Path.substr(2));
  return shellQuote(Path);
}

bool isValidEnvName(const std::string &Name) {
  if (Name.empty())
    return false;
  for (size_t I = 0; I < Name.size(); ++I) {
    char C = Name[I];
    bool Alpha = (C >= 'A' && C <= 'Z') || (C >= 'a' && C <= 'z') || C == '_';
    bool Digit = C >= '0' && C <= '9';
    if (!Alpha && !(Digit && I > 0))
      return false;
  }
  return true;
}

std::string environmentInput(const EnvList &Env) {
  std::string Script;
  for (const auto &[Name, Value] : Env) {
    if (!isValidEnvName(Name))
      throw std::invalid_argument("not an environment variable name: '" + Name + "'");
    if (Value.find('\0') != std::string::npos)
      throw std::invalid_argument("the value of '" + Name + "' contains a NUL character");
    Script += "export " + Name + "=" + shellQuote(Value) + "\n";
  }
  // A quoted value may hold newlines: the count is of lines, not of variables.
  size_t Lines = 0;
  for (char C : Script)
    Lines += C == '\n';
  return std::to_string(Lines) + "\n" + Script;
}

RemoteCommand guardedCommand(const std::string &Body, const EnvList &Env) {
  // sshd makes the command's shell a session (and process group) leader. Its standard input,
  // kept on fd 3, first carries the environment block, read line by line (`read` takes one
  // byte at a time from a pipe, so nothing after the block is consumed) into __clx_env, which
  // preludeCommand's text evaluates. Then a background watcher reads the rest: each line we send
  // is a Ctrl-C for the whole group (the watcher itself ignores SIGINT, as every background job
  // of a non-interactive shell does), and end of input (we closed the channel, or the connection
  // dropped) kills the group, so nothing we started outlives us. The group id stays ours while
  // the watcher, a member, lives. The command line holds none of the values, so `ps` shows
  // nothing secret.
  RemoteCommand C;
  C.Text = "exec 3<&0 </dev/null; IFS= read -r __clx_n <&3 || exit 125; __clx_env=; "
           "while [ \"$__clx_n\" -gt 0 ]; do IFS= read -r __clx_l <&3 || exit 125; "
           "__clx_env=\"$__clx_env$__clx_l\n\"; __clx_n=$((__clx_n - 1)); done; "
           "{ while read -r line <&3; do kill -s INT -- -$$; done; "
           "kill -s KILL -- -$$; } >/dev/null 2>&1 & exec 3<&-; " +
           Body;
  C.Input = environmentInput(Env);
  return C;
}

std::string preludeCommand(const ShellPrelude &Prelude, const std::string &Marker) {
  std::string Out;
  if (!Prelude.WorkDir.empty()) {
    std::string Dir = shellPath(Prelude.WorkDir);
    Out += "mkdir -p -- " + Dir + " && cd -- " + Dir + " && ";
  }
  for (const auto &Entry : Prelude.Env)
    if (!isValidEnvName(Entry.first))
      throw std::invalid_argument("not an environment variable name: '" + Entry.first + "'");
  // The exports themselves arrive on standard input (guardedCommand); this only runs them.
  if (!Prelude.Env.empty())
    Out += "eval \"$__clx_env\" && ";
  // A setup command is the user's own shell text; the braces and the newline keep its `;`, `||`
  // or trailing comment from changing how the rest of the line chains.
  for (const std::string &Command : Prelude.Setup)
    Out += "{ " + Command + "\n} && ";
  if (!Marker.empty())
    Out += "printf '%s\\n' " + shellQuote(Marker) + " && ";
  return Out;
}

RemoteCommand preludedCommand(const ShellPrelude &Prelude, const std::string &Marker,
                              const std::string &Body) {
  return guardedCommand(preludeCommand(Prelude, Marker) + Body, Prelude.Env);
}

std::string execCommand(const std::vector<std::string> &Argv) {
  std::string Out = "exec";
  for (const std::string &Arg : Argv)
    Out += " " + shellQuote(Arg);
  return Out;
}

} // namespace remote
} // namespace clustrix
