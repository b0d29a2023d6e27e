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

#include <cstdint>
#include <string>
#include <vector>

namespace clustrix {

/// The length of level Level (1: the rows of `T (*p)[n]`) of a region of variable-length rows, as
/// the host evaluates it at the loop: the analysis's extent where it knows one (a variable
/// nothing changes), sizeof one level over sizeof the next otherwise.
std::string rowLength(const Region &Reg, unsigned Level);

/// The constant extents of dimensions 1 to Rank - 1 of a region of more than three dimensions
/// (its type's, or its delinearization's), or empty where one is not a known constant. With
/// them its box has three dimensions, the third the row-major fold of the rest (their product
/// long): the same elements at the same offsets. Without them the box is the whole object.
std::vector<int64_t> foldedRows(const Region &Reg);

/// Whether every element of a chunk's write box of Reg is written by the chunk, in the box's
/// dimensions: a folded row (foldedRows) is whole only where each folded dimension after the
/// first runs over its whole extent.
bool boxFullWrite(const Region &Reg, const LoopResult &R);

/// The statements that declare `__clx_boxenv` (a ProgramBoxes) for an accepted loop with
/// regions, inside the block the rewriter writes (the trip counts `__clx_trip<L>` are in scope),
/// in the C++ of clustrix/Runtime.h or the C of clustrix/runtime_c.h.
std::string boxProgramCode(const LoopResult &R, const RuntimeDialect &D = RuntimeDialect::cxx());

} // namespace clustrix

#endif // CLUSTRIX_REWRITE_BOXCODEGEN_H
