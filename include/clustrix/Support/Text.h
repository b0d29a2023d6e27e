//===- clustrix/Support/Text.h - Text of generated code ---------*- C++ -*-===//
//
// Small helpers for the text the compiler writes: C string literals, and the FNV-1a hash that
// names kernels and keys the runtime's kernel cache.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_SUPPORT_TEXT_H
#define CLUSTRIX_SUPPORT_TEXT_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace clustrix {

/// Escapes text for a C string literal, quotes included.
std::string cStringLiteral(llvm::StringRef S);

/// FNV-1a, 64 bits: the kernel text hash the runtime keys its cache with.
uint64_t fnv1a64(llvm::StringRef S);

/// Names joined with ", ".
std::string joinNames(const std::vector<std::string> &Names);

} // namespace clustrix

#endif // CLUSTRIX_SUPPORT_TEXT_H
