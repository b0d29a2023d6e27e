//===- Text.cpp - Text of generated code -----------------------------------===//
#include "clustrix/Support/Text.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdio>

using namespace clustrix;

std::string clustrix::cStringLiteral(llvm::StringRef S) {
  std::string Out = "\"";
  for (char C : S) {
    switch (C) {
    case '\\': Out += "\\\\"; break;
    case '"': Out += "\\\""; break;
    case '\n': Out += "\\n\"\n\""; break;
    case '\t': Out += "\\t"; break;
    case '\r': Out += "\\r"; break;
    case '?': Out += "\\?"; break; // no trigraphs
    default:
      if (static_cast<unsigned char>(C) < 0x20) {
        char Buf[8];
        snprintf(Buf, sizeof Buf, "\\%03o", static_cast<unsigned char>(C));
        Out += Buf;
      } else {
        Out += C;
      }
    }
  }
  return Out + "\"";
}

uint64_t clustrix::fnv1a64(llvm::StringRef S) {
  uint64_t H = 1469598103934665603ull;
  for (unsigned char C : S) {
    H ^= C;
    H *= 1099511628211ull;
  }
  return H;
}

std::string clustrix::joinNames(const std::vector<std::string> &Names) {
  std::string S;
  for (const std::string &N : Names)
    S += (S.empty() ? "" : ", ") + N;
  return S;
}

std::string clustrix::normalizedPath(llvm::StringRef Path) {
  llvm::SmallString<256> P(Path);
  llvm::sys::fs::make_absolute(P);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

std::optional<std::string> clustrix::pathUnder(llvm::StringRef Path, llvm::StringRef Root) {
  std::string P = normalizedPath(Path), R = normalizedPath(Root);
  llvm::StringRef Rel(P);
  if (!Rel.consume_front(llvm::StringRef(R).rtrim('/')) || !Rel.starts_with("/"))
    return std::nullopt;
  return Rel.drop_front().str();
}
