//===- AttributeCollector.cpp - Capture cluster:: attributes ---------------===//
//
// A small state machine over the parser's token stream. C++ allows `[[` only to open an
// attribute-specifier, so two consecutive `[` tokens start one.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Detect/AttributeCollector.h"

#include "clang/Lex/Preprocessor.h"

using namespace clang;
using namespace clustrix;

void AttributeCollector::install() {
  PP.setTokenWatcher([this](const Token &Tok) { onToken(Tok); });
}

void AttributeCollector::onToken(const Token &Tok) {
  switch (St) {
  case State::Idle:
  case State::AwaitNext:
    if (Tok.is(tok::l_square)) {
      Pending = Tok;
      // In AwaitNext the `[` may start a lambda; remember it as the candidate next token.
      if (St == State::AwaitNext)
        for (size_t I = FirstOfSequence; I < Annotations.size(); ++I) {
          Annotations[I].NextLoc = Tok.getLocation();
          Annotations[I].NextKind = tok::l_square;
        }
      St = State::SawLSquare;
      return;
    }
    if (St == State::AwaitNext)
      for (size_t I = FirstOfSequence; I < Annotations.size(); ++I) {
        Annotations[I].NextLoc = Tok.getLocation();
        Annotations[I].NextKind = Tok.getKind();
      }
    FirstOfSequence = Annotations.size();
    St = State::Idle;
    return;
  case State::AwaitClose:
    // The second `]` of `]]`.
    for (size_t I = ClosingFrom; I < Annotations.size(); ++I)
      Annotations[I].End = Tok.getLocation();
    St = State::AwaitNext;
    return;
  case State::SawLSquare:
    if (Tok.is(tok::l_square)) {
      Buffer.clear();
      Depth = 0;
      St = State::InSpecifier;
      return;
    }
    FirstOfSequence = Annotations.size();
    St = State::Idle;
    onToken(Tok);
    return;
  case State::InSpecifier:
    if (Tok.isOneOf(tok::l_square, tok::l_paren, tok::l_brace)) {
      ++Depth;
    } else if (Tok.isOneOf(tok::r_square, tok::r_paren, tok::r_brace)) {
      if (Depth == 0 && Tok.is(tok::r_square)) {
        // The first `]` of `]]`: the specifier's content ends here.
        Buffer.push_back(Tok);
        finishSpecifier();
        return;
      }
      if (Depth > 0)
        --Depth;
    } else if (Tok.is(tok::eof)) {
      St = State::Idle;
      return;
    }
    Buffer.push_back(Tok);
    return;
  }
}

void AttributeCollector::finishSpecifier() {
  // Buffer holds the content followed by the first `]`; the second `]` is the next token, which
  // the parser lexes next. Its location is one character after the first.
  Token Close = Buffer.back();
  Buffer.pop_back();
  SourceLocation Begin = Pending.getLocation();
  SourceLocation End = Close.getLocation();
  bool Fresh = Seen.insert(Begin.getRawEncoding()).second;

  // Split the content into comma-separated attributes at depth 0, after an optional
  // `using NS :` prefix.
  size_t I = 0;
  std::string UsingNs;
  if (Buffer.size() >= 3 && Buffer[0].is(tok::kw_using) && Buffer[1].getIdentifierInfo() &&
      Buffer[2].is(tok::colon)) {
    UsingNs = PP.getSpelling(Buffer[1]);
    I = 3;
  }
  struct Entry { size_t Begin, End; };
  std::vector<Entry> Entries;
  unsigned D = 0;
  size_t Start = I;
  for (; I < Buffer.size(); ++I) {
    const Token &T = Buffer[I];
    if (T.isOneOf(tok::l_square, tok::l_paren, tok::l_brace))
      ++D;
    else if (T.isOneOf(tok::r_square, tok::r_paren, tok::r_brace) && D > 0)
      --D;
    else if (T.is(tok::comma) && D == 0) {
      Entries.push_back({Start, I});
      Start = I + 1;
    }
  }
  Entries.push_back({Start, Buffer.size()});

  size_t Recorded = 0;
  std::vector<Annotation> Found;
  for (const Entry &E : Entries) {
    size_t P = E.Begin;
    std::string Ns = UsingNs;
    if (P + 2 < E.End + 1 && P + 1 < E.End && Buffer[P].getIdentifierInfo() &&
        Buffer[P + 1].is(tok::coloncolon)) {
      if (!UsingNs.empty())
        continue; // `using` with a scoped name is ill-formed; clang reports it
      Ns = PP.getSpelling(Buffer[P]);
      P += 2;
    }
    if (Ns != "cluster" || P >= E.End || !Buffer[P].getIdentifierInfo())
      continue;
    Annotation A;
    A.Name = PP.getSpelling(Buffer[P]);
    A.NameLoc = Buffer[P].getLocation();
    A.Begin = Begin;
    A.End = End;
    ++P;
    if (P < E.End && Buffer[P].is(tok::l_paren)) {
      A.HasArgs = true;
      // Arguments run to the matching `)`, the last token of the entry.
      size_t Last = E.End - 1;
      if (Buffer[Last].is(tok::r_paren) && Last > P) {
        for (size_t K = P + 1; K < Last; ++K)
          A.Args.push_back({Buffer[K].getKind(), PP.getSpelling(Buffer[K]), Buffer[K].getLocation()});
        A.ArgsEnd = Buffer[Last].getLocation();
      }
    }
    Found.push_back(std::move(A));
    ++Recorded;
  }
  for (Annotation &A : Found)
    A.OtherAttrsInSpecifier = Entries.size() > Recorded;
  if (!Fresh)
    Found.clear(); // tokens re-lexed after tentative parsing: already recorded
  size_t FirstNew = Annotations.size();
  for (Annotation &A : Found)
    Annotations.push_back(std::move(A));
  ClosingFrom = FirstNew;
  St = State::AwaitClose;
}

size_t clustrix::findAnnotation(llvm::StringRef Text, size_t From) {
  size_t Pos = From;
  while ((Pos = Text.find("cluster", Pos)) != llvm::StringRef::npos) {
    size_t I = Pos + 7;
    while (I < Text.size() && (Text[I] == ' ' || Text[I] == '\t'))
      ++I;
    if (I < Text.size() && Text[I] == ':')
      return Pos; // `cluster::name` or `using cluster: name`
    Pos += 7;
  }
  return llvm::StringRef::npos;
}

bool clustrix::mayContainAnnotations(llvm::StringRef Text) {
  return findAnnotation(Text) != llvm::StringRef::npos;
}
