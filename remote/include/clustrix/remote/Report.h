//===- clustrix/remote/Report.h - Remote probes as device reports --*- C++ -*-===//
//
// Converts what a remote probe found into the runtime's DeviceReport, so clustrix-devices prints
// remote hosts with the same table and JSON formatters as the local machine.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_REMOTE_REPORT_H
#define CLUSTRIX_REMOTE_REPORT_H

#include "clustrix/Devices.h"
#include "clustrix/remote/Devices.h"

namespace clustrix {
namespace remote {

/// The report of a probed host: its visible GPUs (numbered as CUDA programs there see them),
/// then its CPU; TotalGpus and CudaVisibleDevices say what exists and what hides it, and the
/// notes say so in words when fewer are visible.
DeviceReport toDeviceReport(const ProbeReport &Probe);

/// The report of a host that could not be probed: no devices, the error as its CudaStatus.
DeviceReport toDeviceReport(const RemoteError &Error);

/// What clustrix-devices asks for with --host / --all-hosts.
struct RemoteQuery {
  std::string ConfigPath; ///< --config FILE; empty: findConfigFile().
  std::string HostName;   ///< --host NAME; empty with AllHosts.
  bool AllHosts = false;  ///< --all-hosts: every configured host, concurrently.
  bool Refresh = false;   ///< --refresh: ignore cached answers.
};

/// The reports to print (in configuration order), the errors to print on stderr (each naming
/// its host or the configuration file:line:column), and the exit status: 0 when every host
/// answered, 1 when one failed, 2 for a configuration or usage problem.
struct RemoteAnswer {
  std::vector<DeviceReport> Reports;
  std::vector<std::string> Errors;
  int ExitCode = 0;
};

/// Runs a remote query. A host that failed still has its place in the reports, with the error
/// as its CUDA status, so that --json always prints a document.
RemoteAnswer queryRemoteDevices(const RemoteQuery &Query);

} // namespace remote
} // namespace clustrix

#endif // CLUSTRIX_REMOTE_REPORT_H
