//===- ClustrixPlugin.cpp - The Clang plugin front door --------------------===//
//
// `clang++-19 -fplugin=clustrix.so` (or `clang-19 -x c ...` for C) compiles annotated loops
// through the runtime in the same invocation. An AddBeforeMainAction runs a nested analysis
// parse of the main file (where the token watcher can be installed), reports its diagnostics
// into the user's engine, and overrides the contents of the main file, and of the project's
// included files that hold annotated loops, with the rewritten text before the real compile
// lexes them.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Decide/Diagnostics.h"
#include "clustrix/Decide/Report.h"
#include "clustrix/Detect/AttributeCollector.h"
#include "clustrix/Frontend/AnalysisAction.h"

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

/// Set while the nested analysis parse runs: clang instantiates every registered
/// AddBeforeMainAction plugin for it too, and that instance must do nothing.
bool InAnalysis = false;

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

/// Whether the main file, or a file of the project it includes (directly or not), may hold an
/// annotation: a lexical scan that follows `#include "..."` and `#include <...>` lines to files
/// found in the including file's directory or in a user (non-system) search directory. It
/// ignores conditionals, so it may say yes in vain; an include spelled through a macro is not
/// followed, and the loops of such a header then stay as written.
bool projectMayHoldAnnotations(CompilerInstance &CI, FileEntryRef Main, llvm::StringRef Text) {
  if (mayContainAnnotations(Text))
    return true;
  FileManager &FM = CI.getFileManager();
  HeaderSearch &HS = CI.getPreprocessor().getHeaderSearchInfo();
  std::vector<std::string> UserDirs;
  for (const DirectoryLookup &DL : HS.search_dir_range())
    if (DL.getDirCharacteristic() == SrcMgr::C_User && DL.isNormalDir())
      UserDirs.push_back(DL.getDirRef()->getName().str());
  std::set<const FileEntry *> Seen{&Main.getFileEntry()};
  std::vector<std::pair<std::string, std::string>> Work{
      {llvm::sys::path::parent_path(Main.getName()).str(), Text.str()}};
  constexpr size_t MaxFiles = 500; // a bound on the cost for files without annotations
  while (!Work.empty() && Seen.size() < MaxFiles) {
    auto [Dir, Body] = std::move(Work.back());
    Work.pop_back();
    llvm::SmallVector<llvm::StringRef, 64> Lines;
    llvm::StringRef(Body).split(Lines, '\n');
    for (llvm::StringRef L : Lines) {
      L = L.ltrim();
      if (!L.consume_front("#"))
        continue;
      L = L.ltrim();
      if (!L.consume_front("include"))
        continue;
      L = L.ltrim();
      if (L.empty() || (L[0] != '"' && L[0] != '<'))
        continue;
      char Close = L[0] == '"' ? '"' : '>';
      size_t End = L.find(Close, 1);
      if (End == llvm::StringRef::npos)
        continue;
      llvm::StringRef Name = L.substr(1, End - 1);
      std::vector<std::string> Dirs;
      if (Close == '"')
        Dirs.push_back(Dir);
      Dirs.insert(Dirs.end(), UserDirs.begin(), UserDirs.end());
      for (const std::string &D : Dirs) {
        llvm::SmallString<256> P(D);
        llvm::sys::path::append(P, Name);
        OptionalFileEntryRef FE = FM.getOptionalFileRef(P);
        if (!FE)
          continue;
        if (Seen.insert(&FE->getFileEntry()).second)
          if (auto Buf = FM.getBufferForFile(*FE)) {
            if (mayContainAnnotations((*Buf)->getBuffer()))
              return true;
            Work.push_back({llvm::sys::path::parent_path(P).str(), (*Buf)->getBuffer().str()});
          }
        break;
      }
    }
  }
  return false;
}

class ClustrixAction : public PluginASTAction {
public:
  bool ParseArgs(const CompilerInstance &CI, const std::vector<std::string> &Args) override {
    if (InAnalysis)
      return true;
    for (const std::string &A : Args) {
      std::string Err = applyOption(A, Opts, ReportFile, EmitRewritten);
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
    if (!InAnalysis)
      run(CI);
    return std::make_unique<ASTConsumer>();
  }

private:
  void run(CompilerInstance &CI);

  PipelineOptions Opts;
  std::string ReportFile, EmitRewritten;
};

void ClustrixAction::run(CompilerInstance &CI) {
  SourceManager &SM = CI.getSourceManager();
  OptionalFileEntryRef FE = SM.getFileEntryRefForID(SM.getMainFileID());
  if (!FE)
    return;
  // Read the file apart from the SourceManager, whose buffer must stay unloaded until it is
  // overridden. Files without an annotation, in them or in the project's files they include,
  // cost these reads and nothing else.
  auto Buf = CI.getFileManager().getBufferForFile(*FE);
  if (!Buf || !projectMayHoldAnnotations(CI, *FE, (*Buf)->getBuffer())) {
    if (!ReportFile.empty())
      if (llvm::Error E = writeReport(ReportFile, {{FE->getName().str(), {}}}))
        CI.getDiagnostics().Report(CI.getDiagnostics().getCustomDiagID(
            DiagnosticsEngine::Error, "%0")) << llvm::toString(std::move(E));
    return;
  }

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

  CompilerInstance Nested(CI.getPCHContainerOperations());
  Nested.setInvocation(Inv);
  // The user's own diagnostics come from the real compile; the analysis parse stays silent.
  Nested.createDiagnostics(new IgnoringDiagConsumer(), /*ShouldOwnClient=*/true);
  Nested.getDiagnostics().setIgnoreAllWarnings(true);
  Nested.setFileManager(&CI.getFileManager());

  PipelineOutput Out;
  AnalysisAction Act(Opts, Out);
  InAnalysis = true;
  Nested.ExecuteAction(Act);
  InAnalysis = false;
  if (Out.SourceHadErrors || !Nested.hasSourceManager())
    return; // the real compile reports the errors, on the text as written

  // Map analysis locations to copies of the same files in the user's SourceManager: the main
  // file itself is about to be replaced by the rewritten text.
  SourceManager &NSM = Nested.getSourceManager();
  std::map<FileID, FileID> Copies;
  auto Map = [&](SourceLocation L) -> SourceLocation {
    if (L.isInvalid())
      return L;
    SourceLocation F = NSM.getSpellingLoc(L);
    FileID FID = NSM.getFileID(F);
    if (FID.isInvalid())
      return SourceLocation();
    auto It = Copies.find(FID);
    if (It == Copies.end()) {
      std::string Name = NSM.getFileEntryRefForID(FID)
                             ? NSM.getFileEntryRefForID(FID)->getName().str()
                             : NSM.getBufferName(F).str();
      FileID Copy = SM.createFileID(
          llvm::MemoryBuffer::getMemBufferCopy(NSM.getBufferData(FID), Name));
      It = Copies.emplace(FID, Copy).first;
    }
    return SM.getComposedLoc(It->second, NSM.getFileOffset(F));
  };
  emitDiagnostics(CI.getDiagnostics(), Out.Diags, Map);

  if (!ReportFile.empty())
    if (llvm::Error E = writeReport(ReportFile, {{FE->getName().str(), Out.Records}}))
      CI.getDiagnostics().Report(
          CI.getDiagnostics().getCustomDiagID(DiagnosticsEngine::Error, "%0"))
          << llvm::toString(std::move(E));
  if (!EmitRewritten.empty()) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(EmitRewritten, EC, llvm::sys::fs::OF_Text);
    if (EC)
      CI.getDiagnostics().Report(CI.getDiagnostics().getCustomDiagID(
          DiagnosticsEngine::Error, "cannot write rewritten source '%0': %1"))
          << EmitRewritten << EC.message();
    else
      OS << (Out.Changed ? Out.Rewritten : (*Buf)->getBuffer().str());
  }
  if (!Out.Changed)
    return;

  // The rewritten file includes <clustrix/Runtime.h> (<clustrix/runtime_c.h> in C): make it
  // findable, as a system header.
  std::string Inc = runtimeIncludeDir();
  if (auto Dir = CI.getFileManager().getOptionalDirectoryRef(Inc)) {
    HeaderSearch &HS = CI.getPreprocessor().getHeaderSearchInfo();
    HS.AddSearchPath(DirectoryLookup(*Dir, SrcMgr::C_System, /*isFramework=*/false),
                     /*isAngled=*/true);
  }
  // The project's included files that hold loops: replaced before the real compile opens them.
  for (const auto &[Path, Text] : Out.Headers) {
    OptionalFileEntryRef HE = CI.getFileManager().getOptionalFileRef(Path);
    if (!HE) {
      CI.getDiagnostics().Report(CI.getDiagnostics().getCustomDiagID(
          DiagnosticsEngine::Error, "clustrix: cannot replace included file '%0'"))
          << Path;
      continue;
    }
    SM.overrideFileContents(*HE, llvm::MemoryBuffer::getMemBufferCopy(Text, HE->getName()));
  }
  SM.overrideFileContents(*FE, llvm::MemoryBuffer::getMemBufferCopy(Out.Rewritten,
                                                                     FE->getName()));
  // The main FileID was sized for the original text; locations past its end would decode into
  // the next FileID. A new FileID for the same file entry takes the rewritten size, and keeps
  // the file's directory for quoted includes.
  SM.setMainFileID(SM.createFileID(*FE, SourceLocation(), SrcMgr::C_User));
}

} // namespace

static FrontendPluginRegistry::Add<ClustrixAction>
    X("clustrix", "run [[cluster::gpu_parallel]] loops across devices");
