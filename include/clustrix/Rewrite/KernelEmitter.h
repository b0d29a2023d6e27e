//===- clustrix/Rewrite/KernelEmitter.h - CUDA kernel text -----*- C++ -*-===//
//
// The GPU form of an accepted loop: CUDA C++ source text for NVRTC (and nvcc) with one
// `extern "C" __global__` kernel that runs normalized iterations [Lo, Hi) with a grid-stride
// loop, following the kernel contract of docs/descriptor.md. The called functions are cloned as
// `__device__` functions, the record types they need are copied before them, and standard math
// calls lose their `std::` qualifier (CUDA's device math library has the same names). A loop the
// emitter cannot express (ordered appends, lambdas, container methods, ...) has no GPU form and
// runs on CPU devices; the reason is reported. KernelClosure.h collects what the kernel carries;
// this assembles it.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_REWRITE_KERNELEMITTER_H
#define CLUSTRIX_REWRITE_KERNELEMITTER_H

#include "clustrix/AST/Instantiation.h"
#include "clustrix/Analysis/LoopAnalysis.h"

#include "clang/AST/ASTContext.h"

#include <string>
#include <vector>

namespace clang {
class Preprocessor;
} // namespace clang

namespace clustrix {

/// One kernel parameter as the host code passes it.
struct KernelArg {
  /// The rt::KernelParamKind of the parameter.
  enum Kind {
#define CLUSTRIX_KERNEL_PARAM(Name) Name,
#include "clustrix/Descriptor.def"
  } K;
  unsigned Index = 0;  ///< Region or reduction index; for scalars, the index in Scalars.
  std::string Expr;    ///< For scalars: the host expression whose address is passed.
  uint64_t Size = 0;   ///< For scalars: the size in bytes of the parameter's type.
};

/// The GPU form of one loop, or why there is none.
struct Kernel {
  bool Ok = false;
  std::string Reason;             ///< Why there is no GPU form.
  std::string Name;               ///< extern "C" name.
  std::string Source;             ///< CUDA C++ text.
  std::vector<KernelArg> Args;    ///< In parameter order.
  unsigned NumScalars = 0;
  /// Declarations the host code makes before it takes the scalars' addresses
  /// (KernelClosure::HostDecls).
  std::vector<std::string> HostDecls;
  /// The kernel reports domain errors of the body's math calls (where math errno is kept) in
  /// one more partial, after the loop's reductions: an `int` the host code reduces with '|'
  /// and, when set, turns into errno EDOM after the call (docs/runtime.md, errno).
  bool MathErrors = false;
};

/// Builds the GPU form of an accepted loop, named by kernelName(). For one instantiation's copy
/// of a template's loop, Key binds the template's parameters: the kernel declares them with the
/// instantiation's arguments, and its name ends in a hash of Key's condition.
Kernel emitKernel(clang::ASTContext &Ctx, const clang::Stmt *Loop, const LoopResult &R,
                  clang::Preprocessor *PP = nullptr, const InstantiationKey *Key = nullptr);

/// A kernel name unique in the program: `clustrix_kernel_<file hash>_<line>_<column>`.
std::string kernelName(const clang::SourceManager &SM, const clang::Stmt *Loop);

} // namespace clustrix

#endif // CLUSTRIX_REWRITE_KERNELEMITTER_H
