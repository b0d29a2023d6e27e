//===- OneParse.cpp - The plugin's analysis inside the compile's own parse --===//
//
// See OneParse.h. The pieces, in the order a compile meets them: findSplit (a lexical scan of
// the file's first lines), the main file's buffer (SplitBuffer), the callbacks that notice the
// split's `#include` is done (SplitWatcher), the fork and the child's analysis (OneParse::split,
// OneParse::childDone), the wire format between the two (Wire), and the parent's use of the
// result (OneParse::apply).
//
//===----------------------------------------------------------------------===//
#include "OneParse.h"

#include "clustrix/AST/SkippedText.h"
#include "clustrix/Decide/Diagnostics.h"
#include "clustrix/Decide/Report.h"
#include "clustrix/Detect/AttributeCollector.h"
#include "clustrix/Frontend/AnalysisAction.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Sema/Sema.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Pragma.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sys/wait.h>
#include <unistd.h>

using namespace clang;
using namespace clustrix;

//===----------------------------------------------------------------------===//
// The split
//===----------------------------------------------------------------------===//

std::optional<SplitPoint>
clustrix::findSplit(llvm::StringRef Text,
                    const std::function<bool(llvm::StringRef, bool)> &IncludeOk) {
  size_t P = Text.starts_with("\xEF\xBB\xBF") ? 3 : 0, N = Text.size();
  auto At = [&](size_t I) { return I < N ? Text[I] : '\0'; };
  // A backslash-newline joins lines everywhere (translation phase 2).
  auto SkipSplices = [&](size_t I) {
    while (At(I) == '\\' && (At(I + 1) == '\n' || (At(I + 1) == '\r' && At(I + 2) == '\n')))
      I += At(I + 1) == '\n' ? 2 : 3;
    return I;
  };
  // At a `/`: the offset just past the comment that starts there (a line comment ends before
  // its newline, and a splice continues it), I itself when none does, npos when a block comment
  // never ends.
  auto SkipComment = [&](size_t I) {
    size_t Second = SkipSplices(I + 1);
    if (At(Second) == '*') {
      size_t E = Text.find("*/", Second + 1);
      return E == llvm::StringRef::npos ? E : E + 2;
    }
    if (At(Second) != '/')
      return I;
    while (I < N && Text[I] != '\n') {
      size_t J = SkipSplices(I);
      I = J != I ? J : I + 1;
    }
    return I;
  };
  std::optional<SplitPoint> Last;
  int Depth = 0;
  while (true) {
    // Blank space and comments between directives.
    P = SkipSplices(P);
    if (P >= N)
      return Last;
    char C = Text[P];
    if (C == ' ' || C == '\t' || C == '\n' || C == '\r' || C == '\f' || C == '\v') {
      ++P;
      continue;
    }
    if (C == '/') {
      size_t E = SkipComment(P);
      if (E == llvm::StringRef::npos)
        return Last;
      if (E != P) {
        P = E;
        continue;
      }
    }
    if (C != '#')
      return Last; // the file's own code starts here
    // One directive: its logical line, with comments that may span lines.
    size_t Hash = P;
    std::string Line;
    size_t I = P + 1;
    while (I < N && Text[I] != '\n') {
      size_t J = SkipSplices(I);
      if (J == I && Text[I] == '/')
        J = SkipComment(I);
      if (J == llvm::StringRef::npos)
        return Last;
      if (J != I) {
        if (Text[I] == '/')
          Line += ' ';
        I = J;
        continue;
      }
      Line += Text[I++];
    }
    size_t End = I < N ? I + 1 : N;
    llvm::StringRef D = llvm::StringRef(Line).ltrim(" \t\f\v\r");
    llvm::StringRef Name = D.take_while([](char Ch) { return isalnum(Ch) || Ch == '_'; });
    llvm::StringRef Rest = D.drop_front(Name.size()).ltrim(" \t\f\v\r");
    if (Name == "include" || Name == "include_next" || Name == "import") {
      if (Rest.empty() || (Rest[0] != '"' && Rest[0] != '<'))
        return Last; // spelled through a macro: the file it names is not known here
      char Close = Rest[0] == '"' ? '"' : '>';
      size_t E = Rest.find(Close, 1);
      if (E == llvm::StringRef::npos || !IncludeOk(Rest.slice(1, E), Close == '>'))
        return Last;
      if (Depth == 0 && Name != "import")
        Last = SplitPoint{static_cast<unsigned>(Hash), static_cast<unsigned>(End)};
    } else if (Name == "if" || Name == "ifdef" || Name == "ifndef") {
      ++Depth;
    } else if (Name == "endif") {
      if (--Depth < 0)
        return Last;
    } else if (Name == "pragma") {
      // The runtime's header is included after these lines: a pragma that changes how code
      // compiles (`pack`, `clang attribute`, `GCC visibility`, floating-point control) would
      // change it. Only those that do not stay in the leading lines.
      llvm::StringRef Words = Rest;
      llvm::StringRef First = Words.take_while([](char Ch) { return isalnum(Ch) || Ch == '_'; });
      llvm::StringRef Second = Words.drop_front(First.size()).ltrim(" \t").take_while(
          [](char Ch) { return isalnum(Ch) || Ch == '_'; });
      if (!(First == "once" || First == "message" ||
            ((First == "GCC" || First == "clang") && Second == "diagnostic")))
        return Last;
    } else if (!(Name == "elif" || Name == "else" || Name == "elifdef" || Name == "elifndef" ||
                 Name == "define" || Name == "undef" || Name == "error" || Name == "warning" ||
                 Name == "ident" || Name.empty())) {
      // A directive that may produce tokens (`#embed`), changes the lines (`#line`, `# 12`), or
      // is unknown.
      return Last;
    }
    P = End;
  }
}

namespace {

//===----------------------------------------------------------------------===//
// The main file's buffer
//===----------------------------------------------------------------------===//

/// The user's text, the end pragma, and room up to Capacity, filled with spaces; written in
/// place at the split.
class SplitBuffer final : public llvm::MemoryBuffer {
public:
  SplitBuffer(llvm::StringRef Text, llvm::StringRef EndLine, size_t Capacity, std::string Name)
      : Data(new char[Capacity + 1]), Name(std::move(Name)) {
    std::memcpy(Data.get(), Text.data(), Text.size());
    std::memcpy(Data.get() + Text.size(), EndLine.data(), EndLine.size());
    std::memset(Data.get() + Text.size() + EndLine.size(), ' ',
                Capacity - Text.size() - EndLine.size());
    Data[Capacity - 1] = '\n'; // the file ends with a newline
    Data[Capacity] = '\0';
    init(Data.get(), Data.get() + Capacity, /*RequiresNullTerminator=*/true);
  }
  char *data() { return Data.get(); }
  llvm::StringRef getBufferIdentifier() const override { return Name; }
  BufferKind getBufferKind() const override { return MemoryBuffer_Malloc; }

private:
  std::unique_ptr<char[]> Data;
  std::string Name;
};

//===----------------------------------------------------------------------===//
// The wire between the child and the parent
//===----------------------------------------------------------------------===//

class WireWriter {
public:
  void u32(uint32_t V) { Out.append(reinterpret_cast<const char *>(&V), sizeof V); }
  void str(llvm::StringRef S) {
    u32(static_cast<uint32_t>(S.size()));
    Out.append(S.data(), S.size());
  }
  /// A count, then each element written by Each (WireReader::list reads it).
  template <class T, class Fn> void list(const std::vector<T> &V, Fn Each) {
    u32(static_cast<uint32_t>(V.size()));
    for (const T &E : V)
      Each(E);
  }
  /// A list of (name, text) pairs.
  void texts(const std::vector<std::pair<std::string, std::string>> &V) {
    list(V, [&](const std::pair<std::string, std::string> &P) {
      str(P.first);
      str(P.second);
    });
  }
  std::string Out;
};

class WireReader {
public:
  explicit WireReader(llvm::StringRef In) : In(In) {}
  bool u32(uint32_t &V) {
    if (In.size() < sizeof V)
      return false;
    std::memcpy(&V, In.data(), sizeof V);
    In = In.drop_front(sizeof V);
    return true;
  }
  bool str(std::string &S) {
    uint32_t L;
    if (!u32(L) || In.size() < L)
      return false;
    S = In.take_front(L).str();
    In = In.drop_front(L);
    return true;
  }
  /// A count, then that many elements, each read by Each. The count is checked against the
  /// bytes left (each element takes at least four), so a damaged result allocates nothing large.
  template <class T, class Fn> bool list(std::vector<T> &V, Fn Each) {
    uint32_t N;
    if (!u32(N) || N > In.size() / 4)
      return false;
    V.resize(N);
    for (T &E : V)
      if (!Each(E))
        return false;
    return true;
  }
  /// A list of (name, text) pairs.
  bool texts(std::vector<std::pair<std::string, std::string>> &V) {
    return list(V, [&](std::pair<std::string, std::string> &P) {
      return str(P.first) && str(P.second);
    });
  }
  bool done() const { return In.empty(); }

private:
  llvm::StringRef In;
};

/// A location of the child's parse, as the parent can rebuild it: one the parent has too (in
/// a file entered before the fork, and in the main file before the split), one in the main file
/// as written (the parent overwrites that part), or one in a file only the child entered.
enum class LocKind : uint32_t { Invalid, Shared, MainText, ChildFile };

//===----------------------------------------------------------------------===//
// The one-parse compile
//===----------------------------------------------------------------------===//

struct OneParse {
  OneParse(CompilerInstance &CI, FileEntryRef Main, std::string Text, SplitPoint Split,
           OneParseSettings S)
      : CI(CI), SM(CI.getSourceManager()), Main(Main), Text(std::move(Text)), Split(Split),
        S(std::move(S)) {}

  void split();
  void childDone(CompilerInstance &CI, PipelineOutput &Out);
  void apply(PipelineOutput &Out);
  bool analyseInChild(PipelineOutput &Out);
  bool analyseNested(PipelineOutput &Out);
  void warn(const std::string &Message) {
    DiagnosticsEngine &D = CI.getDiagnostics();
    D.Report(D.getCustomDiagID(DiagnosticsEngine::Warning, "clustrix: %0")) << Message;
  }
  /// The options of the analysis at the split.
  PipelineOptions splitOptions() const {
    PipelineOptions O = S.Opts;
    O.MainSplit.Active = true;
    O.MainSplit.Split = Split.End;
    O.MainSplit.TextEnd = static_cast<unsigned>(Text.size());
    return O;
  }
  /// The analysis did not run: the loops run as written; Why says where it stopped.
  void warnNotRun(const std::string &Why) {
    warn("the analysis did not run: " + Why + " at line " +
         std::to_string(SM.getLineNumber(MainFID, Split.HashOffset)) +
         "; the file's annotated loops run as written (-fplugin-arg-clustrix-parse=twice "
         "analyses them in a parse of their own)");
  }
  void writeAt(unsigned Offset, llvm::StringRef Bytes) {
    std::memcpy(Buffer->data() + Offset, Bytes.data(), Bytes.size());
  }
  /// Whether Loc is in the split's `#include` line.
  bool atSplitInclude(SourceLocation Loc) const {
    if (Loc.isInvalid())
      return false;
    auto [F, Off] = SM.getDecomposedExpansionLoc(Loc);
    return F == MainFID && Off >= Split.HashOffset && Off < Split.End;
  }
  /// A file of the user's read before the split (an `-include` file, a header reached in a
  /// way the plugin's scan does not follow): the child's analysis never sees its annotations.
  void noteEarlyFile(FileID F) {
    OptionalFileEntryRef FE = SM.getFileEntryRefForID(F);
    if (!FE || F == MainFID)
      return;
    size_t Pos = findAnnotation(SM.getBufferData(F));
    if (Pos != llvm::StringRef::npos)
      EarlyAnnotations.push_back(SM.getComposedLoc(F, static_cast<unsigned>(Pos)));
  }
  Lexer *mainLexer() const {
    auto *L = static_cast<Lexer *>(CI.getPreprocessor().getCurrentLexer());
    return L && L->getFileID() == MainFID ? L : nullptr;
  }

  CompilerInstance &CI;
  SourceManager &SM;
  FileEntryRef Main;
  std::string Text; ///< The main file as written.
  SplitPoint Split;
  OneParseSettings S;
  SplitBuffer *Buffer = nullptr; ///< Owned by the SourceManager.
  size_t Capacity = 0;
  FileID MainFID;
  std::string EndName, EnterName; ///< The pragmas' names, of this file's text.
  /// The end pragma's line; a last line that ends in a backslash would join the pragma's line.
  std::string EndLine;
  bool Reached = false;           ///< The split was reached (in either process).
  // The child's side.
  bool IsChild = false;
  int ResultFd = -1;
  unsigned EntriesAtFork = 0; ///< The SourceManager's local entries when the child began.
  PipelineOutput ChildOut;
  std::unique_ptr<ASTConsumer> ChildAnalysis;
  // The parent's side: the rewritten text, when it had no room in the buffer.
  FileID Overflow;
  /// The analysis met errors in the code (and left it as written), and it ended normally: if
  /// the compile meets none, the two disagree, and the compile says so at the end.
  bool AnalysisMetErrors = false;
  bool ChildFailed = false; ///< The child failed, which the compile said already.
  /// The first annotation of each user file read before the split (noteEarlyFile).
  std::vector<SourceLocation> EarlyAnnotations;
};

/// Notices the split's `#include` is done: its file left, or skipped (include guard,
/// `#pragma once`).
class SplitWatcher : public PPCallbacks {
public:
  explicit SplitWatcher(std::shared_ptr<OneParse> P) : P(std::move(P)) {}
  void FileChanged(SourceLocation Loc, FileChangeReason Reason,
                   SrcMgr::CharacteristicKind Kind, FileID PrevFID) override {
    if (Reason == EnterFile && !P->Reached && Kind == SrcMgr::C_User)
      P->noteEarlyFile(P->SM.getFileID(Loc));
    if (Reason == ExitFile && !P->Reached && PrevFID.isValid() &&
        P->atSplitInclude(P->SM.getIncludeLoc(PrevFID)))
      P->split();
  }
  void FileSkipped(const FileEntryRef &, const Token &FilenameTok,
                   SrcMgr::CharacteristicKind) override {
    if (!P->Reached && P->atSplitInclude(FilenameTok.getLocation()))
      P->split();
  }
  /// With modules, the `#include` may become an import: no file is entered.
  void InclusionDirective(SourceLocation HashLoc, const Token &, StringRef, bool,
                          CharSourceRange, OptionalFileEntryRef, StringRef, StringRef,
                          const Module *, bool ModuleImported,
                          SrcMgr::CharacteristicKind) override {
    if (ModuleImported && !P->Reached && P->atSplitInclude(HashLoc))
      P->split();
  }

private:
  std::shared_ptr<OneParse> P;
};

/// The analysis never follows calls into system headers, and the analysis parse of
/// `parse=twice` skips their bodies: the child need not instantiate the function templates of
/// system headers that the translation unit's end would (most of its cost otherwise). One
/// without linkage outside the translation unit stays (`std::vector<Cell>::data` for a `Cell`
/// of an unnamed namespace or of a function): used and never defined, it is an error at the
/// translation unit's end, which would leave the file's loops as written.
void dropSystemInstantiations(Sema &S) {
  SourceManager &SM = S.getSourceManager();
  auto &Pending = S.PendingInstantiations;
  Pending.erase(std::remove_if(Pending.begin(), Pending.end(),
                               [&](const Sema::PendingImplicitInstantiation &I) {
                                 const auto *FD = dyn_cast<FunctionDecl>(I.first);
                                 const FunctionDecl *Pattern =
                                     FD ? FD->getTemplateInstantiationPattern(false) : nullptr;
                                 return Pattern && SM.isInSystemHeader(Pattern->getLocation()) &&
                                        FD->isExternallyVisible();
                               }),
                Pending.end());
}

/// `#pragma <EndName>`: the user's (or the rewritten) text ends here; the lexer goes to the
/// end of the buffer.
class EndPragma : public PragmaHandler {
public:
  explicit EndPragma(std::shared_ptr<OneParse> P)
      : PragmaHandler(P->EndName), P(std::move(P)) {}
  void HandlePragma(Preprocessor &PP, PragmaIntroducer Introducer, Token &) override {
    Lexer *L = P->mainLexer();
    if (!L || PP.getSourceManager().getFileID(Introducer.Loc) != P->MainFID)
      return;
    PP.DiscardUntilEndOfDirective();
    if (P->IsChild && P->CI.hasSema())
      dropSystemInstantiations(P->CI.getSema());
    if (!P->IsChild && !P->Reached)
      P->warnNotRun("the compile never finished the #include");
    L->seek(static_cast<unsigned>(P->Capacity), /*IsAtStartOfLine=*/true);
  }

private:
  std::shared_ptr<OneParse> P;
};

/// `#pragma <EnterName>`: the rewritten text did not fit in the buffer; it is read from a
/// buffer of its own, as an included file.
class EnterPragma : public PragmaHandler {
public:
  explicit EnterPragma(std::shared_ptr<OneParse> P)
      : PragmaHandler(P->EnterName), P(std::move(P)) {}
  void HandlePragma(Preprocessor &PP, PragmaIntroducer Introducer, Token &) override {
    if (P->Overflow.isInvalid() || !P->mainLexer() ||
        PP.getSourceManager().getFileID(Introducer.Loc) != P->MainFID)
      return;
    PP.DiscardUntilEndOfDirective();
    FileID F = P->Overflow;
    P->Overflow = FileID();
    PP.EnterSourceFile(F, nullptr, Introducer.Loc);
  }

private:
  std::shared_ptr<OneParse> P;
};

/// The plugin's consumer: in the child, the analysis's; in the parent, nothing.
class OneParseConsumer : public ASTConsumer {
public:
  explicit OneParseConsumer(std::shared_ptr<OneParse> P) : P(std::move(P)) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (!P->IsChild) {
      // Silence here would leave a program's loops serial with no word why.
      if (P->AnalysisMetErrors && !Ctx.getDiagnostics().hasErrorOccurred())
        P->warn("the analysis of this file met errors that the compile did not; its annotated "
                "loops run as written (please report this; -fplugin-arg-clustrix-parse=twice "
                "analyses them in a parse of their own)");
      return;
    }
    if (P->ChildAnalysis)
      P->ChildAnalysis->HandleTranslationUnit(Ctx); // childDone ends the process
    _exit(3);
  }

private:
  std::shared_ptr<OneParse> P;
};

/// The number of threads of this process; 0 when unknown.
unsigned threadCount() {
  std::ifstream In("/proc/self/status");
  std::string Line;
  while (std::getline(In, Line)) {
    llvm::StringRef L(Line);
    unsigned N = 0;
    if (L.consume_front("Threads:"))
      return L.trim().getAsInteger(10, N) ? 0 : N;
  }
  return 0;
}

void OneParse::split() {
  Reached = true;
  Lexer *L = mainLexer();
  // The lexer stands at the end of the `#include` line, before the text to replace.
  const char *Start = Buffer->data();
  if (!L || L->getBufferLocation() < Start ||
      L->getBufferLocation() > Start + Split.End) {
    warnNotRun("the compile was not at the end of the #include");
    return;
  }
  PipelineOutput Out;
  unsigned Line = SM.getLineNumber(MainFID, Split.HashOffset);
  // CLUSTRIX_PLUGIN_NO_FORK is the tests' way to the parse of its own.
  bool Fork = threadCount() == 1 && !std::getenv("CLUSTRIX_PLUGIN_NO_FORK");
  bool Ok = Fork && analyseInChild(Out);
  if (IsChild)
    return; // the child goes on parsing the text as written
  pluginLog("one parse, split after the #include at line " + std::to_string(Line) +
            ": the analysis " +
            (Ok ? "in a child process" : "in a parse of its own"));
  if (Ok) {
    DiagnosticsEngine &D = CI.getDiagnostics();
    for (SourceLocation L : EarlyAnnotations)
      D.Report(L, D.getCustomDiagID(
                      DiagnosticsEngine::Warning,
                      "clustrix: the loops of this file run as written: the compile read it "
                      "before the analysis began (the plugin reads the main file's leading "
                      "#include lines first; -fplugin-arg-clustrix-parse=twice rewrites it)"));
  } else {
    // A parse of its own sees every file; those read so far (the main file aside) cannot be
    // rewritten any more. (The child never sees their annotations: its watcher starts here.)
    auto ReadBefore = std::make_shared<std::set<const FileEntry *>>();
    for (unsigned I = 0, E = SM.local_sloc_entry_size(); I != E; ++I) {
      const SrcMgr::SLocEntry &Entry = SM.getLocalSLocEntry(I);
      if (Entry.isFile())
        if (OptionalFileEntryRef F = Entry.getFile().getContentCache().OrigEntry)
          if (&F->getFileEntry() != &Main.getFileEntry())
            ReadBefore->insert(&F->getFileEntry());
    }
    S.Opts.Analysis.ReadBeforeAnalysis = std::move(ReadBefore);
    Out = PipelineOutput();
    if (!analyseNested(Out))
      return;
  }
  apply(Out);
}

bool OneParse::analyseInChild(PipelineOutput &Out) {
  int Fds[2];
  if (pipe(Fds) != 0)
    return false;
  llvm::outs().flush();
  llvm::errs().flush();
  std::fflush(nullptr); // nothing buffered is written twice
  unsigned Entries = SM.local_sloc_entry_size();
  pid_t Pid = fork();
  if (Pid < 0) {
    close(Fds[0]);
    close(Fds[1]);
    return false;
  }
  if (Pid == 0) {
    // The child: no output of its own, no clean-up of the parent's files on a crash.
    close(Fds[0]);
    // The tests' way to a child that fails: CLUSTRIX_PLUGIN_CHILD_FAULT=signal, exit or short
    // (a result cut off); `errors` is a child that ends well (childDone).
    if (const char *F = std::getenv("CLUSTRIX_PLUGIN_CHILD_FAULT");
        F && llvm::StringRef(F) != "errors") {
      llvm::StringRef Fault(F);
      if (Fault == "exit")
        _exit(5);
      if (Fault == "short") {
        uint32_t Changed = 1;
        (void)!write(Fds[1], &Changed, sizeof Changed);
        _exit(0);
      }
      std::signal(SIGSEGV, SIG_DFL);
      raise(SIGSEGV);
    }
    IsChild = true;
    ResultFd = Fds[1];
    EntriesAtFork = Entries;
    llvm::CrashRecoveryContext::Disable();
    for (int Sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS, SIGQUIT, SIGXCPU,
                    SIGXFSZ, SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGUSR1, SIGUSR2})
      std::signal(Sig, SIG_DFL);
    DiagnosticsEngine &D = CI.getDiagnostics();
    D.takeClient().release(); // the parent's; it is not ours to destroy
    D.setClient(new IgnoringDiagConsumer(), /*ShouldOwnClient=*/true);
    D.setIgnoreAllWarnings(true);
    ChildAnalysis = createAnalysisConsumer(
        CI, splitOptions(), ChildOut, [this](CompilerInstance &C, PipelineOutput &O) { childDone(C, O); });
    return true;
  }
  close(Fds[1]);
  std::string Bytes;
  char Chunk[1 << 16];
  while (true) {
    ssize_t R = read(Fds[0], Chunk, sizeof Chunk);
    if (R < 0 && errno == EINTR)
      continue;
    if (R <= 0)
      break;
    Bytes.append(Chunk, static_cast<size_t>(R));
  }
  close(Fds[0]);
  int Status = 0;
  while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
  }
  std::string Why;
  if (WIFSIGNALED(Status))
    Why = "stopped by signal " + std::to_string(WTERMSIG(Status));
  else if (!WIFEXITED(Status) || WEXITSTATUS(Status) != 0)
    Why = "ended with status " + std::to_string(WEXITSTATUS(Status));
  // Rebuild the output, its locations in the parent's SourceManager.
  WireReader W(Bytes);
  std::vector<std::pair<std::string, std::string>> Files;
  std::map<uint32_t, FileID> Copies;
  FileID MainCopy;
  auto Loc = [&](SourceLocation &L) {
    uint32_t Kind, A, B;
    if (!W.u32(Kind) || !W.u32(A) || !W.u32(B))
      return false;
    switch (static_cast<LocKind>(Kind)) {
    case LocKind::Invalid:
      L = SourceLocation();
      return true;
    case LocKind::Shared:
      L = SourceLocation::getFromRawEncoding(A);
      return true;
    case LocKind::MainText:
      if (MainCopy.isInvalid())
        MainCopy = SM.createFileID(llvm::MemoryBuffer::getMemBufferCopy(Text, Main.getName()));
      L = SM.getComposedLoc(MainCopy, A);
      return true;
    case LocKind::ChildFile: {
      if (B >= Files.size())
        return false;
      auto It = Copies.find(B);
      if (It == Copies.end())
        It = Copies
                 .emplace(B, SM.createFileID(llvm::MemoryBuffer::getMemBufferCopy(
                                 Files[B].second, Files[B].first)))
                 .first;
      L = SM.getComposedLoc(It->second, A);
      return true;
    }
    }
    return false;
  };
  std::function<bool(PendingDiag &)> Diag = [&](PendingDiag &D) {
    uint32_t Level;
    if (!W.u32(Level) || !Loc(D.Loc) || !W.str(D.Message))
      return false;
    D.Level = static_cast<DiagnosticsEngine::Level>(Level);
    return W.list(D.FixIts,
                  [&](PendingFixIt &F) {
                    return Loc(F.Loc) && W.u32(F.RemoveLength) && W.str(F.Text);
                  }) &&
           W.list(D.Notes, Diag);
  };
  auto Read = [&] {
    uint32_t Changed, HadErrors, Errors;
    if (!W.u32(Changed) || !W.u32(HadErrors) || !W.u32(Errors) || !W.str(Out.Rewritten) ||
        !W.texts(Out.Headers) || !W.texts(Files) || !W.list(Out.Diags, Diag))
      return false;
    Out.Changed = Changed;
    Out.SourceHadErrors = HadErrors;
    Out.Errors = Errors;
    return W.done();
  };
  if (Why.empty() && !Read())
    Why = "sent an incomplete result";
  if (!Why.empty()) {
    warn("the analysis of this file " + Why +
         "; its annotated loops run as written (please report this; "
         "-fplugin-arg-clustrix-parse=twice analyses them in a parse of their own)");
    Out = PipelineOutput();
    Out.SourceHadErrors = true; // nothing to apply
    ChildFailed = true;
  }
  return true;
}

void OneParse::childDone(CompilerInstance &C, PipelineOutput &Out) {
  SourceManager &CSM = C.getSourceManager();
  // The tests' way to an analysis that meets errors the compile does not.
  if (const char *F = std::getenv("CLUSTRIX_PLUGIN_CHILD_FAULT"); F && llvm::StringRef(F) == "errors")
    Out.SourceHadErrors = true;
  if (!Out.SourceHadErrors) // code that does not compile gets no report (as with parse=twice)
    for (const std::string &M : writeOutputs(S, Main.getName(), Text, Out))
      Out.Diags.push_back({DiagnosticsEngine::Error, SourceLocation(), M, {}, {}});
  WireWriter W;
  std::map<FileID, uint32_t> FileIndex;
  std::vector<FileID> Files;
  // Locations are written once the files they name are known; the diagnostics go to a second
  // writer first.
  WireWriter DW;
  auto Loc = [&](SourceLocation L) {
    L = L.isValid() ? CSM.getSpellingLoc(L) : L;
    FileID F = L.isValid() ? CSM.getFileID(L) : FileID();
    if (F.isInvalid()) {
      DW.u32(uint32_t(LocKind::Invalid)), DW.u32(0), DW.u32(0);
      return;
    }
    unsigned Off = CSM.getFileOffset(L);
    if (F == MainFID && Off >= Split.End) {
      DW.u32(uint32_t(LocKind::MainText)), DW.u32(Off), DW.u32(0);
    } else if (F == MainFID || F.getHashValue() < EntriesAtFork) {
      DW.u32(uint32_t(LocKind::Shared)), DW.u32(L.getRawEncoding()), DW.u32(0);
    } else {
      auto [It, New] = FileIndex.try_emplace(F, static_cast<uint32_t>(Files.size()));
      if (New)
        Files.push_back(F);
      DW.u32(uint32_t(LocKind::ChildFile)), DW.u32(Off), DW.u32(It->second);
    }
  };
  std::function<void(const PendingDiag &)> Diag = [&](const PendingDiag &D) {
    DW.u32(static_cast<uint32_t>(D.Level));
    Loc(D.Loc);
    DW.str(D.Message);
    DW.list(D.FixIts, [&](const PendingFixIt &F) {
      Loc(F.Loc);
      DW.u32(F.RemoveLength);
      DW.str(F.Text);
    });
    DW.list(D.Notes, Diag);
  };
  DW.list(Out.Diags, Diag);

  std::vector<std::pair<std::string, std::string>> FileTexts;
  for (FileID F : Files) {
    OptionalFileEntryRef FE = CSM.getFileEntryRefForID(F);
    FileTexts.push_back({(FE ? FE->getName() : CSM.getBufferOrFake(F).getBufferIdentifier()).str(),
                         CSM.getBufferData(F).str()});
  }
  W.u32(Out.Changed);
  W.u32(Out.SourceHadErrors);
  W.u32(Out.Errors);
  W.str(Out.Rewritten);
  W.texts(Out.Headers);
  W.texts(FileTexts);
  W.Out += DW.Out;
  const char *P = W.Out.data();
  size_t Left = W.Out.size();
  while (Left > 0) {
    ssize_t N = write(ResultFd, P, Left);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      _exit(4);
    P += N;
    Left -= static_cast<size_t>(N);
  }
  close(ResultFd);
  _exit(0);
}

bool OneParse::analyseNested(PipelineOutput &Out) {
  if (!analyseInOwnParse(CI, splitOptions(), Out))
    return false;
  if (!Out.SourceHadErrors)
    for (const std::string &M : writeOutputs(S, Main.getName(), Text, Out))
      Out.Diags.push_back({DiagnosticsEngine::Error, SourceLocation(), M, {}, {}});
  return true;
}

void OneParse::apply(PipelineOutput &Out) {
  // Code that does not compile is left to the compile, which reports it on the text as written.
  if (Out.SourceHadErrors) {
    AnalysisMetErrors = !ChildFailed;
    return;
  }
  emitDiagnostics(CI.getDiagnostics(), Out.Diags, [](SourceLocation L) { return L; });
  if (!Out.Changed)
    return; // the text as written follows the split, as it is
  replaceHeaders(CI, Out.Headers);
  const std::string &New = Out.Rewritten;
  if (New.size() < Split.End || New.compare(0, Split.End, Text, 0, Split.End) != 0) {
    warn("the rewritten file changed the lines before line " +
         std::to_string(SM.getLineNumber(MainFID, Split.End)) +
         ", which the compile has read; the file's annotated loops run as written (please "
         "report this; -fplugin-arg-clustrix-parse=twice compiles them)");
    return;
  }
  llvm::StringRef Rest = llvm::StringRef(New).drop_front(Split.End);
  if (Split.End + Rest.size() + EndLine.size() <= Capacity) {
    writeAt(Split.End, Rest);
    writeAt(Split.End + static_cast<unsigned>(Rest.size()), EndLine);
  } else {
    // No room: the rewritten text is read from a buffer of its own, as an included file
    // (its diagnostics then carry an "In file included from" line). That buffer has no file
    // (so that no dependency names it), so its quoted includes would be looked up from the
    // working directory: the main file's directory becomes the last of the quoted ones.
    Overflow = SM.createFileID(llvm::MemoryBuffer::getMemBufferCopy(Rest, Main.getName()),
                               SrcMgr::C_User, 0, 0,
                               SM.getComposedLoc(MainFID, Split.End)); // the pragma's place
    CI.getPreprocessor().getHeaderSearchInfo().AddSearchPath(
        DirectoryLookup(Main.getDir(), SrcMgr::C_User, /*isFramework=*/false),
        /*isAngled=*/false);
    writeAt(Split.End, "#pragma " + EnterName + EndLine);
    pluginLog("the rewritten text (" + std::to_string(Rest.size()) +
              " bytes) is read as an included file");
  }
  // A diagnostic before the split may have counted the buffer's lines: count them again.
  const SrcMgr::ContentCache &CC = SM.getSLocEntry(MainFID).getFile().getContentCache();
  const_cast<SrcMgr::ContentCache &>(CC).SourceLineCache = SrcMgr::LineOffsetMapping();
}

/// Counts the `cluster::` spellings of Text, for the room its rewritten text needs.
size_t annotationCount(llvm::StringRef Text) {
  size_t Count = 0;
  for (size_t Pos = findAnnotation(Text); Pos != llvm::StringRef::npos;
       Pos = findAnnotation(Text, Pos + 7))
    ++Count;
  return Count;
}

} // namespace

bool clustrix::InOwnParse = false;

void clustrix::pluginLog(const std::string &Message) {
  if (std::getenv("CLUSTRIX_PLUGIN_LOG"))
    llvm::errs() << "clustrix plugin: " << Message << "\n";
}

bool clustrix::analyseInOwnParse(CompilerInstance &CI, const PipelineOptions &Opts,
                                 PipelineOutput &Out) {
  auto Inv = std::make_shared<CompilerInvocation>(CI.getInvocation());
  FrontendOptions &FO = Inv->getFrontendOpts();
  FO.Plugins.clear();
  FO.AddPluginActions.clear();
  FO.PluginArgs.clear();
  FO.ProgramAction = frontend::ParseSyntaxOnly;
  FO.OutputFile.clear();
  Inv->getDependencyOutputOpts() = DependencyOutputOptions();
  Inv->getDiagnosticOpts().VerifyDiagnostics = false;
  // Its diagnostics are discarded (the real compile reports them): without warnings, clang also
  // skips the per-function CFG analyses behind -Wuninitialized, -Wunreachable-code and others.
  Inv->getDiagnosticOpts().IgnoreWarnings = true;
  // The OpenMP front door's files: the analysis reads them converted (the parse owns the
  // buffers).
  if (Opts.OmpFiles)
    for (const auto &[Path, Conv] : *Opts.OmpFiles)
      if (Conv.Changed)
        Inv->getPreprocessorOpts().addRemappedFile(
            Path, llvm::MemoryBuffer::getMemBufferCopy(Conv.Text, Path).release());

  CompilerInstance Nested(CI.getPCHContainerOperations());
  Nested.setInvocation(Inv);
  // The user's own diagnostics come from the real compile; the analysis parse stays silent.
  Nested.createDiagnostics(new IgnoringDiagConsumer(), /*ShouldOwnClient=*/true);
  Nested.getDiagnostics().setIgnoreAllWarnings(true);
  Nested.setFileManager(&CI.getFileManager());

  AnalysisAction Act(Opts, Out);
  InOwnParse = true;
  Nested.ExecuteAction(Act);
  InOwnParse = false;
  if (!Nested.hasSourceManager())
    return false;

  // Map analysis locations to copies of the same files in the compile's SourceManager: the
  // main file itself is replaced by the rewritten text.
  SourceManager &SM = CI.getSourceManager(), &NSM = Nested.getSourceManager();
  std::map<FileID, FileID> Copies;
  auto Map = [&](SourceLocation &L) {
    if (L.isInvalid())
      return;
    SourceLocation F = NSM.getSpellingLoc(L);
    FileID FID = NSM.getFileID(F);
    if (FID.isInvalid()) {
      L = SourceLocation();
      return;
    }
    auto It = Copies.find(FID);
    bool Converted = false;
    OptionalFileEntryRef FE = NSM.getFileEntryRefForID(FID);
    std::string Name = FE ? FE->getName().str() : NSM.getBufferName(F).str();
    // A file the OpenMP front door converted is shown as written: the conversion keeps every
    // line and the column where each directive starts.
    if (Opts.OmpFiles)
      if (auto C = Opts.OmpFiles->find(Name); C != Opts.OmpFiles->end() && C->second.Changed)
        Converted = true;
    if (It == Copies.end()) {
      std::unique_ptr<llvm::MemoryBuffer> Text;
      if (Converted && FE)
        if (auto Disk = CI.getFileManager().getBufferForFile(*FE))
          Text = llvm::MemoryBuffer::getMemBufferCopy((*Disk)->getBuffer(), Name);
      if (!Text)
        Text = llvm::MemoryBuffer::getMemBufferCopy(NSM.getBufferData(FID), Name);
      It = Copies.emplace(FID, SM.createFileID(std::move(Text))).first;
    }
    if (Converted) {
      SourceLocation T = SM.translateLineCol(It->second, NSM.getSpellingLineNumber(F),
                                             NSM.getSpellingColumnNumber(F));
      L = T.isValid() ? T : SM.getLocForStartOfFile(It->second);
      return;
    }
    L = SM.getComposedLoc(It->second, NSM.getFileOffset(F));
  };
  std::function<void(PendingDiag &)> MapDiag = [&](PendingDiag &D) {
    Map(D.Loc);
    for (PendingFixIt &F : D.FixIts)
      Map(F.Loc);
    for (PendingDiag &N : D.Notes)
      MapDiag(N);
  };
  for (PendingDiag &D : Out.Diags)
    MapDiag(D);
  return true;
}

void clustrix::replaceHeaders(CompilerInstance &CI,
                              const std::vector<std::pair<std::string, std::string>> &Headers) {
  DiagnosticsEngine &D = CI.getDiagnostics();
  SourceManager &SM = CI.getSourceManager();
  for (const auto &[Path, Body] : Headers) {
    OptionalFileEntryRef HE = CI.getFileManager().getOptionalFileRef(Path);
    if (!HE) {
      D.Report(D.getCustomDiagID(DiagnosticsEngine::Error,
                                 "clustrix: cannot replace included file '%0'"))
          << Path;
      continue;
    }
    // Replacing a file the compile has read would change the text under its locations.
    if (SM.translateFile(*HE).isValid()) {
      D.Report(D.getCustomDiagID(DiagnosticsEngine::Warning,
                                 "clustrix: '%0' was read before the analysis ended; its "
                                 "annotated loops run as written "
                                 "(-fplugin-arg-clustrix-parse=twice rewrites it)"))
          << Path;
      continue;
    }
    SM.overrideFileContents(*HE, llvm::MemoryBuffer::getMemBufferCopy(Body, HE->getName()));
  }
}

std::vector<std::string> clustrix::writeOutputs(const OneParseSettings &S,
                                                llvm::StringRef MainName, llvm::StringRef Text,
                                                const PipelineOutput &Out) {
  std::vector<std::string> Errors;
  if (!S.ReportFile.empty())
    if (llvm::Error E = writeReport(S.ReportFile, {{MainName.str(), Out.Records}}))
      Errors.push_back(llvm::toString(std::move(E)));
  if (!S.EmitRewritten.empty()) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(S.EmitRewritten, EC, llvm::sys::fs::OF_Text);
    if (EC)
      Errors.push_back("cannot write rewritten source '" + S.EmitRewritten +
                       "': " + EC.message());
    else
      OS << (Out.Changed ? llvm::StringRef(Out.Rewritten) : Text);
  }
  return Errors;
}

std::unique_ptr<ASTConsumer> clustrix::setUpOneParse(CompilerInstance &CI, FileEntryRef Main,
                                                     std::string Text, SplitPoint Split,
                                                     OneParseSettings Settings) {
  if (Split.End >= Text.size())
    return nullptr; // nothing after the includes
  auto P = std::make_shared<OneParse>(CI, Main, std::move(Text), Split, std::move(Settings));
  uint64_t Hash = llvm::xxh3_64bits(P->Text);
  std::string Tag = llvm::utohexstr(Hash, /*LowerCase=*/true);
  P->EndName = "__clustrix_end_" + Tag;
  P->EnterName = "__clustrix_rest_" + Tag;
  P->EndLine = "\n\n#pragma " + P->EndName + "\n";
  // Room for the rewritten text: each loop adds its host code and kernel text (a few KiB to a
  // few tens of KiB), and the text itself may grow with what loops clone.
  size_t Rest = P->Text.size() - Split.End;
  size_t Room = 4 * Rest + (annotationCount(P->Text) + 1) * (64u << 10) + (256u << 10);
  if (const char *E = std::getenv("CLUSTRIX_PLUGIN_ROOM")) // the tests' way to the overflow path
    Room = std::strtoul(E, nullptr, 10);
  P->Capacity = P->Text.size() + P->EndLine.size() + Room;
  auto Buf =
      std::make_unique<SplitBuffer>(P->Text, P->EndLine, P->Capacity, Main.getName().str());
  P->Buffer = Buf.get();
  SourceManager &SM = CI.getSourceManager();
  SM.overrideFileContents(Main, std::move(Buf));
  // The main FileID was sized for the file on disk: a new one takes the buffer's size.
  P->MainFID = SM.createFileID(Main, SourceLocation(), SrcMgr::C_User);
  SM.setMainFileID(P->MainFID);
  Preprocessor &PP = CI.getPreprocessor();
  PP.addPPCallbacks(std::make_unique<SplitWatcher>(P));
  SkippedText::watch(PP); // before the parse: the child's kernels take its branches
  PP.AddPragmaHandler(new EndPragma(P));
  PP.AddPragmaHandler(new EnterPragma(P));
  return std::make_unique<OneParseConsumer>(P);
}
