//===- clustrix/Frontend/Options.h - Options of the front doors -*- C++ -*-===//
//
// The options the plugin (-fplugin-arg-clustrix-NAME=VALUE) and clustrix-rewrite (--NAME=VALUE)
// share, parsed in one place so that both accept the same words with the same messages.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_FRONTEND_OPTIONS_H
#define CLUSTRIX_FRONTEND_OPTIONS_H

#include "clustrix/Analysis/LoopAnalysis.h"
#include "clustrix/Decide/Diagnostics.h"
#include "clustrix/Detect/OpenMPDoor.h"

#include "llvm/ADT/StringRef.h"

#include <map>
#include <memory>
#include <string>

namespace clustrix {

/// Options shared by the front doors.
/// The OpenMP front door (docs/openmp.md): off; `on`, OpenMP worksharing loops are annotated
/// loops (those the analysis refuses run serially); `check`, each is judged under OpenMP's
/// rules (race, race-free or unknown) and the program is compiled as written.
/// `trust` is `on`, and a loop the analysis refuses keeps its directive (OpenMP's semantics
/// under -fopenmp, unproved).
enum class OpenMPMode { Off, On, Trust, Check };

struct PipelineOptions {
  OpenMPMode OpenMP = OpenMPMode::Off;
  /// The front door's conversions of the files it read, by the name the parse opens each by.
  std::shared_ptr<const std::map<std::string, OmpConversion>> OmpFiles;
  AnalysisOptions Analysis;
  DiagOptions Diags;
  /// The translation unit is the whole program (`whole-program=on`; clustrix++ sets it when it
  /// compiles and links one source file): a global that no code of the unit writes, nor takes
  /// the address of, keeps its initializer's value, and the unit's calls of a function are all
  /// of its calls. The OpenMP race check uses it (docs/openmp.md).
  bool WholeProgram = false;
  /// The plugin's compile analyses in its own parse (`parse=once`, lib/Plugin/OneParse.h) or
  /// in a parse of its own before it (`parse=twice`). Other front doors ignore it.
  bool ParseOnce = true;
  /// Set by the plugin's one-parse compile: the main file's user text is [0, TextEnd) of its
  /// buffer (more follows it), and the runtime's header goes at Split, after the `#include`
  /// lines that compile read before the analysis began.
  struct {
    bool Active = false;
    unsigned Split = 0, TextEnd = 0;
  } MainSplit;
};

/// Parses one `name=value` or `name` option shared by the plugin and clustrix-rewrite.
/// Returns an error message, or empty on success.
std::string applyOption(llvm::StringRef Arg, PipelineOptions &Opts, std::string &ReportFile,
                        std::string &EmitRewritten);

} // namespace clustrix

#endif // CLUSTRIX_FRONTEND_OPTIONS_H
