//===- MathFunctions.cpp - Known math functions ----------------------------===//
#include "clustrix/AST/MathFunctions.h"

#include "llvm/ADT/StringMap.h"

using namespace clustrix;

namespace {

/// One known function: its name, and whether CUDA's device library has it by that name.
struct MathFunction {
  llvm::StringLiteral Name;
  bool OnDevice;
};

// clang-format off
constexpr MathFunction Table[] = {
    {"sqrt", true},      {"sqrtf", true},     {"cbrt", true},     {"cbrtf", true},
    {"exp", true},       {"expf", true},      {"exp2", true},     {"expm1", true},
    {"log", true},       {"logf", true},      {"log2", true},     {"log10", true},
    {"log1p", true},     {"pow", true},       {"powf", true},     {"sin", true},
    {"sinf", true},      {"cos", true},       {"cosf", true},     {"tan", true},
    {"tanf", true},      {"asin", true},      {"acos", true},     {"atan", true},
    {"atan2", true},     {"sinh", true},      {"cosh", true},     {"tanh", true},
    {"fabs", true},      {"fabsf", true},     {"abs", true},      {"labs", true},
    {"llabs", true},     {"floor", true},     {"floorf", true},   {"ceil", true},
    {"ceilf", true},     {"round", true},     {"roundf", true},   {"trunc", true},
    {"fmod", true},      {"fmin", true},      {"fmax", true},     {"fminf", true},
    {"fmaxf", true},     {"min", true},       {"max", true},      {"hypot", true},
    {"erf", true},       {"erfc", true},      {"tgamma", true},   {"lgamma", true},
    {"copysign", true},  {"fma", true},       {"isnan", true},    {"isinf", true},
    {"isfinite", true},  {"signbit", true},   {"rsqrt", true},
    // Pure, but not spelled so in CUDA's device library: such calls leave a loop without a GPU
    // form (it runs on CPU devices).
    {"clamp", false},    {"__builtin_fabs", false}, {"__builtin_sqrt", false},
    {"__builtin_expect", false},
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
