//===- clustrix/Rewrite/CHostCodeGen.h - A loop of a C translation unit -*- C++ -*-===//
//
// HostCodeGen's counterpart for C, against clustrix/runtime_c.h. C has no lambdas, so the body
// is outlined in the manner of OpenMP: a file-scope environment struct and a `static` chunk
// function, placed before the enclosing function, run any range of iterations; what the body
// names of the enclosing function reaches it through the environment (CCaptures.h). The block
// that replaces the loop evaluates the iteration space once, keeps the static descriptor
// (DescriptorGen.h) and box program (BoxCodeGen.h) as C initializers, fills the environment,
// calls clustrix_run_loop, and when the runtime keeps the loop serial calls the chunk function
// for every iteration with the loop's own reduction variables as the partials. A trip count that
// cannot be represented runs the loop as written, in place.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_REWRITE_CHOSTCODEGEN_H
#define CLUSTRIX_REWRITE_CHOSTCODEGEN_H

#include "clustrix/Analysis/LoopAnalysis.h"
#include "clustrix/Rewrite/CCaptures.h"
#include "clustrix/Rewrite/KernelEmitter.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace clustrix {

class FileRewriter;

/// Writes the outlined definitions and the block of one accepted loop of a C translation unit.
class CHostCodeGen {
public:
  /// [LoopBegin, LoopEnd) is the loop's text in the main file; Enclosing the function it is in.
  CHostCodeGen(const FileRewriter &FR, const clang::FunctionDecl *Enclosing,
               const clang::Stmt *Loop, const LoopResult &R, const LoopClauses &C,
               const Kernel &K, unsigned LoopBegin, unsigned LoopEnd);

  /// Where the outlined definitions go: the offset of the enclosing function's first token.
  unsigned outlineOffset() const;
  /// The environment struct and the chunk function, then the `#line` that resumes the user's
  /// text at the enclosing function.
  std::string outlined();
  /// The block that replaces the loop, from `{` to the `#line` that resumes the user's text.
  std::string block();

private:
  void emitEnvironment(llvm::raw_ostream &OS);
  void emitChunkFunction(llvm::raw_ostream &OS);
  /// Opens the loops over the chunk's iterations; returns how many the body's end closes.
  unsigned emitIterationVariables(llvm::raw_ostream &OS);
  std::string bodyText() const;
  void emitIterationSpace(llvm::raw_ostream &OS);
  void fillEnvironment(llvm::raw_ostream &OS);
  void emitArgs(llvm::raw_ostream &OS);
  void emitSerialFallback(llvm::raw_ostream &OS);

  const FileRewriter &FR;
  const clang::FunctionDecl *Enclosing;
  const clang::ASTContext &Ctx;
  const clang::Stmt *Loop;
  const LoopResult &R;
  const LoopClauses &C;
  const Kernel &K;
  unsigned LoopBegin, LoopEnd;
  size_t N; ///< Levels of the nest.
  CCaptures Caps;
  std::string Suffix; ///< `<line>_<column>` of the `for`: names the loop's definitions.
};

} // namespace clustrix

#endif // CLUSTRIX_REWRITE_CHOSTCODEGEN_H
