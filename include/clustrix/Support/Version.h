//===- clustrix/Support/Version.h - Version string --------------*- C++ -*-===//
//
// The project version every program prints for --version.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_SUPPORT_VERSION_H
#define CLUSTRIX_SUPPORT_VERSION_H

namespace clustrix {
/// "Clustrix X.Y.Z (LLVM N)".
const char *versionString();
} // namespace clustrix

#endif // CLUSTRIX_SUPPORT_VERSION_H
