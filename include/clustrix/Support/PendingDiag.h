//===- clustrix/Support/PendingDiag.h - A diagnostic to emit later -*- C++ -*-===//
//
// Diagnostics of the analysis parse are collected as values (errors at attributes from Detect,
// decisions from Decide) and emitted by the front door into the engine the user sees, through a
// location map: the plugin's compile has its own SourceManager (Decide/Diagnostics.h).
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_SUPPORT_PENDINGDIAG_H
#define CLUSTRIX_SUPPORT_PENDINGDIAG_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceLocation.h"

#include <string>
#include <vector>

namespace clustrix {

/// A replacement suggested with a diagnostic.
struct PendingFixIt {
  clang::SourceLocation Loc; ///< Where the text goes (or starts, when replacing).
  unsigned RemoveLength = 0;
  std::string Text;
};

/// One diagnostic with its notes, located in the analysis parse.
struct PendingDiag {
  clang::DiagnosticsEngine::Level Level;
  clang::SourceLocation Loc;
  std::string Message;
  std::vector<PendingFixIt> FixIts;
  std::vector<PendingDiag> Notes;
};

} // namespace clustrix

#endif // CLUSTRIX_SUPPORT_PENDINGDIAG_H
