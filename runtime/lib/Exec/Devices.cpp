//===- Exec/Devices.cpp - Local device discovery --------------------------===//
//
// Every backend adds the devices it finds, in the order of Backends.def, so accelerators come
// first and the CPU last.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Devices.h"

#include "Backend/Backend.h"

namespace clustrix {

DeviceReport discoverLocalDevices(bool QueryFreeMemory) {
  DeviceReport R;
  for (const rt::Backend *B : rt::backends())
    B->discover(R, QueryFreeMemory);
  return R;
}

} // namespace clustrix
