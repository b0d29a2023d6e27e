//===- FileRewriter.cpp - Rewrite the main file ----------------------------===//
//
// Edits are collected per loop and applied in file order; a loop nested in one already replaced
// is dropped with it. Every generated identifier starts with `__clx_` and lives in the block that
// replaces its loop, so loops never clash with each other or with user code.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Rewrite/FileRewriter.h"
#include "clustrix/AST/Spelling.h"
#include "clustrix/AST/StatementEnd.h"
#include "clustrix/Rewrite/AheadOfTime.h"
#include "clustrix/Rewrite/CHostCodeGen.h"
#include "clustrix/Rewrite/HostCodeGen.h"
#include "clustrix/Support/Text.h"

#include "clang/AST/Expr.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>

using namespace clang;
using namespace clustrix;

FileRewriter::FileRewriter(const SourceManager &SM, const LangOptions &LO, FileID File,
                           std::string PresumedName)
    : SM(SM), LO(LO), File(File), PresumedName(std::move(PresumedName)),
      Clean(SM.getBufferData(File).str()) {}

void FileRewriter::blankAttribute(const Annotation &A) {
  CharSourceRange R = SM.getExpansionRange(SourceRange(A.Begin, A.End));
  if (SM.getFileID(R.getBegin()) != File)
    return;
  unsigned B = SM.getFileOffset(R.getBegin());
  SourceLocation EndLoc =
      R.isTokenRange() ? Lexer::getLocForEndOfToken(R.getEnd(), 0, SM, LO) : R.getEnd();
  unsigned E = SM.getFileOffset(EndLoc);
  if (E <= B || E > Clean.size())
    return;
  // Keep newlines so line numbers stay; blank everything else.
  for (unsigned I = B; I < E; ++I)
    if (Clean[I] != '\n')
      Clean[I] = ' ';
  Changed = true;
}

std::string FileRewriter::cleanText(unsigned Begin, unsigned End) const {
  return Clean.substr(Begin, End - Begin);
}

std::string FileRewriter::lineDirective(unsigned Offset) const {
  SourceLocation L = SM.getComposedLoc(File, Offset);
  unsigned Line = SM.getSpellingLineNumber(L);
  unsigned Col = SM.getSpellingColumnNumber(L);
  std::string S = "\n#line " + std::to_string(Line) + " " + cStringLiteral(PresumedName) + "\n";
  S.append(Col > 0 ? Col - 1 : 0, ' ');
  return S;
}

void FileRewriter::rewriteLoop(const Stmt *Loop, const LoopResult &R,
                               const LoopClauses &C, const Kernel &K,
                               const FunctionDecl *Enclosing) {
  auto [LoopBegin, LoopEnd] = statementOffsets(Loop, SM, LO);
  // Only the loop's own text is replaced: its attribute was blanked (blankAttribute), and
  // what lies between the two (a preprocessor conditional around the attribute, `#endif`)
  // stays as written.
  Changed = true;
  NeedsRuntime = true;
  if (!LO.CPlusPlus) {
    // C: the body becomes a file-scope function before the enclosing one (CHostCodeGen.h). The
    // kernel runs through NVRTC; nvcc compiles a .c file as C, with no ahead-of-time block.
    CHostCodeGen Gen(*this, Enclosing, Loop, R, C, K, LoopBegin, LoopEnd);
    // A macro the loop uses as it is defined inside the function (or redefined since) is
    // defined so for the outlined function, and restored after it.
    std::string Before, After;
    macrosAsAt(Loop->getSourceRange(), Gen.outlineOffset(), Before, After);
    Edits.push_back({Gen.outlineOffset(), 0,
                     shielded(Before.empty() ? Gen.outlined()
                                             : "\n" + Before + Gen.outlined() + After +
                                                   lineDirective(Gen.outlineOffset()),
                              LoopBegin, LoopEnd, Gen.outlineOffset())});
    Edits.push_back({LoopBegin, LoopEnd - LoopBegin,
                     shielded(Gen.block(), LoopBegin, LoopEnd, LoopBegin)});
    return;
  }
  HostCodeGen Gen(*this, Loop, R, C, K, LoopBegin, LoopEnd);
  Edits.push_back({LoopBegin, LoopEnd - LoopBegin,
                   shielded(Gen.generate(), LoopBegin, LoopEnd, LoopBegin)});
  if (K.Ok)
    AheadOfTime.push_back({K.Name, K.Source});
}

void FileRewriter::rewriteTemplateLoop(const Stmt *Pattern,
                                       const std::vector<Instance> &Instances) {
  auto [LoopBegin, LoopEnd] = statementOffsets(Pattern, SM, LO);
  Changed = true;
  NeedsRuntime = true;
  // The copies start where the pattern does, so each block replaces the same text; the branches
  // not taken are discarded statements, never instantiated.
  std::string S;
  for (const Instance &I : Instances) {
    S += (S.empty() ? "if constexpr (" : " else if constexpr (") + I.Condition + ") ";
    HostCodeGen Gen(*this, I.Loop, *I.Result, *I.Clauses, *I.GPU, LoopBegin, LoopEnd);
    S += Gen.generate();
    if (I.GPU->Ok)
      AheadOfTime.push_back({I.GPU->Name, I.GPU->Source});
  }
  S += " else {" + lineDirective(LoopBegin) + cleanText(LoopBegin, LoopEnd) + "\n}" +
       lineDirective(LoopEnd);
  Edits.push_back({LoopBegin, LoopEnd - LoopBegin, shielded(S, LoopBegin, LoopEnd, LoopBegin)});
}

void FileRewriter::openResidencyScope(const ResidencyScope &Scope) {
  unsigned Begin = statementOffsets(Scope.First, SM, LO).first;
  unsigned End = statementOffsets(Scope.Last, SM, LO).second;
  // C: the analysis proved that nothing leaves the statements but their end.
  Edits.push_back({Begin, 0,
                   LO.CPlusPlus ? "{ ::clustrix::rt::ResidencyScope __clx_residency; "
                                : "{ clustrix_enter_residency(); "});
  Edits.push_back({End, 0, LO.CPlusPlus ? " }" : " clustrix_leave_residency(); }"});
  // The elements a host statement reads or writes are synchronized just before it (the
  // analysis proved each spelled in the file, with no side effect).
  for (const ResidencyScope::HostAccess &H : Scope.Accesses) {
    std::string Sync;
    // Where the statement is, for the runtime's error if a lost device held the element.
    std::string Where = cStringLiteral(
        PresumedName + ":" +
        std::to_string(SM.getExpansionLineNumber(H.Before->getBeginLoc())));
    auto Add = [&](const ArraySubscriptExpr *A, const char *Cxx, const char *C) {
      std::string Text =
          Lexer::getSourceText(CharSourceRange::getTokenRange(A->getSourceRange()), SM, LO)
              .str();
      Sync += std::string(LO.CPlusPlus ? Cxx : C) + "(&(" + Text + "), sizeof(" + Text + "), " +
              Where + "); ";
    };
    for (const ArraySubscriptExpr *A : H.Reads)
      Add(A, "::clustrix::rt::hostReads", "clustrix_host_reads");
    for (const ArraySubscriptExpr *A : H.Writes)
      Add(A, "::clustrix::rt::hostWrites", "clustrix_host_writes");
    Edits.push_back({statementOffsets(H.Before, SM, LO).first, 0, Sync});
  }
  Changed = true;
  NeedsRuntime = true;
}

void FileRewriter::declarePrivateMembers(const LoopResult &R, const FunctionDecl *Outer) {
  if (R.PrivateMembers.empty())
    return;
  unsigned At = SM.getFileOffset(SM.getExpansionLoc(Outer->getBeginLoc()));
  std::string Text;
  for (const FieldDecl *FD : R.PrivateMembers) {
    std::string Why, Def = privateMemberDefinition(FD, nullptr, Outer, Why);
    if (Declared.insert(Def).second)
      Text += Def;
  }
  if (Text.empty())
    return;
  Edits.push_back({At, 0, "\n/* clustrix: members this function's loops reach */\n" + Text +
                              lineDirective(At)});
  Changed = true;
}

/// `#pragma push_macro("Name")` and `#undef Name`, which pop() undoes.
static std::string pushAndUndef(const std::string &Name) {
  return "#pragma push_macro(\"" + Name + "\")\n#undef " + Name + "\n";
}
static std::string pop(const std::string &Name) {
  return "#pragma pop_macro(\"" + Name + "\")\n";
}

/// The identifiers of Text, lexed raw.
static std::set<std::string> identifiersOf(const std::string &Text, const LangOptions &LO) {
  std::set<std::string> Out;
  Lexer L(SourceLocation(), LO, Text.data(), Text.data(), Text.data() + Text.size());
  Token T;
  while (!L.LexFromRawLexer(T))
    if (T.is(tok::raw_identifier))
      Out.insert(T.getRawIdentifier().str());
  return Out;
}

/// The text of the runtime's public headers, embedded at build time.
static StringRef runtimeHeaderText() {
  static const char Text[] =
#include "RuntimeHeaders.inc"
      ;
  return StringRef(Text, sizeof(Text) - 1);
}

static LangOptions runtimeHeaderLangOpts() {
  LangOptions LO;
  LO.CPlusPlus = LO.CPlusPlus17 = true;
  return LO;
}

/// The names the runtime's public headers use, outside comments: what generated code takes
/// from them (fields, functions, enumerators), and what a user's macro must not replace.
static const std::set<std::string> &runtimeNames() {
  static const std::set<std::string> Names =
      identifiersOf(runtimeHeaderText().str(), runtimeHeaderLangOpts());
  return Names;
}

/// The macros the runtime's public headers define (`CLUSTRIX_RT_ABI_VERSION`): defined where a
/// user included a runtime header before the generated code, they are the runtime's own, which
/// the generated code uses as such.
static const std::set<std::string> &runtimeMacros() {
  static const std::set<std::string> Names = [] {
    StringRef Text = runtimeHeaderText();
    Lexer L(SourceLocation(), runtimeHeaderLangOpts(), Text.begin(), Text.begin(), Text.end());
    std::set<std::string> Out;
    // `#`, `define`, NAME: the hash first on its line, the other two on the same line.
    Token T;
    bool AfterHash = false, AfterDefine = false;
    while (!L.LexFromRawLexer(T)) {
      bool SameLine = !T.isAtStartOfLine(), Identifier = T.is(tok::raw_identifier);
      if (AfterDefine && SameLine && Identifier)
        Out.insert(T.getRawIdentifier().str());
      AfterDefine = AfterHash && SameLine && Identifier && T.getRawIdentifier() == "define";
      AfterHash = !SameLine && T.is(tok::hash);
    }
    return Out;
  }();
  return Names;
}

std::string FileRewriter::shielded(const std::string &Generated, unsigned Begin, unsigned End,
                                   unsigned At) const {
  if (!PP)
    return Generated;
  bool Invalid = false;
  StringRef Buf = SM.getBufferData(File, &Invalid);
  if (Invalid || End > Buf.size() || End < Begin)
    return Generated;
  std::set<std::string> User = identifiersOf(Buf.slice(Begin, End).str(), LO);
  SourceLocation Where = SM.getComposedLoc(File, At);
  std::string Before, After;
  const std::set<std::string> &Runtime = runtimeNames();
  for (const std::string &Name : identifiersOf(Generated, LO)) {
    // Only the runtime's own names: a name the generated code takes from the user's program
    // (a clause's count, a type spelled as declared) keeps its macro.
    if (User.count(Name) || Name.rfind("__clx", 0) == 0 || !Runtime.count(Name) ||
        runtimeMacros().count(Name))
      continue;
    IdentifierInfo *II = PP->getIdentifierInfo(Name);
    if (!II || !II->hadMacroDefinition() || !PP->getMacroDefinitionAtLoc(II, Where))
      continue;
    Before += pushAndUndef(Name);
    After += pop(Name);
  }
  if (Before.empty())
    return Generated;
  return "\n" + Before + Generated + "\n" + After + lineDirective(At);
}

void FileRewriter::macrosAsAt(SourceRange Range, unsigned At, std::string &Before,
                              std::string &After) const {
  if (!PP)
    return;
  CharSourceRange CR = SM.getExpansionRange(Range);
  auto [F, Begin] = SM.getDecomposedLoc(CR.getBegin());
  auto [EF, End] = SM.getDecomposedLoc(CR.getEnd());
  bool Invalid = false;
  StringRef Buf = SM.getBufferData(F, &Invalid);
  if (Invalid || F != EF || F != File)
    return;
  End += Lexer::MeasureTokenLength(CR.getEnd(), SM, LO);
  SourceLocation Target = SM.getComposedLoc(File, At);
  std::set<std::string> Seen;
  std::vector<std::pair<const IdentifierInfo *, SourceLocation>> Work;
  Lexer L(SM.getLocForStartOfFile(F), LO, Buf.begin(), Buf.begin() + Begin, Buf.end());
  Token T;
  while (!L.LexFromRawLexer(T) && SM.getFileOffset(T.getLocation()) < End)
    if (T.is(tok::raw_identifier))
      Work.push_back({PP->getIdentifierInfo(T.getRawIdentifier()), T.getLocation()});
  while (!Work.empty()) {
    auto [II, Use] = Work.back();
    Work.pop_back();
    if (!II || !Seen.insert(II->getName().str()).second)
      continue;
    const MacroInfo *Here = PP->getMacroDefinitionAtLoc(II, Use).getMacroInfo();
    const MacroInfo *There = PP->getMacroDefinitionAtLoc(II, Target).getMacroInfo();
    if (Here == There)
      continue;
    std::string Name = II->getName().str();
    Before += pushAndUndef(Name);
    After = pop(Name) + After;
    if (!Here)
      continue;
    CharSourceRange Def = CharSourceRange::getTokenRange(Here->getDefinitionLoc(),
                                                         Here->getDefinitionEndLoc());
    Before += "#define " + Lexer::getSourceText(Def, SM, LO).str() + "\n";
    for (const Token &MT : Here->tokens())
      if (const IdentifierInfo *TI = MT.getIdentifierInfo())
        Work.push_back({TI, Use});
  }
}

void FileRewriter::setSplit(unsigned Split, unsigned TextEnd) {
  if (TextEnd < Clean.size())
    Clean.resize(TextEnd);
  RuntimeAt = std::min<unsigned>(Split, Clean.size());
}

std::string FileRewriter::result() const {
  // Stable: the outlined functions of one C function's loops stay in the loops' order; the
  // runtime's header goes first among the edits at its place.
  std::vector<Edit> Sorted;
  if (NeedsRuntime) {
    // The runtime's header uses its own names (`T`, `N`, `Lo`): a user's macro with one of them
    // defined where the header goes (`-DN=1000`, an -include file's, or a `#define` before the
    // split) is kept out of it, and restored after it. Reserved names (`__cplusplus`,
    // `_GNU_SOURCE`) configure it and the system headers: they stay, as do macros of system
    // headers and the runtime's own.
    SourceLocation At = SM.getComposedLoc(File, RuntimeAt);
    std::vector<std::string> User;
    if (PP)
      for (const auto &[II, State] : PP->macros()) {
        if (II->getName().starts_with("_") || !runtimeNames().count(II->getName().str()) ||
            runtimeMacros().count(II->getName().str()))
          continue;
        const MacroInfo *MI = PP->getMacroDefinitionAtLoc(II, At).getMacroInfo();
        SourceLocation D = MI ? MI->getDefinitionLoc() : SourceLocation();
        if (D.isValid() && (SM.isWrittenInCommandLineFile(D) ||
                            (!SM.isWrittenInBuiltinFile(D) && !SM.isInSystemHeader(D))))
          User.push_back(II->getName().str());
      }
    std::sort(User.begin(), User.end());
    std::string Head;
    for (const std::string &M : User)
      Head += pushAndUndef(M);
    Head += std::string("#include <clustrix/") + (LO.CPlusPlus ? "Runtime.h" : "runtime_c.h") +
            ">\n";
    for (const std::string &M : User)
      Head += pop(M);
    Head += "#line " + std::to_string(SM.getSpellingLineNumber(At)) + " " +
            cStringLiteral(PresumedName) + "\n";
    Sorted.push_back({RuntimeAt, 0, std::move(Head)});
  }
  Sorted.insert(Sorted.end(), Edits.begin(), Edits.end());
  std::stable_sort(Sorted.begin(), Sorted.end(),
                   [](const Edit &A, const Edit &B) { return A.Offset < B.Offset; });
  std::string Out;
  unsigned Pos = 0;
  for (const Edit &E : Sorted) {
    if (E.Offset < Pos)
      continue; // nested in an earlier replacement
    Out += Clean.substr(Pos, E.Offset - Pos);
    Out += E.Text;
    Pos = E.Offset + E.Length;
  }
  Out += Clean.substr(Pos);
  // An included file's kernels are static: several translation units include them.
  Out += aheadOfTimeBlock(AheadOfTime, /*Shared=*/File != SM.getMainFileID());
  return Out;
}
