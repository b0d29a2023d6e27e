//===- Decision.cpp - From analysis result to decision ---------------------===//
//
// The texts of every decision: the accepted remark, the refusal with its notes and fix-its, the
// refusal of a loop nested in a parallelized one, and the report record.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Decide/Decision.h"
#include "clustrix/AST/Spelling.h"
#include "clustrix/Support/Text.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;
using namespace clustrix;

std::string clustrix::acceptedText(const LoopResult &R, const LoopClauses &C, bool Automatic) {
  std::string S = "loop parallelized across devices";
  if (Automatic)
    S += " (automatic mode)";
  S += ": schedule " + spelling(C.Schedule).str();
  if (C.Collapse > 1)
    S += ", collapse " + std::to_string(C.Collapse);
  S += ", level " + std::to_string(R.Level) + " (score " + std::to_string(R.Score) + ")";
  std::vector<std::string> In, Outs, Reds, Apps, Guards, Privs;
  for (const Region &G : R.Regions) {
    std::string Name = displayMemberNames(G.Name);
    if (G.Scalar) {
      Guards.push_back(Name);
      continue;
    }
    if (G.Access & RegionRead)
      In.push_back(Name);
    if (G.Access & RegionWrite)
      Outs.push_back(Name);
  }
  for (const Reduction &X : R.Reductions)
    Reds.push_back(X.Name + " (" + X.Op + ")");
  for (const Append &X : R.Appends)
    Apps.push_back(X.Name);
  for (const Private &X : R.Privates)
    Privs.push_back(X.Name);
  if (!In.empty())
    S += "; in: " + joinNames(In);
  if (!Outs.empty())
    S += "; out: " + joinNames(Outs);
  if (!Reds.empty())
    S += "; reduce: " + joinNames(Reds);
  if (!Apps.empty())
    S += "; ordered append: " + joinNames(Apps);
  if (!Privs.empty())
    S += "; private: " + joinNames(Privs);
  if (!Guards.empty())
    S += "; checked against writes through pointers: " + joinNames(Guards);
  return S;
}

LoopResult Decider::refuseNested(const MatchedLoop &Outer) const {
  LoopResult R;
  R.Reasons.push_back(
      {RejectKind::Nested,
       "the loop is inside the loop parallelized at line " +
           std::to_string(SM.getExpansionLineNumber(Outer.Loop->getBeginLoc())) +
           ", and runs serially within each of its iterations",
       {}, "", ""});
  return R;
}

PendingDiag Decider::refusal(const MatchedLoop &L, const LoopResult &R,
                             DiagnosticsEngine::Level Level) const {
  SourceLocation ForLoc = L.Loop->getBeginLoc();
  PendingDiag D{Level, ForLoc, "loop not parallelized: " + R.Reasons.front().Message, {}, {}};
  const Annotation *Ann = L.Ann;
  for (size_t K = 0; K < R.Reasons.size(); ++K) {
    const RejectReason &X = R.Reasons[K];
    if (K > 0)
      D.Notes.push_back({DiagnosticsEngine::Note, X.Loc.isValid() ? X.Loc : ForLoc,
                         "also: " + X.Message, {}, {}});
    else if (X.Loc.isValid() && !X.Note.empty())
      D.Notes.push_back({DiagnosticsEngine::Note, X.Loc, X.Note, {}, {}});
    if (X.DetailLoc.isValid() && !X.Detail.empty())
      D.Notes.push_back({DiagnosticsEngine::Note, X.DetailLoc, X.Detail, {}, {}});
    // A clause to add: at the attribute, which automatic mode has on the function instead.
    if (X.Suggestion.empty() || !Ann || L.Automatic)
      continue;
    PendingDiag N{DiagnosticsEngine::Note, Ann->NameLoc,
                  "add '" + X.Suggestion + "' to the attribute", {}, {}};
    if (Ann->HasArgs && Ann->ArgsEnd.isValid())
      N.FixIts.push_back({Ann->ArgsEnd, 0, (Ann->Args.empty() ? "" : ", ") + X.Suggestion});
    else if (!Ann->NameLoc.isMacroID())
      N.FixIts.push_back(
          {Ann->NameLoc.getLocWithOffset(Ann->Name.size()), 0, "(" + X.Suggestion + ")"});
    D.Notes.push_back(std::move(N));
  }
  return D;
}

LoopRecord Decider::record(const MatchedLoop &L, const LoopResult &R, const GpuForm &GPU) const {
  LoopRecord Rec;
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(L.Loop->getBeginLoc()));
  Rec.File = P.isValid() ? P.getFilename() : "";
  Rec.Line = P.isValid() ? P.getLine() : 0;
  Rec.Column = P.isValid() ? P.getColumn() : 0;
  Rec.Function = L.Fn ? L.Fn->getQualifiedNameAsString() : "";
  Rec.Instantiation = L.Instantiation;
  Rec.Automatic = L.Automatic;
  Rec.Accepted = R.Accepted;
  Rec.Regions = R.Regions;
  Rec.Reductions = R.Reductions;
  Rec.Appends = R.Appends;
  Rec.Privates = R.Privates;
  Rec.Schedule = spelling(L.Clauses.Schedule).str();
  Rec.Collapse = unsigned(L.Clauses.Collapse);
  Rec.Score = R.Score;
  Rec.Level = R.Level;
  Rec.WorkPerIter = R.WorkPerIter;
  Rec.GPU = GPU.Ok;
  Rec.GPUReason = GPU.Reason;
  for (const RejectReason &X : R.Reasons) {
    ReportReason RR{rejectKindName(X.Kind), X.Message, X.Suggestion, 0, 0};
    if (X.Loc.isValid()) {
      PresumedLoc XP = SM.getPresumedLoc(SM.getExpansionLoc(X.Loc));
      if (XP.isValid())
        RR.Line = XP.getLine(), RR.Column = XP.getColumn();
    }
    Rec.Reasons.push_back(std::move(RR));
  }
  return Rec;
}

/// The note of a template's loop that says which instantiation a decision is about, as Clang's
/// own "in instantiation of ... requested here".
static void noteInstantiation(const MatchedLoop &L, PendingDiag &D) {
  if (L.Instantiation.empty())
    return;
  D.Notes.push_back({DiagnosticsEngine::Note,
                     L.InstantiatedAt.isValid() ? L.InstantiatedAt : L.Loop->getBeginLoc(),
                     "in instantiation of '" + L.Instantiation + "' requested here", {}, {}});
}

void Decider::decide(const MatchedLoop &L, const LoopResult &R, const GpuForm &GPU,
                     std::vector<LoopRecord> &Records, std::vector<PendingDiag> &Diags) const {
  Records.push_back(record(L, R, GPU));
  SourceLocation ForLoc = L.Loop->getBeginLoc();
  if (R.Accepted) {
    if (!Opts.Remarks)
      return;
    PendingDiag D{DiagnosticsEngine::Remark, ForLoc, acceptedText(R, L.Clauses, L.Automatic),
                  {}, {}};
    if (!GPU.Ok)
      D.Notes.push_back({DiagnosticsEngine::Note, ForLoc,
                         "no GPU form, the loop runs on CPU devices: " + GPU.Reason, {}, {}});
    noteInstantiation(L, D);
    Diags.push_back(std::move(D));
    return;
  }
  // Automatic mode and `disable` refuse on purpose: a remark, shown with the remarks.
  bool Quiet = L.Automatic || R.Reasons.front().Kind == RejectKind::Disabled;
  DiagnosticsEngine::Level Level = DiagnosticsEngine::Warning;
  if (Quiet) {
    if (!Opts.Remarks)
      return;
    Level = DiagnosticsEngine::Remark;
  } else {
    switch (Opts.Refusals) {
    case RefusalSeverity::Warning: Level = DiagnosticsEngine::Warning; break;
    case RefusalSeverity::Error: Level = DiagnosticsEngine::Error; break;
    case RefusalSeverity::Remark: Level = DiagnosticsEngine::Remark; break;
    case RefusalSeverity::Ignore: return;
    }
  }
  PendingDiag D = refusal(L, R, Level);
  noteInstantiation(L, D);
  Diags.push_back(std::move(D));
}
