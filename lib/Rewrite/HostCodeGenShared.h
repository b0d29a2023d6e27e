//===- HostCodeGenShared.h - What the C++ and C host code share -*- C++ -*-===//
//
// HostCodeGen (C++, a lambda) and CHostCodeGen (C, an outlined function) write the same steps
// around different chunk functions: the nest's trip count, the walk of a collapsed nest's
// multi-index, the kernel's scalar addresses, the LoopArgs fields that do not depend on the
// language, and the induction variables' final values. Each is written once, here, spelled for
// either runtime header by a RuntimeDialect.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_LIB_REWRITE_HOSTCODEGENSHARED_H
#define CLUSTRIX_LIB_REWRITE_HOSTCODEGENSHARED_H

#include "clustrix/Analysis/LoopAnalysis.h"
#include "clustrix/Rewrite/KernelEmitter.h"
#include "clustrix/Rewrite/RuntimeDialect.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace clustrix {

class FileRewriter;

namespace hostgen {

/// The head of the block that replaces the loop at LoopBegin: its comment, the iteration space
/// (written by Space), the static descriptor (DescriptorGen.h), and `if (__clx_trip.Ok) {`.
void emitBlockHead(llvm::raw_ostream &OS, const FileRewriter &FR, unsigned LoopBegin,
                   const LoopResult &R, const LoopClauses &C, const Kernel &K,
                   llvm::function_ref<void()> Space, const RuntimeDialect &D);

/// `const Trip __clx_trip = tripProduct(...(__clx_trip0, __clx_trip1)...);`
void emitNestTrip(llvm::raw_ostream &OS, size_t N, const RuntimeDialect &D);

/// The loop over the chunk's iterations [__clx_lo, __clx_hi) of a collapsed nest of N levels,
/// up to its opening brace: the multi-index of Lo, then advanced with each iteration. Extent(L)
/// is level L's trip count; Indent the block's indentation.
void emitCollapsedLoop(llvm::raw_ostream &OS, size_t N, const std::string &Indent,
                       llvm::function_ref<std::string(size_t)> Extent, const RuntimeDialect &D);

/// The loop over the chunk's iterations [__clx_lo, __clx_hi) of a collapsed nest of N levels,
/// a row of the innermost level at a time, up to its opening brace: the multi-index of Lo, then
/// `__clx_k` from row to row. emitRowAdvance follows, once the row's values are taken from
/// `__clx_idx`; then the row's own loop over `__clx_r` < `__clx_run`.
void emitCollapsedRows(llvm::raw_ostream &OS, size_t N, const std::string &Indent,
                       llvm::function_ref<std::string(size_t)> Extent, const RuntimeDialect &D);

/// In a row of emitCollapsedRows: `__clx_run`, the row's iterations in the chunk, and the
/// multi-index and `__clx_k` moved past them.
void emitRowAdvance(llvm::raw_ostream &OS, size_t N, const std::string &Indent,
                    const RuntimeDialect &D);

/// At the end of a chunk function: the chunk that ran the last iteration leaves each private's
/// value in the user's variable, as the serial loop does. Count is the nest's trip count and
/// TargetPrefix + I the address of private I, as the chunk function names them.
void emitPrivatesHandBack(llvm::raw_ostream &OS, const LoopResult &R, const std::string &Indent,
                          const std::string &Count, const std::string &TargetPrefix);

/// `const void *const __clx_scalars[] = {...};` when the kernel takes scalars; Address(Expr)
/// is the address of a scalar argument's host expression.
void emitKernelScalars(llvm::raw_ostream &OS, const Kernel &K,
                       llvm::function_ref<std::string(const std::string &)> Address);

/// Whether the loop's kernel reports its math calls' errno in one more partial
/// (Kernel::MathErrors): the host code then declares `unsigned long long __clx_mlast`, gives it
/// the last reduction slot (max), and names that slot in LoopArgs::MathErrors, from which the
/// runtime sets errno.
inline bool hasMathErrors(const Kernel &K) { return K.Ok && K.MathErrors; }

/// The LoopArgs fields after Host and HostEnv: BoxAlign, the box program (Boxes, the
/// language's own lines, written when the loop has regions), Reductions (the math errors'
/// last, and MathErrors), the appends (C++ only: Appends, its lines), Scalars.
void emitCommonArgs(llvm::raw_ostream &OS, const LoopResult &R, const Kernel &K,
                    const std::string &Boxes, const std::string &Appends);

/// After the loop: each induction variable declared before it gets the value the serial loop
/// leaves. Value(L, K) is level L's value after K steps.
void emitFinalInductions(llvm::raw_ostream &OS, const LoopResult &R,
                         llvm::function_ref<std::string(size_t, const std::string &)> Value);

} // namespace hostgen
} // namespace clustrix

#endif // CLUSTRIX_LIB_REWRITE_HOSTCODEGENSHARED_H
