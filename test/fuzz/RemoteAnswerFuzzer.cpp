//===- RemoteAnswerFuzzer.cpp - libFuzzer target: other remote answers ----===//
//
// The readers of everything else a host or a file hands back: the working-directory answer of
// clustrix-run (login chatter, marker, directory, hash), a probe cache file, the probe-line form
// scripts and parseProbeLines read, and printable() itself, whose output must be valid UTF-8
// without control characters.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Devices.h"
#include "clustrix/remote/Cache.h"
#include "clustrix/remote/Devices.h"
#include "clustrix/remote/Text.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Text(reinterpret_cast<const char *>(Data), Size);

  if (auto A = clustrix::remote::parseWorkdirAnswer(Text, "CLUSTRIX-WORKDIR-0123")) {
    if (A->Directory.empty() || A->Directory[0] != '/' ||
        (!A->Hash.empty() && A->Hash.size() != 64))
      __builtin_trap();
  }

  if (auto E = clustrix::remote::parseCacheEntry(Text)) {
    if (E->Output.Stdout.size() > Text.size() || E->Output.Stderr.size() > Text.size())
      __builtin_trap();
  }

  clustrix::DeviceReport R;
  if (clustrix::parseProbeLines(Text, R)) {
    // Whatever was read prints again as valid JSON.
    nlohmann::json::parse(clustrix::formatDeviceJson(R));
  }

  std::string P = clustrix::remote::printable(Text);
  for (unsigned char C : P)
    if (C < 0x20 || C == 0x7f)
      __builtin_trap();
  // dump() throws on invalid UTF-8: printable() output, cut or not, must be valid.
  nlohmann::json(P).dump();
  nlohmann::json(clustrix::remote::truncateUtf8(P, Size % 97)).dump();
  return 0;
}
