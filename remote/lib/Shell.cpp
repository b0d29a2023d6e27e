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

std::string guardedCommand(const std::string &Body) {
  // sshd makes the command's shell a session (and process group) leader. A background watcher
  // reads the channel's stdin, kept on fd 3: each line we send is a Ctrl-C for the whole group
  // (the watcher itself ignores SIGINT, as every background job of a non-interactive shell does),
  // and end of input (we closed the channel, or the connection dropped) kills the group, so
  // nothing we started outlives us. The group id stays ours while the watcher, a member, lives.
  return "exec 3<&0 </dev/null; { while read -r line <&3; do kill -s INT -- -$$; done; "
         "kill -s KILL -- -$$; } >/dev/null 2>&1 & exec 3<&-; " +
         Body;
}

std::string preludeCommand(const ShellPrelude &Prelude, const std::string &Marker) {
  std::string Out;
  if (!Prelude.WorkDir.empty()) {
    std::string Dir = shellPath(Prelude.WorkDir);
    Out += "mkdir -p -- " + Dir + " && cd -- " + Dir + " && ";
  }
  for (const auto &[Name, Value] : Prelude.Env) {
    if (!isValidEnvName(Name))
      throw std::invalid_argument("not an environment variable name: '" + Name + "'");
    Out += "export " + Name + "=" + shellQuote(Value) + " && ";
  }
  // A setup command is the user's own shell text; the braces and the newline keep its `;`, `||`
  // or trailing comment from changing how the rest of the line chains.
  for (const std::string &Command : Prelude.Setup)
    Out += "{ " + Command + "\n} && ";
  if (!Marker.empty())
    Out += "printf '%s\\n' " + shellQuote(Marker) + " && ";
  return Out;
}

std::string execCommand(const std::vector<std::string> &Argv) {
  std::string Out = "exec";
  for (const std::string &Arg : Argv)
    Out += " " + shellQuote(Arg);
  return Out;
}

} // namespace remote
} // namespace clustrix
