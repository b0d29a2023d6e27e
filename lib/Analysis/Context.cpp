//===- Context.cpp - Where the loop is, and what moving it would change ----===//
//
// The rewriter moves the loop's body into functions of its own and writes its text more than
// once. Loops where that changes what the program means are refused: in templates (the body
// is dependent code), inside macros (the text cannot be replaced), in included files (only the
// main file is rewritten), in constexpr functions (the runtime call cannot be constant
// evaluated), and loops whose text expands __COUNTER__ (each copy would count anew).
//
//===----------------------------------------------------------------------===//
#include "Phases.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace clustrix {
namespace analysis {

namespace {

/// Whether Loc comes from an expansion of __COUNTER__, directly or through other macros.
bool fromCounter(SourceLocation Loc, const SourceManager &SM, const LangOptions &LO) {
  for (unsigned Depth = 0; Loc.isMacroID() && Depth < 64; ++Depth) {
    if (Lexer::getImmediateMacroName(Loc, SM, LO) == "__COUNTER__")
      return true;
    Loc = SM.getImmediateMacroCallerLoc(Loc);
  }
  return false;
}

const Expr *findCounter(const Stmt *S, const SourceManager &SM, const LangOptions &LO) {
  if (!S)
    return nullptr;
  if (const auto *IL = dyn_cast<IntegerLiteral>(S); IL && fromCounter(IL->getLocation(), SM, LO))
    return IL;
  for (const Stmt *C : S->children())
    if (const Expr *E = findCounter(C, SM, LO))
      return E;
  return nullptr;
}

/// Whether F is constexpr or consteval as written: lambdas are constexpr implicitly when they
/// can be, which a loop rewritten into runtime calls only makes them stop being.
bool writtenConstexpr(const FunctionDecl *F, const SourceManager &SM, const LangOptions &LO) {
  if (F->isConsteval())
    return true;
  if (!F->isConstexpr())
    return false;
  const auto *MD = dyn_cast<CXXMethodDecl>(F);
  if (!MD || !MD->getParent()->isLambda() || !F->getBody())
    return true;
  CharSourceRange Head =
      CharSourceRange::getCharRange(F->getBeginLoc(), F->getBody()->getBeginLoc());
  StringRef Text = Lexer::getSourceText(Head, SM, LO);
  return Text.contains("constexpr");
}

} // namespace

bool checkContext(ASTContext &Ctx, const Stmt *Loop, const FunctionDecl *Enclosing,
                  RejectLog &Log) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (Enclosing && (Enclosing->isDependentContext() || Enclosing->isTemplateInstantiation())) {
    Log.add(RejectKind::Template,
            "loops in templates are not supported; call a non-template function from the "
            "template");
    return false;
  }
  if (Loop->getBeginLoc().isMacroID()) {
    Log.add(RejectKind::Macro, "the loop is written inside a macro, which cannot be rewritten");
    return false;
  }
  if (!SM.isWrittenInMainFile(SM.getExpansionLoc(Loop->getBeginLoc()))) {
    Log.add(RejectKind::NotInMainFile,
            "the loop is in an included file; only the main file is rewritten");
    return false;
  }
  if (Enclosing && writtenConstexpr(Enclosing, SM, Ctx.getLangOpts())) {
    Log.add(RejectKind::Context,
            "the loop is in " + std::string(Enclosing->isConsteval() ? "consteval" : "constexpr") +
                " function '" + Enclosing->getNameAsString() +
                "', and the runtime call that replaces it cannot be evaluated at compile time",
            Enclosing->getLocation(), "declared here");
    return false;
  }
  if (const Expr *C = findCounter(Loop, SM, Ctx.getLangOpts())) {
    Log.add(RejectKind::Context,
            "the loop's text expands __COUNTER__, which would count again in each copy of the "
            "body the rewriter writes",
            C->getBeginLoc(), "expanded here");
    return false;
  }
  return true;
}

} // namespace analysis
} // namespace clustrix
