//===- MathFunctionsTest.cpp - Known math functions ------------------------===//
#include "clustrix/AST/MathFunctions.h"

#include "gtest/gtest.h"

using namespace clustrix;

namespace {

TEST(MathFunctionsTest, DeviceFunctionsAreMathFunctions) {
  for (const char *N : {"sqrt", "fabsf", "pow", "fmin", "rsqrt", "isnan"}) {
    EXPECT_TRUE(isMathFunction(N)) << N;
    EXPECT_TRUE(isDeviceMathFunction(N)) << N;
  }
}

TEST(MathFunctionsTest, SomeArePureButNotOnTheDevice) {
  for (const char *N : {"clamp", "__builtin_fabs", "__builtin_expect"}) {
    EXPECT_TRUE(isMathFunction(N)) << N;
    EXPECT_FALSE(isDeviceMathFunction(N)) << N;
  }
}

TEST(MathFunctionsTest, OthersAreNot) {
  for (const char *N : {"printf", "malloc", "sqrtl_", "", "Sqrt"}) {
    EXPECT_FALSE(isMathFunction(N)) << N;
    EXPECT_FALSE(isDeviceMathFunction(N)) << N;
  }
}

TEST(MathFunctionsTest, WhichMaySetErrno) {
  for (const char *N : {"sqrt", "log", "pow", "exp", "fmod", "acos", "__builtin_sqrt"})
    EXPECT_TRUE(mathFunctionSetsErrno(N)) << N;
  for (const char *N : {"fabs", "floor", "ceil", "trunc", "fmin", "fmax", "copysign", "isnan",
                        "abs", "printf", ""})
    EXPECT_FALSE(mathFunctionSetsErrno(N)) << N;
}

} // namespace
