//===- ConfigFuzzer.cpp - libFuzzer target: the whole clustrix.yml --------===//
//
// The input is a configuration file: the runtime's keys and the hosts: section, validated as the
// tools validate it (remote::parseConfiguration). A ConfigError is the expected answer to bad
// input; any other exception escaping, a crash or a sanitizer report is a bug. An accepted file
// is checked further: every host's commands can be built.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Config.h"
#include "clustrix/remote/Hosts.h"
#include "clustrix/remote/Probe.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  try {
    clustrix::remote::Configuration C =
        clustrix::remote::parseConfiguration(Text, "fuzz.yml");
    for (const clustrix::remote::HostConfig &H : C.Hosts) {
      // Validated values must make a command: no invalid name, no NUL in a value.
      clustrix::remote::RemoteCommand Probe = clustrix::remote::probeCommand(H);
      if (Probe.Text.empty() || Probe.Input.empty())
        __builtin_trap();
    }
  } catch (const clustrix::ConfigError &E) {
    // Every error names the file; line and column are within the text or 0.
    if (E.file() != "fuzz.yml" || E.line() < 0 || E.column() < 0)
      __builtin_trap();
  }
  return 0;
}
