//===- TraceTest.cpp - The trace file's writing ---------------------------===//
#include "Support/Trace.h"

#include "gtest/gtest.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>

using namespace clustrix::rt;

namespace {

std::atomic<bool> HookStarted{false};

/// A backend's beforeFlush hook that takes a while: what it records must be in the file.
void slowHook() {
  HookStarted = true;
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  uint64_t T = trace::nowNs();
  trace::complete(trace::deviceTrack("cuda0"), "late copy", "copy-device", T, T + 1000,
                  trace::Args());
}

std::string slurp(const std::string &Path) {
  std::ifstream In(Path);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

// Two threads flush at once (the runtime's own exit on one, an atexit on another): the second
// waits for the first one's hooks, so the file holds what they recorded. The trace is the
// process's, so the test runs in a child of its own.
TEST(TraceTest, AFlushOnAnotherThreadWaitsForTheHooks) {
  char Dir[] = "/tmp/clustrix-trace-XXXXXX";
  ASSERT_NE(::mkdtemp(Dir), nullptr);
  const std::string Path = std::string(Dir) + "/t.json";
  EXPECT_EXIT(
      {
        trace::configure(Path);
        trace::beforeFlush(slowHook);
        std::thread First([] { trace::flush(); });
        while (!HookStarted)
          std::this_thread::yield();
        trace::flush(); // returns once the file is written
        bool Has = slurp(Path).find("\"name\":\"late copy\"") != std::string::npos;
        First.join();
        std::_Exit(Has ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
  std::string Text = slurp(Path);
  EXPECT_NE(Text.find("\"name\":\"late copy\""), std::string::npos) << Text;
  std::remove(Path.c_str());
  ::rmdir(Dir);
}

// A hook that ends the program flushes on its own thread: it does not wait for itself.
TEST(TraceTest, AHookThatFlushesDoesNotWaitForItself) {
  char Dir[] = "/tmp/clustrix-trace-XXXXXX";
  ASSERT_NE(::mkdtemp(Dir), nullptr);
  const std::string Path = std::string(Dir) + "/t.json";
  EXPECT_EXIT(
      {
        trace::configure(Path);
        trace::beforeFlush(+[] { trace::flush(); });
        trace::flush();
        std::_Exit(0);
      },
      ::testing::ExitedWithCode(0), "");
  EXPECT_NE(slurp(Path).find("\"traceEvents\""), std::string::npos);
  std::remove(Path.c_str());
  ::rmdir(Dir);
}

} // namespace
