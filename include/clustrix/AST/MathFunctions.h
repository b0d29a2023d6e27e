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

/// For a function whose only errno is EDOM, set exactly when its arguments meet a condition
/// (glibc: `sqrt(x)` when x < 0), that condition as C++ over `__clx_x` (and `__clx_y`, the
/// second argument); empty for every other function. A kernel evaluates it before the call,
/// so that the host can set errno as the serial loop would have
/// (test/unit/AST/MathFunctionsTest.cpp checks each against the C library).
llvm::StringRef mathDomainCondition(llvm::StringRef Name);

} // namespace clustrix

#endif // CLUSTRIX_AST_MATHFUNCTIONS_H
