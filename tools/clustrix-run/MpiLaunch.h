//===- MpiLaunch.h - clustrix-run --hosts: one MPI job over hosts -*- C++ -*-===//
//
// Builds mpirun's host list from the hosts: section of clustrix.yml and starts the program as
// one MPI job (docs/multi-node.md): rank 0 on the first host runs main, the other ranks serve
// its loops' chunks. mpirun reaches the hosts with the ssh program, not with clustrix-run's own
// SSH client, so every host must share one set of ssh options.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_TOOLS_MPILAUNCH_H
#define CLUSTRIX_TOOLS_MPILAUNCH_H

#include "clustrix/remote/Hosts.h"

#include <string>
#include <vector>

namespace clustrix {

struct MpiLaunch {
  std::vector<std::string> Hosts;  ///< Names from --hosts, in order: rank 0 on the first.
  int RanksPerHost = 1;
  bool DryRun = false;             ///< Print the host file and the command, start nothing.
  std::vector<std::string> Program;
};

/// Splits --hosts' comma list; false with Err for an empty name.
bool parseHostList(const std::string &Text, std::vector<std::string> &Out, std::string &Err);

/// Runs (or, DryRun, prints) the job; returns mpirun's exit status, or 2 with a message on stderr
/// for a configuration that one mpirun cannot express, 255 when mpirun cannot be started.
int runOverMpi(const std::vector<remote::HostConfig> &Configured, const MpiLaunch &L,
               char **Environ);

} // namespace clustrix

#endif
