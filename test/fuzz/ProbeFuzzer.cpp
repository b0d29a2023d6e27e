//===- ProbeFuzzer.cpp - libFuzzer target: a host's probe answer ----------===//
//
// The input is what a remote host sends back to the probe: its stdout (login chatter, markers,
// nvidia-smi CSV), then, after the first NUL byte, its stderr; the last byte picks the exit
// status. The answer goes the whole way a real one goes: parsed (or rejected with a
// RemoteError), turned into a device report, and printed as a table, probe lines and JSON. The
// printed forms must hold no control characters and the JSON must be valid UTF-8.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Devices.h"
#include "clustrix/remote/Error.h"
#include "clustrix/remote/Probe.h"
#include "clustrix/remote/Report.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace {

/// Traps on a control character other than newline: remote text must have been escaped.
void checkPrintable(const std::string &Text) {
  for (unsigned char C : Text)
    if ((C < 0x20 && C != '\n') || C == 0x7f)
      __builtin_trap();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size == 0)
    return 0;
  std::string All(reinterpret_cast<const char *>(Data), Size - 1);
  int Exit = Data[Size - 1];
  size_t Nul = All.find('\0');
  std::string Stdout = All.substr(0, Nul);
  std::string Stderr = Nul == std::string::npos ? "" : All.substr(Nul + 1);
  clustrix::remote::HostConfig Host;
  Host.Name = Host.Hostname = "fuzz";
  if (Exit & 1)
    Host.Env = {{"CUDA_VISIBLE_DEVICES", "0,1"}};
  clustrix::DeviceReport R;
  try {
    clustrix::remote::ProbeReport P =
        clustrix::remote::parseProbeOutput(Host, Stdout, Stderr, Exit);
    for (int I : P.Visible.Visible)
      if (I < 0 || static_cast<size_t>(I) >= P.Gpus.size())
        __builtin_trap();
    R = clustrix::remote::toDeviceReport(P);
  } catch (const clustrix::remote::RemoteError &E) {
    checkPrintable(E.what());
    R = clustrix::remote::toDeviceReport(E);
  }
  checkPrintable(clustrix::formatDeviceTable(R));
  std::string Lines = clustrix::formatProbeLines(R);
  checkPrintable(Lines);
  clustrix::DeviceReport Back;
  if (!clustrix::parseProbeLines(Lines, Back) || Back.gpuCount() != R.gpuCount())
    __builtin_trap();
  std::string Json = clustrix::formatDeviceJson(R);
  // Strict parse: invalid UTF-8 or a raw control character would throw.
  nlohmann::json Parsed = nlohmann::json::parse(Json);
  if (Parsed["gpu_count"] != R.gpuCount())
    __builtin_trap();
  return 0;
}
