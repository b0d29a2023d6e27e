//===- clustrix/Decide/Diagnostics.h - Explaining decisions -----*- C++ -*-===//
//
// Every decision becomes diagnostics: a remark for an accepted loop, a warning (or what the user
// chose) with notes for a refused one, errors for malformed attributes. They are collected as
// PendingDiag values with locations of the analysis parse, and emitted by the front door into the
// engine the user sees, through a location map (the plugin's compile has its own SourceManager).
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_DECIDE_DIAGNOSTICS_H
#define CLUSTRIX_DECIDE_DIAGNOSTICS_H

#include "clustrix/Support/PendingDiag.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceLocation.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>
#include <vector>

namespace clustrix {

/// How a refused loop is reported.
enum class RefusalSeverity { Warning, Error, Remark, Ignore };

/// Diagnostic controls (plugin arguments and clustrix-rewrite options; Clang 19 cannot map a
/// plugin's diagnostics to -W/-R groups).
struct DiagOptions {
  bool Remarks = true;                               ///< Remarks for accepted loops.
  RefusalSeverity Refusals = RefusalSeverity::Warning;
};

/// Maps a location of the analysis parse to one in the engine's SourceManager.
using LocationMap = llvm::function_ref<clang::SourceLocation(clang::SourceLocation)>;

/// Emits Diags into DE.
void emitDiagnostics(clang::DiagnosticsEngine &DE, const std::vector<PendingDiag> &Diags,
                     LocationMap Map);

/// Puts Diags in source order (each keeps its notes); those without a location go last.
void sortDiagnostics(std::vector<PendingDiag> &Diags, const clang::SourceManager &SM);

/// The number of errors among Diags (notes aside).
unsigned countErrors(const std::vector<PendingDiag> &Diags);

} // namespace clustrix

#endif // CLUSTRIX_DECIDE_DIAGNOSTICS_H
