//===- LoopMatcher.cpp - Attributes to loops -------------------------------===//
//
// The token watcher records where each attribute ends and which token follows it; the AST gives
// every loop and function by the location of its first token. Matching is a lookup of one in the
// other, by raw location.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Detect/LoopMatcher.h"
#include "clustrix/AST/Instantiation.h"
#include "clustrix/AST/StatementEnd.h"
#include "clustrix/Detect/ClauseParser.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <map>
#include <set>

using namespace clang;
using namespace clustrix;

namespace {

/// Collects loops and function definitions by the location of their first token.
class Collector : public RecursiveASTVisitor<Collector> {
public:
  /// A template's loops run as the copies its instantiations hold.
  bool shouldVisitTemplateInstantiations() const { return true; }

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
    // A generic lambda's instantiations are specializations of its call operator, which the
    // lambda expression does not reach.
    if (FunctionTemplateDecl *FT = L->getDependentCallOperator())
      for (FunctionDecl *Spec : FT->specializations())
        R = R && TraverseDecl(Spec);
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
    if (FD->doesThisDeclarationHaveABody() && !isInstantiated(FD))
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

/// The attribute of a function definition: the one followed by, or starting at, its first
/// token.
Annotation *functionAttribute(const FunctionDecl *FD, const std::map<unsigned, Annotation *> &ByNext,
                              const std::map<unsigned, Annotation *> &ByBegin) {
  for (SourceLocation L : {FD->getBeginLoc(), FD->getOuterLocStart()}) {
    if (auto It = ByNext.find(L.getRawEncoding()); It != ByNext.end())
      return It->second;
    if (auto It = ByBegin.find(L.getRawEncoding()); It != ByBegin.end())
      return It->second;
  }
  return nullptr;
}

MatchedLoop matched(Annotation *A, const Stmt *S, const FunctionDecl *Fn, bool Automatic) {
  MatchedLoop L;
  L.Ann = A;
  L.Loop = S;
  L.Fn = Fn;
  L.Automatic = Automatic;
  L.Clauses = A->Clauses;
  return L;
}

} // namespace

void LoopMatcher::error(SourceLocation L, std::string Msg, std::vector<PendingFixIt> Fix) {
  Errors.push_back({DiagnosticsEngine::Error, L, std::move(Msg), std::move(Fix), {}});
}

std::vector<Annotation *> LoopMatcher::checkNamesAndClauses(std::vector<Annotation> &Anns) {
  static const llvm::StringRef Known[] = {"gpu_parallel"};
  std::vector<Annotation *> Valid;
  const SourceManager &SM = Ctx.getSourceManager();
  for (Annotation &A : Anns) {
    // System headers are never rewritten, and their function bodies are not even parsed for
    // the analysis: their attributes are ignored, as Clang ignores their warnings.
    if (SM.isInSystemHeader(SM.getExpansionLoc(A.Begin)))
      continue;
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
  return Valid;
}

std::vector<MatchedLoop> LoopMatcher::match(std::vector<Annotation> &Anns) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<Annotation *> Valid = checkNamesAndClauses(Anns);

  // Only the declarations of the files that hold an annotation (the main file, or a header
  // whose loops are then refused): walking every header's declarations costs as much as a
  // good part of the parse.
  Collector C;
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

  // Explicit attributes on loops.
  std::vector<MatchedLoop> Loops;
  std::set<const Stmt *> Explicit;
  std::map<const Stmt *, const FunctionDecl *> FunctionOf;
  // The copies of a template's loops in its instantiations start where the loop does.
  std::map<unsigned, std::vector<LoopInstance>> InstancesAt;
  for (auto [S, Fn] : C.Loops)
    if (Fn && isInstantiated(Fn))
      InstancesAt[S->getBeginLoc().getRawEncoding()].push_back({S, Fn});
  for (auto [S, Fn] : C.Loops) {
    if (Fn && isInstantiated(Fn))
      continue;
    FunctionOf[S] = Fn;
    auto It = ByNext.find(S->getBeginLoc().getRawEncoding());
    if (It == ByNext.end())
      continue;
    It->second->Matched = true;
    Explicit.insert(S);
    if (It->second->ClausesOk)
      Loops.push_back(matched(It->second, S, nullptr, false));
  }
  // Automatic mode: the outermost loops of an annotated function that have no attribute.
  for (FunctionDecl *FD : C.Functions) {
    Annotation *A = functionAttribute(FD, ByNext, ByBegin);
    if (!A || A->Matched)
      continue;
    A->Matched = true;
    if (!A->ClausesOk)
      continue;
    std::vector<const Stmt *> Outermost;
    outermostLoops(FD->getBody(), Outermost);
    for (const Stmt *S : Outermost)
      if (!Explicit.count(S))
        Loops.push_back(matched(A, S, FD, true));
  }
  // What is left stands where no attribute may.
  for (Annotation *A : Valid) {
    if (A->Matched)
      continue;
    if (A->NextKind == tok::kw_while || A->NextKind == tok::kw_do)
      error(A->NameLoc, "'cluster::gpu_parallel' applies to 'for' loops, not to '" +
                            std::string(tok::getKeywordSpelling(A->NextKind)) + "' loops");
    else
      error(A->NameLoc, "'cluster::gpu_parallel' must be placed before a 'for' loop or a "
                        "function definition");
  }

  for (MatchedLoop &L : Loops) {
    std::tie(L.Begin, L.End) = statementOffsets(L.Loop, SM, Ctx.getLangOpts());
    L.File = SM.getFileID(SM.getExpansionLoc(L.Loop->getBeginLoc()));
    if (!L.Fn)
      L.Fn = FunctionOf[L.Loop];
    if (L.Fn && isTemplatePattern(L.Fn)) {
      L.InTemplate = true;
      if (auto It = InstancesAt.find(L.Loop->getBeginLoc().getRawEncoding());
          It != InstancesAt.end())
        L.Instances = It->second;
    }
  }
  // In translation-unit order, so that a loop inside an accepted one comes after it.
  std::stable_sort(Loops.begin(), Loops.end(), [&](const MatchedLoop &A, const MatchedLoop &B) {
    return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(A.Loop->getBeginLoc()),
                                        SM.getExpansionLoc(B.Loop->getBeginLoc()));
  });
  return Loops;
}

const MatchedLoop *NestingTracker::enclosing(const MatchedLoop &L) const {
  const MatchedLoop *Outer = nullptr;
  for (const MatchedLoop *A : Accepted)
    if (A->File == L.File && A->Begin <= L.Begin && L.End <= A->End)
      Outer = A;
  return Outer;
}
