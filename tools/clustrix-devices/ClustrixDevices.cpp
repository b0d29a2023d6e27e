//===- clustrix-devices - Print the devices the runtime sees --------------===//
//
// A human table by default, --json for programs, --probe for the original Python Clustrix's
// line format (GPU_COUNT:N, CUDA_AVAILABLE:True). --host and --all-hosts ask remote hosts over
// SSH (remote/, libclustrix_remote), printed with the same formatters of clustrix/Devices.h.
// It is also the tool people check their setup with, so it validates the whole configuration
// file first and stops at its first error.
//
//===----------------------------------------------------------------------===//
#include "CommandLine.h"

#include "clustrix/Config.h"
#include "clustrix/Devices.h"
#include "clustrix/remote/Hosts.h"
#include "clustrix/remote/Report.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

using namespace clustrix;

const char *const Tool = "clustrix-devices";

} // namespace

int main(int Argc, char **Argv) {
  CLI::App App{"Prints the devices the Clustrix runtime sees on this machine, or on remote hosts\n"
               "configured in the hosts: section of clustrix.yml (probed over SSH; see\n"
               "docs/hosts.md). The default form is a table of the CUDA devices, then the CPU;\n"
               "notes say when CUDA_VISIBLE_DEVICES hides GPUs. The configuration file is\n"
               "validated first, as a whole."};
  tools::configureApp(App, Tool, CLUSTRIX_VERSION, "",
                      "Exit status: 0; 1 when a host failed; 2 for usage and configuration "
                      "errors.");
  bool Json = false, Probe = false;
  remote::RemoteQuery Remote;
  CLI::Option *JsonOpt = App.add_flag("--json", Json, "the same as one JSON object");
  App.add_flag("--probe", Probe, "GPU_COUNT:N and CUDA_AVAILABLE:True|False lines for scripts")
      ->excludes(JsonOpt);
  CLI::Option *HostOpt =
      App.add_option("--host", Remote.HostName, "the devices of the configured host NAME")
          ->type_name("NAME");
  CLI::Option *AllOpt =
      App.add_flag("--all-hosts", Remote.AllHosts, "every configured host, probed concurrently")
          ->excludes(HostOpt);
  bool Mpi = false;
  App.add_flag("--mpi", Mpi,
               "under mpirun or srun: the devices of every rank, as one loop sees them (rank "
               "0's, then rank1:cpu0, rank1:cuda0, ...); see docs/multi-node.md")
      ->excludes(HostOpt)
      ->excludes(AllOpt);
  App.add_option("--config", Remote.ConfigPath,
                 "read FILE instead of the usual clustrix.yml ($CLUSTRIX_CONFIG, ./clustrix.yml, "
                 "~/.config/clustrix/clustrix.yml)")
      ->type_name("FILE");
  App.add_flag("--refresh", Remote.Refresh, "probe again instead of using a cached remote answer");
  if (std::optional<int> Exit = tools::parse(App, Tool, Argc, Argv))
    return *Exit;
  if (HostOpt->count() && Remote.HostName.empty())
    return tools::usageError(Tool, "--host needs a host name");

  if (Mpi) {
    std::string Why;
    std::vector<clustrix::DeviceReport> Rs = clustrix::discoverMpiDevices(Why);
    if (Rs.empty()) {
      std::fprintf(stderr, "clustrix-devices: error: --mpi: %s\n", Why.c_str());
      return 1;
    }
    std::string Out = Json ? clustrix::formatDeviceJson(Rs) + "\n" : "";
    for (size_t I = 0; !Json && I < Rs.size(); ++I)
      Out += (I ? "\n" : "") + (Probe ? "host " + Rs[I].Host + "\n" +
                                           clustrix::formatProbeLines(Rs[I])
                                     : clustrix::formatDeviceTable(Rs[I]));
    std::fputs(Out.c_str(), stdout);
    return 0;
  }

  if (!Remote.HostName.empty() || Remote.AllHosts) {
    remote::RemoteAnswer Answer = remote::queryRemoteDevices(Remote);
    std::string Out;
    if (Json)
      Out = (Remote.AllHosts ? formatDeviceJson(Answer.Reports)
             : Answer.Reports.empty() ? std::string()
                                      : formatDeviceJson(Answer.Reports[0])) +
            "\n";
    for (size_t I = 0; !Json && I < Answer.Reports.size(); ++I)
      Out += (I ? "\n" : "") + (Probe ? formatProbeLines(Answer.Reports[I])
                                      : formatDeviceTable(Answer.Reports[I]));
    if (Answer.ExitCode != tools::ExitUsage)
      std::fputs(Out.c_str(), stdout);
    for (const std::string &E : Answer.Errors)
      std::fprintf(stderr, "%s: error: %s\n", Tool, E.c_str());
    return Answer.ExitCode;
  }

  // The local machine. The configuration file is checked as a whole (the runtime's keys and the
  // hosts), as --host does: a file that is wrong anywhere is an error here, not a silent default.
  try {
    std::string File = remote::resolveConfigFile(Remote.ConfigPath);
    if (!File.empty()) {
      remote::loadConfiguration(File);
      // What the runtime loads for discovery is then this same file.
      if (!Remote.ConfigPath.empty())
        ::setenv("CLUSTRIX_CONFIG", File.c_str(), 1);
    }
  } catch (const ConfigError &E) {
    std::fprintf(stderr, "%s: error: %s\n", Tool, E.what());
    return tools::ExitUsage;
  }
  DeviceReport R = discoverLocalDevices();
  std::string Out = Json    ? formatDeviceJson(R) + "\n"
                    : Probe ? formatProbeLines(R)
                            : formatDeviceTable(R);
  std::fputs(Out.c_str(), stdout);
  return 0;
}
