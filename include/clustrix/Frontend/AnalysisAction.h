//===- clustrix/Frontend/AnalysisAction.h - Detect, analyze, decide, rewrite -*- C++ -*-===//
//
// The one code path behind all three front doors (the plugin, clustrix-rewrite, clustrix++): a
// frontend action for the analysis parse that runs the phases in order (Detect, Analysis,
// Decide, Rewrite) and hands the front door diagnostics, report records and the rewritten main
// file. Front doors differ only in where the diagnostics go and what happens to the text.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_FRONTEND_ANALYSISACTION_H
#define CLUSTRIX_FRONTEND_ANALYSISACTION_H

#include "clustrix/Decide/Report.h"
#include "clustrix/Frontend/Options.h"
#include "clustrix/Support/PendingDiag.h"

#include "clang/Frontend/FrontendAction.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace clustrix {

/// What the analysis parse produced.
struct PipelineOutput {
  std::vector<PendingDiag> Diags;
  std::vector<LoopRecord> Records;
  std::string Rewritten; ///< The new main file; empty when nothing changed.
  /// The project's included files that hold annotated loops, rewritten: (path as the file
  /// manager names it, new text). Each is rewritten the same way in every translation unit
  /// that includes it, as long as the unit sees the same declarations before it.
  std::vector<std::pair<std::string, std::string>> Headers;
  /// Kernel texts of the accepted loops that have a GPU form: (name, CUDA source).
  std::vector<std::pair<std::string, std::string>> Kernels;
  bool Changed = false;
  bool SourceHadErrors = false; ///< The code itself did not compile; nothing was rewritten.
  unsigned Errors = 0;          ///< Clustrix errors among Diags.
};

/// The frontend action of the analysis parse. The caller owns Out.
class AnalysisAction : public clang::ASTFrontendAction {
public:
  /// Called at the end of the analysis parse (also when the code had errors), while its
  /// SourceManager and diagnostic client are alive.
  using DoneFn = std::function<void(clang::CompilerInstance &, PipelineOutput &)>;
  AnalysisAction(PipelineOptions Opts, PipelineOutput &Out, DoneFn Done = nullptr)
      : Opts(Opts), Out(Out), Done(std::move(Done)) {}

protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &CI,
                                                        llvm::StringRef InFile) override;

private:
  PipelineOptions Opts;
  PipelineOutput &Out;
  DoneFn Done;
};

/// The analysis parse's consumer alone, for a parse already under way (the plugin's one-parse
/// compile, lib/Plugin/OneParse.h): it watches the tokens the preprocessor lexes from its
/// creation on, and runs the phases when the translation unit ends. Out must outlive it.
std::unique_ptr<clang::ASTConsumer> createAnalysisConsumer(clang::CompilerInstance &CI,
                                                           PipelineOptions Opts,
                                                           PipelineOutput &Out,
                                                           AnalysisAction::DoneFn Done);

} // namespace clustrix

#endif // CLUSTRIX_FRONTEND_ANALYSISACTION_H
