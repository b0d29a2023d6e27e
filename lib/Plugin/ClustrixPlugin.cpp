//===- ClustrixPlugin.cpp - The Clang plugin front door --------------------===//
//
// `clang++-19 -fplugin=clustrix.so` (or `clang-19 -x c ...` for C) compiles annotated loops
// through the runtime in the same invocation. An AddBeforeMainAction finds whether the project's
// files may hold an annotation (a lexical scan), and then either analyses the file inside the
// compile's own parse (OneParse.h, the default), or, with `parse=twice` or where the file has
// no leading #include lines, runs a parse of its own first, reports its diagnostics into the
// user's engine, and overrides the contents of the main file, and of the project's included
// files that hold annotated loops, with the rewritten text before the real compile lexes them.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Decide/Diagnostics.h"
#include "clustrix/Decide/Report.h"
#include "clustrix/Detect/AttributeCollector.h"
#include "clustrix/Frontend/AnalysisAction.h"
#include "clustrix/Support/Text.h"

#include "OneParse.h"

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/Preprocessor.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <dlfcn.h>
#include <map>
#include <set>

using namespace clang;
using namespace clustrix;

namespace {

/// Where clustrix/Runtime.h is: next to an installed plugin (<prefix>/include), else the
/// source tree this plugin was built from.
std::string runtimeIncludeDir() {
  Dl_info Info;
  if (dladdr(reinterpret_cast<void *>(&runtimeIncludeDir), &Info) && Info.dli_fname) {
    llvm::SmallString<256> P(llvm::sys::path::parent_path(Info.dli_fname));
    llvm::sys::path::append(P, "..", "include");
    llvm::SmallString<256> H(P);
    llvm::sys::path::append(H, "clustrix", "Runtime.h");
    if (llvm::sys::fs::exists(H))
      return std::string(P);
  }
  return CLUSTRIX_RUNTIME_INCLUDE_DIR;
}

/// Follows `#include "..."` and `#include <...>` lines lexically, to files found in the
/// including file's directory or in a user (non-system) search directory, to tell whether the
/// project's files may hold an annotation. It ignores conditionals, so it may say yes in vain;
/// an include spelled through a macro is not followed, and the loops of such a header then stay
/// as written.
class ProjectScan {
public:
  explicit ProjectScan(CompilerInstance &CI) : FM(CI.getFileManager()) {
    // The user (non-system) directories, in clang's order: the quoted-only ones (-iquote)
    // first, which `#include <...>` skips.
    const HeaderSearch &HS = CI.getPreprocessor().getHeaderSearchInfo();
    for (auto It = HS.search_dir_begin(), E = HS.search_dir_end(); It != E; ++It) {
      if (It == HS.angled_dir_begin())
        QuotedOnly = UserDirs.size();
      if (It->getDirCharacteristic() == SrcMgr::C_User && It->isNormalDir())
        UserDirs.push_back(It->getDirRef()->getName().str());
    }
  }

  /// The file `#include` Name names from a file in Dir, among the project's files.
  std::optional<std::string> resolve(llvm::StringRef Dir, llvm::StringRef Name, bool Angled) {
    std::vector<std::string> Dirs;
    if (!Angled)
      Dirs.push_back(Dir.str());
    Dirs.insert(Dirs.end(), UserDirs.begin() + (Angled ? QuotedOnly : 0), UserDirs.end());
    for (const std::string &D : Dirs) {
      llvm::SmallString<256> P(D);
      llvm::sys::path::append(P, Name);
      if (FM.getOptionalFileRef(P))
        return std::string(P);
    }
    return std::nullopt;
  }

  /// The project's files that Text, of the file at Path, includes, directly or not, with Path
  /// itself first: (path, text). Bounded like the scan.
  std::vector<std::pair<std::string, std::string>> projectFiles(const std::string &Path,
                                                                llvm::StringRef Text) {
    std::vector<std::pair<std::string, std::string>> Files = {{Path, Text.str()}};
    std::set<std::string> Seen = {Path};
    for (size_t I = 0; I < Files.size() && Files.size() < MaxFiles; ++I) {
      std::string Dir = llvm::sys::path::parent_path(Files[I].first).str();
      for (auto [Name, Angled] : includes(Files[I].second)) {
        std::optional<std::string> P = resolve(Dir, Name, Angled);
        if (!P || !Seen.insert(*P).second)
          continue;
        if (OptionalFileEntryRef FE = FM.getOptionalFileRef(*P))
          if (auto Buf = FM.getBufferForFile(*FE))
            Files.push_back({*P, (*Buf)->getBuffer().str()});
      }
    }
    return Files;
  }

  /// Whether Text, of a file in Dir, or a file of the project it includes, may hold an
  /// annotation.
  bool mayHold(llvm::StringRef Dir, llvm::StringRef Text) { return scan(Dir, Text).May; }

  /// Whether the file at Path, or a file of the project it includes, may hold an annotation,
  /// or includes a file through a macro (which this scan does not follow). Past a bound on the
  /// number of files read, the answer is yes.
  bool fileMayHoldOrHide(const std::string &Path) {
    Verdict V = fileVerdict(Path);
    return V.May || V.Hidden;
  }

private:
  /// The `#include "..."` and `#include <...>` lines of Text: (name, angled). Hidden is set
  /// when a line includes through a macro (`#include HEADER`), which is not followed.
  static std::vector<std::pair<std::string, bool>> includes(llvm::StringRef Text,
                                                            bool *Hidden = nullptr) {
    std::vector<std::pair<std::string, bool>> Out;
    llvm::SmallVector<llvm::StringRef, 64> Lines;
    Text.split(Lines, '\n');
    for (llvm::StringRef L : Lines) {
      L = L.ltrim();
      if (!L.consume_front("#"))
        continue;
      L = L.ltrim();
      if (!L.consume_front("include"))
        continue;
      L.consume_front("_next");
      L = L.ltrim();
      if (L.empty() || (L[0] != '"' && L[0] != '<')) {
        if (Hidden)
          *Hidden = true;
        continue;
      }
      char Close = L[0] == '"' ? '"' : '>';
      size_t End = L.find(Close, 1);
      if (End != llvm::StringRef::npos)
        Out.push_back({L.substr(1, End - 1).str(), Close == '>'});
    }
    return Out;
  }

  struct Verdict {
    bool May = false;    ///< An annotation may be in these files.
    bool Hidden = false; ///< They include a file through a macro.
  };

  Verdict scan(llvm::StringRef Dir, llvm::StringRef Text) {
    Verdict V;
    if (mayContainAnnotations(Text)) {
      V.May = true;
      return V;
    }
    for (const auto &[Name, Angled] : includes(Text, &V.Hidden))
      if (std::optional<std::string> P = resolve(Dir, Name, Angled)) {
        Verdict Inner = fileVerdict(*P);
        V.Hidden |= Inner.Hidden;
        if (Inner.May) {
          V.May = true;
          return V;
        }
      }
    return V;
  }

  Verdict fileVerdict(const std::string &Path) {
    OptionalFileEntryRef FE = FM.getOptionalFileRef(Path);
    if (!FE)
      return {};
    if (auto It = Known.find(&FE->getFileEntry()); It != Known.end())
      return It->second;
    if (Known.size() >= MaxFiles)
      return {true, true};
    Known[&FE->getFileEntry()] = {}; // while it is read: an include cycle adds nothing
    auto Buf = FM.getBufferForFile(*FE);
    Verdict V = Buf ? scan(llvm::sys::path::parent_path(Path), (*Buf)->getBuffer()) : Verdict();
    Known[&FE->getFileEntry()] = V;
    return V;
  }

  static constexpr size_t MaxFiles = 500; // a bound on the cost for files without annotations
  FileManager &FM;
  std::vector<std::string> UserDirs;
  size_t QuotedOnly = 0; ///< How many of UserDirs only quoted includes search.
  std::map<const FileEntry *, Verdict> Known;
};

class ClustrixAction : public PluginASTAction {
public:
  bool ParseArgs(const CompilerInstance &CI, const std::vector<std::string> &Args) override {
    if (InOwnParse)
      return true;
    for (const std::string &A : Args) {
      std::string Err = applyOption(A, Settings.Opts, Settings.ReportFile, Settings.EmitRewritten);
      if (!Err.empty()) {
        DiagnosticsEngine &D = CI.getDiagnostics();
        D.Report(D.getCustomDiagID(DiagnosticsEngine::Error,
                                   "clustrix plugin argument: %0 (pass options as "
                                   "-fplugin-arg-clustrix-NAME=VALUE)"))
            << Err;
        return false;
      }
    }
    return true;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, llvm::StringRef) override {
    if (!InOwnParse)
      if (std::unique_ptr<ASTConsumer> C = run(CI))
        return C;
    return std::make_unique<ASTConsumer>();
  }

private:
  std::unique_ptr<ASTConsumer> run(CompilerInstance &CI);
  bool runOpenMP(CompilerInstance &CI, FileEntryRef Main, llvm::StringRef Text,
                 ProjectScan &Scan);
  void reportError(CompilerInstance &CI, const std::string &Message) {
    CI.getDiagnostics().Report(
        CI.getDiagnostics().getCustomDiagID(DiagnosticsEngine::Error, "%0"))
        << Message;
  }

  OneParseSettings Settings;
};

std::unique_ptr<ASTConsumer> ClustrixAction::run(CompilerInstance &CI) {
  SourceManager &SM = CI.getSourceManager();
  OptionalFileEntryRef FE = SM.getFileEntryRefForID(SM.getMainFileID());
  if (!FE)
    return nullptr;
  // Read the file apart from the SourceManager, whose buffer must stay unloaded until it is
  // overridden. Files without an annotation, in them or in the project's files they include,
  // cost these reads and nothing else.
  auto Buf = CI.getFileManager().getBufferForFile(*FE);
  ProjectScan Scan(CI);
  if (Buf && Settings.Opts.OpenMP != OpenMPMode::Off &&
      runOpenMP(CI, *FE, (*Buf)->getBuffer(), Scan))
    return nullptr;
  if (!Buf || !Scan.mayHold(llvm::sys::path::parent_path(FE->getName()), (*Buf)->getBuffer())) {
    if (!Settings.ReportFile.empty())
      if (llvm::Error E = writeReport(Settings.ReportFile, {{FE->getName().str(), {}}}))
        reportError(CI, llvm::toString(std::move(E)));
    return nullptr;
  }

  // Preprocessed input (the second step of -save-temps): the standard library's headers, which
  // the runtime's header includes, are neither expanded in it for the runtime nor findable, so
  // the rewritten file would not compile. The loops run as written.
  const auto &Inputs = CI.getFrontendOpts().Inputs;
  if (!Inputs.empty() && Inputs[0].getKind().isPreprocessed()) {
    DiagnosticsEngine &D = CI.getDiagnostics();
    D.Report(D.getCustomDiagID(DiagnosticsEngine::Warning,
                               "clustrix: '%0' is preprocessed (-save-temps, or a .i/.ii "
                               "file): its annotated loops run as written; compile the source "
                               "file itself, or rewrite it first with clustrix-rewrite"))
        << FE->getName();
    return nullptr;
  }

  // The rewritten file includes <clustrix/Runtime.h> (<clustrix/runtime_c.h> in C): make it
  // findable, as a system header, before any lookup is cached.
  std::string Inc = runtimeIncludeDir();
  if (auto Dir = CI.getFileManager().getOptionalDirectoryRef(Inc)) {
    HeaderSearch &HS = CI.getPreprocessor().getHeaderSearchInfo();
    HS.AddSearchPath(DirectoryLookup(*Dir, SrcMgr::C_System, /*isFramework=*/false),
                     /*isAngled=*/true);
  }

  if (Settings.Opts.ParseOnce) {
    std::string MainDir = llvm::sys::path::parent_path(FE->getName()).str();
    std::optional<SplitPoint> Split =
        findSplit((*Buf)->getBuffer(), [&](llvm::StringRef Name, bool Angled) {
          std::optional<std::string> Path = Scan.resolve(MainDir, Name, Angled);
          return !Path || !Scan.fileMayHoldOrHide(*Path);
        });
    if (Split)
      if (std::unique_ptr<ASTConsumer> C =
              setUpOneParse(CI, *FE, (*Buf)->getBuffer().str(), *Split, Settings))
        return C;
  }

  // `parse=twice`, or no split: the file is analysed in a parse of its own before the compile.
  pluginLog("two parses: the analysis in a parse of its own before the compile");
  PipelineOutput Out;
  if (!analyseInOwnParse(CI, Settings.Opts, Out) || Out.SourceHadErrors)
    return nullptr; // the real compile reports the errors, on the text as written
  emitDiagnostics(CI.getDiagnostics(), Out.Diags, [](SourceLocation L) { return L; });
  for (const std::string &M : writeOutputs(Settings, FE->getName(), (*Buf)->getBuffer(), Out))
    reportError(CI, M);
  if (!Out.Changed)
    return nullptr;
  replaceHeaders(CI, Out.Headers);
  SM.overrideFileContents(*FE, llvm::MemoryBuffer::getMemBufferCopy(Out.Rewritten,
                                                                     FE->getName()));
  // The main FileID was sized for the original text; locations past its end would decode into
  // the next FileID. A new FileID for the same file entry takes the rewritten size, and keeps
  // the file's directory for quoted includes.
  SM.setMainFileID(SM.createFileID(*FE, SourceLocation(), SrcMgr::C_User));
  return nullptr;
}

/// The OpenMP front door: the project's files that hold OpenMP worksharing loops are read
/// converted (clustrix/Detect/OpenMPDoor.h) by an analysis in a parse of its own; with
/// `openmp=on` the compile then reads the rewritten files, with `openmp=check` the files as
/// written. False when no file of the project holds an OpenMP directive: the plain path
/// follows.
bool ClustrixAction::runOpenMP(CompilerInstance &CI, FileEntryRef Main, llvm::StringRef Text,
                               ProjectScan &Scan) {
  std::vector<std::pair<std::string, std::string>> Sources =
      Scan.projectFiles(Main.getName().str(), Text);
  // Converts the project's files, leaving the directives on the lines of Keep as written.
  auto Convert = [&](const std::map<std::string, std::set<unsigned>> &Keep) {
    auto Files = std::make_shared<std::map<std::string, OmpConversion>>();
    for (auto &[Path, Body] : Sources)
      if (mayContainOpenMP(Body)) {
        auto K = Keep.find(Path);
        OmpConversion C = convertOpenMPLoops(Body, K == Keep.end() ? std::set<unsigned>()
                                                                   : K->second);
        if (!C.Loops.empty() || !C.ThreadPrivate.empty())
          (*Files)[Path] = std::move(C);
      }
    return Files;
  };
  auto Files = Convert({});
  if (Files->empty())
    return false;
  pluginLog("OpenMP front door: " + std::to_string(Files->size()) +
            " file(s) with OpenMP loops; the analysis in a parse of its own");
  PipelineOptions Opts = Settings.Opts;
  Opts.OmpFiles = Files;
  PipelineOutput Out;
  if (!analyseInOwnParse(CI, Opts, Out) || Out.SourceHadErrors)
    return true; // the real compile reports the errors, on the text as written

  // openmp=trust: the loops the analysis refused keep their directives, and the files are
  // analysed and rewritten again without their annotations.
  std::map<std::string, std::set<unsigned>> Trusted;
  if (Opts.OpenMP == OpenMPMode::Trust)
    for (LoopRecord &Rec : Out.Records) {
      if (Rec.Accepted || Rec.OpenMP.Directive.empty() || !Rec.OpenMP.DirectiveLine)
        continue;
      bool Nested = llvm::any_of(Rec.Reasons, [](const ReportReason &R) {
        return R.Kind == rejectKindName(RejectKind::Nested);
      });
      if (Nested)
        continue; // inside a loop that runs through Clustrix: serial there
      for (const auto &[Path, Conv] : *Files) {
        if (normalizedPath(Path) != normalizedPath(Rec.File))
          continue;
        for (const OmpLoop &L : Conv.Loops) {
          if (!L.Taken || L.Line != Rec.OpenMP.DirectiveLine)
            continue;
          Trusted[Path].insert(L.Line);
          Rec.OpenMP.Trusted = true;
          pluginLog("openmp=trust: " + Path + ":" + std::to_string(L.Line) +
                    " runs with OpenMP's semantics, unproved");
          // Main, the converted files: the same file entries the compile has (ProjectScan).
          if (OptionalFileEntryRef FE = CI.getFileManager().getOptionalFileRef(Path)) {
            SourceManager &SM = CI.getSourceManager();
            FileID F = SM.getOrCreateFileID(*FE, SrcMgr::C_User);
            Out.Diags.push_back({DiagnosticsEngine::Remark,
                                 SM.translateLineCol(F, L.Line, L.Column),
                                 "OpenMP loop left as written (openmp=trust): it runs with "
                                 "OpenMP's semantics under -fopenmp, unproved",
                                 {},
                                 {}});
          }
        }
      }
    }
  emitDiagnostics(CI.getDiagnostics(), Out.Diags, [](SourceLocation L) { return L; });
  if (!Trusted.empty()) {
    // The report keeps the first analysis's records (the trusted loops' reasons); the text is
    // the second's.
    Opts.OmpFiles = Convert(Trusted);
    PipelineOutput Again;
    if (!analyseInOwnParse(CI, Opts, Again) || Again.SourceHadErrors) {
      reportError(CI, "clustrix: the second analysis of openmp=trust failed; please report "
                      "this (openmp=on compiles the file)");
      return true;
    }
    Again.Records = std::move(Out.Records);
    Out = std::move(Again);
  }
  for (const std::string &M : writeOutputs(Settings, Main.getName(), Text, Out))
    reportError(CI, M);
  if (Opts.OpenMP == OpenMPMode::Check || !Out.Changed)
    return true;
  replaceHeaders(CI, Out.Headers);
  SourceManager &SM = CI.getSourceManager();
  SM.overrideFileContents(Main, llvm::MemoryBuffer::getMemBufferCopy(Out.Rewritten,
                                                                     Main.getName()));
  SM.setMainFileID(SM.createFileID(Main, SourceLocation(), SrcMgr::C_User));
  return true;
}

} // namespace

static FrontendPluginRegistry::Add<ClustrixAction>
    X("clustrix", "run [[cluster::gpu_parallel]] loops across devices");
