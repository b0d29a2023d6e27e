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
    Edits.push_back({Gen.outlineOffset(), 0, Gen.outlined()});
    Edits.push_back({LoopBegin, LoopEnd - LoopBegin, Gen.block()});
    return;
  }
  HostCodeGen Gen(*this, Loop, R, C, K, LoopBegin, LoopEnd);
  Edits.push_back({LoopBegin, LoopEnd - LoopBegin, Gen.generate()});
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
  Edits.push_back({LoopBegin, LoopEnd - LoopBegin, S});
}

void FileRewriter::openResidencyScope(const Stmt *First, const Stmt *Last) {
  if (!LO.CPlusPlus)
    return;
  unsigned Begin = statementOffsets(First, SM, LO).first;
  unsigned End = statementOffsets(Last, SM, LO).second;
  Edits.push_back({Begin, 0, "{ ::clustrix::rt::ResidencyScope __clx_residency; "});
  Edits.push_back({End, 0, " }"});
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

std::string FileRewriter::result() const {
  // Stable: the outlined functions of one C function's loops stay in the loops' order.
  std::vector<Edit> Sorted = Edits;
  std::stable_sort(Sorted.begin(), Sorted.end(),
                   [](const Edit &A, const Edit &B) { return A.Offset < B.Offset; });
  std::string Out;
  if (NeedsRuntime)
    Out += std::string("#include <clustrix/") + (LO.CPlusPlus ? "Runtime.h" : "runtime_c.h") +
           ">\n#line 1 " + cStringLiteral(PresumedName) + "\n";
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
