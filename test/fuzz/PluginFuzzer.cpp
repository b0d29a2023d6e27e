//===- PluginFuzzer.cpp - libFuzzer target: the whole compile-side pipeline -===//
//
// The input is a C++ source file, usually a mutated annotated loop. It goes through what the
// plugin and clustrix-rewrite run on every file: the analysis parse with the attribute watcher,
// Detect, Analyze, Decide and Rewrite (AnalysisAction). Sources that do not compile are left
// alone by the pipeline, as in a real build; whatever parses must be analyzed without a crash,
// an assertion or a sanitizer report. Inputs without `gpu_parallel` or `omp` are skipped, as
// the plugin skips them. An input with `omp` also goes through the OpenMP front door in its
// checking mode (openmp=check): the door's conversion, the analysis of each loop it takes, and
// the race check, with its runs of the loop's function; as a part and as a whole program, by
// the input's last byte.
//
// The target runs Clang's own parser in-process, and Clang 19 has crashes of its own on some
// malformed sources (docs/fuzzing.md). Those are not Clustrix's to fix, and one of them ends a
// libFuzzer run, so a crash is triaged: the pipeline runs under a CrashRecoveryContext; when it
// crashes, the same source goes through Clang alone (-fsyntax-only, no Clustrix action), also
// under recovery. If Clang alone crashes too, the input is Clang's: it is reported on stderr
// and rejected from the corpus. Otherwise the pipeline runs once more without recovery, so the
// crash is reported with its own stack and kept as an artifact; if that run somehow survives,
// the target aborts anyway. Sanitizer reports (ASan, UBSan) are never recovered.
//
// CLUSTRIX_FUZZ_SELFTEST=crash makes the pipeline crash after the analysis on inputs that
// contain CLUSTRIX_FUZZ_SELFTEST: the test of the triage (test/CMakeLists.txt) shows that a
// crash of the pipeline on a source Clang parses is still a crash of the target.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Detect/OpenMPDoor.h"
#include "clustrix/Frontend/AnalysisAction.h"
#include "clustrix/Support/Text.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/CrashRecoveryContext.h"

#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

// No system headers: inputs are self-contained, which keeps one execution at a few
// milliseconds. -w: warnings are the user's business; -ferror-limit bounds garbage.
const std::vector<std::string> &parseArgs() {
  static const std::vector<std::string> Args = {"-std=c++17",      "-fsyntax-only", "-w",
                                                "-ferror-limit=5", "-nostdinc++",   "-nostdlibinc"};
  return Args;
}

bool selfTestCrash() {
  static const bool On = [] {
    const char *V = std::getenv("CLUSTRIX_FUZZ_SELFTEST");
    return V && std::strcmp(V, "crash") == 0;
  }();
  return On;
}

/// The self-test's crash: a consumer that runs after Clustrix's and raises SIGSEGV, as a null
/// dereference in the analysis would.
class SelfTestCrashConsumer : public clang::ASTConsumer {
public:
  void HandleTranslationUnit(clang::ASTContext &) override { std::raise(SIGSEGV); }
};

class SelfTestAction : public clustrix::AnalysisAction {
public:
  using clustrix::AnalysisAction::AnalysisAction;

protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &CI,
                                                        llvm::StringRef File) override {
    std::vector<std::unique_ptr<clang::ASTConsumer>> Consumers;
    Consumers.push_back(clustrix::AnalysisAction::CreateASTConsumer(CI, File));
    Consumers.push_back(std::make_unique<SelfTestCrashConsumer>());
    return std::make_unique<clang::MultiplexConsumer>(std::move(Consumers));
  }
};

/// The Clustrix pipeline on Code, as the plugin runs it.
void runPipeline(const std::string &Code) {
  clustrix::PipelineOptions Opts;
  clustrix::PipelineOutput Out;
  std::unique_ptr<clang::FrontendAction> Action;
  if (selfTestCrash() && Code.find("CLUSTRIX_FUZZ_SELFTEST") != std::string::npos)
    Action = std::make_unique<SelfTestAction>(Opts, Out);
  else
    Action = std::make_unique<clustrix::AnalysisAction>(Opts, Out);
  clang::tooling::runToolOnCodeWithArgs(std::move(Action), Code, parseArgs(), "fuzz.cpp");
}

/// The OpenMP front door's checking mode on Code, as the plugin runs it: the converted text is
/// parsed in place of the file, and each loop the door took is judged.
void runOpenMPCheck(const std::string &Code) {
  const std::string File = "fuzz.cpp";
  auto Conversions = std::make_shared<std::map<std::string, clustrix::OmpConversion>>();
  clustrix::OmpConversion &C = (*Conversions)[clustrix::normalizedPath(File)];
  C = clustrix::convertOpenMPLoops(Code);
  clustrix::PipelineOptions Opts;
  Opts.OpenMP = clustrix::OpenMPMode::Check;
  Opts.WholeProgram = !Code.empty() && (Code.back() & 1);
  Opts.OmpFiles = Conversions;
  clustrix::PipelineOutput Out;
  clang::tooling::runToolOnCodeWithArgs(std::make_unique<clustrix::AnalysisAction>(Opts, Out),
                                        C.Text, parseArgs(), File);
}

/// Clang alone on Code: the parse and Sema, nothing of Clustrix.
void runClangAlone(const std::string &Code) {
  clang::tooling::runToolOnCodeWithArgs(std::make_unique<clang::SyntaxOnlyAction>(), Code,
                                        parseArgs(), "fuzz.cpp");
}

/// Runs F under crash recovery; false when it crashed (a signal; sanitizer reports end the
/// process before this can see them).
bool runRecovering(llvm::function_ref<void()> F) {
  llvm::CrashRecoveryContext CRC;
  return CRC.RunSafely(F);
}

} // namespace

// No leak report for this target, in the loop (scripts/fuzz.sh) or at exit: a crash recovered
// above does not unwind, so Clang's state of that parse stays allocated for good.
extern "C" const char *__asan_default_options() { return "detect_leaks=0"; }

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  llvm::CrashRecoveryContext::Enable();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Code(reinterpret_cast<const char *>(Data), Size);
  bool Annotated = Code.find("gpu_parallel") != std::string::npos;
  bool OpenMP = Code.find("omp") != std::string::npos;
  if ((!Annotated && !OpenMP) || Code.find('\0') != std::string::npos)
    return 0;
  auto Pipeline = [&] {
    if (Annotated)
      runPipeline(Code);
    if (OpenMP)
      runOpenMPCheck(Code);
  };
  if (runRecovering(Pipeline))
    return 0;
  if (!runRecovering([&] { runClangAlone(Code); })) {
    std::fprintf(stderr, "plugin-fuzzer: Clang alone (-fsyntax-only, without Clustrix) crashes "
                         "on this input too: a crash of Clang's, not of Clustrix; input "
                         "rejected\n");
    return -1;
  }
  std::fprintf(stderr, "plugin-fuzzer: the Clustrix pipeline crashed on a source that Clang "
                       "alone parses without a crash; running it again unprotected\n");
  llvm::CrashRecoveryContext::Disable();
  Pipeline();
  std::fprintf(stderr, "plugin-fuzzer: the second run did not crash; aborting on the first\n");
  std::abort();
}
