//===- clustrix/Rewrite/HostCodeGen.h - The block that replaces a loop -*- C++ -*-===//
//
// The block that replaces an accepted loop, in the order it runs: the iteration space evaluated
// once, the static descriptor (DescriptorGen.h) with the loop's LoopSite, the host chunk
// function that runs any range of iterations in place, the serial fast path (keepSerial: the
// runtime already decided this call runs serially, so runInPlace on the loop's own variables and
// nothing else), else the reduction and append slots, the box program (BoxCodeGen.h), the call
// of runLoop and the serial fallback; then the induction variables' final values, and the loop
// as written for a trip count that cannot be represented.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_REWRITE_HOSTCODEGEN_H
#define CLUSTRIX_REWRITE_HOSTCODEGEN_H

#include "clustrix/Analysis/LoopAnalysis.h"
#include "clustrix/Rewrite/KernelEmitter.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace clustrix {

class FileRewriter;

/// Writes the block that replaces one accepted loop.
class HostCodeGen {
public:
  /// [LoopBegin, LoopEnd) is the loop's text in the main file.
  HostCodeGen(const FileRewriter &FR, const clang::Stmt *Loop, const LoopResult &R,
              const LoopClauses &C, const Kernel &K, unsigned LoopBegin, unsigned LoopEnd);

  /// The block, from `{` to the `#line` that resumes the user's text after the loop.
  std::string generate();

private:
  void emitIterationSpace(llvm::raw_ostream &OS);
  void emitChunkFunction(llvm::raw_ostream &OS);
  /// Opens the loops over the chunk's iterations; returns how many the body's end closes.
  unsigned emitIterationVariables(llvm::raw_ostream &OS);
  void emitSerialFastPath(llvm::raw_ostream &OS);
  std::string runInPlace() const;
  std::string asWritten() const;
  void emitSlots(llvm::raw_ostream &OS);
  void emitArgs(llvm::raw_ostream &OS);
  void emitSerialFallback(llvm::raw_ostream &OS);
  void emitAsWritten(llvm::raw_ostream &OS);

  const FileRewriter &FR;
  const clang::Stmt *Loop;
  const LoopResult &R;
  const LoopClauses &C;
  const Kernel &K;
  unsigned LoopBegin, LoopEnd;
  size_t N; ///< Levels of the nest.
  /// Init-captures of the structured bindings the loop names (lambdas cannot capture them
  /// before C++20): ", &x = x".
  std::string Captures;
  /// The loop's header (init, condition, step of a level) names a guard region: a scalar the
  /// loop reads that its writes through pointers may reach. When they do reach it, the trip count
  /// computed before the loop is not the loop's, and only the loop as written is right: the
  /// runtime then says AsWritten, and the block has no serial fast path.
  bool GuardedHeader = false;
  /// Init-captures by value of the scalars the body only reads (the chunk function's copies,
  /// which the optimizer keeps in registers): ", n = n".
  std::string Copies;
  /// Variables of variably modified type declared before the loop (`double (*u)[n][m]`): GCC
  /// cannot capture them in a lambda, and Clang cannot init-capture them. The block takes each
  /// one's address and bounds (VariablyModifiedOutside); each lambda declares a reference of the
  /// same name and type, with those bounds, to the variable (VariablyModifiedInside).
  std::string VariablyModifiedOutside, VariablyModifiedInside;
};

} // namespace clustrix

#endif // CLUSTRIX_REWRITE_HOSTCODEGEN_H
