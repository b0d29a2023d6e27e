//===- remote/Text.cpp - Remote text made safe to print -------------------===//
//
// A small UTF-8 decoder that keeps valid characters and escapes everything else.
//
//===----------------------------------------------------------------------===//
#include "clustrix/remote/Text.h"

#include <cstdio>

namespace clustrix {
namespace remote {

namespace {

std::string hexByte(unsigned char C) {
  char Buf[8];
  std::snprintf(Buf, sizeof(Buf), "\\x%02x", C);
  return Buf;
}

/// The length of the valid UTF-8 sequence starting at \p S[I] (1 to 4), or 0 when the bytes
/// there are not one (overlong forms, surrogates and values past U+10FFFF are invalid).
size_t utf8Length(const std::string &S, size_t I, unsigned &CodePoint) {
  auto B = [&](size_t K) { return static_cast<unsigned char>(S[K]); };
  unsigned char C = B(I);
  size_t N;
  unsigned Min;
  if (C < 0x80) {
    CodePoint = C;
    return 1;
  }
  if ((C & 0xE0) == 0xC0) {
    N = 2, Min = 0x80, CodePoint = C & 0x1F;
  } else if ((C & 0xF0) == 0xE0) {
    N = 3, Min = 0x800, CodePoint = C & 0x0F;
  } else if ((C & 0xF8) == 0xF0) {
    N = 4, Min = 0x10000, CodePoint = C & 0x07;
  } else {
    return 0;
  }
  if (I + N > S.size())
    return 0;
  for (size_t K = 1; K < N; ++K) {
    if ((B(I + K) & 0xC0) != 0x80)
      return 0;
    CodePoint = (CodePoint << 6) | (B(I + K) & 0x3F);
  }
  if (CodePoint < Min || CodePoint > 0x10FFFF || (CodePoint >= 0xD800 && CodePoint <= 0xDFFF))
    return 0;
  return N;
}

} // namespace

std::string printable(const std::string &Bytes) {
  std::string Out;
  Out.reserve(Bytes.size());
  for (size_t I = 0; I < Bytes.size();) {
    unsigned char C = static_cast<unsigned char>(Bytes[I]);
    unsigned CodePoint = 0;
    size_t N = utf8Length(Bytes, I, CodePoint);
    if (N == 0) {
      Out += hexByte(C);
      ++I;
      continue;
    }
    if (N == 1) {
      if (C == '\t')
        Out += "\\t";
      else if (C == '\n')
        Out += "\\n";
      else if (C == '\r')
        Out += "\\r";
      else if (C < 0x20 || C == 0x7F)
        Out += hexByte(C);
      else
        Out += static_cast<char>(C);
    } else if (CodePoint >= 0x80 && CodePoint <= 0x9F) {
      // C1 controls: U+009B is a one-character CSI on terminals that honour 8-bit controls.
      char Buf[8];
      std::snprintf(Buf, sizeof(Buf), "\\u%04x", CodePoint);
      Out += Buf;
    } else {
      Out.append(Bytes, I, N);
    }
    I += N;
  }
  return Out;
}

std::string truncateUtf8(const std::string &Text, size_t MaxBytes) {
  if (Text.size() <= MaxBytes)
    return Text;
  size_t Cut = MaxBytes;
  // Back up over continuation bytes to the start of the character that would be split.
  while (Cut > 0 && (static_cast<unsigned char>(Text[Cut]) & 0xC0) == 0x80)
    --Cut;
  return Text.substr(0, Cut) + "…";
}

} // namespace remote
} // namespace clustrix
