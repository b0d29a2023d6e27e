//===- clustrix-devices - Print the devices the runtime sees --------------===//
//
// A human table by default, --json for programs, --probe for the original Python Clustrix's
// line format (GPU_COUNT:N, CUDA_AVAILABLE:True). Options that pick other hosts are added by the
// remote-hosts module, which reuses the formatters of clustrix/Devices.h.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Devices.h"

#include <cstdio>
#include <cstring>
#include <string>

namespace {

/// The output forms.
enum class Format { Table, Json, Probe };

void printHelp() {
  std::printf("usage: clustrix-devices [--json | --probe] [--help] [--version]\n"
              "\n"
              "Prints the devices the Clustrix runtime sees on this machine.\n"
              "  (default)  a table: CUDA devices (memory, compute capability, SMs, clock), then\n"
              "             the CPU; notes say when CUDA_VISIBLE_DEVICES hides GPUs\n"
              "  --json     the same as one JSON object\n"
              "  --probe    GPU_COUNT:N and CUDA_AVAILABLE:True|False lines for scripts\n"
              "  --help     this text\n"
              "  --version  the Clustrix version\n");
}

} // namespace

int main(int Argc, char **Argv) {
  Format F = Format::Table;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A == "--json") {
      F = Format::Json;
    } else if (A == "--probe") {
      F = Format::Probe;
    } else if (A == "--help" || A == "-h") {
      printHelp();
      return 0;
    } else if (A == "--version") {
      std::printf("clustrix-devices %s\n", CLUSTRIX_VERSION);
      return 0;
    } else {
      std::fprintf(stderr, "clustrix-devices: unknown option '%s' (see --help)\n", A.c_str());
      return 2;
    }
  }
  clustrix::DeviceReport R = clustrix::discoverLocalDevices();
  std::string Out = F == Format::Json    ? clustrix::formatDeviceJson(R) + "\n"
                    : F == Format::Probe ? clustrix::formatProbeLines(R)
                                         : clustrix::formatDeviceTable(R);
  std::fputs(Out.c_str(), stdout);
  return 0;
}
