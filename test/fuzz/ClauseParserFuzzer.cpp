//===- ClauseParserFuzzer.cpp - libFuzzer target: gpu_parallel clauses ----===//
//
// The input is the text between the parentheses of `[[cluster::gpu_parallel(...)]]`. It is lexed
// as C++ tokens, as the preprocessor hands them to the attribute collector, and parsed; every
// outcome (clauses or errors with fix-its) is fine, a crash or a sanitizer report is not.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Detect/ClauseParser.h"

#include "clang/Basic/IdentifierTable.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace clang;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static const LangOptions LangOpts = [] {
    LangOptions L;
    L.CPlusPlus = L.CPlusPlus11 = L.CPlusPlus14 = L.CPlusPlus17 = 1;
    return L;
  }();
  static IdentifierTable Identifiers(LangOpts);
  // The lexer wants a NUL after the text.
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  // Locations are offsets from a fixed start; the parser only passes them on.
  const SourceLocation Start = SourceLocation::getFromRawEncoding(1);
  Lexer L(Start, LangOpts, Text.c_str(), Text.c_str(), Text.c_str() + Text.size());
  std::vector<clustrix::ClauseToken> Tokens;
  Token T;
  while (!L.LexFromRawLexer(T) || T.isNot(tok::eof)) {
    if (T.is(tok::eof))
      break;
    size_t Offset = T.getLocation().getRawEncoding() - Start.getRawEncoding();
    std::string Spelling = Text.substr(Offset, T.getLength());
    tok::TokenKind Kind = T.getKind();
    if (Kind == tok::raw_identifier)
      Kind = Identifiers.get(Spelling).getTokenID(); // keywords get their own kinds
    Tokens.push_back({Kind, Spelling, T.getLocation()});
    if (Tokens.size() > 4096)
      break;
  }
  SourceLocation End = Start.getLocWithOffset(static_cast<int>(Text.size()));
  clustrix::LoopClauses Clauses;
  std::vector<clustrix::ClauseError> Errors = clustrix::parseClauses(Tokens, End, Clauses);
  // A fix-it never replaces more text than the input has after its location.
  for (const clustrix::ClauseError &E : Errors)
    if (E.Loc.isValid() && E.FixItLength > 0 &&
        E.Loc.getRawEncoding() - Start.getRawEncoding() + E.FixItLength > Text.size())
      __builtin_trap();
  return 0;
}
