//===- MinMax.cpp - The smaller or larger of two integers -----------------===//
#include "MinMax.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace clustrix {
namespace analysis {

std::optional<bool> minMaxOf(const Expr *E, const Expr *&A, const Expr *&B,
                             llvm::function_ref<Polynomial(const Expr *)> Value) {
  E = E->IgnoreImplicit()->IgnoreParenImpCasts();
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD || CE->getNumArgs() != 2 || !FD->isInStdNamespace() || !FD->getIdentifier() ||
        (FD->getName() != "min" && FD->getName() != "max"))
      return std::nullopt;
    auto Bound = [](const Expr *X) {
      X = X->IgnoreParens();
      if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(X))
        X = M->getSubExpr();
      return X;
    };
    A = Bound(CE->getArg(0));
    B = Bound(CE->getArg(1));
    return FD->getName() == "max";
  }
  const auto *CO = dyn_cast<ConditionalOperator>(E);
  const auto *Cmp =
      CO ? dyn_cast<BinaryOperator>(CO->getCond()->IgnoreParenImpCasts()) : nullptr;
  if (!Cmp || !Cmp->isRelationalOp())
    return std::nullopt;
  Polynomial X = Value(Cmp->getLHS()), Y = Value(Cmp->getRHS());
  Polynomial T = Value(CO->getTrueExpr()), F = Value(CO->getFalseExpr());
  if (!X.isValid() || !Y.isValid() || !T.isValid() || !F.isValid())
    return std::nullopt;
  bool PicksX = T == X && F == Y, PicksY = T == Y && F == X;
  if (!PicksX && !PicksY)
    return std::nullopt;
  // `x < y ? x : y` and `x > y ? y : x` are min(x, y); the others max.
  bool Less = Cmp->getOpcode() == BO_LT || Cmp->getOpcode() == BO_LE;
  A = CO->getTrueExpr();
  B = CO->getFalseExpr();
  return Less != PicksX;
}

} // namespace analysis
} // namespace clustrix
