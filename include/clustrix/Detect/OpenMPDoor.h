//===- clustrix/Detect/OpenMPDoor.h - OpenMP loops as annotations -*- C++ -*-===//
//
// The OpenMP front door: finds every `#pragma omp parallel for` (and `parallel for simd`), and
// every `#pragma omp parallel` whose block holds one `#pragma omp for` loop and nothing else,
// in a file's text, and writes in each directive's place the `[[cluster::gpu_parallel(...)]]`
// annotation that means the same loop, on the same line, so that every later phase, and every
// diagnostic's line, is that of an annotated loop. `reduction` becomes `reduce`; `collapse` and
// `schedule` carry over; the data-sharing clauses (`private`, `firstprivate`, `lastprivate`,
// `shared`, `linear`, `default`) are kept as facts for the race check (OpenMPCheck.h). A loop
// the door does not take (a clause it cannot carry, another OpenMP directive inside the loop,
// a region that holds more than the loop) is recorded with the reason, and its directive is
// left as written.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_DETECT_OPENMPDOOR_H
#define CLUSTRIX_DETECT_OPENMPDOOR_H

#include "llvm/ADT/StringRef.h"

#include <set>
#include <string>
#include <vector>

namespace clustrix {

/// One clause of an OpenMP directive as written: `name` or `name(args)`.
struct OmpClause {
  std::string Name;
  std::string Args; ///< The text between the parentheses, trimmed.
  bool HasArgs = false;
};

/// One worksharing loop of the OpenMP front door.
struct OmpLoop {
  unsigned Offset = 0;       ///< Where the loop's directive (its '#') starts in the text.
  unsigned Line = 0;         ///< Its line, from 1.
  unsigned Column = 0;       ///< Its column, from 1.
  unsigned RegionLine = 0;   ///< For a loop of a `parallel` region: the region's line.
  unsigned LoopBegin = 0;    ///< The `for` keyword of the loop.
  unsigned LoopEnd = 0;      ///< Past the loop statement.
  std::string Directive;     ///< "parallel for", "parallel for simd", "parallel + for", ...
  std::vector<OmpClause> Clauses; ///< The directive's (and its region's) clauses, in order.
  bool Taken = false;        ///< An annotation stands in the directive's place.
  std::string WhyNot;        ///< Why the door did not take it.
  std::string Attribute;     ///< The annotation, when taken.

  /// Data-sharing facts, by variable name.
  std::vector<std::string> Private, FirstPrivate, LastPrivate, Shared, Linear, Reduction;
  std::string Default; ///< The `default(...)` argument, empty when none.
  unsigned Collapse = 1;
  /// Every name the clauses make not shared (private, firstprivate, lastprivate, linear,
  /// reduction).
  bool notShared(llvm::StringRef Name) const;
};

/// A file's text with its OpenMP loops converted.
struct OmpConversion {
  std::string Text;           ///< The same lines; taken directives are annotations.
  std::vector<OmpLoop> Loops; ///< Every worksharing loop directive, taken or not, in order.
  /// The variables `#pragma omp threadprivate` names: each thread has its own.
  std::vector<std::string> ThreadPrivate;
  bool Changed = false;
};

/// Cheap pre-check: could Text hold an OpenMP directive?
bool mayContainOpenMP(llvm::StringRef Text);

/// Converts Text's OpenMP worksharing loops (see the file comment). The directives on the
/// lines of Keep are left as written (`openmp=trust`: loops the analysis refused run with
/// OpenMP's semantics).
OmpConversion convertOpenMPLoops(llvm::StringRef Text, const std::set<unsigned> &Keep = {});

/// The annotation's clauses for a directive's clauses; WhyNot says why there is none.
std::string annotationClauses(const std::vector<OmpClause> &Clauses, std::string &WhyNot);

} // namespace clustrix

#endif // CLUSTRIX_DETECT_OPENMPDOOR_H
