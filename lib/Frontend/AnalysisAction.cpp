//===- AnalysisAction.cpp - Detect, analyze, decide, rewrite ---------------===//
//
// The consumer of the analysis parse calls the phases in order and does nothing else: Detect
// (lib/Detect: attributes to loops), Analysis (lib/Analysis), the GPU form (lib/Rewrite/
// KernelEmitter), Decide (lib/Decide: diagnostics and report records), and Rewrite
// (lib/Rewrite/FileRewriter).
//
//===----------------------------------------------------------------------===//
#include "clustrix/Frontend/AnalysisAction.h"
#include "clustrix/AST/Instantiation.h"
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

#include <cassert>
#include <map>
#include <memory>
#include <set>

using namespace clang;
using namespace clustrix;

namespace {

/// One instantiation's copy of a template's loop, accepted.
struct AcceptedInstance {
  MatchedLoop Match;
  LoopResult Result;
  Kernel GPU;
  std::string Condition; ///< True in this instantiation only (InstantiationKey).
};

/// An accepted loop on its way to the rewriter: a loop outside templates with its result, or a
/// template's loop with the instantiations accepted.
struct AcceptedLoop {
  const MatchedLoop *Match;
  LoopResult Result;
  Kernel GPU;
  std::vector<AcceptedInstance> Instances;
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
  std::vector<AcceptedInstance> analyzeInstances(ASTContext &Ctx, const MatchedLoop &L,
                                                 LoopAnalyzer &Analyzer, const Decider &Decide);
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
    if (L.InTemplate && !Outer) {
      std::vector<AcceptedInstance> Instances = analyzeInstances(Ctx, L, Analyzer, Decide);
      if (!Instances.empty()) {
        Nesting.accept(L);
        Accepted.push_back({&L, {}, {}, std::move(Instances)});
      }
      continue;
    }
    LoopResult R = Outer ? Decide.refuseNested(*Outer) : Analyzer.analyze(L.Loop, L.Clauses, L.Fn);
    if (!Ctx.getLangOpts().CPlusPlus)
      refuseUnlessOutlinable(L.Fn, L.Loop, R); // C: the body must become a file-scope function
    Kernel K;
    if (R.Accepted)
      K = emitKernel(Ctx, L.Loop, R, &CI.getPreprocessor());
    Decide.decide(L, R, {K.Ok, K.Reason}, Out.Records, Out.Diags);
    if (R.Accepted) {
      Nesting.accept(L);
      Accepted.push_back({&L, std::move(R), std::move(K), {}});
    }
  }
  return Accepted;
}

/// A loop in a template: each instantiation's copy is analysed, decided and given its GPU form
/// on its own; every diagnostic carries a note naming the instantiation.
std::vector<AcceptedInstance> AnalysisConsumer::analyzeInstances(ASTContext &Ctx,
                                                                 const MatchedLoop &L,
                                                                 LoopAnalyzer &Analyzer,
                                                                 const Decider &Decide) {
  std::vector<AcceptedInstance> Accepted;
  auto Refuse = [&](const MatchedLoop &M, std::string Why) {
    LoopResult R;
    R.Reasons.push_back({RejectKind::Template, std::move(Why), {}, "", ""});
    Decide.decide(M, R, {false, ""}, Out.Records, Out.Diags);
  };
  if (L.Instances.empty()) {
    Refuse(L, "the template that holds the loop is not instantiated in this translation unit");
    return Accepted;
  }
  if (!Ctx.getLangOpts().CPlusPlus17) {
    Refuse(L, "a loop in a template needs C++17 or later: 'if constexpr' chooses among its "
              "instantiations");
    return Accepted;
  }
  std::set<std::string> Seen;
  for (const LoopInstance &In : L.Instances) {
    MatchedLoop M = L;
    M.Loop = In.Loop;
    M.Fn = In.Fn;
    M.InTemplate = false;
    M.Instances.clear();
    InstantiationKey Key = describeInstantiation(L.Fn, In.Fn, Ctx);
    M.Instantiation = Key.DisplayName;
    M.InstantiatedAt = Key.RequestedAt;
    if (!Key.Reason.empty()) {
      Refuse(M, "this instantiation cannot be told apart in the template: " + Key.Reason);
      continue;
    }
    if (!Seen.insert(Key.Condition).second)
      continue; // the same instantiation reached twice
    LoopResult R = Analyzer.analyze(In.Loop, M.Clauses, In.Fn);
    Kernel K;
    if (R.Accepted)
      K = emitKernel(Ctx, In.Loop, R, &CI.getPreprocessor(), &Key);
    Decide.decide(M, R, {K.Ok, K.Reason}, Out.Records, Out.Diags);
    if (R.Accepted)
      Accepted.push_back({std::move(M), std::move(R), std::move(K), Key.Condition});
  }
  return Accepted;
}

/// Blanks every attribute, then replaces the accepted loops: in the main file and in each
/// included file of the project that holds an annotation.
void AnalysisConsumer::rewrite(ASTContext &Ctx, const std::vector<AcceptedLoop> &Accepted) {
  SourceManager &SM = Ctx.getSourceManager();
  std::map<FileID, std::unique_ptr<FileRewriter>> Rewriters;
  auto RewriterFor = [&](SourceLocation L) -> FileRewriter * {
    L = SM.getExpansionLoc(L);
    FileID F = SM.getFileID(L);
    if (auto It = Rewriters.find(F); It != Rewriters.end())
      return It->second.get();
    if (!whyFileNotRewritten(SM, L, Opts.Analysis).empty())
      return nullptr;
    OptionalFileEntryRef FE = SM.getFileEntryRefForID(F);
    std::string Name = FE ? FE->getName().str() : "<stdin>";
    FileRewriter *FR =
        (Rewriters[F] = std::make_unique<FileRewriter>(SM, Ctx.getLangOpts(), F, Name)).get();
    FR->setPreprocessor(&CI.getPreprocessor());
    if (F == SM.getMainFileID() && Opts.MainSplit.Active)
      FR->setSplit(Opts.MainSplit.Split, Opts.MainSplit.TextEnd);
    return FR;
  };
  for (const Annotation &A : Attrs.annotations())
    if (FileRewriter *FR = RewriterFor(A.Begin))
      FR->blankAttribute(A);
  // Where data may stay on the devices between loops: loops with a GPU form only.
  std::vector<std::pair<const Stmt *, const FunctionDecl *>> OnDevices;
  for (const AcceptedLoop &A : Accepted)
    if (A.GPU.Ok && A.Instances.empty())
      OnDevices.push_back({A.Match->Loop, A.Match->Fn});
  for (const ResidencyScope &S : findResidencyScopes(Ctx, OnDevices))
    if (FileRewriter *FR = RewriterFor(S.First->getBeginLoc()))
      FR->openResidencyScope(S);
  for (const AcceptedLoop &A : Accepted) {
    FileRewriter *FRP = RewriterFor(A.Match->Loop->getBeginLoc());
    assert(FRP && "the analysis refuses loops in files that are not rewritten");
    FileRewriter &FR = *FRP;
    if (!A.Instances.empty()) {
      std::vector<FileRewriter::Instance> Instances;
      for (const AcceptedInstance &I : A.Instances) {
        Instances.push_back({I.Match.Loop, &I.Result, &I.Match.Clauses, &I.GPU, I.Condition});
        if (I.GPU.Ok)
          Out.Kernels.push_back({I.GPU.Name, I.GPU.Source});
      }
      FR.rewriteTemplateLoop(A.Match->Loop, Instances);
      continue;
    }
    FR.declarePrivateMembers(A.Result, outermostFunction(A.Match->Fn));
    FR.rewriteLoop(A.Match->Loop, A.Result, A.Match->Clauses, A.GPU, A.Match->Fn);
    if (A.GPU.Ok)
      Out.Kernels.push_back({A.GPU.Name, A.GPU.Source});
  }
  for (auto &[F, FR] : Rewriters) {
    if (!FR->changed())
      continue;
    Out.Changed = true;
    if (F == SM.getMainFileID())
      Out.Rewritten = FR->result();
    else
      Out.Headers.push_back({FR->presumedName(), FR->result()});
  }
  if (Out.Changed && Out.Rewritten.empty()) {
    Out.Rewritten = SM.getBufferData(SM.getMainFileID()).str();
    if (Opts.MainSplit.Active && Opts.MainSplit.TextEnd < Out.Rewritten.size())
      Out.Rewritten.resize(Opts.MainSplit.TextEnd);
  }
}

} // namespace

std::unique_ptr<ASTConsumer> clustrix::createAnalysisConsumer(CompilerInstance &CI,
                                                            PipelineOptions Opts,
                                                            PipelineOutput &Out,
                                                            AnalysisAction::DoneFn Done) {
  return std::make_unique<AnalysisConsumer>(CI, Opts, Out, std::move(Done));
}

std::unique_ptr<ASTConsumer> AnalysisAction::CreateASTConsumer(CompilerInstance &CI,
                                                               llvm::StringRef) {
  // Read by ASTFrontendAction::ExecuteAction after this; the consumer decides which bodies.
  CI.getFrontendOpts().SkipFunctionBodies = true;
  return std::make_unique<AnalysisConsumer>(CI, Opts, Out, Done);
}
