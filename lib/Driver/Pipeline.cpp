//===- Pipeline.cpp - Detect, analyze, decide, rewrite ---------------------===//
//
// The consumer of the analysis parse: validates and matches the captured attributes, analyzes
// each annotated loop (and, in automatic mode, each outermost loop of an annotated function),
// turns decisions into diagnostics and report records, and rewrites the main file.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Driver/Pipeline.h"
#include "clustrix/Detect/AttributeCollector.h"
#include "clustrix/Detect/ClauseParser.h"
#include "clustrix/AST/StatementEnd.h"
#include "clustrix/Rewrite/FileRewriter.h"
#include "clustrix/Rewrite/KernelEmitter.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <map>
#include <set>

using namespace clang;
using namespace clustrix;

bool clustrix::mayContainAnnotations(llvm::StringRef Text) {
  size_t Pos = 0;
  while ((Pos = Text.find("cluster", Pos)) != llvm::StringRef::npos) {
    size_t I = Pos + 7;
    while (I < Text.size() && (Text[I] == ' ' || Text[I] == '\t'))
      ++I;
    if (I < Text.size() && Text[I] == ':')
      return true; // `cluster::name` or `using cluster: name`
    Pos += 7;
  }
  return false;
}

std::string clustrix::applyOption(llvm::StringRef Arg, PipelineOptions &Opts,
                                  std::string &ReportFile, std::string &EmitRewritten) {
  auto [Name, Value] = Arg.split('=');
  if (Name == "report") {
    if (Value.empty())
      return "'report=' needs a file name";
    ReportFile = Value.str();
    return "";
  }
  if (Name == "emit-rewritten") {
    if (Value.empty())
      return "'emit-rewritten=' needs a file name";
    EmitRewritten = Value.str();
    return "";
  }
  if (Name == "remarks") {
    if (Value == "on")
      Opts.Diags.Remarks = true;
    else if (Value == "off")
      Opts.Diags.Remarks = false;
    else
      return "'remarks=' takes 'on' or 'off', not '" + Value.str() + "'";
    return "";
  }
  if (Name == "refusals") {
    if (Value == "warning")
      Opts.Diags.Refusals = RefusalSeverity::Warning;
    else if (Value == "error")
      Opts.Diags.Refusals = RefusalSeverity::Error;
    else if (Value == "remark")
      Opts.Diags.Refusals = RefusalSeverity::Remark;
    else if (Value == "ignore")
      Opts.Diags.Refusals = RefusalSeverity::Ignore;
    else
      return "'refusals=' takes 'warning', 'error', 'remark' or 'ignore', not '" + Value.str() +
             "'";
    return "";
  }
  if (Name == "max-level") {
    unsigned L;
    if (Value.getAsInteger(10, L) || L < 1 || L > 5)
      return "'max-level=' takes a level from 1 to 5, not '" + Value.str() + "'";
    Opts.Analysis.MaxLevel = L;
    return "";
  }
  return "unknown option '" + Arg.str() +
         "'; expected report=FILE, emit-rewritten=FILE, remarks=on|off, "
         "refusals=warning|error|remark|ignore or max-level=N";
}

namespace {

/// Collects loops and function definitions by the location of their first token.
class Collector : public RecursiveASTVisitor<Collector> {
public:
  bool TraverseDecl(Decl *D) {
    auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    if (FD)
      Enclosing.push_back(FD);
    bool R = RecursiveASTVisitor::TraverseDecl(D);
    if (FD)
      Enclosing.pop_back();
    return R;
  }
  bool TraverseLambdaExpr(LambdaExpr *L) {
    Enclosing.push_back(L->getCallOperator());
    bool R = RecursiveASTVisitor::TraverseLambdaExpr(L);
    Enclosing.pop_back();
    return R;
  }
  bool VisitForStmt(ForStmt *S) {
    Loops.push_back({S, Enclosing.empty() ? nullptr : Enclosing.back()});
    return true;
  }
  bool VisitCXXForRangeStmt(CXXForRangeStmt *S) {
    Loops.push_back({S, Enclosing.empty() ? nullptr : Enclosing.back()});
    return true;
  }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody())
      Functions.push_back(FD);
    return true;
  }
  /// Each loop with the function (or lambda call operator) it is in.
  std::vector<std::pair<Stmt *, const FunctionDecl *>> Loops;
  std::vector<FunctionDecl *> Functions;

private:
  std::vector<const FunctionDecl *> Enclosing;
};

/// The outermost loops of a function body, not descending into lambdas or nested functions.
void outermostLoops(const Stmt *S, std::vector<const Stmt *> &Out) {
  if (!S)
    return;
  if (isa<ForStmt>(S) || isa<CXXForRangeStmt>(S)) {
    Out.push_back(S);
    return;
  }
  if (isa<LambdaExpr>(S) || isa<BlockExpr>(S))
    return;
  for (const Stmt *C : S->children())
    outermostLoops(C, Out);
}

class PipelineConsumer : public ASTConsumer {
public:
  PipelineConsumer(CompilerInstance &CI, PipelineOptions Opts, PipelineOutput &Out,
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
  struct Item {
    Annotation *Ann = nullptr;
    const Stmt *Loop = nullptr;
    const FunctionDecl *Fn = nullptr;
    bool Automatic = false;
    LoopClauses Clauses;
    LoopResult Result;
    Kernel GPU;
    unsigned Begin = 0, End = 0;
  };

  void run(ASTContext &Ctx);
  void error(SourceLocation L, std::string Msg, std::vector<PendingFixIt> Fix = {}) {
    Out.Diags.push_back({DiagnosticsEngine::Error, L, std::move(Msg), std::move(Fix), {}});
    ++Out.Errors;
  }
  void decide(ASTContext &Ctx, Item &I);
  PendingDiag refusalDiag(const Item &I, DiagnosticsEngine::Level Level);
  std::string acceptedText(const Item &I);

  CompilerInstance &CI;
  PipelineOptions Opts;
  PipelineOutput &Out;
  AnalysisAction::DoneFn Done;
  AttributeCollector Attrs;
};

std::string joinNames(const std::vector<std::string> &Names) {
  std::string S;
  for (const std::string &N : Names)
    S += (S.empty() ? "" : ", ") + N;
  return S;
}

const char *scheduleText(ScheduleKind K) {
  switch (K) {
  case ScheduleKind::Default: return "default";
  case ScheduleKind::Block: return "block";
  case ScheduleKind::Cyclic: return "cyclic";
  case ScheduleKind::Dynamic: return "dynamic";
  }
  return "default";
}

std::string PipelineConsumer::acceptedText(const Item &I) {
  const LoopResult &R = I.Result;
  std::string S = "loop parallelized across devices";
  if (I.Automatic)
    S += " (automatic mode)";
  S += ": schedule " + std::string(scheduleText(I.Clauses.Schedule));
  if (I.Clauses.Collapse > 1)
    S += ", collapse " + std::to_string(I.Clauses.Collapse);
  S += ", level " + std::to_string(R.Level) + " (score " + std::to_string(R.Score) + ")";
  std::vector<std::string> In, Outs, Reds, Apps;
  for (const Region &G : R.Regions) {
    if (G.Access & RegionRead)
      In.push_back(G.Name);
    if (G.Access & RegionWrite)
      Outs.push_back(G.Name);
  }
  for (const Reduction &X : R.Reductions)
    Reds.push_back(X.Name + " (" + X.Op + ")");
  for (const Append &X : R.Appends)
    Apps.push_back(X.Name);
  if (!In.empty())
    S += "; in: " + joinNames(In);
  if (!Outs.empty())
    S += "; out: " + joinNames(Outs);
  if (!Reds.empty())
    S += "; reduce: " + joinNames(Reds);
  if (!Apps.empty())
    S += "; ordered append: " + joinNames(Apps);
  return S;
}

PendingDiag PipelineConsumer::refusalDiag(const Item &I, DiagnosticsEngine::Level Level) {
  const LoopResult &R = I.Result;
  SourceLocation ForLoc = I.Loop->getBeginLoc();
  PendingDiag D{Level, ForLoc, "loop not parallelized: " + R.Reasons.front().Message, {}, {}};
  for (size_t K = 0; K < R.Reasons.size(); ++K) {
    const RejectReason &X = R.Reasons[K];
    if (K > 0)
      D.Notes.push_back({DiagnosticsEngine::Note, X.Loc.isValid() ? X.Loc : ForLoc,
                         "also: " + X.Message, {}, {}});
    else if (X.Loc.isValid() && !X.Note.empty())
      D.Notes.push_back({DiagnosticsEngine::Note, X.Loc, X.Note, {}, {}});
    if (!X.Suggestion.empty() && I.Ann && !I.Automatic) {
      PendingDiag N{DiagnosticsEngine::Note, I.Ann->NameLoc,
                    "add '" + X.Suggestion + "' to the attribute", {}, {}};
      if (I.Ann->HasArgs && I.Ann->ArgsEnd.isValid())
        N.FixIts.push_back({I.Ann->ArgsEnd, 0, (I.Ann->Args.empty() ? "" : ", ") + X.Suggestion});
      else if (!I.Ann->NameLoc.isMacroID())
        N.FixIts.push_back({I.Ann->NameLoc.getLocWithOffset(I.Ann->Name.size()), 0,
                            "(" + X.Suggestion + ")"});
      D.Notes.push_back(std::move(N));
    }
  }
  return D;
}

void PipelineConsumer::decide(ASTContext &Ctx, Item &I) {
  const SourceManager &SM = Ctx.getSourceManager();
  LoopRecord Rec;
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(I.Loop->getBeginLoc()));
  Rec.File = P.isValid() ? P.getFilename() : "";
  Rec.Line = P.isValid() ? P.getLine() : 0;
  Rec.Column = P.isValid() ? P.getColumn() : 0;
  Rec.Function = I.Fn ? I.Fn->getQualifiedNameAsString() : "";
  Rec.Automatic = I.Automatic;
  Rec.Accepted = I.Result.Accepted;
  Rec.Regions = I.Result.Regions;
  Rec.Reductions = I.Result.Reductions;
  Rec.Appends = I.Result.Appends;
  Rec.Schedule = scheduleText(I.Clauses.Schedule);
  Rec.Collapse = unsigned(I.Clauses.Collapse);
  Rec.Score = I.Result.Score;
  Rec.Level = I.Result.Level;
  Rec.WorkPerIter = I.Result.WorkPerIter;
  Rec.GPU = I.GPU.Ok;
  Rec.GPUReason = I.GPU.Reason;
  for (const RejectReason &X : I.Result.Reasons) {
    ReportReason RR{rejectKindName(X.Kind), X.Message, X.Suggestion, 0, 0};
    if (X.Loc.isValid()) {
      PresumedLoc XP = SM.getPresumedLoc(SM.getExpansionLoc(X.Loc));
      if (XP.isValid())
        RR.Line = XP.getLine(), RR.Column = XP.getColumn();
    }
    Rec.Reasons.push_back(std::move(RR));
  }
  Out.Records.push_back(std::move(Rec));

  if (I.Result.Accepted) {
    if (Opts.Diags.Remarks) {
      PendingDiag D{DiagnosticsEngine::Remark, I.Loop->getBeginLoc(), acceptedText(I), {}, {}};
      if (!I.GPU.Ok)
        D.Notes.push_back({DiagnosticsEngine::Note, I.Loop->getBeginLoc(),
                           "no GPU form, the loop runs on CPU devices: " + I.GPU.Reason, {}, {}});
      Out.Diags.push_back(std::move(D));
    }
    return;
  }
  bool Quiet = I.Automatic || I.Result.Reasons.front().Kind == RejectKind::Disabled;
  DiagnosticsEngine::Level Level = DiagnosticsEngine::Warning;
  if (Quiet) {
    if (!Opts.Diags.Remarks)
      return;
    Level = DiagnosticsEngine::Remark;
  } else {
    switch (Opts.Diags.Refusals) {
    case RefusalSeverity::Warning: Level = DiagnosticsEngine::Warning; break;
    case RefusalSeverity::Error: Level = DiagnosticsEngine::Error; ++Out.Errors; break;
    case RefusalSeverity::Remark: Level = DiagnosticsEngine::Remark; break;
    case RefusalSeverity::Ignore: return;
    }
  }
  Out.Diags.push_back(refusalDiag(I, Level));
}

void PipelineConsumer::run(ASTContext &Ctx) {
  SourceManager &SM = Ctx.getSourceManager();
  std::vector<Annotation> &Anns = Attrs.annotations();
  if (Anns.empty())
    return;
  OptionalFileEntryRef MainFile = SM.getFileEntryRefForID(SM.getMainFileID());
  FileRewriter FR(SM, Ctx.getLangOpts(), MainFile ? MainFile->getName().str() : "<stdin>");
  if (CI.getDiagnostics().hasErrorOccurred()) {
    // Code that does not compile is neither analyzed nor changed: taking the attributes out
    // could hide the error itself (a broken bracket inside one, an attribute where none may
    // stand), so the compile sees the text as written.
    Out.SourceHadErrors = true;
    return;
  }

  // Names and clauses.
  static const llvm::StringRef Known[] = {"gpu_parallel"};
  std::vector<Annotation *> Valid;
  for (Annotation &A : Anns) {
    if (A.Name != "gpu_parallel") {
      std::string Near = closestMatch(A.Name, Known);
      if (!Near.empty())
        error(A.NameLoc,
              "unknown Clustrix attribute 'cluster::" + A.Name + "'; did you mean 'cluster::" +
                  Near + "'?",
              {{A.NameLoc, unsigned(A.Name.size()), Near}});
      else
        error(A.NameLoc, "unknown Clustrix attribute 'cluster::" + A.Name +
                             "'; the only one is 'cluster::gpu_parallel'");
      continue;
    }
    if (A.HasArgs) {
      if (A.ArgsEnd.isInvalid()) {
        error(A.NameLoc, "malformed argument list of 'cluster::gpu_parallel'");
        continue;
      }
      for (const ClauseError &E : parseClauses(A.Args, A.ArgsEnd, A.Clauses)) {
        std::vector<PendingFixIt> Fix;
        if (!E.FixItReplacement.empty())
          Fix.push_back({E.Loc, E.FixItLength, E.FixItReplacement});
        error(E.Loc, E.Message, std::move(Fix));
        A.ClausesOk = false;
      }
    }
    Valid.push_back(&A);
  }

  // Match attributes to loops and function definitions.
  Collector C;
  // Only the declarations of the files that hold an annotation (the main file, or a header
  // whose loops are then refused): walking every header's declarations costs as much as a
  // good part of the parse.
  std::set<FileID> Files{SM.getMainFileID()};
  for (const Annotation *A : Valid)
    Files.insert(SM.getFileID(SM.getExpansionLoc(A->Begin)));
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (Files.count(SM.getFileID(SM.getExpansionLoc(D->getLocation()))))
      C.TraverseDecl(D);
  std::map<unsigned, Annotation *> ByNext, ByBegin;
  for (Annotation *A : Valid) {
    if (A->NextLoc.isValid()) {
      auto [It, New] = ByNext.emplace(A->NextLoc.getRawEncoding(), A);
      if (!New) {
        // `[[cluster::gpu_parallel]] [[cluster::gpu_parallel]] for ...`: the first one counts.
        error(A->NameLoc, "duplicate 'cluster::gpu_parallel' attribute on the same statement");
        A->Matched = true;
        continue;
      }
    }
    ByBegin[A->Begin.getRawEncoding()] = A;
  }
  std::vector<Item> Items;
  std::map<const Stmt *, bool> Explicit;
  std::map<const Stmt *, const FunctionDecl *> FunctionOf;
  for (auto [S, Fn] : C.Loops) {
    FunctionOf[S] = Fn;
    auto It = ByNext.find(S->getBeginLoc().getRawEncoding());
    if (It == ByNext.end())
      continue;
    Item I;
    I.Ann = It->second;
    I.Ann->Matched = true;
    I.Loop = S;
    I.Clauses = I.Ann->Clauses;
    Explicit[S] = true;
    if (I.Ann->ClausesOk)
      Items.push_back(std::move(I));
  }
  for (FunctionDecl *FD : C.Functions) {
    Annotation *A = nullptr;
    for (SourceLocation L : {FD->getBeginLoc(), FD->getOuterLocStart()})
      if (!A) {
        if (auto It = ByNext.find(L.getRawEncoding()); It != ByNext.end())
          A = It->second;
        else if (auto It2 = ByBegin.find(L.getRawEncoding()); It2 != ByBegin.end())
          A = It2->second;
      }
    if (!A || A->Matched)
      continue;
    A->Matched = true;
    if (!A->ClausesOk)
      continue;
    std::vector<const Stmt *> Loops;
    outermostLoops(FD->getBody(), Loops);
    for (const Stmt *S : Loops) {
      if (Explicit.count(S))
        continue;
      Item I;
      I.Ann = A;
      I.Loop = S;
      I.Fn = FD;
      I.Automatic = true;
      I.Clauses = A->Clauses;
      Items.push_back(std::move(I));
    }
  }
  for (Annotation *A : Valid) {
    if (A->Matched)
      continue;
    std::string What;
    if (A->NextKind == tok::kw_while || A->NextKind == tok::kw_do)
      What = "'cluster::gpu_parallel' applies to 'for' loops, not to '" +
             std::string(tok::getKeywordSpelling(A->NextKind)) + "' loops";
    else
      What = "'cluster::gpu_parallel' must be placed before a 'for' loop or a function "
             "definition";
    error(A->NameLoc, What);
  }

  // Analyze in source order so that nesting inside an accepted loop is known.
  for (Item &I : Items) {
    std::tie(I.Begin, I.End) = statementOffsets(I.Loop, SM, Ctx.getLangOpts());
    if (!I.Fn)
      I.Fn = FunctionOf[I.Loop];
  }
  std::stable_sort(Items.begin(), Items.end(),
                   [](const Item &A, const Item &B) { return A.Begin < B.Begin; });
  LoopAnalyzer Analyzer(Ctx, Opts.Analysis);
  std::vector<const Item *> Accepted;
  for (Item &I : Items) {
    const Item *Outer = nullptr;
    for (const Item *A : Accepted)
      if (A->Begin <= I.Begin && I.End <= A->End)
        Outer = A;
    if (Outer) {
      I.Result.Reasons.push_back(
          {RejectKind::Nested,
           "the loop is inside the loop parallelized at line " +
               std::to_string(SM.getExpansionLineNumber(Outer->Loop->getBeginLoc())) +
               ", and runs serially within each of its iterations",
           {}, "", ""});
    } else {
      I.Result = Analyzer.analyze(I.Loop, I.Clauses, I.Fn);
    }
    if (I.Result.Accepted)
      I.GPU = emitKernel(Ctx, I.Loop, I.Result);
    decide(Ctx, I);
    if (I.Result.Accepted)
      Accepted.push_back(&I);
  }

  // Diagnostics in source order, each with its notes.
  std::stable_sort(Out.Diags.begin(), Out.Diags.end(),
                   [&](const PendingDiag &A, const PendingDiag &B) {
                     if (A.Loc.isInvalid() || B.Loc.isInvalid())
                       return A.Loc.isValid() && B.Loc.isInvalid();
                     return SM.isBeforeInTranslationUnit(SM.getFileLoc(A.Loc),
                                                         SM.getFileLoc(B.Loc));
                   });

  // Rewrite: blank every attribute, then replace the accepted loops.
  for (Annotation &A : Anns)
    FR.blankAttribute(A);
  for (const Item *I : Accepted) {
    FR.rewriteLoop(*I->Ann, I->Loop, I->Result, I->Clauses, I->GPU);
    if (I->GPU.Ok)
      Out.Kernels.push_back({I->GPU.Name, I->GPU.Source});
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
  return std::make_unique<PipelineConsumer>(CI, Opts, Out, Done);
}
