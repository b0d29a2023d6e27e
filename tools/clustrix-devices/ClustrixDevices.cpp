//===- clustrix-devices - Print the devices the runtime sees --------------===//
//
// A human table by default, --json for programs, --probe for the original Python Clustrix's
// line format (GPU_COUNT:N, CUDA_AVAILABLE:True). Options that pick other hosts are added by the
// remote-hosts module, which reuses the formatters of clustrix/Devices.h.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Devices.h"
#include "clustrix/remote/Report.h"

#include <cstdio>
#include <cstring>
#include <string>

namespace {

/// The output forms.
enum class Format { Table, Json, Probe };

void printHelp() {
  std::printf("usage: clustrix-devices [--json | --probe] [--host NAME | --all-hosts | --mpi]\n"
              "                        [--config FILE] [--refresh] [--help] [--version]\n"
              "\n"
              "Prints the devices the Clustrix runtime sees on this machine.\n"
              "  (default)  a table: CUDA devices (memory, compute capability, SMs, clock), then\n"
              "             the CPU; notes say when CUDA_VISIBLE_DEVICES hides GPUs\n"
              "  --json     the same as one JSON object\n"
              "  --probe    GPU_COUNT:N and CUDA_AVAILABLE:True|False lines for scripts\n"
              "  --host NAME   the devices of the remote host NAME (hosts: in clustrix.yml),\n"
              "             probed over SSH; see docs/hosts.md\n"
              "  --all-hosts   every configured host, probed concurrently\n"
              "  --mpi      under mpirun or srun: the devices of every rank, as one loop sees\n"
              "             them (rank 0's, then rank1:cpu0, rank1:cuda0, ...); docs/multi-node.md\n"
              "  --config FILE read the hosts from FILE instead of the usual clustrix.yml\n"
              "  --refresh  probe again instead of using a cached remote answer\n"
              "  --help     this text\n"
              "  --version  the Clustrix version\n");
}

} // namespace

int main(int Argc, char **Argv) {
  Format F = Format::Table;
  clustrix::remote::RemoteQuery Remote;
  bool Mpi = false;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if ((A == "--host" || A == "--config") && I + 1 >= Argc) {
      std::fprintf(stderr, "clustrix-devices: %s needs a value (see --help)\n", A.c_str());
      return 2;
    }
    if (A == "--host") {
      Remote.HostName = Argv[++I];
    } else if (A == "--mpi") {
      Mpi = true;
    } else if (A == "--all-hosts") {
      Remote.AllHosts = true;
    } else if (A == "--config") {
      Remote.ConfigPath = Argv[++I];
    } else if (A == "--refresh") {
      Remote.Refresh = true;
    } else if (A == "--json") {
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
  if (Mpi && (!Remote.HostName.empty() || Remote.AllHosts)) {
    std::fprintf(stderr, "clustrix-devices: --mpi cannot be combined with --host or --all-hosts\n");
    return 2;
  }
  if (Mpi) {
    std::string Why;
    std::vector<clustrix::DeviceReport> Rs = clustrix::discoverMpiDevices(Why);
    if (Rs.empty()) {
      std::fprintf(stderr, "clustrix-devices: error: --mpi: %s\n", Why.c_str());
      return 1;
    }
    std::string Out = F == Format::Json ? clustrix::formatDeviceJson(Rs) + "\n" : "";
    for (size_t I = 0; F != Format::Json && I < Rs.size(); ++I)
      Out += (I ? "\n" : "") + (F == Format::Probe ? "host " + Rs[I].Host + "\n" +
                                                        clustrix::formatProbeLines(Rs[I])
                                                  : clustrix::formatDeviceTable(Rs[I]));
    std::fputs(Out.c_str(), stdout);
    return 0;
  }
  if (!Remote.HostName.empty() || Remote.AllHosts) {
    clustrix::remote::RemoteAnswer Answer = clustrix::remote::queryRemoteDevices(Remote);
    std::string Out;
    if (F == Format::Json)
      Out = (Remote.AllHosts ? clustrix::formatDeviceJson(Answer.Reports)
             : Answer.Reports.empty() ? std::string()
                                      : clustrix::formatDeviceJson(Answer.Reports[0])) + "\n";
    for (size_t I = 0; F != Format::Json && I < Answer.Reports.size(); ++I)
      Out += (I ? "\n" : "") + (F == Format::Probe ? clustrix::formatProbeLines(Answer.Reports[I])
                                                   : clustrix::formatDeviceTable(Answer.Reports[I]));
    if (!Answer.Reports.empty() || Remote.AllHosts)
      std::fputs(Out.c_str(), stdout);
    for (const std::string &E : Answer.Errors)
      std::fprintf(stderr, "clustrix-devices: error: %s\n", E.c_str());
    return Answer.ExitCode;
  }
  clustrix::DeviceReport R = clustrix::discoverLocalDevices();
  std::string Out = F == Format::Json    ? clustrix::formatDeviceJson(R) + "\n"
                    : F == Format::Probe ? clustrix::formatProbeLines(R)
                                         : clustrix::formatDeviceTable(R);
  std::fputs(Out.c_str(), stdout);
  return 0;
}
