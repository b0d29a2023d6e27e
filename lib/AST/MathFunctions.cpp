//===- MathFunctions.cpp - Known math functions ----------------------------===//
#include "clustrix/AST/MathFunctions.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clustrix;

namespace {

/// One known function: its name, whether CUDA's device library has it by that name, and
/// whether the C library may set errno in it (a domain, pole or range error) when the
/// translation unit keeps math errno (-fmath-errno, clang's default on Linux).
struct MathFunction {
  llvm::StringLiteral Name;
  bool OnDevice;
  bool SetsErrno;
};

// clang-format off
constexpr MathFunction Table[] = {
    {"sqrt", true, true}, {"sqrtf", true, true}, {"cbrt", true, false},
    {"cbrtf", true, false}, {"exp", true, true}, {"expf", true, true},
    {"exp2", true, true}, {"expm1", true, true}, {"log", true, true},
    {"logf", true, true}, {"log2", true, true}, {"log10", true, true},
    {"log1p", true, true}, {"pow", true, true}, {"powf", true, true},
    {"sin", true, true}, {"sinf", true, true}, {"cos", true, true},
    {"cosf", true, true}, {"tan", true, true}, {"tanf", true, true},
    {"asin", true, true}, {"acos", true, true}, {"atan", true, false},
    {"atan2", true, true}, {"sinh", true, true}, {"cosh", true, true},
    {"tanh", true, false}, {"fabs", true, false}, {"fabsf", true, false},
    {"abs", true, false}, {"labs", true, false}, {"llabs", true, false},
    {"floor", true, false}, {"floorf", true, false}, {"ceil", true, false},
    {"ceilf", true, false}, {"round", true, false}, {"roundf", true, false},
    {"trunc", true, false}, {"fmod", true, true}, {"fmin", true, false},
    {"fmax", true, false}, {"fminf", true, false}, {"fmaxf", true, false},
    {"min", true, false}, {"max", true, false}, {"hypot", true, true},
    {"erf", true, true}, {"erfc", true, true}, {"tgamma", true, true},
    {"lgamma", true, true}, {"copysign", true, false}, {"fma", true, true},
    {"isnan", true, false}, {"isinf", true, false}, {"isfinite", true, false},
    {"signbit", true, false}, {"rsqrt", true, false},
    // Pure, but not spelled so in CUDA's device library: such calls leave a loop without a GPU
    // form (it runs on CPU devices).
    {"clamp", false, false}, {"__builtin_fabs", false, false}, {"__builtin_sqrt", false, true},
    {"__builtin_expect", false, false},
    // The constants behind INFINITY, HUGE_VAL, HUGE_VALF and NAN (and numeric_limits'
    // infinity()): a kernel has them as functions of its own (constantBuiltinDevice).
    {"__builtin_inf", false, false}, {"__builtin_inff", false, false},
    {"__builtin_huge_val", false, false}, {"__builtin_huge_valf", false, false},
    {"__builtin_nan", false, false}, {"__builtin_nanf", false, false},
};
// clang-format on

const MathFunction *lookup(llvm::StringRef Name) {
  static const llvm::StringMap<const MathFunction *> ByName = [] {
    llvm::StringMap<const MathFunction *> M;
    for (const MathFunction &F : Table)
      M[F.Name] = &F;
    return M;
  }();
  auto It = ByName.find(Name);
  return It == ByName.end() ? nullptr : It->second;
}

} // namespace

bool clustrix::isMathFunction(llvm::StringRef Name) { return lookup(Name) != nullptr; }

bool clustrix::isDeviceMathFunction(llvm::StringRef Name) {
  const MathFunction *F = lookup(Name);
  return F && F->OnDevice;
}

bool clustrix::mathFunctionSetsErrno(llvm::StringRef Name) {
  const MathFunction *F = lookup(Name);
  return F && F->SetsErrno;
}

llvm::StringRef clustrix::constantBuiltinDevice(llvm::StringRef Name) {
  // The bits glibc's and clang's give: infinities, and the quiet NaN of an empty payload.
  return llvm::StringSwitch<llvm::StringRef>(Name)
      .Cases("__builtin_inf", "__builtin_huge_val",
             "__longlong_as_double(0x7ff0000000000000ll)")
      .Cases("__builtin_inff", "__builtin_huge_valf", "__int_as_float(0x7f800000)")
      .Case("__builtin_nan", "__longlong_as_double(0x7ff8000000000000ll)")
      .Case("__builtin_nanf", "__int_as_float(0x7fc00000)")
      .Default("");
}

MathErrorConditions clustrix::mathErrorConditions(llvm::StringRef Name) {
  // The edges are glibc's: exp(x) is finite up to 0x1.62e42fefa39efp+9 and rounds to 0 below
  // -0x1.74910d52d3051p+9 (expf: 0x1.62e42ep+6 and -0x1.9d1d9ep+6), exp2's at 1024 and -1075.
  // Infinite arguments give infinities or zeros without errno, NaNs never set it.
  using C = MathErrorConditions;
  return llvm::StringSwitch<C>(Name)
      .Cases("sqrt", "sqrtf", C{"__clx_x < 0", ""})
      .Cases("sin", "sinf", "cos", "cosf", "tan", "tanf", C{"isinf(__clx_x)", ""})
      .Cases("asin", "acos", C{"__clx_x > 1 || __clx_x < -1", ""})
      .Case("fmod",
            C{"(isinf(__clx_x) || __clx_y == 0) && !isnan(__clx_x) && !isnan(__clx_y)", ""})
      .Cases("log", "logf", "log2", "log10", C{"__clx_x < 0", "__clx_x == 0"})
      .Case("log1p", C{"__clx_x < -1", "__clx_x == -1"})
      .Case("exp", C{"", "!isinf(__clx_x) && (__clx_x > 0x1.62e42fefa39efp+9 || "
                         "__clx_x < -0x1.74910d52d3051p+9)"})
      .Case("expm1", C{"", "!isinf(__clx_x) && __clx_x > 0x1.62e42fefa39efp+9"})
      .Case("expf", C{"", "!isinf(__clx_x) && (__clx_x > 0x1.62e42ep+6f || "
                          "__clx_x < -0x1.9d1d9ep+6f)"})
      .Case("exp2", C{"", "!isinf(__clx_x) && (__clx_x >= 1024 || __clx_x <= -1075)"})
      .Case("pow", C{"__clx_x < 0 && isfinite(__clx_x) && isfinite(__clx_y) && "
                     "__clx_y != trunc(__clx_y)",
                     "isfinite(__clx_x) && isfinite(__clx_y) && ((__clx_x == 0 && __clx_y < 0) "
                     "|| isinf(__clx_r) || (__clx_r == 0 && __clx_x != 0))"})
      .Default(C{});
}
