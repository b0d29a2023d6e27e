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
#include "clustrix/AST/SkippedText.h"
#include "clustrix/Analysis/ResidencyScopes.h"
#include "clustrix/AST/Spelling.h"
#include "clustrix/Decide/Decision.h"
#include "clustrix/Decide/OpenMPCheck.h"
#include "clustrix/Detect/AttributeCollector.h"
#include "clustrix/Detect/LoopMatcher.h"
#include "clustrix/Rewrite/CCaptures.h"
#include "clustrix/Rewrite/FileRewriter.h"
#include "clustrix/Rewrite/KernelEmitter.h"
#include "clustrix/Support/Text.h"

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
    SkippedText::watch(CI.getPreprocessor()); // before the parse: the kernels take its branches
    if (this->Opts.OpenMP == OpenMPMode::Check) {
      // The verdicts are the diagnostics: the loops' own decisions go to the report only, and
      // `refusals=` says how a race is reported.
      RaceSeverity = this->Opts.Diags.Refusals;
      this->Opts.Diags.Refusals = RefusalSeverity::Ignore;
      this->Opts.Diags.Remarks = false;
    }
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
  void findOpenMPLoops(ASTContext &Ctx);
  void summarizeOpenMP();
  void checkOpenMP(ASTContext &Ctx, const MatchedLoop &L, const LoopResult &R);

  CompilerInstance &CI;
  PipelineOptions Opts;
  PipelineOutput &Out;
  AnalysisAction::DoneFn Done;
  AttributeCollector Attrs;
  /// The OpenMP front door's loops, by file and line of their directive; the threadprivate
  /// variables of each file.
  std::map<std::pair<FileID, unsigned>, const OmpLoop *> OmpAt;
  std::map<FileID, std::set<std::string>> ThreadPrivate;
  std::unique_ptr<OpenMPChecker> Checker; ///< Made at the first loop checking mode judges.
  RefusalSeverity RaceSeverity = RefusalSeverity::Warning;
};

/// Finds the files the OpenMP front door converted among the parse's, reports the loops it did
/// not take, and indexes the others by their directive's line.
void AnalysisConsumer::findOpenMPLoops(ASTContext &Ctx) {
  if (Opts.OpenMP == OpenMPMode::Off || !Opts.OmpFiles)
    return;
  SourceManager &SM = Ctx.getSourceManager();
  // The parse's files by normalized path: a front door may name a file otherwise (relative,
  // or through a mapped virtual file).
  std::map<std::string, FileID> Entered;
  for (auto It = SM.fileinfo_begin(), E = SM.fileinfo_end(); It != E; ++It) {
    FileID F = SM.translateFile(It->first);
    if (F.isValid())
      Entered.emplace(normalizedPath(It->first.getName()), F);
  }
  for (const auto &[Path, Conv] : *Opts.OmpFiles) {
    auto Found = Entered.find(normalizedPath(Path));
    if (Found == Entered.end())
      continue;
    FileID F = Found->second;
    ThreadPrivate[F].insert(Conv.ThreadPrivate.begin(), Conv.ThreadPrivate.end());
    for (const OmpLoop &L : Conv.Loops) {
      if (L.Taken) {
        OmpAt[{F, L.Line}] = &L;
        continue;
      }
      SourceLocation Loc = SM.translateLineCol(F, L.Line, L.Column);
      bool Check = Opts.OpenMP == OpenMPMode::Check;
      Out.Diags.push_back(
          {Check ? DiagnosticsEngine::Remark : DiagnosticsEngine::Warning, Loc,
           Check ? "OpenMP race check: unknown: " + L.WhyNot
                 : "'#pragma omp " + L.Directive + "' left as written: " + L.WhyNot,
           {},
           {}});
      LoopRecord Rec;
      Rec.File = Path;
      Rec.Line = L.Line;
      Rec.Column = L.Column;
      Rec.Reasons.push_back(
          {rejectKindName(RejectKind::OpenMPDirective), L.WhyNot, "", L.Line, L.Column});
      Rec.OpenMP.Directive = L.Directive;
      Rec.OpenMP.DirectiveLine = L.Line;
      Rec.OpenMP.RegionLine = L.RegionLine;
      if (Check) {
        Rec.OpenMP.Verdict = verdictName(RaceVerdict::Unknown).str();
        Rec.OpenMP.Message = L.WhyNot;
      }
      Out.Records.push_back(std::move(Rec));
    }
  }
}

/// Checking mode's summary of the unit, for a log or a CI job: a remark with no location.
void AnalysisConsumer::summarizeOpenMP() {
  unsigned Race = 0, Free = 0, Unknown = 0;
  for (const LoopRecord &R : Out.Records) {
    if (R.OpenMP.Verdict == verdictName(RaceVerdict::Race))
      ++Race;
    else if (R.OpenMP.Verdict == verdictName(RaceVerdict::RaceFree))
      ++Free;
    else if (!R.OpenMP.Verdict.empty())
      ++Unknown;
  }
  if (Race + Free + Unknown == 0)
    return;
  Out.Diags.push_back({DiagnosticsEngine::Remark, SourceLocation(),
                       "OpenMP race check: " + std::to_string(Race + Free + Unknown) +
                           " worksharing loops: " + std::to_string(Race) + " with a race, " +
                           std::to_string(Free) + " race-free, " + std::to_string(Unknown) +
                           " unknown",
                       {},
                       {}});
}

/// The OpenMP loop's record names its directive; in checking mode the loop gets its verdict.
void AnalysisConsumer::checkOpenMP(ASTContext &Ctx, const MatchedLoop &L, const LoopResult &R) {
  if (OmpAt.empty() || !L.Ann || Out.Records.empty())
    return;
  SourceManager &SM = Ctx.getSourceManager();
  SourceLocation At = SM.getExpansionLoc(L.Ann->Begin);
  auto It = OmpAt.find({SM.getFileID(At), SM.getExpansionLineNumber(At)});
  if (It == OmpAt.end())
    return;
  const OmpLoop &Omp = *It->second;
  LoopRecord &Rec = Out.Records.back();
  Rec.OpenMP.Directive = Omp.Directive;
  Rec.OpenMP.DirectiveLine = Omp.Line;
  Rec.OpenMP.RegionLine = Omp.RegionLine;
  if (Opts.OpenMP != OpenMPMode::Check)
    return;
  if (!Checker)
    Checker = std::make_unique<OpenMPChecker>(Ctx, Opts.WholeProgram);
  OmpVerdict V = Checker->check(L.Loop, L.Fn, Omp, R, ThreadPrivate[SM.getFileID(At)]);
  Rec.OpenMP.Verdict = verdictName(V.Verdict).str();
  Rec.OpenMP.Message = V.Message;
  PendingDiag D;
  D.Loc = At;
  switch (V.Verdict) {
  case RaceVerdict::Race:
    if (RaceSeverity == RefusalSeverity::Ignore)
      return;
    D.Level = RaceSeverity == RefusalSeverity::Error    ? DiagnosticsEngine::Error
              : RaceSeverity == RefusalSeverity::Remark ? DiagnosticsEngine::Remark
                                                        : DiagnosticsEngine::Warning;
    D.Message = "data race in OpenMP loop: " + V.Message;
    for (auto [Loc, Note] : {std::pair{V.First, V.FirstNote}, {V.Second, V.SecondNote}}) {
      if (Loc.isInvalid() || Note.empty())
        continue;
      D.Notes.push_back({DiagnosticsEngine::Note, Loc, Note, {}, {}});
      PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
      if (P.isValid())
        Rec.OpenMP.Accesses.push_back({P.getLine(), P.getColumn()});
    }
    break;
  case RaceVerdict::RaceFree:
    D.Level = DiagnosticsEngine::Remark;
    D.Message = "OpenMP loop is race-free: " + V.Message;
    break;
  case RaceVerdict::Unknown:
    D.Level = DiagnosticsEngine::Remark;
    D.Message = "OpenMP race check: unknown: " + V.Message;
    break;
  }
  Out.Diags.push_back(std::move(D));
}

void AnalysisConsumer::run(ASTContext &Ctx) {
  if (!CI.getDiagnostics().hasErrorOccurred())
    findOpenMPLoops(Ctx);
  if (Attrs.annotations().empty()) {
    if (Opts.OpenMP == OpenMPMode::Check)
      summarizeOpenMP();
    sortDiagnostics(Out.Diags, Ctx.getSourceManager());
    return;
  }
  if (CI.getDiagnostics().hasErrorOccurred()) {
    // Code that does not compile is neither analyzed nor changed: taking the attributes out
    // could hide the error itself (a broken bracket inside one, an attribute where none may
    // stand), so the compile sees the text as written.
    Out.SourceHadErrors = true;
    return;
  }
  std::vector<MatchedLoop> Loops = LoopMatcher(Ctx, Out.Diags).match(Attrs.annotations());
  std::vector<AcceptedLoop> Accepted = analyzeAndDecide(Ctx, Loops);
  if (Opts.OpenMP == OpenMPMode::Check)
    summarizeOpenMP();
  sortDiagnostics(Out.Diags, Ctx.getSourceManager());
  Out.Errors = countErrors(Out.Diags);
  if (Opts.OpenMP == OpenMPMode::Check)
    return; // the program compiles as written
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
    checkOpenMP(Ctx, L, R);
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
    checkOpenMP(Ctx, M, R);
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
