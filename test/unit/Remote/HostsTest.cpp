//===- HostsTest.cpp - The hosts: section of clustrix.yml -----------------===//
//
// Both accepted shapes, the defaults, and an error at file:line:column for every bad value.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Config.h"
#include "clustrix/remote/Hosts.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

using namespace clustrix;
using namespace clustrix::remote;

namespace {

/// Expects \p Parse (parseHosts by default: the hosts: section only) to refuse \p Yaml at
/// \p Line:\p Column with a message containing \p Fragment.
template <class ParseFn = decltype(&parseHosts)>
void expectError(const std::string &Yaml, int Line, int Column, const std::string &Fragment,
                 ParseFn Parse = &parseHosts) {
  try {
    Parse(Yaml, "clustrix.yml");
    FAIL() << "accepted:\n" << Yaml;
  } catch (const ConfigError &E) {
    EXPECT_EQ(E.file(), "clustrix.yml");
    EXPECT_EQ(E.line(), Line) << E.what();
    EXPECT_EQ(E.column(), Column) << E.what();
    EXPECT_NE(std::string(E.what()).find(Fragment), std::string::npos) << E.what();
  }
}

} // namespace

TEST(Hosts, ListFormWithEverySetting) {
  std::vector<HostConfig> H = parseHosts(R"(
schedule: dynamic
hosts:
  - name: tensor01
    hostname: tensor01.example.org
    port: 2222
    user: alice
    identity_file: ~/.ssh/id_ed25519
    known_hosts: ~/.ssh/known_hosts_clusters
    host_key_policy: accept-new
    connect_timeout: 2.5
    command_timeout: 30
    run_timeout: 3600
    cache_ttl: 0
    env:
      CUDA_VISIBLE_DEVICES: "0,1"
      OMP_NUM_THREADS: 8
    setup:
      - module load cuda/12.4
      - source ~/venv/bin/activate
    workdir: /scratch/alice/clustrix
    probe: /opt/bin/gpu-list --csv
  - name: cpu-box
    agent: true
)",
                                         "clustrix.yml");
  ASSERT_EQ(H.size(), 2u);
  const HostConfig &T = H[0];
  EXPECT_EQ(T.Name, "tensor01");
  EXPECT_EQ(T.Hostname, "tensor01.example.org");
  EXPECT_EQ(T.Port, 2222);
  EXPECT_EQ(T.User, "alice");
  EXPECT_EQ(T.IdentityFile, "~/.ssh/id_ed25519");
  EXPECT_EQ(T.KnownHostsFile, "~/.ssh/known_hosts_clusters");
  EXPECT_EQ(T.KeyPolicy, HostKeyPolicy::AcceptNew);
  EXPECT_DOUBLE_EQ(T.ConnectTimeout, 2.5);
  EXPECT_DOUBLE_EQ(T.CommandTimeout, 30);
  EXPECT_DOUBLE_EQ(T.RunTimeout, 3600);
  EXPECT_DOUBLE_EQ(T.CacheTtl, 0);
  ASSERT_EQ(T.Env.size(), 2u);
  EXPECT_EQ(T.Env[1], (std::pair<std::string, std::string>("OMP_NUM_THREADS", "8")));
  ASSERT_NE(T.configuredVisibleDevices(), nullptr);
  EXPECT_EQ(*T.configuredVisibleDevices(), "0,1");
  EXPECT_EQ(T.Setup.size(), 2u);
  EXPECT_EQ(T.WorkDir, "/scratch/alice/clustrix");
  EXPECT_EQ(T.Probe, "/opt/bin/gpu-list --csv");
  EXPECT_EQ(T.Line, 4);

  const HostConfig &C = H[1];
  EXPECT_EQ(C.Hostname, "cpu-box"); // Defaults to the name.
  EXPECT_EQ(C.Port, 22);
  EXPECT_TRUE(C.UseAgent);
  EXPECT_EQ(C.KeyPolicy, HostKeyPolicy::Strict);
  EXPECT_DOUBLE_EQ(C.ConnectTimeout, 10);
  EXPECT_EQ(C.Probe, DefaultProbeCommand);
  EXPECT_EQ(C.configuredVisibleDevices(), nullptr);
}

TEST(Hosts, MapFormKeepsOrder) {
  std::vector<HostConfig> H = parseHosts("hosts:\n  b: {hostname: 10.0.0.2}\n  a: {setup: "
                                         "\"module load cuda\"}\n",
                                         "f");
  ASSERT_EQ(H.size(), 2u);
  EXPECT_EQ(H[0].Name, "b");
  EXPECT_EQ(H[0].Hostname, "10.0.0.2");
  EXPECT_EQ(H[1].Name, "a");
  EXPECT_EQ(H[1].Setup, std::vector<std::string>{"module load cuda"});
}

TEST(Hosts, NoSectionMeansNoHosts) {
  EXPECT_TRUE(parseHosts("", "f").empty());
  EXPECT_TRUE(parseHosts("log: info\n", "f").empty());
  EXPECT_TRUE(parseHosts("hosts:\n", "f").empty());
}

TEST(Hosts, EveryBadValueNamesItsPlace) {
  struct Case {
    const char *Yaml;
    int Line, Column;
    const char *Fragment;
    bool TopLevel = false; ///< Outside the hosts: section: only the whole-file check sees it.
  };
  const Case Cases[] = {
      {"hosts:\n  - name: a\n    port: 0\n", 3, 11, "'port' must be a whole number"},
      {"hosts:\n  - name: a\n    port: 22x\n", 3, 11, "not '22x'"},
      {"hosts:\n  - name: a\n    prot: 22\n", 3, 5, "unknown key 'prot'"},
      {"hosts:\n  - name: a\n    connect_timeout: -1\n", 3, 22, "more than zero"},
      {"hosts:\n  - name: a\n    command_timeout: 0\n", 3, 22, "more than zero"},
      {"hosts:\n  - name: a\n    run_timeout: soon\n", 3, 18, "number of seconds"},
      {"hosts:\n  - name: a\n    host_key_policy: yolo\n", 3, 22, "'strict' or 'accept-new'"},
      {"hosts:\n  - name: a\n    env:\n      1BAD: x\n", 4, 7, "not a valid environment"},
      {"hosts:\n  - name: a\n    env: [A, B]\n", 3, 10, "'env' must be a map"},
      {"hosts:\n  - name: a\n    env:\n      A: [1]\n", 4, 10, "single value"},
      {"hosts:\n  - name: a\n    setup: ['']\n", 3, 13, "must not be empty"},
      {"hosts:\n  - name: a\n    hostname: bob@box\n", 3, 15, "put the user name"},
      {"hosts:\n  - name: a\n    hostname: a b\n", 3, 15, "spaces"},
      {"hosts:\n  - name: a\n    user: -oProxyCommand=x\n", 3, 11, "start with '-'"},
      {"hosts:\n  - name: a\n    agent: maybe\n", 3, 12, "true or false"},
      {"hosts:\n  - name: a\n    identity_file: k\n    agent: true\n", 4, 5, "exclude each other"},
      {"hosts:\n  - hostname: x\n", 2, 5, "needs a 'name'"},
      {"hosts:\n  - name: auto\n", 2, 11, "'auto' is reserved"},
      {"hosts:\n  - name: a/b\n", 2, 11, "may only use letters"},
      {"hosts:\n  - name: a\n  - name: a\n", 3, 11, "host 'a' is defined twice"},
      {"hosts:\n  a: {}\n  b: {}\n  a: {port: 2}\n", 4, 3, "host 'a' is defined twice"},
      {"hosts:\n  - name: a\n    env:\n      A: 1\n      A: 2\n", 5, 7, "env 'A' is given twice"},
      {"hosts:\n  - name: a\n    env:\n      A: \"x\\0y\"\n", 4, 10, "NUL"},
      {"hosts:\n  - name: a\n    hostnme: x\n", 3, 5, "did you mean 'hostname'?"},
      // A missing value at the end of the file is reported at its key, not on the next line.
      {"hosts:\n  - name: a\n    port:", 3, 5, "'port' must be a single value, not nothing"},
      {"hosts:\n  - name: a\n    port:\n", 3, 5, "'port' must be a single value, not nothing"},
      {"hosts:\n  - name: a\n    env:\n      A:", 4, 7, "the value of env 'A'"},
      {"hosts:\n  - name:\n", 2, 5, "'name' must be a single value"},
      {"hosts:\n  - name: a\n    port: 1\n    port: 2\n", 4, 5, "given twice"},
      {"hosts:\n  a:\n    name: b\n", 3, 5, "key of this host already"},
      {"hosts: 3\n", 1, 8, "a list of hosts or a map"},
      {"hosts:\n  - just-a-name\n", 2, 5, "must be a map of settings"},
      {"hosts:\n  - name: a\n    port: [1\n", 3, 13, "syntax error", /*TopLevel=*/true},
      // What parseHosts alone does not look at: the top level and the runtime's keys.
      {"hosts:\n  - name: a\nhosts:\n  - name: b\n", 3, 1, "'hosts' appears twice", true},
      {"log_level: info\nfrobnicate: 1\n", 2, 1, "unknown key 'frobnicate'", true},
      {"host:\n  - name: a\n", 1, 1, "unknown key 'host'; did you mean 'hosts'?", true},
      {"log_level: chatty\nhosts:\n  - name: a\n", 1, 12, "unknown log level", true},
      {"log_level:", 1, 1, "expected a single value, found nothing", true},
  };
  for (const Case &C : Cases) {
    SCOPED_TRACE(C.Yaml);
    if (!C.TopLevel)
      expectError(C.Yaml, C.Line, C.Column, C.Fragment);
    // The tools' check of the whole file finds the same errors at the same places.
    expectError(C.Yaml, C.Line, C.Column, C.Fragment, &parseConfiguration);
  }
}

TEST(Configuration, TheWholeFileIsRead) {
  Configuration C = parseConfiguration("log_level: debug\nhosts:\n  - name: a\n", "f");
  EXPECT_EQ(C.Runtime.Log, LogLevel::Debug);
  ASSERT_EQ(C.Hosts.size(), 1u);
  EXPECT_EQ(C.Hosts[0].Name, "a");
  EXPECT_EQ(C.Hosts[0].Line, 3);
  EXPECT_EQ(C.Hosts[0].Column, 11);
}

TEST(Hosts, MissingFile) {
  EXPECT_THROW(loadHosts("/nonexistent/clustrix.yml"), ConfigError);
  EXPECT_THROW(resolveConfigFile("/nonexistent/clustrix.yml"), ConfigError);
}

TEST(Hosts, LocalPathExpansion) {
  const char *Home = std::getenv("HOME");
  ASSERT_NE(Home, nullptr);
  EXPECT_EQ(localHome(), Home);
  EXPECT_EQ(expandLocalPath("~/.ssh/id"), std::string(Home) + "/.ssh/id");
  EXPECT_EQ(expandLocalPath("~"), Home);
  EXPECT_EQ(expandLocalPath("/abs/~/x"), "/abs/~/x");
  // One rule: $HOME when set, the passwd entry's home only when it is not.
  std::string Saved = Home;
  ::setenv("HOME", "/elsewhere", 1);
  EXPECT_EQ(expandLocalPath("~/k"), "/elsewhere/k");
  ::unsetenv("HOME");
  EXPECT_FALSE(localHome().empty());
  ::setenv("HOME", Saved.c_str(), 1);
}

TEST(Hosts, DocumentedExamplesParse) {
  std::ifstream In(std::string(CLUSTRIX_SOURCE_DIR) + "/docs/hosts.md");
  ASSERT_TRUE(In) << "docs/hosts.md not found";
  std::stringstream Text;
  Text << In.rdbuf();
  std::string Doc = Text.str();
  // Every ```yaml block of the page is a complete, valid configuration.
  std::vector<std::vector<HostConfig>> Parsed;
  for (size_t At = Doc.find("```yaml\n"); At != std::string::npos;
       At = Doc.find("```yaml\n", At + 1)) {
    size_t Begin = At + 8, End = Doc.find("```", Begin);
    ASSERT_NE(End, std::string::npos);
    Parsed.push_back(parseHosts(Doc.substr(Begin, End - Begin), "docs/hosts.md"));
  }
  ASSERT_EQ(Parsed.size(), 2u);
  ASSERT_EQ(Parsed[0].size(), 2u);
  EXPECT_EQ(Parsed[0][0].Name, "tensor01");
  EXPECT_EQ(Parsed[0][0].Setup.size(), 2u);
  EXPECT_EQ(Parsed[0][0].Probe, DefaultProbeCommand);
  EXPECT_TRUE(Parsed[0][1].UseAgent);
  ASSERT_EQ(Parsed[1].size(), 2u);
  EXPECT_EQ(Parsed[1][0].Hostname, "10.1.2.3");
}
