//===- clustrix/Analysis/LoopAnalysis.h - Analyze one loop ------*- C++ -*-===//
//
// Decides whether an annotated loop may run split across devices, and computes everything the
// rewriter needs (clustrix/Analysis/LoopModel.h). A wrong acceptance silently corrupts results,
// so every doubt is a refusal with a typed reason. The phases are listed in LoopAnalysis.cpp and
// described in docs/architecture.md.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_ANALYSIS_LOOPANALYSIS_H
#define CLUSTRIX_ANALYSIS_LOOPANALYSIS_H

#include "clustrix/Analysis/LoopModel.h"
#include "clustrix/Detect/Annotation.h"

#include "clang/AST/ASTContext.h"

#include <memory>
#include <set>

namespace clustrix {

/// Analysis options.
struct AnalysisOptions {
  unsigned MaxLevel = 5; ///< Loops above this complexity level are refused.
  /// Whether loops in included files are rewritten (the plugin overrides their buffers;
  /// clustrix-rewrite writes them under --out-dir). Without it only the main file is.
  bool RewriteHeaders = true;
  /// When set, files outside this directory are never rewritten (nor are system headers).
  std::string ProjectRoot;
  /// The plugin's one-parse compile (lib/Plugin/OneParse.h): the files its compile read
  /// before the analysis began, which it cannot rewrite any more (the main file aside).
  std::shared_ptr<const std::set<const clang::FileEntry *>> ReadBeforeAnalysis;
};

/// Why the file that holds Loc (an expansion location) is never rewritten, or empty when it may
/// be: a system header, a file outside Opts.ProjectRoot, an included file when headers are not
/// rewritten.
std::string whyFileNotRewritten(const clang::SourceManager &SM, clang::SourceLocation Loc,
                                const AnalysisOptions &Opts);

/// The lengths of the variable array types along T's chain of pointers and arrays, outermost
/// first: each a constant, or an integer variable of Fn that nothing in Fn changes (so that at
/// a loop it still holds the length the type took when declared); invalid where neither.
std::vector<Polynomial> variableLengths(const clang::ASTContext &Ctx, clang::QualType T,
                                        const clang::FunctionDecl *Fn,
                                        const std::map<const clang::Decl *, std::string> &Spellings);

/// Analyzes loops of one translation unit.
class LoopAnalyzer {
public:
  LoopAnalyzer(clang::ASTContext &Ctx, AnalysisOptions Opts) : Ctx(Ctx), Opts(Opts) {}
  /// Analyzes Loop (a ForStmt or CXXForRangeStmt) under the given clauses. Enclosing is the
  /// function the loop is in.
  LoopResult analyze(const clang::Stmt *Loop, const LoopClauses &Clauses,
                     const clang::FunctionDecl *Enclosing);

private:
  clang::ASTContext &Ctx;
  AnalysisOptions Opts;
};

} // namespace clustrix

#endif // CLUSTRIX_ANALYSIS_LOOPANALYSIS_H
