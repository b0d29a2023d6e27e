//===- clustrix/Rewrite/LoopRewriter.h - Rewrite accepted loops -*- C++ -*-===//
//
// Produces the rewritten main file: every `cluster::` attribute blanked (same length, so lines
// and columns stay), and every accepted loop replaced by a block that describes the loop to the
// runtime (clustrix/Runtime.h), runs its body as a chunk function, and keeps the original loop
// as the serial path. `#line` directives keep diagnostics and debuggers on the user's lines.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_REWRITE_LOOPREWRITER_H
#define CLUSTRIX_REWRITE_LOOPREWRITER_H

#include "clustrix/Analysis/LoopAnalysis.h"
#include "clustrix/Detect/Annotation.h"
#include "clustrix/Rewrite/KernelEmitter.h"

#include "clang/Basic/SourceManager.h"

#include <string>
#include <vector>

namespace clustrix {

/// Rewrites one main file.
class FileRewriter {
public:
  FileRewriter(const clang::SourceManager &SM, const clang::LangOptions &LO,
               std::string PresumedName);

  /// Blanks the attribute-specifier (or the macro invocation that expands to it).
  void blankAttribute(const Annotation &A);
  /// Replaces an accepted loop. Call after all blankAttribute calls.
  void rewriteLoop(const Annotation &A, const clang::Stmt *Loop, const LoopResult &R,
                   const LoopClauses &C, const Kernel &K);
  /// Whether anything changed.
  bool changed() const { return Changed; }
  /// The rewritten file.
  std::string result() const;

  /// Byte range of a statement in the main file (the end is exclusive).
  std::pair<unsigned, unsigned> rangeOf(const clang::Stmt *S) const;

private:
  struct Edit {
    unsigned Offset, Length;
    std::string Text;
  };
  std::string cleanText(unsigned Begin, unsigned End) const;
  std::string lineDirective(unsigned Offset) const;
  unsigned offsetOf(clang::SourceLocation L) const;
  std::string generate(const clang::Stmt *Loop, const LoopResult &R, const LoopClauses &C,
                       const Kernel &K, unsigned LoopBegin, unsigned LoopEnd);
  std::string boxCode(const LoopResult &R) const;

  const clang::SourceManager &SM;
  const clang::LangOptions &LO;
  clang::FileID Main;
  std::string PresumedName;
  std::string Original;
  std::string Clean; ///< Original with all attributes blanked.
  std::vector<Edit> Edits;
  /// Kernels that nvcc compiles ahead of time when it builds the rewritten file.
  std::vector<const Kernel *> AheadOfTime;
  bool Changed = false;
  bool NeedsRuntime = false;
};

/// Escapes text for a C string literal.
std::string cStringLiteral(llvm::StringRef S);

/// FNV-1a, 64 bits: the kernel text hash the runtime keys its cache with.
uint64_t fnv1a64(llvm::StringRef S);

} // namespace clustrix

#endif // CLUSTRIX_REWRITE_LOOPREWRITER_H
