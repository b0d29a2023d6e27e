//===- clustrix/Analysis/Polynomial.h - Subscript polynomials ---*- C++ -*-===//
//
// Integer polynomials over loop variables and loop-invariant symbols: the form every subscript
// and loop bound is brought into before the dependence test and the region math. A polynomial is
// "affine" when each monomial holds at most one loop variable; symbols may multiply freely, which
// is what row-major subscripts such as `i*m + j` need.
//
// Variables are opaque keys (the analysis uses declaration addresses) so that this code, and its
// unit tests, need nothing from Clang.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_ANALYSIS_POLYNOMIAL_H
#define CLUSTRIX_ANALYSIS_POLYNOMIAL_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clustrix {

/// An opaque variable: a loop variable or a loop-invariant symbol.
struct PolyVar {
  const void *Key = nullptr;
  std::string Name;
  bool IsLoopVar = false;

  /// By name first, so that what is generated from polynomials (symbol tables, texts) does not
  /// depend on where the keys live; one key always has one name.
  bool operator<(const PolyVar &O) const {
    return Name != O.Name ? Name < O.Name : Key < O.Key;
  }
  bool operator==(const PolyVar &O) const { return Key == O.Key; }
};

/// A product of variables, sorted (by name, then key); the empty monomial is the constant 1.
using Monomial = std::vector<PolyVar>;

/// An integer polynomial with 64-bit coefficients. Operations that would overflow make the
/// polynomial invalid (isValid() false) rather than wrap.
class Polynomial {
public:
  Polynomial() = default;
  static Polynomial constant(int64_t C);
  static Polynomial variable(const PolyVar &V);
  static Polynomial invalid();

  bool isValid() const { return Valid; }
  bool isZero() const { return Valid && Terms.empty(); }
  /// The value when the polynomial is a constant.
  std::optional<int64_t> asConstant() const;
  /// The constant term.
  int64_t constantTerm() const;

  Polynomial operator+(const Polynomial &O) const;
  Polynomial operator-(const Polynomial &O) const;
  Polynomial operator*(const Polynomial &O) const;
  Polynomial operator-() const;
  Polynomial scaled(int64_t C) const;
  bool operator==(const Polynomial &O) const { return Valid == O.Valid && Terms == O.Terms; }
  bool operator!=(const Polynomial &O) const { return !(*this == O); }

  /// Each monomial holds at most one loop variable.
  bool isAffineInLoopVars() const;
  /// The loop variables that occur.
  std::vector<PolyVar> loopVars() const;
  /// The polynomial coefficient of loop variable V (the sum of the monomials holding V, with V
  /// removed). Zero when V does not occur.
  Polynomial coefficientOf(const PolyVar &V) const;
  /// The part without any loop variable.
  Polynomial invariantPart() const;
  /// Replaces variable V by polynomial P.
  Polynomial substitute(const PolyVar &V, const Polynomial &P) const;
  /// Whether symbol S occurs.
  bool mentions(const void *Key) const;

  const std::map<Monomial, int64_t> &terms() const { return Terms; }
  /// Readable form, e.g. "2*i + m*j - 1".
  std::string str() const;

private:
  void addTerm(const Monomial &M, int64_t C);
  std::map<Monomial, int64_t> Terms;
  bool Valid = true;
};

/// A closed integer interval whose ends are polynomials over invariant symbols (no loop
/// variables): the range of a loop variable or of a subscript.
struct PolyRange {
  PolyRange() = default;
  PolyRange(Polynomial Lo, Polynomial Hi) : Lo(std::move(Lo)), Hi(std::move(Hi)) {}

  Polynomial Lo, Hi;
  /// What is known beyond the interval, for an inner loop that counts up by a constant Step
  /// from Base + ResidueNum % ResidueDiv (C's `%`, truncating; ResidueDiv 1: no residue): its
  /// values are that start plus Step*t, t >= 0. The interval alone is always sound.
  int64_t Step = 1;
  Polynomial Base;
  Polynomial ResidueNum = Polynomial::constant(0);
  int64_t ResidueDiv = 1;
  bool isLattice() const { return Step > 1 || ResidueDiv > 1; }
  /// A clamped bound (`i < std::min(ii + B, n)`, `i = std::max(0, k - 1)`): the values also stay
  /// at or below ClampHi and at or above ClampLo. The interval alone is a sound superset.
  std::optional<Polynomial> ClampLo, ClampHi;
  bool isClamped() const { return ClampLo || ClampHi; }
};

/// Whether A <= B holds for every value of the symbols, as far as a constant difference shows.
bool provablyLessEq(const Polynomial &A, const Polynomial &B);

/// A loop-invariant quotient `Num / Div` (C's division, truncating toward zero; Div > 0) that
/// the analysis names as one symbol, so that bounds such as `i < n / 2` stay affine. The exact
/// dependence test relates the symbol to its numerator.
struct Quotient {
  Polynomial Num; ///< Over invariant symbols only.
  int64_t Div = 1;
};

/// The symbol standing for Num / Div (the same key for the same quotient); Name is what the
/// host evaluates, in the symbols' own spellings.
PolyVar quotientSymbol(const Polynomial &Num, int64_t Div);

/// The quotient a symbol stands for, or null.
const Quotient *quotientOf(const void *Key);

/// A loop-invariant `max(A, B)` (IsMax) or `min(A, B)` that the analysis names as one symbol: a
/// parallel loop that starts at a max or ends at a min (a hyperplane of a wavefront, `for (j =
/// max(2, i - n + 2); j <= min(i, n); ++j)`) keeps affine subscripts. The exact dependence test
/// relates the symbol to its operands; bounds proofs take either operand where its sign allows
/// (clampAlternatives).
struct Clamp {
  bool IsMax = true;
  Polynomial A, B; ///< Over invariant symbols only.
};

/// The symbol standing for the clamp (the same key for the same operands); Name is what the
/// host evaluates, in the symbols' own spellings.
PolyVar clampSymbol(bool IsMax, const Polynomial &A, const Polynomial &B);

/// The clamp a symbol stands for, or null.
const Clamp *clampOf(const void *Key);

/// Polynomials that bound P from below (Lower) or above where its clamp symbols are replaced by
/// one of their operands, each substitution valid by the term's sign (a max is at least either
/// operand, a min at most either); P itself first. At most 16.
std::vector<Polynomial> clampAlternatives(const Polynomial &P, bool Lower);

} // namespace clustrix

#endif // CLUSTRIX_ANALYSIS_POLYNOMIAL_H
