//===- clustrix/RemoteReport.h - Remote probes as device reports -*- C++ -*-===//
//
// Converts what a remote probe found into the runtime's DeviceReport, so clustrix-devices prints
// remote hosts with the same table and JSON formatters as the local machine.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_REMOTEREPORT_H
#define CLUSTRIX_REMOTEREPORT_H

#include "clustrix/Devices.h"
#include "clustrix/RemoteDevices.h"

namespace clustrix {
namespace remote {

/// The report of a probed host: its visible GPUs (numbered as CUDA programs there see them),
/// then its CPU; the notes say how many GPUs exist when fewer are visible.
DeviceReport toDeviceReport(const ProbeReport &Probe);

/// The report of a host that could not be probed: no devices, the error as CudaStatus and note.
DeviceReport toDeviceReport(const RemoteError &Error);

} // namespace remote
} // namespace clustrix

#endif // CLUSTRIX_REMOTEREPORT_H
