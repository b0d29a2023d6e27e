//===- Core/Lanes.h - The devices a loop may run on -------------*- C++ -*-===//
//
// A lane is one device as the scheduler sees it: a CUDA GPU, or one CPU worker thread (so
// `cpu:4` is four lanes). Lanes carry the weights the block schedule splits by.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_RT_CORE_LANES_H
#define CLUSTRIX_RT_CORE_LANES_H

#include "clustrix/Devices.h"

#include <string>
#include <vector>

namespace clustrix {
namespace rt {

/// One schedulable device.
struct Lane {
  DeviceKind Kind = DeviceKind::CPU;
  int Ordinal = 0;        ///< CUDA ordinal, or CPU worker number.
  std::string Name;       ///< "cuda0", "cpu3": what logs and CLUSTRIX_FAULT use.
  double Weight = 1.0;    ///< Relative throughput for the block schedule.
  DeviceInfo Info;        ///< For CUDA lanes: architecture, memory, SMs.
};

/// The lanes of a device setting, GPUs first, and what resolving it had to say.
struct LaneSet {
  std::vector<Lane> Lanes;
  std::vector<std::string> Warnings;  ///< e.g. "cuda requested but no CUDA device: ...".
  bool hasCuda() const { return !Lanes.empty() && Lanes.front().Kind == DeviceKind::CUDA; }
};

/// Resolves a `devices` setting (see DeviceSet.h) against Report, the devices present.
LaneSet buildLanes(const std::string &Devices, const DeviceReport &Report);

/// The lanes of a setting on this machine, resolved once per distinct setting; warnings are
/// printed when a setting is first resolved.
const LaneSet &lanesFor(const std::string &Devices);

/// Weight of a CUDA device relative to one CPU worker: SMs x clock, scaled so that an SM counts
/// as 16 CPU cores at the same clock (an H100 with 132 SMs weighs about 2100 workers).
double cudaWeight(const DeviceInfo &D);

} // namespace rt
} // namespace clustrix

#endif
