//===- clustrix/AST/SkippedText.h - Branches the preprocessor skipped -*- C++ -*-===//
//
// A kernel's text is taken from the source as written and compiled again by the device
// compiler, whose predefined macros differ from the host's. A conditional directive in that
// text (`#ifdef DEBUG`) must therefore be evaluated as the host evaluated it: the kernel keeps
// the branch the host compiled and drops the directives and the branches the host skipped.
// This records, per file, the text the host's preprocessor skipped.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_AST_SKIPPEDTEXT_H
#define CLUSTRIX_AST_SKIPPEDTEXT_H

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"

#include <map>
#include <optional>

namespace clang {
class Preprocessor;
} // namespace clang

namespace clustrix {

/// The text each conditional directive of a translation unit made the preprocessor skip: from
/// the `#` of the directive whose branch was not taken to the end of the line of the directive
/// that ended it (`#else`, `#elif`, `#endif`), which is part of the skipped text.
class SkippedText {
public:
  /// Starts recording on PP, once: a later call returns the same record. A record started
  /// after PP began lexing is incomplete: it cannot tell what was skipped before.
  static SkippedText &watch(clang::Preprocessor &PP);
  /// PP's record, or null when nothing watches PP.
  static const SkippedText *of(const clang::Preprocessor &PP);

  /// Whether the record saw the whole translation unit.
  bool complete() const { return Complete; }
  /// The end offset of the skipped text that begins at Offset of File, if some does.
  std::optional<unsigned> skippedFrom(clang::FileID File, unsigned Offset) const;

  /// Records that the text [Begin, End) of File was skipped (the watcher's callback).
  void skipped(clang::FileID File, unsigned Begin, unsigned End) { Ranges[File][Begin] = End; }

private:
  bool Complete = false;
  llvm::DenseMap<clang::FileID, std::map<unsigned, unsigned>> Ranges;
};

} // namespace clustrix

#endif // CLUSTRIX_AST_SKIPPEDTEXT_H
