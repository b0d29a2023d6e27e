//===- remote/Report.cpp - Remote probes as device reports ----------------===//
//
// ProbeReport / RemoteError -> DeviceReport.
//
//===----------------------------------------------------------------------===//
#include "clustrix/remote/Report.h"

#include "clustrix/Config.h"
#include "clustrix/remote/Text.h"

namespace clustrix {
namespace remote {

DeviceReport toDeviceReport(const ProbeReport &Probe) {
  const uint64_t MiB = 1u << 20;
  DeviceReport R;
  R.Host = Probe.Host;
  int Ordinal = 0;
  for (int Position : Probe.Visible.Visible) {
    const RemoteGpu &G = Probe.Gpus[static_cast<size_t>(Position)];
    DeviceInfo D;
    D.Kind = DeviceKind::CUDA;
    D.Index = Ordinal++;
    D.Name = G.Name;
    D.TotalMemory = static_cast<uint64_t>(G.MemoryTotalMiB) * MiB;
    if (G.MemoryUsedMiB >= 0 && G.MemoryUsedMiB <= G.MemoryTotalMiB)
      D.FreeMemory = static_cast<uint64_t>(G.MemoryTotalMiB - G.MemoryUsedMiB) * MiB;
    D.ComputeMajor = G.ComputeMajor;
    D.ComputeMinor = G.ComputeMinor;
    R.Devices.push_back(D);
  }
  DeviceInfo Cpu;
  Cpu.Kind = DeviceKind::CPU;
  Cpu.Name = "CPU";
  Cpu.Threads = Probe.Cpus;
  R.Devices.push_back(Cpu);
  R.CudaAvailable = Ordinal > 0;
  R.TotalGpus = static_cast<int>(Probe.Gpus.size());
  if (Probe.Visible.Restricted)
    R.CudaVisibleDevices = printable(Probe.Visible.Value);
  if (Probe.ProbeMissing)
    R.CudaStatus = "no nvidia-smi on the host";
  else if (Probe.Gpus.empty())
    R.CudaStatus = "the host has no GPU";
  else if (Ordinal == 0)
    R.CudaStatus = "CUDA_VISIBLE_DEVICES hides every GPU of the host";
  // Always say what exists when it differs from what is visible: that difference is the bug this
  // report exists to expose.
  if (Probe.Visible.Visible.size() != Probe.Gpus.size()) {
    std::string Present = "the host has " + std::to_string(Probe.Gpus.size()) + " GPUs, " +
                          std::to_string(Ordinal) + " visible";
    for (size_t I = 0; I < Probe.Visible.Visible.size(); ++I)
      Present += std::string(I ? ", " : ": ") + "cuda" + std::to_string(I) + " = nvidia-smi GPU " +
                 std::to_string(Probe.Gpus[static_cast<size_t>(Probe.Visible.Visible[I])].Index);
    R.Notes.push_back(Present);
  }
  R.Notes.insert(R.Notes.end(), Probe.Notes.begin(), Probe.Notes.end());
  if (Probe.FromCache)
    R.Notes.push_back("cached answer, " + std::to_string(static_cast<long>(Probe.AgeSeconds)) +
                      " s old (--refresh to probe again)");
  return R;
}

DeviceReport toDeviceReport(const RemoteError &Error) {
  DeviceReport R;
  R.Host = Error.host();
  R.CudaStatus = std::string("error (") + remoteErrorKindName(Error.kind()) + "): " + Error.detail();
  return R;
}

RemoteAnswer queryRemoteDevices(const RemoteQuery &Query) {
  RemoteAnswer A;
  std::vector<HostConfig> Hosts;
  try {
    std::string File = resolveConfigFile(Query.ConfigPath);
    if (File.empty()) {
      A.Errors.push_back("no clustrix.yml found (give one with --config FILE or CLUSTRIX_CONFIG); "
                         "see docs/hosts.md");
      A.ExitCode = 2;
      return A;
    }
    Hosts = loadConfiguration(File).Hosts;
  } catch (const ConfigError &E) {
    A.Errors.push_back(E.what());
    A.ExitCode = 2;
    return A;
  }
  std::vector<HostConfig> Selected;
  if (Query.AllHosts) {
    Selected = Hosts;
  } else if (const HostConfig *H = findHost(Hosts, Query.HostName)) {
    Selected.push_back(*H);
  } else {
    std::string Known;
    for (const HostConfig &C : Hosts)
      Known += (Known.empty() ? "" : ", ") + C.Name;
    A.Errors.push_back("no host named '" + Query.HostName + "' is configured" +
                       (Known.empty() ? std::string(" (the hosts: section is empty)")
                                      : " (known: " + Known + ")"));
    A.ExitCode = 2;
    return A;
  }
  ProbeOptions Options;
  Options.UseCache = !Query.Refresh;
  for (const HostOutcome &O : probeHosts(Selected, Options)) {
    if (O.Report) {
      A.Reports.push_back(toDeviceReport(*O.Report));
      continue;
    }
    A.Errors.push_back(O.Error->what());
    A.ExitCode = 1;
    A.Reports.push_back(toDeviceReport(*O.Error));
  }
  return A;
}

} // namespace remote
} // namespace clustrix
