//===- clustrix/AST/MathFunctions.h - Known math functions ------*- C++ -*-===//
//
// The one list of the standard math functions a loop body may call: the analysis treats them as
// pure, and the kernel emitter calls those CUDA's device math library has under the same name
// (std::sqrt becomes sqrt).
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_AST_MATHFUNCTIONS_H
#define CLUSTRIX_AST_MATHFUNCTIONS_H

#include "llvm/ADT/StringRef.h"

namespace clustrix {

/// Whether Name is a standard math function (or builtin) that reads only its arguments.
bool isMathFunction(llvm::StringRef Name);

/// Whether Name is a math function that CUDA's device library provides under the same name.
/// Every such name is also a math function.
bool isDeviceMathFunction(llvm::StringRef Name);

/// Whether the C library's Name may set errno (where math errno is kept); a GPU's never does.
bool mathFunctionSetsErrno(llvm::StringRef Name);

/// For a compiler builtin that stands for a constant (`__builtin_inff`, behind INFINITY;
/// `__builtin_huge_val`, `__builtin_nan` with an empty payload), the constant as CUDA device
/// code (`__int_as_float(0x7f800000)`), which the device compiler has no builtin for; empty
/// for every other name.
llvm::StringRef constantBuiltinDevice(llvm::StringRef Name);

/// When the C library's Name sets errno, as C++ conditions over the call's arguments
/// (`__clx_x`, and `__clx_y` for the second) and its result (`__clx_r`): Domain where it sets
/// EDOM, Range where it sets ERANGE (a pole, an overflow, an underflow to zero).
struct MathErrorConditions {
  llvm::StringRef Domain;
  llvm::StringRef Range;
  bool known() const { return !Domain.empty() || !Range.empty(); }
};

/// The conditions under which glibc's Name sets errno, for the functions whose errno a kernel
/// can tell exactly (`sqrt(x)`: EDOM when x < 0; `log(x)`: EDOM when x < 0, ERANGE when x is
/// 0); neither for every other function. A kernel evaluates them after the call, so that the
/// host can set errno as the serial loop would have (test/unit/AST/MathFunctionsTest.cpp checks
/// each against the C library). Only `pow`'s Range reads the result: near its overflow and
/// underflow edges it follows the device's result, as the result itself does.
MathErrorConditions mathErrorConditions(llvm::StringRef Name);

} // namespace clustrix

#endif // CLUSTRIX_AST_MATHFUNCTIONS_H
