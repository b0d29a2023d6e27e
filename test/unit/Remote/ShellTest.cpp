//===- ShellTest.cpp - Quoting of remote shell commands -------------------===//
//
// Every value we send to a remote shell must arrive as exactly one word, uninterpreted. These
// tests run the generated text through the local /bin/sh to check that, not just its spelling.
//
//===----------------------------------------------------------------------===//
#include "clustrix/remote/Shell.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <unistd.h>

using namespace clustrix::remote;

namespace {

/// Runs \p Script with /bin/sh -c (itself passed quoted), \p Input on its standard input, and
/// returns its stdout.
std::string runShell(const std::string &Script, const std::string &Input = "") {
  char InputFile[] = "/tmp/clustrix-shelltest-XXXXXX";
  int Fd = ::mkstemp(InputFile);
  if (Fd < 0 || ::write(Fd, Input.data(), Input.size()) != static_cast<ssize_t>(Input.size()))
    throw std::runtime_error("cannot write the input file");
  ::close(Fd);
  std::string Command = "/bin/sh -c " + shellQuote(Script) + " <" + InputFile;
  std::string Out;
  {
    std::unique_ptr<FILE, int (*)(FILE *)> Pipe(::popen(Command.c_str(), "r"), ::pclose);
    if (!Pipe)
      throw std::runtime_error("popen failed");
    std::array<char, 4096> Buffer;
    size_t N;
    while ((N = std::fread(Buffer.data(), 1, Buffer.size(), Pipe.get())) > 0)
      Out.append(Buffer.data(), N);
  }
  ::unlink(InputFile);
  return Out;
}

/// Runs a remote command as sshd would: its text through the shell, its input on stdin.
std::string runShell(const RemoteCommand &C) { return runShell(C.Text, C.Input); }

const char *const Hostile[] = {
    "plain",
    "with space",
    "it's",
    "'",
    "''",
    "\"double\"",
    "$(touch /tmp/clustrix-pwned)",
    "`id`",
    "$HOME",
    "; rm -rf /",
    "a\nb",
    "back\\slash",
    "*",
    "-n",
    "",
    "tab\there",
    "'\\''",
    "!event",
};

} // namespace

TEST(ShellQuote, Spelling) {
  EXPECT_EQ(shellQuote("abc"), "'abc'");
  EXPECT_EQ(shellQuote(""), "''");
  EXPECT_EQ(shellQuote("it's"), "'it'\\''s'");
}

TEST(ShellQuote, EveryValueArrivesAsOneLiteralWord) {
  for (const char *Value : Hostile) {
    // printf prints each argument between brackets: one pair means one word.
    std::string Out = runShell("printf '[%s]' " + shellQuote(Value));
    EXPECT_EQ(Out, "[" + std::string(Value) + "]") << "value: " << Value;
  }
}

TEST(ShellQuote, ExecCommandPassesArgumentsLiterally) {
  std::vector<std::string> Argv = {"printf", "<%s>"};
  for (const char *Value : Hostile)
    Argv.push_back(Value);
  std::string Expected;
  for (const char *Value : Hostile)
    Expected += "<" + std::string(Value) + ">";
  EXPECT_EQ(runShell(execCommand(Argv)), Expected);
}

TEST(ShellPath, HomeIsExpandedOnlyAtTheStart) {
  EXPECT_EQ(shellPath("~"), "\"$HOME\"");
  EXPECT_EQ(shellPath("~/a b"), "\"$HOME\"/'a b'");
  EXPECT_EQ(shellPath("/x/~/y"), "'/x/~/y'");
  EXPECT_EQ(shellPath("~user/x"), "'~user/x'");
  EXPECT_EQ(runShell("HOME=/h; printf %s " + shellPath("~/$(id)")), "/h/$(id)");
}

TEST(EnvName, Validity) {
  EXPECT_TRUE(isValidEnvName("CUDA_VISIBLE_DEVICES"));
  EXPECT_TRUE(isValidEnvName("_x1"));
  EXPECT_FALSE(isValidEnvName(""));
  EXPECT_FALSE(isValidEnvName("1A"));
  EXPECT_FALSE(isValidEnvName("A-B"));
  EXPECT_FALSE(isValidEnvName("A;B"));
}

TEST(Prelude, ExportsValuesLiterallyAndChainsSetup) {
  ShellPrelude P;
  P.Env = {{"A", "x'; echo injected; '"}, {"B", "$(echo no)"}, {"N", "line1\nline2\n"}};
  P.Setup = {"C=set-by-setup # a trailing comment", "true || false"};
  RemoteCommand C = preludedCommand(P, "READY", "printf '%s|%s|%s|%s' \"$A\" \"$B\" \"$C\" \"$N\"");
  EXPECT_EQ(runShell(C), "READY\nx'; echo injected; '|$(echo no)|set-by-setup|line1\nline2\n");
}

TEST(Prelude, HostileValuesArriveLiterally) {
  for (const char *Value : Hostile) {
    ShellPrelude P;
    P.Env = {{"V", Value}};
    EXPECT_EQ(runShell(preludedCommand(P, "", "printf '[%s]' \"$V\"")), "[" + std::string(Value) + "]")
        << "value: " << Value;
  }
}

TEST(Prelude, ValuesAreNotOnTheCommandLine) {
  // The command line is in every user's process list; the values come on standard input.
  ShellPrelude P;
  P.Env = {{"TOKEN", "s3cret"}, {"CLUSTRIX_LOG", "debug"}};
  RemoteCommand C = preludedCommand(P, "READY", "true");
  EXPECT_EQ(C.Text.find("s3cret"), std::string::npos) << C.Text;
  EXPECT_EQ(C.Text.find("debug"), std::string::npos) << C.Text;
  EXPECT_EQ(C.Input, "2\nexport TOKEN='s3cret'\nexport CLUSTRIX_LOG='debug'\n");
}

TEST(Prelude, FailingSetupStopsBeforeTheMarker) {
  ShellPrelude P;
  P.Setup = {"false", "echo never"};
  EXPECT_EQ(runShell(preludedCommand(P, "READY", "echo body")), "");
}

TEST(Prelude, RejectsInvalidVariableNamesAndNul) {
  ShellPrelude P;
  P.Env = {{"A;rm", "x"}};
  EXPECT_THROW(preludeCommand(P), std::invalid_argument);
  EXPECT_THROW(environmentInput(P.Env), std::invalid_argument);
  EXPECT_THROW(environmentInput({{"A", std::string("a\0b", 3)}}), std::invalid_argument);
}

TEST(Guard, RunsTheBodyWithStdinClosed) {
  // The body sees /dev/null as stdin, and its output and status are the command's.
  EXPECT_EQ(runShell(guardedCommand("cat; echo done")), "done\n");
}

TEST(Guard, ATruncatedEnvironmentBlockRunsNothing) {
  RemoteCommand C = guardedCommand("echo ran", {{"A", "1"}});
  C.Input = "2\nexport A='1'\n"; // promises two lines, sends one
  EXPECT_EQ(runShell(C), "");
}
