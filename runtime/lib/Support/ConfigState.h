//===- Support/ConfigState.h - Fast access to the effective settings -*- C++ -*-===//
//
// The runtime reads its settings on every loop; this gives it the current snapshot without a
// lock. Snapshots are immutable and never freed, so a reference stays valid.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_RT_SUPPORT_CONFIGSTATE_H
#define CLUSTRIX_RT_SUPPORT_CONFIGSTATE_H

#include "clustrix/Config.h"

namespace clustrix {
namespace rt {

/// The effective settings, loaded on first use (errors reported once, see currentConfig()).
const RuntimeConfig &activeConfig();

} // namespace rt
} // namespace clustrix

#endif
