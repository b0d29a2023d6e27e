//===- Version.cpp - Version string ----------------------------------------===//
#include "clustrix/Support/Version.h"

#include "llvm/Config/llvm-config.h"

const char *clustrix::versionString() {
  return "Clustrix " CLUSTRIX_VERSION " (LLVM " LLVM_VERSION_STRING ")";
}
