//===- clustrix/Support/Text.h - Text of generated code ---------*- C++ -*-===//
//
// Small helpers for the text the compiler writes: C string literals, and the FNV-1a hash that
// names kernels and keys the runtime's kernel cache; and the paths the project boundary and
// --out-dir compare.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_SUPPORT_TEXT_H
#define CLUSTRIX_SUPPORT_TEXT_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clustrix {

/// Escapes text for a C string literal, quotes included.
std::string cStringLiteral(llvm::StringRef S);

/// FNV-1a, 64 bits: the kernel text hash the runtime keys its cache with.
uint64_t fnv1a64(llvm::StringRef S);

/// Names joined with ", ".
std::string joinNames(const std::vector<std::string> &Names);

/// Path, absolute and without `.` or `..`.
std::string normalizedPath(llvm::StringRef Path);

/// Path relative to the directory Root, both normalized: `sub/f.h` for Root/sub/f.h; nullopt
/// when Path is not under Root.
std::optional<std::string> pathUnder(llvm::StringRef Path, llvm::StringRef Root);

} // namespace clustrix

#endif // CLUSTRIX_SUPPORT_TEXT_H
