//===- PluginFuzzer.cpp - libFuzzer target: the whole compile-side pipeline -===//
//
// The input is a C++ source file, usually a mutated annotated loop. It goes through what the
// plugin and clustrix-rewrite run on every file: the analysis parse with the attribute watcher,
// Detect, Analyze, Decide and Rewrite (AnalysisAction). Sources that do not compile are left
// alone by the pipeline, as in a real build; whatever parses must be analyzed without a crash,
// an assertion or a sanitizer report. Inputs without `gpu_parallel` are skipped, as the plugin
// skips them.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Frontend/AnalysisAction.h"

#include "clang/Tooling/Tooling.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Code(reinterpret_cast<const char *>(Data), Size);
  if (Code.find("gpu_parallel") == std::string::npos || Code.find('\0') != std::string::npos)
    return 0;
  clustrix::PipelineOptions Opts;
  clustrix::PipelineOutput Out;
  // No system headers: inputs are self-contained, which keeps one execution at a few
  // milliseconds. -w: warnings are the user's business; -ferror-limit bounds garbage.
  std::vector<std::string> Args = {"-std=c++17", "-fsyntax-only", "-w", "-ferror-limit=5",
                                   "-nostdinc++", "-nostdlibinc"};
  clang::tooling::runToolOnCodeWithArgs(std::make_unique<clustrix::AnalysisAction>(Opts, Out),
                                        Code, Args, "fuzz.cpp");
  return 0;
}
