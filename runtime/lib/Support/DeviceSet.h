//===- Support/DeviceSet.h - The `devices` setting ----------------*- C++ -*-===//
//
// Parses a device set such as `cpu:4`, `cuda:0,2` or `cuda,cpu` (the `devices` key and
// CLUSTRIX_DEVICES) into what the runtime should use.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_RT_SUPPORT_DEVICESET_H
#define CLUSTRIX_RT_SUPPORT_DEVICESET_H

#include <string>
#include <vector>

namespace clustrix {
namespace rt {

/// A parsed device set. Auto means "every CUDA device, else the CPU".
struct DeviceSpec {
  bool Auto = true;
  bool Cpu = false;
  unsigned CpuWorkers = 0;        ///< 0: one worker per hardware thread.
  bool Cuda = false;
  std::vector<int> CudaOrdinals;  ///< Empty: every visible CUDA device.
  /// Not part of the text: the pageable_access setting, which decides whether a GPU with
  /// pageable memory access uses the host's memory in place (Lane::HostMemory).
  bool PageableAccess = false;
};

/// Parses Text into Out; on failure returns false with a message in Error. Empty text and `auto`
/// mean automatic.
bool parseDeviceSpec(const std::string &Text, DeviceSpec &Out, std::string &Error);

} // namespace rt
} // namespace clustrix

#endif
