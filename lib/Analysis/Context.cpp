//===- Context.cpp - Where the loop is, and what moving it would change ----===//
//
// The rewriter moves the loop's body into functions of its own and writes its text more than
// once. Loops where that changes what the program means are refused: in templates (the body
// is dependent code), inside macros (the text cannot be replaced), in included files (only the
// main file is rewritten), in constexpr functions (the runtime call cannot be constant
// evaluated), loops whose text expands __COUNTER__ (each copy would count anew), and loops
// whose text holds a preprocessor directive the rewrite would drop or leave unbalanced.
//
//===----------------------------------------------------------------------===//
#include "Phases.h"

#include "clustrix/AST/LoopNest.h"
#include "clustrix/AST/StatementEnd.h"
#include "clustrix/Support/Text.h"

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

/// Why the loop's text cannot be replaced whole, or empty: the rewrite replaces the text from
/// the `for` to the end of the loop with a block that copies the body and spells the header,
/// so a conditional directive that opens or closes outside that text would lose its partner,
/// and any directive in the header would be dropped. Balanced directives in the body travel
/// with it. Loc gets the directive's place.
std::string directiveProblem(const Stmt *Loop, const SourceManager &SM, const LangOptions &LO,
                             SourceLocation &Loc) {
  auto [Begin, End] = statementOffsets(Loop, SM, LO);
  const Stmt *Body = loopBody(Loop);
  FileID File = SM.getFileID(SM.getExpansionLoc(Loop->getBeginLoc()));
  unsigned BodyBegin =
      Body ? SM.getFileOffset(SM.getExpansionLoc(Body->getBeginLoc())) : End;
  bool Invalid = false;
  StringRef Buf = SM.getBufferData(File, &Invalid);
  if (Invalid || End > Buf.size() || Begin >= End)
    return "";
  Lexer L(SM.getLocForStartOfFile(File), LO, Buf.begin(), Buf.begin() + Begin,
          Buf.begin() + End);
  int Depth = 0;
  Token T;
  bool More = true;
  while (More) {
    More = !L.LexFromRawLexer(T);
    if (T.is(tok::eof))
      break;
    if (!T.is(tok::hash) || !T.isAtStartOfLine())
      continue;
    SourceLocation HashLoc = T.getLocation();
    unsigned At = SM.getFileOffset(HashLoc);
    Token Name;
    L.LexFromRawLexer(Name);
    StringRef D = Name.is(tok::raw_identifier) ? Name.getRawIdentifier() : StringRef();
    Loc = HashLoc;
    if (At < BodyBegin)
      return "the loop's header holds a '#" + D.str() +
             "' directive, which the rewritten header would drop";
    if (D == "if" || D == "ifdef" || D == "ifndef") {
      ++Depth;
    } else if (D == "else" || D == "elif" || D == "elifdef" || D == "elifndef" ||
               D == "endif") {
      if (Depth == 0)
        return "the loop's text holds '#" + D.str() +
               "' of a conditional opened before the loop, which replacing the loop would leave "
               "unbalanced";
      if (D == "endif")
        --Depth;
    }
  }
  if (Depth > 0)
    return "the loop's text opens a preprocessor conditional that it does not close, which "
           "replacing the loop would leave unbalanced";
  return "";
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
                  const AnalysisOptions &Opts, RejectLog &Log) {
  const SourceManager &SM = Ctx.getSourceManager();
  // A template's loop is analysed in each instantiation (clustrix/AST/Instantiation.h); its
  // definition, where types and values are not known, never is.
  if (Enclosing && Enclosing->isDependentContext()) {
    Log.add(RejectKind::Template, "the loop's types are not known in the template's definition");
    return false;
  }
  if (Loop->getBeginLoc().isMacroID()) {
    Log.add(RejectKind::Macro, "the loop is written inside a macro, which cannot be rewritten");
    return false;
  }
  if (std::string Why = whyFileNotRewritten(SM, SM.getExpansionLoc(Loop->getBeginLoc()), Opts);
      !Why.empty()) {
    Log.add(RejectKind::NotInMainFile, Why);
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
  SourceLocation DirectiveLoc;
  if (std::string Why = directiveProblem(Loop, SM, Ctx.getLangOpts(), DirectiveLoc);
      !Why.empty()) {
    Log.add(RejectKind::Context, Why, DirectiveLoc, "directive here");
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

std::string clustrix::whyFileNotRewritten(const SourceManager &SM, SourceLocation Loc,
                                          const AnalysisOptions &Opts) {
  if (SM.isWrittenInMainFile(Loc))
    return "";
  OptionalFileEntryRef FE = SM.getFileEntryRefForID(SM.getFileID(Loc));
  std::string Name = FE ? FE->getName().str() : "<unknown>";
  if (SM.isInSystemHeader(Loc))
    return "the loop is in system header '" + Name + "', which is never rewritten";
  if (!FE)
    return "the loop is in a file that has no name on disk";
  if (Opts.ReadBeforeAnalysis && Opts.ReadBeforeAnalysis->count(&FE->getFileEntry()))
    return "the loop is in '" + Name +
           "', which the compile read before the analysis began (the plugin reads the main "
           "file's leading #include lines first; -fplugin-arg-clustrix-parse=twice rewrites it)";
  if (!Opts.RewriteHeaders)
    return "the loop is in included file '" + Name +
           "'; clustrix-rewrite rewrites included files only with --out-dir";
  if (!Opts.ProjectRoot.empty()) {
    if (!pathUnder(FE->getName(), Opts.ProjectRoot))
      return "the loop is in '" + Name + "', outside the project root '" + Opts.ProjectRoot +
             "' (option project-root)";
  }
  return "";
}
