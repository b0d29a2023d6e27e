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

#include "llvm/ADT/StringRef.h"

#include <string>

namespace clustrix {

/// Options shared by the front doors.
struct PipelineOptions {
  AnalysisOptions Analysis;
  DiagOptions Diags;
};

/// Parses one `name=value` or `name` option shared by the plugin and clustrix-rewrite.
/// Returns an error message, or empty on success.
std::string applyOption(llvm::StringRef Arg, PipelineOptions &Opts, std::string &ReportFile,
                        std::string &EmitRewritten);

} // namespace clustrix

#endif // CLUSTRIX_FRONTEND_OPTIONS_H
