//===- AnalysisAction.cpp - Detect, analyze, decide, rewrite ---------------===//
//
// The consumer of the analysis parse calls the phases in order and does nothing else: Detect
// (lib/Detect: attributes to loops), Analysis (lib/Analysis), the GPU form (lib/Rewrite/
// KernelEmitter), Decide (lib/Decide: diagnostics and report records), and Rewrite
// (lib/Rewrite/FileRewriter).
//
//===----------------------------------------------------------------------===//
#include "clustrix/Frontend/AnalysisAction.h"
#include "clustrix/Analysis/ResidencyScopes.h"
#include "clustrix/AST/Spelling.h"
#include "clustrix/Decide/Decision.h"
#include "clustrix/Detect/AttributeCollector.h"
#include "clustrix/Detect/LoopMatcher.h"
#include "clustrix/Rewrite/CCaptures.h"
#include "clustrix/Rewrite/FileRewriter.h"
#include "clustrix/Rewrite/KernelEmitter.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"

using namespace clang;
using namespace clustrix;

namespace {

/// An accepted loop on its way to the rewriter.
struct AcceptedLoop {
  const MatchedLoop *Match;
  LoopResult Result;
  Kernel GPU;
};

/// The consumer of the analysis parse: installs the token watcher, then runs the phases on the
/// translation unit.
class AnalysisConsumer : public ASTConsumer {
public:
  AnalysisConsumer(CompilerInstance &CI, PipelineOptions Opts, PipelineOutput &Out,
                   AnalysisAction::DoneFn Done)
      : CI(CI), Opts(Opts), Out(Out), Done(std::move(Done)), Attrs(CI.getPreprocessor()) {
    Attrs.install();
  }

  /// The analysis never follows calls into system headers (they are refused or known math), so
  /// their bodies need not be parsed. Clang itself keeps constexpr functions and functions with
  /// deduced return types.
  bool shouldSkipFunctionBody(Decl *D) override {
    return CI.getSourceManager().isInSystemHeader(D->getLocation());
  }

  void HandleTranslationUnit(ASTContext &Ctx) override {
    run(Ctx);
    // Still inside the parse: the diagnostic client is alive (it ends before the action does).
    if (Done)
      Done(CI, Out);
  }

private:
  void run(ASTContext &Ctx);
  std::vector<AcceptedLoop> analyzeAndDecide(ASTContext &Ctx,
                                             const std::vector<MatchedLoop> &Loops);
  void rewrite(ASTContext &Ctx, const std::vector<AcceptedLoop> &Accepted);

  CompilerInstance &CI;
  PipelineOptions Opts;
  PipelineOutput &Out;
  AnalysisAction::DoneFn Done;
  AttributeCollector Attrs;
};

void AnalysisConsumer::run(ASTContext &Ctx) {
  if (Attrs.annotations().empty())
    return;
  if (CI.getDiagnostics().hasErrorOccurred()) {
    // Code that does not compile is neither analyzed nor changed: taking the attributes out
    // could hide the error itself (a broken bracket inside one, an attribute where none may
    // stand), so the compile sees the text as written.
    Out.SourceHadErrors = true;
    return;
  }
  std::vector<MatchedLoop> Loops = LoopMatcher(Ctx, Out.Diags).match(Attrs.annotations());
  std::vector<AcceptedLoop> Accepted = analyzeAndDecide(Ctx, Loops);
  sortDiagnostics(Out.Diags, Ctx.getSourceManager());
  Out.Errors = countErrors(Out.Diags);
  rewrite(Ctx, Accepted);
}

/// Loops come in source order, so that a loop inside an accepted one is known as such.
std::vector<AcceptedLoop>
AnalysisConsumer::analyzeAndDecide(ASTContext &Ctx, const std::vector<MatchedLoop> &Loops) {
  LoopAnalyzer Analyzer(Ctx, Opts.Analysis);
  Decider Decide(Ctx.getSourceManager(), Opts.Diags);
  NestingTracker Nesting;
  std::vector<AcceptedLoop> Accepted;
  for (const MatchedLoop &L : Loops) {
    const MatchedLoop *Outer = Nesting.enclosing(L);
    LoopResult R = Outer ? Decide.refuseNested(*Outer) : Analyzer.analyze(L.Loop, L.Clauses, L.Fn);
    if (!Ctx.getLangOpts().CPlusPlus)
      refuseUnlessOutlinable(L.Fn, L.Loop, R); // C: the body must become a file-scope function
    Kernel K;
    if (R.Accepted)
      K = emitKernel(Ctx, L.Loop, R, &CI.getPreprocessor());
    Decide.decide(L, R, {K.Ok, K.Reason}, Out.Records, Out.Diags);
    if (R.Accepted) {
      Nesting.accept(L);
      Accepted.push_back({&L, std::move(R), std::move(K)});
    }
  }
  return Accepted;
}

/// Blanks every attribute, then replaces the accepted loops.
void AnalysisConsumer::rewrite(ASTContext &Ctx, const std::vector<AcceptedLoop> &Accepted) {
  SourceManager &SM = Ctx.getSourceManager();
  OptionalFileEntryRef MainFile = SM.getFileEntryRefForID(SM.getMainFileID());
  FileRewriter FR(SM, Ctx.getLangOpts(), MainFile ? MainFile->getName().str() : "<stdin>");
  for (const Annotation &A : Attrs.annotations())
    FR.blankAttribute(A);
  // Where data may stay on the devices between loops: loops with a GPU form only.
  std::vector<std::pair<const Stmt *, const FunctionDecl *>> OnDevices;
  for (const AcceptedLoop &A : Accepted)
    if (A.GPU.Ok)
      OnDevices.push_back({A.Match->Loop, A.Match->Fn});
  if (Ctx.getLangOpts().CPlusPlus)
    for (const ResidencyScope &S : findResidencyScopes(Ctx, OnDevices))
      FR.openResidencyScope(S.First, S.Last);
  for (const AcceptedLoop &A : Accepted) {
    FR.declarePrivateMembers(A.Result, outermostFunction(A.Match->Fn));
    FR.rewriteLoop(A.Match->Loop, A.Result, A.Match->Clauses, A.GPU, A.Match->Fn);
    if (A.GPU.Ok)
      Out.Kernels.push_back({A.GPU.Name, A.GPU.Source});
  }
  if (FR.changed()) {
    Out.Changed = true;
    Out.Rewritten = FR.result();
  }
}

} // namespace

std::unique_ptr<ASTConsumer> AnalysisAction::CreateASTConsumer(CompilerInstance &CI,
                                                               llvm::StringRef) {
  // Read by ASTFrontendAction::ExecuteAction after this; the consumer decides which bodies.
  CI.getFrontendOpts().SkipFunctionBodies = true;
  return std::make_unique<AnalysisConsumer>(CI, Opts, Out, Done);
}
