//===- clustrix/Rewrite/KernelClosure.h - What a kernel carries -*- C++ -*-===//
//
// Everything the kernel of a loop needs besides its own frame: the loop body and the called
// functions rewritten for the device (`std::sqrt` -> `sqrt`, `this->x` -> `x`), the member
// functions it calls on objects and the lambdas of its function, the record, enum and typedef
// types and the constants they use, one parameter per region, and the captured scalars passed
// by value. Or the reason the loop has no GPU form.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_REWRITE_KERNELCLOSURE_H
#define CLUSTRIX_REWRITE_KERNELCLOSURE_H

#include "clustrix/Analysis/LoopAnalysis.h"

#include "clang/AST/ASTContext.h"

namespace clang {
class Preprocessor;
} // namespace clang

#include <cstdint>
#include <string>
#include <vector>

namespace clustrix {

/// A variable of the enclosing function that the body reads, passed to the kernel by value.
struct KernelScalar {
  std::string Decl;     ///< The parameter's declaration.
  std::string HostExpr; ///< What the host passes (`this->x` for a member).
  uint64_t Size = 0;    ///< Bytes of its type.
};

/// The device code a loop's kernel carries, as text.
struct KernelClosure {
  std::string Reason;                    ///< Why the loop has no GPU form; empty when it has one.
  std::vector<std::string> Macros;       ///< `#define NAME body` of each macro the code uses.
  std::vector<std::string> StdUsings;    ///< `std::f` of math functions that macros call.
  /// `__clx_merr_F_d` (or `_f`) for each math function F whose errno the calls report (where
  /// math errno is kept), taking the flag by reference: the kernel declares the flag,
  /// `__clx_merr`, one per thread, keeps the thread's last error in iteration order
  /// (`__clx_mlast`), and hands it to the runtime as one more partial, after the loop's
  /// reductions.
  std::vector<std::string> MathErrorHelpers;
  /// `__clx_inff()` and the like: the constants behind INFINITY, HUGE_VAL and NAN, which the
  /// device compiler has no builtins for.
  std::vector<std::string> ConstantHelpers;
  std::vector<std::string> Forwards;     ///< `struct X;` for each named record used.
  std::vector<std::string> EarlyTypes;   ///< Enums and typedefs that need no record's definition.
  std::vector<std::string> Types;        ///< The records (and typedefs holding one), in order;
                                         ///< member functions the kernel calls are `__device__`.
  /// Per entry of Forwards and Types, the template parameters it declares itself (a class
  /// template's), which within its text name nothing else.
  std::vector<std::vector<std::string>> ForwardTemplateParams, TypeTemplateParams;
  std::vector<std::string> TemplateDecls; ///< A template's parameters, as the instantiation binds them.
  std::vector<std::string> Constants;    ///< `__device__ const` definitions of global constants.
  std::vector<std::string> Signatures;   ///< Each called function's declaration, as written.
  std::vector<std::string> Functions;    ///< Each called function's definition, for the device.
  /// Per entry of Signatures and Functions, the template parameters it declares itself (a
  /// function template's), which within its text name nothing else.
  std::vector<std::vector<std::string>> OwnTemplateParams;
  std::vector<std::string> Methods;      ///< Called member functions defined outside their class.
  std::vector<std::string> LambdaDecls;  ///< Lambdas of the function the body calls, defined again.
  std::vector<std::string> RegionParams; ///< Per region of the result, its parameter.
  std::vector<KernelScalar> Scalars;
  /// Declarations the host makes before it passes the scalars: the row lengths of regions of
  /// variable-length rows, which the kernel reaches through flat pointers.
  std::vector<std::string> HostDecls;
  std::vector<std::string> PrivateDecls; ///< Each thread's own copy of a private, declared.
  std::string ElemDecl; ///< A range-for's element bound to iteration __clx_k0, or empty.
  std::string Body;     ///< The loop body for the device, with its trailing `;`.
};

/// Collects what the kernel of an accepted loop (a ForStmt or CXXForRangeStmt) needs.
/// With PP, the macros the carried code uses are defined again in the kernel text; without it
/// (or for a built-in macro) a macro leaves the loop without a GPU form.
/// AlsoTypes are carried whether or not the body names them (a template's arguments).
KernelClosure collectKernelClosure(clang::ASTContext &Ctx, const clang::Stmt *Loop,
                                   const LoopResult &R, clang::Preprocessor *PP = nullptr,
                                   llvm::ArrayRef<clang::QualType> AlsoTypes = {});

/// `T Name` in declarator syntax as device code spells it (`double (*C)[50]` for a pointer to
/// arrays).
std::string deviceDeclarator(clang::QualType T, const std::string &Name,
                             const clang::ASTContext &Ctx);

} // namespace clustrix

#endif // CLUSTRIX_REWRITE_KERNELCLOSURE_H
