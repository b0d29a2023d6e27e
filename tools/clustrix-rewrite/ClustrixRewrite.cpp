//===- ClustrixRewrite.cpp - The source-to-source front door ---------------===//
//
// clustrix-rewrite app.cpp -o app.clustrix.cpp -- <compile flags>
// clustrix-rewrite -p build/ a.cpp b.cpp        (flags from compile_commands.json)
//
// Writes the rewritten sources, which compile with g++, clang++ and nvcc against the runtime.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Decide/Diagnostics.h"
#include "clustrix/Decide/Report.h"
#include "clustrix/Frontend/AnalysisAction.h"
#include "clustrix/Support/Text.h"
#include "clustrix/Support/Version.h"

#include "clang/Basic/DiagnosticSema.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/Tooling.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>

using namespace clang;
using namespace clang::tooling;
using namespace clustrix;

static llvm::cl::OptionCategory Category("clustrix-rewrite options");
static llvm::cl::opt<std::string> OutputFile(
    "o", llvm::cl::desc("Output file (one input only); default: <input>.clustrix.cpp"),
    llvm::cl::value_desc("file"), llvm::cl::cat(Category));
static llvm::cl::opt<std::string> ReportFile(
    "report", llvm::cl::desc("Write the JSON report of every loop decision to <file>"),
    llvm::cl::value_desc("file"), llvm::cl::cat(Category));
static llvm::cl::opt<std::string>
    Remarks("remarks", llvm::cl::desc("Remarks for accepted loops: on (default) or off"),
            llvm::cl::init("on"), llvm::cl::cat(Category));
static llvm::cl::opt<std::string> Refusals(
    "refusals",
    llvm::cl::desc("How refused loops are reported: warning (default), error, remark, ignore"),
    llvm::cl::init("warning"), llvm::cl::cat(Category));
static llvm::cl::opt<unsigned>
    MaxLevel("max-level", llvm::cl::desc("Refuse loops above this complexity level (1-5)"),
             llvm::cl::init(5), llvm::cl::cat(Category));
static llvm::cl::opt<std::string> KernelsDir(
    "kernels-dir",
    llvm::cl::desc("Also write each loop's CUDA kernel text to <dir>/<kernel>.cu"),
    llvm::cl::value_desc("dir"), llvm::cl::cat(Category));
static llvm::cl::opt<bool> Stdout("stdout", llvm::cl::desc("Write the result to standard output"),
                                  llvm::cl::cat(Category));
static llvm::cl::opt<std::string> OutDir(
    "out-dir",
    llvm::cl::desc("Write every rewritten file (the inputs, and the project's included files that "
                   "hold annotated loops) under <dir>, at its path relative to the project root"),
    llvm::cl::value_desc("dir"), llvm::cl::cat(Category));
static llvm::cl::opt<std::string> OpenMP(
    "openmp",
    llvm::cl::desc("The OpenMP front door: on ('omp parallel for' loops are annotated loops), "
                   "check (each judged race, race-free or unknown; nothing written; the exit "
                   "status is 1 when a loop has a race), or off (default)"),
    llvm::cl::init("off"), llvm::cl::cat(Category));
static llvm::cl::opt<bool> Migrate(
    "migrate",
    llvm::cl::desc("With --openmp=on: write each input with the OpenMP directives of the "
                   "loops Clustrix proves replaced by [[cluster::gpu_parallel]] annotations, "
                   "the others left as written (each named, with its reason)"),
    llvm::cl::cat(Category));
static llvm::cl::opt<std::string> ProjectRoot(
    "project-root",
    llvm::cl::desc("Files outside <dir> are never rewritten (default with --out-dir: the "
                   "current directory)"),
    llvm::cl::value_desc("dir"), llvm::cl::cat(Category));

namespace {
/// Drops clang's "unknown attribute ignored" warning for `cluster::` attributes, which this tool
/// handles (in the plugin, the compile sees the rewritten text, which has none). Every other
/// diagnostic, other unknown attributes included, goes through.
class ClusterAttributeFilter : public DiagnosticConsumer {
public:
  explicit ClusterAttributeFilter(DiagnosticOptions *Opts)
      : Printer(llvm::errs(), Opts) {}
  void BeginSourceFile(const LangOptions &LO, const Preprocessor *PP) override {
    Printer.BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override { Printer.EndSourceFile(); }
  void finish() override { Printer.finish(); }
  void HandleDiagnostic(DiagnosticsEngine::Level Level, const Diagnostic &Info) override {
    if (Info.getID() == diag::warn_unknown_attribute_ignored && Info.hasSourceManager() &&
        Info.getLocation().isValid()) {
      const SourceManager &SM = Info.getSourceManager();
      llvm::StringRef Text = SM.getCharacterData(SM.getSpellingLoc(Info.getLocation()));
      if (Text.starts_with("cluster")) {
        Text = Text.drop_front(7).ltrim(" \t");
        if (Text.starts_with(":"))
          return;
      }
    }
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    Printer.HandleDiagnostic(Level, Info);
  }

private:
  TextDiagnosticPrinter Printer;
};

struct Result {
  std::vector<ReportUnit> Units; ///< One per translation unit, in the order they ran.
  /// Included files written so far: their text, and the unit that wrote it.
  std::map<std::string, std::pair<std::string, std::string>> Headers;
  bool Failed = false;
  bool Races = false; ///< --openmp=check found a race (exit status 1).
};

std::string normalized(llvm::StringRef Path) { return clustrix::normalizedPath(Path); }

/// Where --out-dir puts File: its path relative to Root, under OutDir; empty when File is not
/// under Root.
std::string mirrored(llvm::StringRef File, llvm::StringRef Root) {
  std::optional<std::string> Rel = clustrix::pathUnder(File, Root);
  if (!Rel)
    return "";
  llvm::SmallString<256> P(normalized(OutDir));
  llvm::sys::path::append(P, *Rel);
  return std::string(P);
}

/// Writes Text to Path, creating its directory; false (with a message) when it cannot.
bool writeFile(const std::string &Path, const std::string &Text) {
  if (std::error_code EC = llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path))) {
    llvm::errs() << "clustrix-rewrite: cannot create the directory of '" << Path
                 << "': " << EC.message() << "\n";
    return false;
  }
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_Text);
  if (EC) {
    llvm::errs() << "clustrix-rewrite: cannot write '" << Path << "': " << EC.message() << "\n";
    return false;
  }
  OS << Text;
  return true;
}

/// Runs the analysis action on each file and writes its output.
class RewriteFactory : public FrontendActionFactory {
public:
  RewriteFactory(PipelineOptions Opts, Result &Res, size_t NumFiles)
      : Opts(Opts), Res(Res), NumFiles(NumFiles) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<AnalysisAction>(
        Opts, Out, [this](CompilerInstance &CI, PipelineOutput &O) { finish(CI, O); });
  }

private:
  void finish(CompilerInstance &CI, PipelineOutput &O) {
    // Diagnostics go straight into this parse's engine: the locations are its own, but a file
    // the OpenMP front door converted is shown as written (same lines, and each directive
    // starts where its annotation does).
    SourceManager &SM = CI.getSourceManager();
    std::map<FileID, FileID> AsWritten;
    emitDiagnostics(CI.getDiagnostics(), O.Diags, [&](SourceLocation L) {
      if (!Opts.OmpFiles || L.isInvalid())
        return L;
      SourceLocation S = SM.getSpellingLoc(L);
      FileID F = SM.getFileID(S);
      OptionalFileEntryRef FE = SM.getFileEntryRefForID(F);
      if (!FE)
        return L;
      auto C = Opts.OmpFiles->find(normalized(FE->getName()));
      if (C == Opts.OmpFiles->end() || !C->second.Changed)
        return L;
      auto It = AsWritten.find(F);
      if (It == AsWritten.end()) {
        auto Disk = llvm::MemoryBuffer::getFile(FE->getName());
        if (!Disk)
          return L;
        It = AsWritten
                 .emplace(F, SM.createFileID(llvm::MemoryBuffer::getMemBufferCopy(
                                                 (*Disk)->getBuffer(), FE->getName())))
                 .first;
      }
      SourceLocation T = SM.translateLineCol(It->second, SM.getSpellingLineNumber(S),
                                             SM.getSpellingColumnNumber(S));
      return T.isValid() ? T : L;
    });
    OptionalFileEntryRef FE = SM.getFileEntryRefForID(SM.getMainFileID());
    std::string In = FE ? FE->getName().str() : "input";
    Res.Units.push_back({In, O.Records});
    if (O.SourceHadErrors || O.Errors) {
      llvm::errs() << "clustrix-rewrite: " << In << ": not rewritten because of the errors above\n";
      Res.Failed = true;
      O = PipelineOutput();
      return;
    }
    if (!KernelsDir.empty()) {
      if (std::error_code EC = llvm::sys::fs::create_directories(KernelsDir)) {
        llvm::errs() << "clustrix-rewrite: cannot create '" << KernelsDir << "': " << EC.message()
                     << "\n";
        Res.Failed = true;
      }
      for (const auto &[Name, Source] : O.Kernels) {
        llvm::SmallString<256> P(KernelsDir.getValue());
        llvm::sys::path::append(P, Name + ".cu");
        std::error_code EC;
        llvm::raw_fd_ostream KS(P, EC, llvm::sys::fs::OF_Text);
        if (EC) {
          llvm::errs() << "clustrix-rewrite: cannot write '" << P << "': " << EC.message() << "\n";
          Res.Failed = true;
          continue;
        }
        KS << Source;
      }
    }
    std::string Text = O.Changed ? O.Rewritten : SM.getBufferData(SM.getMainFileID()).str();
    if (Opts.OpenMP == OpenMPMode::Check) {
      for (const LoopRecord &R : Res.Units.back().Records)
        Res.Races |= R.OpenMP.Verdict == "race";
      O = PipelineOutput();
      return; // the verdicts are the output
    }
    if (Migrate) {
      std::string Migrated;
      if (!migrated(In, Res.Units.back().Records, Migrated)) {
        Res.Failed = true;
        O = PipelineOutput();
        return;
      }
      Text = std::move(Migrated);
      O.Headers.clear();
    }
    // Included files: the same text from every unit that includes them, or an error (a unit
    // that sees other declarations before the file, or instantiates its templates otherwise).
    for (const auto &[Header, HText] : O.Headers) {
      std::string Key = normalized(Header);
      auto [It, New] = Res.Headers.emplace(Key, std::make_pair(HText, In));
      if (!New) {
        if (It->second.first != HText) {
          llvm::errs() << "clustrix-rewrite: '" << Header << "' is rewritten differently for '"
                       << It->second.second << "' and for '" << In
                       << "' (they instantiate its templates differently, or see other "
                          "declarations before it); rewrite them apart, or build with the "
                          "plugin\n";
          Res.Failed = true;
        }
        continue;
      }
      std::string Path = mirrored(Header, ProjectRoot);
      if (Path.empty() || !writeFile(Path, HText))
        Res.Failed = true;
    }
    O = PipelineOutput();
    if (Stdout) {
      llvm::outs() << Text;
      return;
    }
    std::string Path = OutputFile.empty() || NumFiles > 1 ? outputName(In) : OutputFile.getValue();
    if (!OutDir.empty()) {
      Path = mirrored(In, ProjectRoot);
      if (Path.empty()) {
        llvm::errs() << "clustrix-rewrite: '" << In << "' is outside the project root '"
                     << ProjectRoot << "'; --out-dir writes only files under it\n";
        Res.Failed = true;
        return;
      }
      if (!writeFile(Path, Text))
        Res.Failed = true;
      return;
    }
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_Text);
    if (EC) {
      llvm::errs() << "clustrix-rewrite: cannot write '" << Path << "': " << EC.message() << "\n";
      Res.Failed = true;
      return;
    }
    OS << Text;
  }
  /// The input as written, with the directives of the loops the analysis accepted replaced by
  /// their annotations; each loop left is named on stderr with its reason.
  bool migrated(const std::string &In, const std::vector<LoopRecord> &Records,
                std::string &Out) const {
    auto Buf = llvm::MemoryBuffer::getFile(In);
    if (!Buf) {
      llvm::errs() << "clustrix-rewrite: cannot read '" << In << "'\n";
      return false;
    }
    llvm::StringRef Original = (*Buf)->getBuffer();
    std::set<unsigned> Proved;
    for (const LoopRecord &R : Records)
      if (R.Accepted && R.OpenMP.DirectiveLine &&
          normalized(R.File) == normalized(In))
        Proved.insert(R.OpenMP.DirectiveLine);
    std::set<unsigned> Keep;
    auto Conv = Opts.OmpFiles->find(normalized(In));
    if (Conv == Opts.OmpFiles->end()) {
      Out = Original.str(); // no OpenMP loop in it
      return true;
    }
    for (const OmpLoop &L : Conv->second.Loops)
      if (!Proved.count(L.Line)) {
        Keep.insert(L.Line);
        std::string Why = L.WhyNot;
        for (const LoopRecord &R : Records)
          if (R.OpenMP.DirectiveLine == L.Line && !R.Reasons.empty())
            Why = R.Reasons.front().Message;
        llvm::errs() << In << ":" << L.Line << ": '#pragma omp " << L.Directive
                     << "' left as written: " << Why << "\n";
      }
    Out = convertOpenMPLoops(Original, Keep).Text;
    return true;
  }

  static std::string outputName(llvm::StringRef In) {
    llvm::SmallString<256> P(In);
    llvm::StringRef Ext = llvm::sys::path::extension(In);
    llvm::sys::path::replace_extension(P, ".clustrix" + Ext.str());
    return std::string(P);
  }

  PipelineOptions Opts;
  PipelineOutput Out;
  Result &Res;
  size_t NumFiles;
};
} // namespace

int main(int argc, const char **argv) {
  llvm::cl::SetVersionPrinter(
      [](llvm::raw_ostream &OS) { OS << "clustrix-rewrite: " << versionString() << "\n"; });
  auto Parser = CommonOptionsParser::create(
      argc, argv, Category, llvm::cl::OneOrMore,
      "Rewrites loops annotated [[cluster::gpu_parallel]] into calls to the Clustrix runtime.\n"
      "The output compiles with g++, clang++ or nvcc: add -I<prefix>/include and link\n"
      "-lclustrix_rt.\n");
  if (!Parser) {
    llvm::errs() << "clustrix-rewrite: " << llvm::toString(Parser.takeError()) << "\n";
    return 2;
  }
  PipelineOptions Opts;
  std::string Rep, Emit;
  for (const std::string &A : {"remarks=" + Remarks, "refusals=" + Refusals,
                               "max-level=" + std::to_string(MaxLevel), "openmp=" + OpenMP}) {
    std::string Err = applyOption(A, Opts, Rep, Emit);
    if (!Err.empty()) {
      llvm::errs() << "clustrix-rewrite: " << Err << "\n";
      return 2;
    }
  }
  const auto &Files = Parser->getSourcePathList();
  if (!OutDir.empty() && (!OutputFile.empty() || Stdout)) {
    llvm::errs() << "clustrix-rewrite: --out-dir writes every file under its directory; it "
                    "takes neither -o nor --stdout\n";
    return 2;
  }
  if (!OutDir.empty() && ProjectRoot.empty())
    ProjectRoot = ".";
  // Included files are rewritten only where they can be written: under --out-dir.
  Opts.Analysis.RewriteHeaders = !OutDir.empty();
  if (!ProjectRoot.empty())
    Opts.Analysis.ProjectRoot = normalized(ProjectRoot);
  if (!OutputFile.empty() && Files.size() > 1) {
    llvm::errs() << "clustrix-rewrite: -o takes one input file; with several, each is written "
                    "to <input>.clustrix.cpp\n";
    return 2;
  }
  if (Migrate && Opts.OpenMP != OpenMPMode::On) {
    llvm::errs() << "clustrix-rewrite: --migrate needs --openmp=on\n";
    return 2;
  }
  if (Opts.OpenMP == OpenMPMode::Trust) {
    llvm::errs() << "clustrix-rewrite: --openmp=trust is the plugin's (clustrix++ "
                    "--clustrix-openmp=trust); this tool takes on, check or off\n";
    return 2;
  }
  ClangTool Tool(Parser->getCompilations(), Files);
  // The OpenMP front door: each input is parsed converted (its included files are not).
  if (Opts.OpenMP != OpenMPMode::Off) {
    auto Conversions = std::make_shared<std::map<std::string, OmpConversion>>();
    for (const std::string &F : Files) {
      std::string Path = getAbsolutePath(F);
      auto Buf = llvm::MemoryBuffer::getFile(Path);
      if (!Buf)
        continue; // the tool reports it
      (*Conversions)[normalized(Path)] = convertOpenMPLoops((*Buf)->getBuffer());
    }
    // The tool keeps references to the names and texts: the map's, which live to the end.
    for (const auto &[Path, C] : *Conversions)
      if (C.Changed)
        Tool.mapVirtualFile(Path, C.Text);
    Opts.OmpFiles = Conversions;
  }
  llvm::IntrusiveRefCntPtr<DiagnosticOptions> DiagOpts = new DiagnosticOptions();
  ClusterAttributeFilter Filter(DiagOpts.get());
  Tool.setDiagnosticConsumer(&Filter);
  Result Res;
  RewriteFactory Factory(Opts, Res, Files.size());
  int RC = Tool.run(&Factory);
  if (!ReportFile.empty())
    if (llvm::Error E = writeReport(ReportFile, Res.Units)) {
      llvm::errs() << "clustrix-rewrite: " << llvm::toString(std::move(E)) << "\n";
      return 1;
    }
  return RC != 0 || Res.Failed || Res.Races ? 1 : 0;
}
