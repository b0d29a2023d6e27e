//===- MathFunctionsTest.cpp - Known math functions ------------------------===//
#include "clustrix/AST/MathFunctions.h"

#include "gtest/gtest.h"

#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

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

TEST(MathFunctionsTest, DomainConditionsOnlyWhereErrnoIsExactlyEdom) {
  for (const char *N : {"log", "exp", "pow", "atan2", "hypot", "fabs", "printf", ""})
    EXPECT_TRUE(mathDomainCondition(N).empty()) << N;
  for (const char *N : {"sqrt", "sqrtf", "sin", "cosf", "tan", "asin", "acos", "fmod"})
    EXPECT_TRUE(mathFunctionSetsErrno(N) && isDeviceMathFunction(N)) << N;
}

/// Each condition, as its text reads, against this machine's C library: over special values,
/// values near the domain's edges and random bit patterns, the library sets errno to EDOM
/// exactly when the condition holds, and to nothing else. (The functions are called through
/// volatile pointers, so that the compiler neither folds nor inlines them.)
TEST(MathFunctionsTest, DomainConditionsMatchTheCLibrary) {
  struct Case {
    const char *Name, *Text;
    std::function<bool(double, double)> Holds;
    std::function<double(double, double)> Call;
  };
  static double (*volatile Sqrt)(double) = &::sqrt, (*volatile Sin)(double) = &::sin,
                         (*volatile Cos)(double) = &::cos, (*volatile Tan)(double) = &::tan,
                         (*volatile Asin)(double) = &::asin, (*volatile Acos)(double) = &::acos;
  static double (*volatile Fmod)(double, double) = &::fmod;
  static float (*volatile Sqrtf)(float) = &::sqrtf, (*volatile Sinf)(float) = &::sinf,
                        (*volatile Cosf)(float) = &::cosf, (*volatile Tanf)(float) = &::tanf;
  auto Inf = [](double X, double) { return std::isinf(X); };
  auto F = [](double X) { return static_cast<float>(X); };
  const std::vector<Case> Cases = {
      {"sqrt", "__clx_x < 0", [](double X, double) { return X < 0; },
       [](double X, double) { return Sqrt(X); }},
      {"sqrtf", "__clx_x < 0", [&](double X, double) { return F(X) < 0; },
       [&](double X, double) { return Sqrtf(F(X)); }},
      {"sin", "isinf(__clx_x)", Inf, [](double X, double) { return Sin(X); }},
      {"cos", "isinf(__clx_x)", Inf, [](double X, double) { return Cos(X); }},
      {"tan", "isinf(__clx_x)", Inf, [](double X, double) { return Tan(X); }},
      {"sinf", "isinf(__clx_x)", [&](double X, double) { return std::isinf(F(X)); },
       [&](double X, double) { return Sinf(F(X)); }},
      {"cosf", "isinf(__clx_x)", [&](double X, double) { return std::isinf(F(X)); },
       [&](double X, double) { return Cosf(F(X)); }},
      {"tanf", "isinf(__clx_x)", [&](double X, double) { return std::isinf(F(X)); },
       [&](double X, double) { return Tanf(F(X)); }},
      {"asin", "__clx_x > 1 || __clx_x < -1", [](double X, double) { return X > 1 || X < -1; },
       [](double X, double) { return Asin(X); }},
      {"acos", "__clx_x > 1 || __clx_x < -1", [](double X, double) { return X > 1 || X < -1; },
       [](double X, double) { return Acos(X); }},
      {"fmod", "(isinf(__clx_x) || __clx_y == 0) && !isnan(__clx_x) && !isnan(__clx_y)",
       [](double X, double Y) {
         return (std::isinf(X) || Y == 0) && !std::isnan(X) && !std::isnan(Y);
       },
       [](double X, double Y) { return Fmod(X, Y); }},
  };
  const double Special[] = {0.0,  -0.0, 1.0,      -1.0,     INFINITY, -INFINITY, NAN,
                            -NAN, 1e-320, -1e-320, DBL_MAX, -DBL_MAX, FLT_MAX,  -FLT_MAX,
                            std::nextafter(1.0, 2.0), std::nextafter(-1.0, -2.0),
                            std::nextafter(1.0, 0.0), -std::nextafter(1.0, 0.0), 0.5, -3.25};
  std::vector<double> Values(std::begin(Special), std::end(Special));
  uint64_t S = 88172645463325252ull;
  for (int I = 0; I < 3000; ++I) {
    S ^= S << 13;
    S ^= S >> 7;
    S ^= S << 17;
    double V;
    std::memcpy(&V, &S, sizeof V);
    Values.push_back(I % 2 ? V : double(int64_t(S % 4001)) / 1000.0 - 2.0);
  }
  for (const Case &C : Cases) {
    EXPECT_EQ(mathDomainCondition(C.Name), C.Text) << C.Name;
    int Wrong = 0;
    for (size_t A = 0; A < Values.size(); ++A) {
      // Two arguments: a special value or a neighbour for the second.
      double X = Values[A], Y = Values[(A * 7 + 3) % (A < 40 ? 20 : Values.size())];
      errno = 0;
      volatile double R = C.Call(X, Y);
      (void)R;
      int Got = errno;
      int Want = C.Holds(X, Y) ? EDOM : 0;
      if (Got != Want && ++Wrong <= 3)
        ADD_FAILURE() << C.Name << "(" << X << ", " << Y << "): errno " << Got << ", the condition says "
                      << Want;
    }
    EXPECT_EQ(Wrong, 0) << C.Name;
  }
}

} // namespace
