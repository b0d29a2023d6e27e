//===- Text.cpp - Text of generated code -----------------------------------===//
#include "clustrix/Support/Text.h"

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
