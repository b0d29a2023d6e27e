//===- Exec/Lanes.h - The devices a loop may run on -------------*- C++ -*-===//
//
// Resolves the `devices` setting into lanes (Backend.h) by asking every backend, in the order of
// Backends.def, for the lanes the setting gives it.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_RT_EXEC_LANES_H
#define CLUSTRIX_RT_EXEC_LANES_H

#include "Backend/Backend.h"

#include <string>

namespace clustrix {
namespace rt {

/// Resolves a `devices` setting (see DeviceSet.h) against Report, the devices present, with the
/// `pageable_access` setting.
LaneSet buildLanes(const std::string &Devices, const DeviceReport &Report,
                   bool PageableAccess = false);

/// The lanes of a setting on this machine, resolved once per distinct pair of settings;
/// warnings are printed when a setting is first resolved. Only the backends the setting may use
/// look for their devices.
const LaneSet &lanesFor(const std::string &Devices, bool PageableAccess);

/// The host backends' default lanes: where a loop that no configured device can run goes.
const LaneSet &hostLanes();

} // namespace rt
} // namespace clustrix

#endif
