//===- remote/Hosts.cpp - The hosts: section of clustrix.yml --------------===//
//
// Parses and validates the hosts section; every error names file:line:column.
//
//===----------------------------------------------------------------------===//
#include "clustrix/remote/Hosts.h"

#include "clustrix/Config.h"
#include "clustrix/remote/Shell.h"

#include <yaml-cpp/yaml.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <pwd.h>
#include <set>
#include <sstream>
#include <tuple>
#include <unistd.h>

namespace clustrix {
namespace remote {

const char *const DefaultProbeCommand =
    "nvidia-smi --query-gpu=index,name,memory.total,memory.used,compute_cap,uuid "
    "--format=csv,noheader,nounits";

const std::string *HostConfig::configuredVisibleDevices() const {
  const std::string *Found = nullptr;
  for (const auto &[Name, Value] : Env)
    if (Name == "CUDA_VISIBLE_DEVICES")
      Found = &Value; // The last assignment wins, as in the shell.
  return Found;
}

namespace {

/// Reads one hosts section, remembering the file name for errors.
class HostsParser {
public:
  explicit HostsParser(std::string FileName) : FileName(std::move(FileName)) {}

  std::vector<HostConfig> parse(const YAML::Node &Root);

private:
  [[noreturn]] void fail(const YAML::Node &At, const std::string &Message) const {
    auto [Line, Column] = position(At);
    throw ConfigError(FileName, Line, Column, Message);
  }
  /// A node's 1-based line and column (0 when unknown).
  static std::pair<int, int> position(const YAML::Node &At) {
    YAML::Mark M = At.Mark();
    return {M.line >= 0 ? M.line + 1 : 0, M.column >= 0 ? M.column + 1 : 0};
  }
  /// Where to report a problem with \p Value, the value of \p Key: at the value, or at its key
  /// when there is none (yaml-cpp places a missing value where the next token starts, which at
  /// the end of a file is the line after it).
  static const YAML::Node &blame(const YAML::Node &Value, const YAML::Node &Key) {
    return Value.IsNull() || Value.Mark().line < 0 ? Key : Value;
  }

  std::string scalar(const YAML::Node &Value, const std::string &Key,
                     const YAML::Node &KeyNode) const;
  std::string nonBlank(const YAML::Node &Value, const std::string &Key,
                       const YAML::Node &KeyNode) const;
  std::string nonEmptyWord(const YAML::Node &Value, const std::string &Key,
                           const YAML::Node &KeyNode) const;
  double seconds(const YAML::Node &Value, const std::string &Key, const YAML::Node &KeyNode,
                 bool AllowZero) const;
  bool boolean(const YAML::Node &Value, const std::string &Key, const YAML::Node &KeyNode) const;
  HostConfig parseHost(const YAML::Node &Body, const YAML::Node *KeyName, const YAML::Node &At);
  void parseKey(HostConfig &Host, const std::string &Key, const YAML::Node &KeyNode,
                const YAML::Node &Value);

  std::string FileName;
};

std::string HostsParser::scalar(const YAML::Node &Value, const std::string &Key,
                                const YAML::Node &KeyNode) const {
  if (!Value.IsScalar())
    fail(blame(Value, KeyNode), "'" + Key + "' must be a single value" +
                                    (Value.IsNull() ? std::string(", not nothing") : ""));
  return Value.Scalar();
}

std::string HostsParser::nonBlank(const YAML::Node &Value, const std::string &Key,
                                  const YAML::Node &KeyNode) const {
  std::string S = scalar(Value, Key, KeyNode);
  if (S.find_first_not_of(" \t\r\n") == std::string::npos)
    fail(Value, "'" + Key + "' must not be empty");
  return S;
}

std::string HostsParser::nonEmptyWord(const YAML::Node &Value, const std::string &Key,
                                      const YAML::Node &KeyNode) const {
  std::string S = scalar(Value, Key, KeyNode);
  if (S.empty())
    fail(Value, "'" + Key + "' must not be empty");
  for (char C : S)
    if (C == ' ' || C == '\t' || C == '\n' || C == '\r' || static_cast<unsigned char>(C) < 0x20)
      fail(Value, "'" + Key + "' must not contain spaces or control characters: '" + S + "'");
  // A value starting with '-' would be read as an option by ssh-like tools and sshd logs.
  if (S[0] == '-')
    fail(Value, "'" + Key + "' must not start with '-': '" + S + "'");
  return S;
}

double HostsParser::seconds(const YAML::Node &Value, const std::string &Key,
                            const YAML::Node &KeyNode, bool AllowZero) const {
  std::string S = scalar(Value, Key, KeyNode);
  char *End = nullptr;
  double D = std::strtod(S.c_str(), &End);
  if (S.empty() || *End != '\0' || !std::isfinite(D))
    fail(Value, "'" + Key + "' must be a number of seconds, not '" + S + "'");
  if (D < 0 || (!AllowZero && D == 0))
    fail(Value, "'" + Key + "' must be " + (AllowZero ? "zero or more" : "more than zero") +
                    " seconds, not '" + S + "'");
  if (D > 7 * 24 * 3600)
    fail(Value, "'" + Key + "' is more than a week: '" + S + "'");
  return D;
}

bool HostsParser::boolean(const YAML::Node &Value, const std::string &Key,
                          const YAML::Node &KeyNode) const {
  std::string S = scalar(Value, Key, KeyNode);
  if (S == "true" || S == "yes" || S == "on")
    return true;
  if (S == "false" || S == "no" || S == "off")
    return false;
  fail(Value, "'" + Key + "' must be true or false, not '" + S + "'");
}

void HostsParser::parseKey(HostConfig &Host, const std::string &Key, const YAML::Node &KeyNode,
                           const YAML::Node &Value) {
  if (Key == "hostname") {
    Host.Hostname = nonEmptyWord(Value, Key, KeyNode);
    // libssh would read "user@host" as a user name; say where that belongs instead.
    if (Host.Hostname.find_first_of("@/") != std::string::npos)
      fail(Value, "'hostname' must be a host name or address only, not '" + Host.Hostname +
                      "' (put the user name under 'user')");
  } else if (Key == "port") {
    std::string S = scalar(Value, Key, KeyNode);
    char *End = nullptr;
    long P = std::strtol(S.c_str(), &End, 10);
    if (S.empty() || *End != '\0' || P < 1 || P > 65535)
      fail(Value, "'port' must be a whole number from 1 to 65535, not '" + S + "'");
    Host.Port = static_cast<int>(P);
  } else if (Key == "user") {
    Host.User = nonEmptyWord(Value, Key, KeyNode);
  } else if (Key == "identity_file") {
    Host.IdentityFile = nonBlank(Value, Key, KeyNode);
  } else if (Key == "agent") {
    Host.UseAgent = boolean(Value, Key, KeyNode);
  } else if (Key == "known_hosts") {
    Host.KnownHostsFile = nonBlank(Value, Key, KeyNode);
  } else if (Key == "host_key_policy") {
    std::string S = scalar(Value, Key, KeyNode);
    if (S == "strict")
      Host.KeyPolicy = HostKeyPolicy::Strict;
    else if (S == "accept-new")
      Host.KeyPolicy = HostKeyPolicy::AcceptNew;
    else
      fail(Value, "'host_key_policy' must be 'strict' or 'accept-new', not '" + S + "'");
  } else if (Key == "connect_timeout") {
    Host.ConnectTimeout = seconds(Value, Key, KeyNode, /*AllowZero=*/false);
  } else if (Key == "command_timeout") {
    Host.CommandTimeout = seconds(Value, Key, KeyNode, /*AllowZero=*/false);
  } else if (Key == "run_timeout") {
    Host.RunTimeout = seconds(Value, Key, KeyNode, /*AllowZero=*/true);
  } else if (Key == "cache_ttl") {
    Host.CacheTtl = seconds(Value, Key, KeyNode, /*AllowZero=*/true);
  } else if (Key == "env") {
    if (!Value.IsMap())
      fail(blame(Value, KeyNode), "'env' must be a map of variable names to values");
    std::set<std::string> Names;
    for (const auto &Entry : Value) {
      std::string Name = scalar(Entry.first, "env", Entry.first);
      if (!isValidEnvName(Name))
        fail(Entry.first, "'" + Name + "' is not a valid environment variable name");
      if (!Names.insert(Name).second)
        fail(Entry.first, "env '" + Name + "' is given twice");
      if (!Entry.second.IsScalar())
        fail(blame(Entry.second, Entry.first),
             "the value of env '" + Name + "' must be a single value");
      if (Entry.second.Scalar().find('\0') != std::string::npos)
        fail(Entry.second, "the value of env '" + Name + "' must not contain a NUL character");
      Host.Env.emplace_back(Name, Entry.second.Scalar());
    }
  } else if (Key == "setup") {
    if (Value.IsSequence()) {
      for (const auto &N : Value)
        Host.Setup.push_back(nonBlank(N, "setup", KeyNode));
    } else {
      Host.Setup.push_back(nonBlank(Value, "setup", KeyNode));
    }
  } else if (Key == "workdir") {
    Host.WorkDir = nonBlank(Value, Key, KeyNode);
  } else if (Key == "probe") {
    Host.Probe = nonBlank(Value, Key, KeyNode);
  } else {
    static const std::vector<std::string> Known = {
        "name",           "hostname",        "port",            "user",
        "identity_file",  "agent",           "known_hosts",     "host_key_policy",
        "connect_timeout", "command_timeout", "run_timeout",     "cache_ttl",
        "env",            "setup",           "workdir",         "probe"};
    std::string Near = suggestSpelling(Key, Known);
    std::string List;
    for (const std::string &K : Known)
      List += (List.empty() ? "" : ", ") + K;
    fail(KeyNode, "unknown key '" + Key + "' in a host" +
                      (Near.empty() ? std::string() : "; did you mean '" + Near + "'?") +
                      " (known: " + List + ")");
  }
}

HostConfig HostsParser::parseHost(const YAML::Node &Body, const YAML::Node *KeyName,
                                  const YAML::Node &At) {
  if (!Body.IsMap())
    fail(At, "a host must be a map of settings");
  HostConfig Host;
  Host.File = FileName;
  // Nodes are handles, so copies stay valid after the loop.
  YAML::Node NameNode, NameKey, AgentNode;
  bool HasName = KeyName != nullptr, HasIdentity = false;
  if (KeyName)
    NameNode = NameKey = *KeyName;
  std::set<std::string> Seen;
  for (const auto &Entry : Body) {
    std::string Key = scalar(Entry.first, "key", Entry.first);
    if (!Seen.insert(Key).second)
      fail(Entry.first, "'" + Key + "' is given twice");
    if (Key == "name") {
      if (KeyName)
        fail(Entry.first, "'name' is the key of this host already; remove it here");
      NameNode = Entry.second;
      NameKey = Entry.first;
      HasName = true;
      continue;
    }
    if (Key == "identity_file")
      HasIdentity = true;
    if (Key == "agent")
      AgentNode = Entry.first;
    parseKey(Host, Key, Entry.first, Entry.second);
  }
  if (!HasName)
    fail(At, "a host needs a 'name'");
  Host.Name = nonEmptyWord(NameNode, "name", NameKey);
  std::tie(Host.Line, Host.Column) = position(NameNode);
  for (char C : Host.Name)
    if (!std::isalnum(static_cast<unsigned char>(C)) && C != '.' && C != '_' && C != '-')
      fail(NameNode, "a host name may only use letters, digits, '.', '_' and '-': '" +
                         Host.Name + "'");
  if (Host.Name == "auto")
    fail(NameNode, "'auto' is reserved (`--host auto` picks a host); choose another name");
  if (HasIdentity && Host.UseAgent)
    fail(AgentNode, "'agent: true' and 'identity_file' exclude each other; keep one");
  if (Host.Hostname.empty())
    Host.Hostname = Host.Name;
  return Host;
}

std::vector<HostConfig> HostsParser::parse(const YAML::Node &Root) {
  std::vector<HostConfig> Hosts;
  if (!Root || Root.IsNull())
    return Hosts;
  if (!Root.IsMap())
    fail(Root, "the configuration must be a map of sections");
  YAML::Node Section = Root["hosts"];
  if (!Section || Section.IsNull())
    return Hosts;
  if (Section.IsSequence()) {
    for (const auto &Entry : Section)
      Hosts.push_back(parseHost(Entry, nullptr, Entry));
  } else if (Section.IsMap()) {
    for (const auto &Entry : Section)
      Hosts.push_back(parseHost(Entry.second, &Entry.first, Entry.first));
  } else {
    fail(Section, "'hosts' must be a list of hosts or a map from host name to settings");
  }
  // Names are how hosts are chosen, so they must be unique; report the second one.
  std::set<std::string> Names;
  for (const HostConfig &H : Hosts)
    if (!Names.insert(H.Name).second)
      throw ConfigError(FileName, H.Line, H.Column, "host '" + H.Name + "' is defined twice");
  return Hosts;
}

} // namespace

std::vector<HostConfig> parseHosts(const std::string &Text, const std::string &FileName) {
  YAML::Node Root;
  try {
    Root = YAML::Load(Text);
  } catch (const YAML::ParserException &E) {
    throw ConfigError(FileName, E.mark.line + 1, E.mark.column + 1, E.msg);
  }
  return HostsParser(FileName).parse(Root);
}

namespace {

std::string readConfigFile(const std::string &Path) {
  std::ifstream In(Path);
  if (!In)
    throw ConfigError(Path, 0, 0, "cannot read the configuration file");
  std::stringstream Text;
  Text << In.rdbuf();
  return Text.str();
}

} // namespace

Configuration parseConfiguration(const std::string &Text, const std::string &FileName) {
  Configuration C;
  // The runtime's parser checks the top level (syntax, unknown and repeated keys, a second
  // hosts:) and its own keys; it leaves the hosts: section to this module.
  C.Runtime = parseConfig(Text, FileName);
  C.Hosts = parseHosts(Text, FileName);
  return C;
}

Configuration loadConfiguration(const std::string &Path) {
  return parseConfiguration(readConfigFile(Path), Path);
}

std::vector<HostConfig> loadHosts(const std::string &Path) {
  return loadConfiguration(Path).Hosts;
}

std::string resolveConfigFile(const std::string &Explicit) {
  if (Explicit.empty())
    return findConfigFile();
  std::ifstream In(Explicit);
  if (!In)
    throw ConfigError(Explicit, 0, 0, "cannot read the configuration file given with --config");
  return Explicit;
}

const HostConfig *findHost(const std::vector<HostConfig> &Hosts, const std::string &Name) {
  for (const HostConfig &H : Hosts)
    if (H.Name == Name)
      return &H;
  return nullptr;
}

std::string localHome() {
  if (const char *Home = std::getenv("HOME"); Home && *Home)
    return Home;
  if (const passwd *Pw = ::getpwuid(::getuid()); Pw && Pw->pw_dir)
    return Pw->pw_dir;
  return "";
}

std::string expandLocalPath(const std::string &Path) {
  if (Path != "~" && Path.compare(0, 2, "~/") != 0)
    return Path;
  return localHome() + Path.substr(1);
}

} // namespace remote
} // namespace clustrix
