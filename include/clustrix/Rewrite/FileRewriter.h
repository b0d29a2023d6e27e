//===- clustrix/Rewrite/FileRewriter.h - Rewrite the main file --*- C++ -*-===//
//
// Produces the rewritten main file: every `cluster::` attribute blanked (same length, so lines
// and columns stay), every accepted loop replaced by the block HostCodeGen writes (in a C
// translation unit: CHostCodeGen's, with the outlined body before the enclosing function), and,
// for nvcc, the ahead-of-time kernels at the end (AheadOfTime.h). `#line` directives keep
// diagnostics and debuggers on the user's lines.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_REWRITE_FILEREWRITER_H
#define CLUSTRIX_REWRITE_FILEREWRITER_H

#include "clustrix/Analysis/LoopAnalysis.h"
#include "clustrix/Analysis/ResidencyScopes.h"
#include "clustrix/Detect/Annotation.h"
#include "clustrix/Rewrite/KernelEmitter.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Preprocessor.h"

#include <set>
#include <string>
#include <vector>

namespace clustrix {

/// Rewrites one file: the edits of all its loops, applied at once.
class FileRewriter {
public:
  /// Rewrites File (the main file, or an included file of the project), which `#line`
  /// directives and descriptors name PresumedName.
  FileRewriter(const clang::SourceManager &SM, const clang::LangOptions &LO, clang::FileID File,
               std::string PresumedName);

  /// Blanks the attribute-specifier (or the macro invocation that expands to it).
  void blankAttribute(const Annotation &A);
  /// Replaces an accepted loop. Call after all blankAttribute calls. Enclosing, the function
  /// the loop is in, is needed in a C translation unit.
  void rewriteLoop(const clang::Stmt *Loop, const LoopResult &R,
                   const LoopClauses &C, const Kernel &K,
                   const clang::FunctionDecl *Enclosing = nullptr);
  /// One instantiation's accepted copy of a template's loop.
  struct Instance {
    const clang::Stmt *Loop;
    const LoopResult *Result;
    const LoopClauses *Clauses;
    const Kernel *GPU;
    std::string Condition; ///< True in this instantiation only.
  };
  /// Replaces a loop of a template definition (Pattern) with a compile-time choice: each
  /// accepted instantiation runs its own rewritten copy (generic host code, its own descriptor
  /// and kernel), every other one the loop as written.
  void rewriteTemplateLoop(const clang::Stmt *Pattern, const std::vector<Instance> &Instances);
  /// Wraps the statements [First, Last] of one block in a block that opens a residency scope
  /// (clustrix/Analysis/ResidencyScopes.h): a `ResidencyScope` object in C++, calls to
  /// clustrix_enter_residency and clustrix_leave_residency in C; and synchronizes the elements
  /// its host statements read or write just before each. Call before rewriteLoop.
  void openResidencyScope(const ResidencyScope &Scope);
  /// Declares, once, the pointer-to-member constants through which the loops of function Outer
  /// reach members it may not name (clustrix/AST/Spelling.h), just before Outer.
  void declarePrivateMembers(const LoopResult &R, const clang::FunctionDecl *Outer);
  /// The preprocessor of the parse: its macros keep the user's definitions out of the runtime's
  /// header, and carry the macros a C loop uses to its outlined function. Without one, neither.
  void setPreprocessor(clang::Preprocessor *P) { PP = P; }
  /// The plugin's one-parse compile (lib/Plugin/OneParse.h): the file's text ends at TextEnd
  /// (its buffer holds more after it), and the runtime's header goes at Split, after the
  /// `#include` lines that compile has read already, instead of at the start. Macros the user
  /// defined before Split are kept out of that header, as those of the command line are.
  void setSplit(unsigned Split, unsigned TextEnd);
  /// Whether anything changed.
  bool changed() const { return Changed; }
  /// The rewritten file.
  std::string result() const;

  /// The text of [Begin, End) with every attribute blanked.
  std::string cleanText(unsigned Begin, unsigned End) const;
  /// A `#line` directive (on a line of its own) that puts the next character at Offset's line
  /// and column.
  std::string lineDirective(unsigned Offset) const;
  const clang::SourceManager &sourceManager() const { return SM; }
  const clang::LangOptions &langOpts() const { return LO; }
  clang::FileID file() const { return File; }
  const std::string &presumedName() const { return PresumedName; }

private:
  struct Edit {
    unsigned Offset, Length;
    std::string Text;
  };

  const clang::SourceManager &SM;
  const clang::LangOptions &LO;
  clang::FileID File;
  std::string PresumedName;
  std::string Clean; ///< The original text with all attributes blanked.
  std::vector<Edit> Edits;
  /// The pointer-to-member declarations written so far (declarePrivateMembers).
  std::set<std::string> Declared;
  /// Kernels (name, text) that nvcc compiles ahead of time when it builds the rewritten file.
  std::vector<std::pair<std::string, std::string>> AheadOfTime;
  bool Changed = false;
  bool NeedsRuntime = false;
  unsigned RuntimeAt = 0; ///< Where the runtime's header goes (setSplit).
  clang::Preprocessor *PP = nullptr;

  /// Generated code for the place At, whose user text is [Begin, End), wrapped so that a macro
  /// defined there with the name of something the generated code takes from the runtime's
  /// headers (`-DOk=1`, the `.Ok` of a trip count) does not reach it: `push_macro` and `#undef`
  /// before, `pop_macro` after. A name the user's text uses itself, or that is not the
  /// runtime's, keeps its macro.
  std::string shielded(const std::string &Generated, unsigned Begin, unsigned End,
                       unsigned At) const;
  /// `#pragma push_macro`, `#undef` and `#define` lines that give the macros Range uses at
  /// its place the definitions they have there, for code moved to At (Before), and the
  /// `pop_macro` lines that restore them after it (After). Empty when no macro differs.
  void macrosAsAt(clang::SourceRange Range, unsigned At, std::string &Before,
                  std::string &After) const;
};

} // namespace clustrix

#endif // CLUSTRIX_REWRITE_FILEREWRITER_H
