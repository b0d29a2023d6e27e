//===- clustrix/Rewrite/BoxCodeGen.h - The box program ----------*- C++ -*-===//
//
// The data from which the runtime computes, for any range of iterations, the box of every
// region: the subscript polynomials as static tables (a BoxProgram), and per region its frame
// (base address, element size, extents), evaluated once before runLoop. docs/descriptor.md
// describes the format; the runtime's programBoxes evaluates it.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_REWRITE_BOXCODEGEN_H
#define CLUSTRIX_REWRITE_BOXCODEGEN_H

#include "clustrix/Analysis/LoopAnalysis.h"
#include "clustrix/Rewrite/RuntimeDialect.h"

#include <string>

namespace clustrix {

/// The statements that declare `__clx_boxenv` (a ProgramBoxes) for an accepted loop with
/// regions, inside the block the rewriter writes (the trip counts `__clx_trip<L>` are in scope),
/// in the C++ of clustrix/Runtime.h or the C of clustrix/runtime_c.h.
/// The length of level Level (1: the rows of `T (*p)[n]`) of a region of variable-length rows, as
/// the host evaluates it at the loop: the analysis's extent where it knows one (a variable
/// nothing changes), sizeof one level over sizeof the next otherwise.
std::string rowLength(const Region &Reg, unsigned Level);

std::string boxProgramCode(const LoopResult &R, const RuntimeDialect &D = RuntimeDialect::cxx());

} // namespace clustrix

#endif // CLUSTRIX_REWRITE_BOXCODEGEN_H
