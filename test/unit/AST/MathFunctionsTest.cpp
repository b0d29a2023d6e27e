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

/// The constant builtins' device forms hold the host's bits: the hexadecimal number in each
/// text is the builtin's value on this machine.
TEST(MathFunctionsTest, ConstantBuiltinsHaveTheHostsBits) {
  auto Bits = [](llvm::StringRef Text) {
    size_t At = Text.find("0x");
    return std::strtoull(Text.substr(At).str().c_str(), nullptr, 16);
  };
  auto Double = [](double D) {
    uint64_t U;
    std::memcpy(&U, &D, sizeof U);
    return U;
  };
  auto Float = [](float F) {
    uint32_t U;
    std::memcpy(&U, &F, sizeof U);
    return uint64_t(U);
  };
  EXPECT_EQ(Bits(constantBuiltinDevice("__builtin_inf")), Double(__builtin_inf()));
  EXPECT_EQ(Bits(constantBuiltinDevice("__builtin_huge_val")), Double(__builtin_huge_val()));
  EXPECT_EQ(Bits(constantBuiltinDevice("__builtin_nan")), Double(__builtin_nan("")));
  EXPECT_EQ(Bits(constantBuiltinDevice("__builtin_inff")), Float(__builtin_inff()));
  EXPECT_EQ(Bits(constantBuiltinDevice("__builtin_huge_valf")), Float(__builtin_huge_valf()));
  EXPECT_EQ(Bits(constantBuiltinDevice("__builtin_nanf")), Float(__builtin_nanf("")));
  for (const char *N : {"__builtin_inf", "__builtin_inff", "__builtin_nan", "__builtin_huge_val"})
    EXPECT_TRUE(isMathFunction(N) && !mathFunctionSetsErrno(N)) << N;
  for (const char *N : {"__builtin_fabs", "__builtin_nans", "inf", "nan", ""})
    EXPECT_TRUE(constantBuiltinDevice(N).empty()) << N;
}

TEST(MathFunctionsTest, ErrorConditionsOnlyWhereAKernelCanTellErrno) {
  // powf sets ERANGE for some results at the smallest subnormal and not for others, by its
  // intermediate's size; the others' errno is left to -fno-math-errno.
  for (const char *N : {"powf", "atan2", "hypot", "cosh", "tgamma", "lgamma", "erfc", "fma",
                        "fabs", "printf", ""})
    EXPECT_FALSE(mathErrorConditions(N).known()) << N;
  for (const char *N : {"sqrt", "sqrtf", "sin", "cosf", "tan", "asin", "acos", "fmod", "log",
                        "logf", "log2", "log10", "log1p", "exp", "expf", "exp2", "expm1", "pow"}) {
    EXPECT_TRUE(mathErrorConditions(N).known()) << N;
    EXPECT_TRUE(mathFunctionSetsErrno(N) && isDeviceMathFunction(N)) << N;
  }
}

/// Each pair of conditions, as its text reads, against this machine's C library: over special
/// values, values at and beside the edges and random bit patterns, the library sets errno to
/// EDOM exactly when the domain condition holds, to ERANGE exactly when the range condition
/// holds (and the domain one does not), and leaves it alone otherwise. (The functions are
/// called through volatile pointers, so that the compiler neither folds nor inlines them.)
TEST(MathFunctionsTest, ErrorConditionsMatchTheCLibrary) {
  using Cond = std::function<bool(double, double, double)>;
  struct Case {
    const char *Name, *Domain, *Range;
    Cond InDomain, InRange; // over x, y and the result
    std::function<double(double, double)> Call;
  };
  static double (*volatile Sqrt)(double) = &::sqrt, (*volatile Sin)(double) = &::sin,
                         (*volatile Cos)(double) = &::cos, (*volatile Tan)(double) = &::tan,
                         (*volatile Asin)(double) = &::asin, (*volatile Acos)(double) = &::acos,
                         (*volatile Log)(double) = &::log, (*volatile Log2)(double) = &::log2,
                         (*volatile Log10)(double) = &::log10,
                         (*volatile Log1p)(double) = &::log1p, (*volatile Exp)(double) = &::exp,
                         (*volatile Exp2)(double) = &::exp2, (*volatile Expm1)(double) = &::expm1;
  static double (*volatile Fmod)(double, double) = &::fmod, (*volatile Pow)(double, double) = &::pow;
  static float (*volatile Sqrtf)(float) = &::sqrtf, (*volatile Sinf)(float) = &::sinf,
                        (*volatile Cosf)(float) = &::cosf, (*volatile Tanf)(float) = &::tanf,
                        (*volatile Logf)(float) = &::logf, (*volatile Expf)(float) = &::expf;
  auto F = [](double X) { return static_cast<float>(X); };
  const Cond Never = [](double, double, double) { return false; };
  const Cond Inf = [](double X, double, double) { return std::isinf(X); };
  const Cond InfF = [&](double X, double, double) { return std::isinf(F(X)); };
  const Cond Negative = [](double X, double, double) { return X < 0; };
  const Cond Zero = [](double X, double, double) { return X == 0; };
  const Cond OutOfOne = [](double X, double, double) { return X > 1 || X < -1; };
  auto One = [](double (*volatile &Fn)(double)) {
    return [&Fn](double X, double) { return Fn(X); };
  };
  auto OneF = [&](float (*volatile &Fn)(float)) {
    return [&Fn, F](double X, double) { return static_cast<double>(Fn(F(X))); };
  };
  const std::vector<Case> Cases = {
      {"sqrt", "__clx_x < 0", "", Negative, Never, One(Sqrt)},
      {"sqrtf", "__clx_x < 0", "", [&](double X, double, double) { return F(X) < 0; }, Never,
       OneF(Sqrtf)},
      {"sin", "isinf(__clx_x)", "", Inf, Never, One(Sin)},
      {"cos", "isinf(__clx_x)", "", Inf, Never, One(Cos)},
      {"tan", "isinf(__clx_x)", "", Inf, Never, One(Tan)},
      {"sinf", "isinf(__clx_x)", "", InfF, Never, OneF(Sinf)},
      {"cosf", "isinf(__clx_x)", "", InfF, Never, OneF(Cosf)},
      {"tanf", "isinf(__clx_x)", "", InfF, Never, OneF(Tanf)},
      {"asin", "__clx_x > 1 || __clx_x < -1", "", OutOfOne, Never, One(Asin)},
      {"acos", "__clx_x > 1 || __clx_x < -1", "", OutOfOne, Never, One(Acos)},
      {"fmod", "(isinf(__clx_x) || __clx_y == 0) && !isnan(__clx_x) && !isnan(__clx_y)", "",
       [](double X, double Y, double) {
         return (std::isinf(X) || Y == 0) && !std::isnan(X) && !std::isnan(Y);
       },
       Never, [](double X, double Y) { return Fmod(X, Y); }},
      {"log", "__clx_x < 0", "__clx_x == 0", Negative, Zero, One(Log)},
      {"log2", "__clx_x < 0", "__clx_x == 0", Negative, Zero, One(Log2)},
      {"log10", "__clx_x < 0", "__clx_x == 0", Negative, Zero, One(Log10)},
      {"logf", "__clx_x < 0", "__clx_x == 0", [&](double X, double, double) { return F(X) < 0; },
       [&](double X, double, double) { return F(X) == 0; }, OneF(Logf)},
      {"log1p", "__clx_x < -1", "__clx_x == -1", [](double X, double, double) { return X < -1; },
       [](double X, double, double) { return X == -1; }, One(Log1p)},
      {"exp", "",
       "!isinf(__clx_x) && (__clx_x > 0x1.62e42fefa39efp+9 || __clx_x < -0x1.74910d52d3051p+9)",
       Never,
       [](double X, double, double) {
         return !std::isinf(X) && (X > 0x1.62e42fefa39efp+9 || X < -0x1.74910d52d3051p+9);
       },
       One(Exp)},
      {"expm1", "", "!isinf(__clx_x) && __clx_x > 0x1.62e42fefa39efp+9", Never,
       [](double X, double, double) { return !std::isinf(X) && X > 0x1.62e42fefa39efp+9; },
       One(Expm1)},
      {"expf", "", "!isinf(__clx_x) && (__clx_x > 0x1.62e42ep+6f || __clx_x < -0x1.9d1d9ep+6f)",
       Never,
       [&](double X, double, double) {
         float Y = F(X);
         return !std::isinf(Y) && (Y > 0x1.62e42ep+6f || Y < -0x1.9d1d9ep+6f);
       },
       OneF(Expf)},
      {"exp2", "", "!isinf(__clx_x) && (__clx_x >= 1024 || __clx_x <= -1075)", Never,
       [](double X, double, double) { return !std::isinf(X) && (X >= 1024 || X <= -1075); },
       One(Exp2)},
      {"pow",
       "__clx_x < 0 && isfinite(__clx_x) && isfinite(__clx_y) && __clx_y != trunc(__clx_y)",
       "isfinite(__clx_x) && isfinite(__clx_y) && ((__clx_x == 0 && __clx_y < 0) || "
       "isinf(__clx_r) || (__clx_r == 0 && __clx_x != 0))",
       [](double X, double Y, double) {
         return X < 0 && std::isfinite(X) && std::isfinite(Y) && Y != std::trunc(Y);
       },
       [](double X, double Y, double R) {
         return std::isfinite(X) && std::isfinite(Y) &&
                ((X == 0 && Y < 0) || std::isinf(R) || (R == 0 && X != 0));
       },
       [](double X, double Y) { return Pow(X, Y); }},
  };
  // Special values, and each edge of the conditions with its neighbours.
  std::vector<double> Values = {0.0,  -0.0, 1.0,      -1.0,     INFINITY, -INFINITY, NAN,
                                -NAN, 1e-320, -1e-320, DBL_MAX, -DBL_MAX, FLT_MAX,  -FLT_MAX,
                                0.5,  -3.25, 2.0,     -2.0,     0.1,      -0.5};
  for (double Edge : {1.0, -1.0, 0x1.62e42fefa39efp+9, -0x1.74910d52d3051p+9, 1024.0, -1075.0,
                      double(0x1.62e42ep+6f), double(-0x1.9d1d9ep+6f), -1074.0}) {
    double Below = Edge, Above = Edge;
    Values.push_back(Edge);
    for (int I = 0; I < 3; ++I) {
      Below = std::nextafter(Below, -INFINITY);
      Above = std::nextafter(Above, INFINITY);
      Values.push_back(Below);
      Values.push_back(Above);
    }
    Values.push_back(double(std::nextafter(F(Edge), -INFINITY)));
    Values.push_back(double(std::nextafter(F(Edge), INFINITY)));
  }
  size_t NumSpecial = Values.size();
  uint64_t S = 88172645463325252ull;
  for (int I = 0; I < 6000; ++I) {
    S ^= S << 13;
    S ^= S >> 7;
    S ^= S << 17;
    double V;
    std::memcpy(&V, &S, sizeof V);
    double Wide = double(int64_t(S % 4000001)) / 1000.0 - 2000.0; // exp's and pow's edges
    Values.push_back(I % 3 == 0 ? V : I % 3 == 1 ? double(int64_t(S % 4001)) / 1000.0 - 2.0
                                                 : Wide);
  }
  for (const Case &C : Cases) {
    MathErrorConditions Text = mathErrorConditions(C.Name);
    EXPECT_EQ(Text.Domain, C.Domain) << C.Name;
    EXPECT_EQ(Text.Range, C.Range) << C.Name;
    int Wrong = 0;
    for (size_t A = 0; A < Values.size(); ++A) {
      // Two arguments: a special value or a neighbour for the second; for pow also the
      // integers and halves that cross its edges.
      double X = Values[A], Y = Values[(A * 7 + 3) % (A < NumSpecial ? NumSpecial : Values.size())];
      if (A % 5 == 4)
        Y = std::trunc(Y);
      errno = 0;
      double R = C.Call(X, Y);
      int Got = errno;
      int Want = C.InDomain(X, Y, R) ? EDOM : C.InRange(X, Y, R) ? ERANGE : 0;
      if (Got != Want && ++Wrong <= 3)
        ADD_FAILURE() << C.Name << "(" << X << ", " << Y << ") = " << R << ": errno " << Got
                      << ", the conditions say " << Want;
    }
    EXPECT_EQ(Wrong, 0) << C.Name;
  }
}

} // namespace
