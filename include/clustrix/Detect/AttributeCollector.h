//===- clustrix/Detect/AttributeCollector.h - Token watcher -----*- C++ -*-===//
//
// Watches the token stream of the analysis parse and records every attribute-specifier that holds
// a `cluster::` attribute (also `[[using cluster: ...]]`, and attributes written through macros).
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_DETECT_ATTRIBUTECOLLECTOR_H
#define CLUSTRIX_DETECT_ATTRIBUTECOLLECTOR_H

#include "clustrix/Detect/Annotation.h"

#include "clang/Lex/Token.h"

#include "llvm/ADT/StringRef.h"

#include <set>
#include <vector>

namespace clang {
class Preprocessor;
}

namespace clustrix {

/// Records `cluster::` attributes from the tokens the parser consumes. Install with install();
/// only one token watcher can exist per Preprocessor, so this is used on the analysis parse only.
class AttributeCollector {
public:
  explicit AttributeCollector(clang::Preprocessor &PP) : PP(PP) {}
  void install();
  void onToken(const clang::Token &Tok);
  std::vector<Annotation> &annotations() { return Annotations; }

private:
  void finishSpecifier();

  clang::Preprocessor &PP;
  enum class State { Idle, SawLSquare, InSpecifier, AwaitClose, AwaitNext } St = State::Idle;
  clang::Token Pending;              ///< The first `[` of a possible `[[`.
  std::vector<clang::Token> Buffer;  ///< Tokens inside the current `[[ ... ]]`.
  unsigned Depth = 0;                ///< Bracket depth inside the specifier.
  size_t FirstOfSequence = 0;        ///< First annotation of the current run of specifiers.
  size_t ClosingFrom = 0;            ///< First annotation of the specifier being closed.
  std::set<unsigned> Seen;           ///< Raw locations of `[[` already recorded (re-lexing).
  std::vector<Annotation> Annotations;
};

/// Cheap pre-check: could this text contain a `cluster::` attribute? Files without one are
/// passed through with no second parse.
bool mayContainAnnotations(llvm::StringRef Text);

/// Where the first spelling that mayContainAnnotations looks for starts, at or after From;
/// npos when there is none.
size_t findAnnotation(llvm::StringRef Text, size_t From = 0);

} // namespace clustrix

#endif // CLUSTRIX_DETECT_ATTRIBUTECOLLECTOR_H
