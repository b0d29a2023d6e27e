//===- Backend/Backend.cpp - The table of backends ------------------------===//
//
// Builds the list of backends from Backends.def. Only the factories' names appear here: their
// declarations come from the table, so this layer includes no backend's header.
//
//===----------------------------------------------------------------------===//
#include "Backend/Backend.h"

namespace clustrix {
namespace rt {

#define CLUSTRIX_BACKEND(Factory) const Backend &Factory();
#include "Backend/Backends.def"

bool LaneSet::hasAccelerators() const {
  return !Lanes.empty() && !Lanes.front().Owner->isHost();
}

const std::vector<const Backend *> &backends() {
  static const std::vector<const Backend *> All = {
#define CLUSTRIX_BACKEND(Factory) &Factory(),
#include "Backend/Backends.def"
  };
  return All;
}

} // namespace rt
} // namespace clustrix
