//===- Polynomial.cpp - Subscript polynomials -----------------------------===//
//
// Arithmetic on integer polynomials with overflow checks.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Analysis/Polynomial.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

using namespace clustrix;

namespace {
bool addOverflows(int64_t A, int64_t B, int64_t &R) { return __builtin_add_overflow(A, B, &R); }
bool mulOverflows(int64_t A, int64_t B, int64_t &R) { return __builtin_mul_overflow(A, B, &R); }

Monomial mulMonomials(const Monomial &A, const Monomial &B) {
  Monomial R;
  R.reserve(A.size() + B.size());
  std::merge(A.begin(), A.end(), B.begin(), B.end(), std::back_inserter(R));
  return R;
}
} // namespace

Polynomial Polynomial::constant(int64_t C) {
  Polynomial P;
  P.addTerm({}, C);
  return P;
}

Polynomial Polynomial::variable(const PolyVar &V) {
  Polynomial P;
  P.addTerm({V}, 1);
  return P;
}

Polynomial Polynomial::invalid() {
  Polynomial P;
  P.Valid = false;
  return P;
}

void Polynomial::addTerm(const Monomial &M, int64_t C) {
  if (!Valid || C == 0)
    return;
  auto It = Terms.find(M);
  if (It == Terms.end()) {
    Terms.emplace(M, C);
    return;
  }
  int64_t Sum;
  if (addOverflows(It->second, C, Sum)) {
    Valid = false;
    Terms.clear();
    return;
  }
  if (Sum == 0)
    Terms.erase(It);
  else
    It->second = Sum;
}

std::optional<int64_t> Polynomial::asConstant() const {
  if (!Valid)
    return std::nullopt;
  if (Terms.empty())
    return 0;
  if (Terms.size() == 1 && Terms.begin()->first.empty())
    return Terms.begin()->second;
  return std::nullopt;
}

int64_t Polynomial::constantTerm() const {
  auto It = Terms.find(Monomial{});
  return It == Terms.end() ? 0 : It->second;
}

Polynomial Polynomial::operator+(const Polynomial &O) const {
  if (!Valid || !O.Valid)
    return invalid();
  Polynomial R = *this;
  for (const auto &[M, C] : O.Terms)
    R.addTerm(M, C);
  return R;
}

Polynomial Polynomial::operator-() const { return scaled(-1); }

Polynomial Polynomial::operator-(const Polynomial &O) const { return *this + (-O); }

Polynomial Polynomial::scaled(int64_t C) const {
  if (!Valid)
    return invalid();
  Polynomial R;
  for (const auto &[M, K] : Terms) {
    int64_t P;
    if (mulOverflows(K, C, P))
      return invalid();
    R.addTerm(M, P);
  }
  return R;
}

Polynomial Polynomial::operator*(const Polynomial &O) const {
  if (!Valid || !O.Valid)
    return invalid();
  Polynomial R;
  for (const auto &[MA, CA] : Terms)
    for (const auto &[MB, CB] : O.Terms) {
      int64_t P;
      if (mulOverflows(CA, CB, P))
        return invalid();
      R.addTerm(mulMonomials(MA, MB), P);
      if (!R.Valid)
        return invalid();
    }
  return R;
}

bool Polynomial::isAffineInLoopVars() const {
  if (!Valid)
    return false;
  for (const auto &[M, C] : Terms)
    if (std::count_if(M.begin(), M.end(), [](const PolyVar &V) { return V.IsLoopVar; }) > 1)
      return false;
  return true;
}

std::vector<PolyVar> Polynomial::loopVars() const {
  std::vector<PolyVar> R;
  for (const auto &[M, C] : Terms)
    for (const PolyVar &V : M)
      if (V.IsLoopVar && std::find(R.begin(), R.end(), V) == R.end())
        R.push_back(V);
  std::sort(R.begin(), R.end());
  return R;
}

Polynomial Polynomial::coefficientOf(const PolyVar &V) const {
  if (!Valid)
    return invalid();
  Polynomial R;
  for (const auto &[M, C] : Terms) {
    auto It = std::find(M.begin(), M.end(), V);
    if (It == M.end())
      continue;
    Monomial Rest = M;
    Rest.erase(Rest.begin() + (It - M.begin()));
    R.addTerm(Rest, C);
  }
  return R;
}

Polynomial Polynomial::invariantPart() const {
  if (!Valid)
    return invalid();
  Polynomial R;
  for (const auto &[M, C] : Terms)
    if (std::none_of(M.begin(), M.end(), [](const PolyVar &V) { return V.IsLoopVar; }))
      R.addTerm(M, C);
  return R;
}

Polynomial Polynomial::substitute(const PolyVar &V, const Polynomial &P) const {
  if (!Valid || !P.Valid)
    return invalid();
  Polynomial R;
  for (const auto &[M, C] : Terms) {
    Polynomial Term = constant(C);
    for (const PolyVar &X : M)
      Term = Term * (X == V ? P : variable(X));
    R = R + Term;
    if (!R.Valid)
      return invalid();
  }
  return R;
}

bool Polynomial::mentions(const void *Key) const {
  for (const auto &[M, C] : Terms)
    for (const PolyVar &V : M)
      if (V.Key == Key)
        return true;
  return false;
}

std::string Polynomial::str() const {
  if (!Valid)
    return "<invalid>";
  if (Terms.empty())
    return "0";
  std::string S;
  bool First = true;
  // Highest-degree terms first, the constant last, as people write them.
  std::vector<std::pair<Monomial, int64_t>> Ordered(Terms.begin(), Terms.end());
  // By degree, then by the variables' names: the text must not depend on where the keys live.
  auto Names = [](const Monomial &M) {
    std::vector<std::string> N;
    for (const PolyVar &V : M)
      N.push_back(V.Name);
    std::sort(N.begin(), N.end());
    return N;
  };
  std::stable_sort(Ordered.begin(), Ordered.end(), [&](const auto &A, const auto &B) {
    if (A.first.size() != B.first.size())
      return A.first.size() > B.first.size();
    return Names(A.first) < Names(B.first);
  });
  for (const auto &[M, C] : Ordered) {
    int64_t Abs = C < 0 ? -C : C;
    if (First)
      S += C < 0 ? "-" : "";
    else
      S += C < 0 ? " - " : " + ";
    First = false;
    bool NeedStar = false;
    if (Abs != 1 || M.empty()) {
      S += std::to_string(Abs);
      NeedStar = true;
    }
    for (const std::string &Name : Names(M)) {
      if (NeedStar)
        S += "*";
      S += Name;
      NeedStar = true;
    }
  }
  return S;
}

bool clustrix::provablyLessEq(const Polynomial &A, const Polynomial &B) {
  std::optional<int64_t> D = (B - A).asConstant();
  return D && *D >= 0;
}

namespace {
/// A polynomial's terms and their variables' keys, as text: the same text for the same
/// polynomial.
std::string keyText(const Polynomial &P) {
  std::string Key;
  for (const auto &[M, C] : P.terms()) {
    Key += ";" + std::to_string(C);
    for (const PolyVar &V : M) {
      char Buf[32];
      std::snprintf(Buf, sizeof Buf, "*%p", V.Key);
      Key += Buf;
    }
  }
  return Key;
}
std::map<const void *, Quotient> &quotients() {
  static auto *Q = new std::map<const void *, Quotient>();
  return *Q;
}
} // namespace

PolyVar clustrix::quotientSymbol(const Polynomial &Num, int64_t Div) {
  static auto *Keys = new std::set<std::string>();
  std::string Key = "quot/" + std::to_string(Div) + keyText(Num);
  const void *K = &*Keys->insert(Key).first;
  quotients().emplace(K, Quotient{Num, Div});
  return {K, "(" + Num.str() + ") / " + std::to_string(Div), false};
}

const Quotient *clustrix::quotientOf(const void *Key) {
  auto It = quotients().find(Key);
  return It == quotients().end() ? nullptr : &It->second;
}

namespace {
std::map<const void *, Clamp> &clamps() {
  static auto *C = new std::map<const void *, Clamp>();
  return *C;
}

} // namespace

PolyVar clustrix::clampSymbol(bool IsMax, const Polynomial &A, const Polynomial &B) {
  static auto *Keys = new std::set<std::string>();
  std::string Key = std::string(IsMax ? "max" : "min") + keyText(A) + "|" + keyText(B);
  const void *K = &*Keys->insert(Key).first;
  clamps().emplace(K, Clamp{IsMax, A, B});
  std::string X = "(" + A.str() + ")", Y = "(" + B.str() + ")";
  return {K, "(" + X + (IsMax ? " > " : " < ") + Y + " ? " + X + " : " + Y + ")", false};
}

const Clamp *clustrix::clampOf(const void *Key) {
  auto It = clamps().find(Key);
  return It == clamps().end() ? nullptr : &It->second;
}

std::vector<Polynomial> clustrix::clampAlternatives(const Polynomial &P, bool Lower) {
  std::vector<Polynomial> Out{P};
  if (!P.isValid())
    return Out;
  for (const auto &[M, C] : P.terms()) {
    if (M.size() != 1 || M[0].IsLoopVar)
      continue;
    const Clamp *Cl = clampOf(M[0].Key);
    if (!Cl)
      continue;
    // C*S >= C*operand where (C > 0 and S is a max) or (C < 0 and S is a min) for a lower
    // bound; the other two for an upper bound.
    if ((C > 0) != (Cl->IsMax == Lower))
      continue;
    std::vector<Polynomial> Next;
    for (const Polynomial &Q : Out)
      for (const Polynomial *Op : {&Cl->A, &Cl->B}) {
        Polynomial R = Q.substitute(M[0], *Op);
        if (R.isValid() && Next.size() < 16)
          Next.push_back(R);
      }
    for (Polynomial &R : Next)
      if (Out.size() < 16)
        Out.push_back(std::move(R));
  }
  return Out;
}
