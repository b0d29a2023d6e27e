//===- clustrix/Decide/Report.h - Machine-readable decisions ----*- C++ -*-===//
//
// The report: one JSON record per annotated loop (location, decision, reasons, regions,
// reductions, appends, score), written where the user asks, as -fsave-optimization-record does.
// One report file serves several translation units: each compile replaces the records of its
// own main file and keeps the others'. docs/report.md describes the format.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_DECIDE_REPORT_H
#define CLUSTRIX_DECIDE_REPORT_H

#include "clustrix/Analysis/LoopAnalysis.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace clustrix {

/// A reason with its location resolved to a line and column.
struct ReportReason {
  std::string Kind, Message, Suggestion;
  unsigned Line = 0, Column = 0;
};

/// One loop's record.
struct LoopRecord {
  std::string File;
  unsigned Line = 0, Column = 0;
  std::string Function;
  /// For a loop in a template: the instantiation this record is about (`triad<float>`).
  std::string Instantiation;
  bool Automatic = false; ///< Found through a function-level gpu_parallel.
  bool Accepted = false;
  std::vector<ReportReason> Reasons;
  std::vector<Region> Regions;
  std::vector<Reduction> Reductions;
  std::vector<Append> Appends;
  std::vector<Private> Privates;
  std::string Schedule;
  unsigned Collapse = 1;
  unsigned Score = 0, Level = 0;
  double WorkPerIter = 0;
  bool GPU = false;       ///< The loop has a GPU form (kernel text).
  std::string GPUReason;  ///< Why not, when it has none.
  /// A loop of the OpenMP front door: its directive ("parallel for"), and in checking mode the
  /// race check's verdict ("race", "race-free", "unknown"), its message and, for a race, the
  /// lines and columns of the two accesses.
  struct {
    std::string Directive, Verdict, Message;
    unsigned DirectiveLine = 0; ///< The directive's line.
    unsigned RegionLine = 0;    ///< For a loop of a `parallel` region: the region's line.
    std::vector<std::pair<unsigned, unsigned>> Accesses;
    bool Trusted = false; ///< openmp=trust: refused, and left to OpenMP as written.
  } OpenMP;
};

/// The records of one translation unit, named by its main file as the compiler was given it.
struct ReportUnit {
  std::string File;
  std::vector<LoopRecord> Records;
};

/// Merges the units into the report at \p Path, under a lock: the records of every unit's file
/// are replaced, those of other files kept; a file that is not a report is overwritten.
llvm::Error writeReport(llvm::StringRef Path, const std::vector<ReportUnit> &Units);

} // namespace clustrix

#endif // CLUSTRIX_DECIDE_REPORT_H
