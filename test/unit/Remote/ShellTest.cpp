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

using namespace clustrix::remote;

namespace {

/// Runs \p Script with /bin/sh -c (itself passed quoted) and returns its stdout.
std::string runShell(const std::string &Script) {
  std::string Command = "/bin/sh -c " + shellQuote(Script) + " </dev/null";
  std::unique_ptr<FILE, int (*)(FILE *)> Pipe(::popen(Command.c_str(), "r"), ::pclose);
  if (!Pipe)
    throw std::runtime_error("popen failed");
  std::string Out;
  std::array<char, 4096> Buffer;
  size_t N;
  while ((N = std::fread(Buffer.data(), 1, Buffer.size(), Pipe.get())) > 0)
    Out.append(Buffer.data(), N);
  return Out;
}

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
  P.Env = {{"A", "x'; echo injected; '"}, {"B", "$(echo no)"}};
  P.Setup = {"C=set-by-setup # a trailing comment", "true || false"};
  std::string Out = runShell(preludeCommand(P, "READY") + "printf '%s|%s|%s' \"$A\" \"$B\" \"$C\"");
  EXPECT_EQ(Out, "READY\nx'; echo injected; '|$(echo no)|set-by-setup");
}

TEST(Prelude, FailingSetupStopsBeforeTheMarker) {
  ShellPrelude P;
  P.Setup = {"false", "echo never"};
  EXPECT_EQ(runShell(preludeCommand(P, "READY") + "echo body"), "");
}

TEST(Prelude, RejectsInvalidVariableNames) {
  ShellPrelude P;
  P.Env = {{"A;rm", "x"}};
  EXPECT_THROW(preludeCommand(P), std::invalid_argument);
}

TEST(Guard, RunsTheBodyWithStdinClosed) {
  // The body sees /dev/null as stdin, and its output and status are the command's.
  EXPECT_EQ(runShell(guardedCommand("cat; echo done")), "done\n");
}
