//===- CPU/CpuBackend.h - Running chunks on CPU worker threads --*- C++ -*-===//
//
// The host backend: one lane per worker thread, each running its chunks through the loop's host
// chunk function, in place, on the program's own arrays.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_RT_CPU_CPUBACKEND_H
#define CLUSTRIX_RT_CPU_CPUBACKEND_H

#include "Backend/Backend.h"

namespace clustrix {
namespace rt {

/// The CPU backend, as listed in Backends.def.
const Backend &cpuBackend();

} // namespace rt
} // namespace clustrix

#endif
