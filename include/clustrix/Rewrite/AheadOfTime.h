//===- clustrix/Rewrite/AheadOfTime.h - Kernels nvcc compiles ---*- C++ -*-===//
//
// Built by nvcc, a rewritten file also compiles each of its kernels ahead of time: the end of the
// file holds each kernel text again, in a namespace of its own, with a getter for its handle and
// a probe that tells the runtime whether nvcc fused multiply-adds (docs/descriptor.md).
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_REWRITE_AHEADOFTIME_H
#define CLUSTRIX_REWRITE_AHEADOFTIME_H

#include <string>
#include <utility>
#include <vector>

namespace clustrix {

/// The `#if defined(__CUDACC__)` block for the kernels (name, text) of a file; empty when there
/// are none. Shared: the file is included by several translation units, so its kernels are
/// static (each unit registers its own copy under the same name) and its namespaces are named
/// after the kernels, apart from the main file's.
std::string aheadOfTimeBlock(const std::vector<std::pair<std::string, std::string>> &Kernels,
                             bool Shared = false);

} // namespace clustrix

#endif // CLUSTRIX_REWRITE_AHEADOFTIME_H
