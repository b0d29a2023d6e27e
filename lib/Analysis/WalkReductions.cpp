//===- WalkReductions.cpp - Reduction-shaped updates in the walk -----------===//
//
// Recognizes the updates a reduction is made of: `s op= e`, `s = s op e`, `s = e op s`, `s++`,
// `s = std::max(s, e)`, `s = s < e ? e : s` and `if (s < e) s = e;`. Whether s is a reduction is
// decided later (Scalars.cpp), from all of its uses. For floating-point min and max, the form
// decides whether the result can equal the serial one bit for bit: the runtime combines
// partials keeping the first of equal values and never picking a NaN partial, so a form is safe
// when it replaces s by e only when a strict comparison of the two is true (false for NaN,
// false for equal values).
//
//===----------------------------------------------------------------------===//
#include "BodyWalker.h"

using namespace clang;

namespace clustrix {
namespace analysis {

using Event = CostModel::Event;

/// The outer scalar an expression names, if it is a plain reference to one.
const VarDecl *BodyWalker::outerScalar(const Expr *E) {
  const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  if (!DR)
    return nullptr;
  const auto *VD = dyn_cast<VarDecl>(DR->getDecl());
  if (!VD || Locals.count(VD) || IVs.count(VD) || Cur->Params.count(VD) || Cur->Fn)
    return nullptr;
  if (!VD->getType()->isArithmeticType() || VD->getType()->isBooleanType())
    return nullptr;
  return VD;
}

bool BodyWalker::sameExpr(const Expr *A, const Expr *B) {
  A = A->IgnoreParenImpCasts();
  B = B->IgnoreParenImpCasts();
  llvm::FoldingSetNodeID IA, IB;
  A->Profile(IA, Ctx, true);
  B->Profile(IB, Ctx, true);
  return IA == IB;
}

/// Why an update of V with operator Op, computed in type CT, is not exact in V's own type
/// (design rule 9); empty when it is. Operand is the value a min or max compares and stores.
/// Wrapping integer arithmetic and bitwise operators commute with the conversion to a narrower
/// integer, so an integer `+`, `*`, `&`, `|`, `^` computed in a wider integer type is exact; a
/// floating-point one must compute in V's type. A min or max must compare in V's type, or in
/// its promotion when the compared value fits V's type: the value compared is then the value
/// stored.
static std::string inexactConversion(const VarDecl *V, const std::string &Op, QualType CT,
                                     const Expr *Operand, const ASTContext &Ctx) {
  QualType T = V->getType().getCanonicalType().getUnqualifiedType();
  CT = CT.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  if (CT.isNull() || Ctx.hasSameType(T, CT))
    return "";
  std::string TS = T.getAsString(), CS = CT.getAsString();
  if (Op == "min" || Op == "max") {
    if (Operand && T->isIntegerType() && preservesValue(T, CT, Ctx)) {
      QualType ST = Operand->IgnoreParenImpCasts()->getType().getCanonicalType();
      if (preservesValue(ST, T, Ctx))
        return "";
    }
    return "compares in '" + CS + "' and stores the '" + CS + "' value into '" + TS + "'";
  }
  if (T->isIntegerType() && CT->isIntegerType())
    return "";
  return "computes in '" + CS + "' and converts each result to '" + TS + "'";
}

void BodyWalker::noteUpdate(const VarDecl *V, std::string Op, const Expr *At, bool OrderSafe,
                            bool ViaFminFmax, std::string Conversion) {
  ScalarUse &S = Facts.Scalars[V];
  S.Var = V;
  if (!Conversion.empty() && S.Conversion.empty()) {
    S.Conversion = std::move(Conversion);
    S.ConversionAt = At;
  }
  S.Updates.push_back({std::move(Op), At});
  S.OrderSafeMinMax &= OrderSafe;
  S.ViaFminFmax |= ViaFminFmax;
}

bool BodyWalker::matchReductionUpdate(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *EW = dyn_cast<ExprWithCleanups>(E))
    E = EW->getSubExpr()->IgnoreParenImpCasts();
  const VarDecl *V = nullptr;
  std::string Op;
  const Expr *Operand = nullptr;
  bool OrderSafe = true, ViaFminFmax = false;
  QualType CT; // the type the update computes in (or compares in, for min and max)
  const Expr *Compared = nullptr;
  std::string Conversion;
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (!UO->isIncrementDecrementOp())
      return false;
    V = outerScalar(UO->getSubExpr());
    Op = "+";
  } else if (const auto *CA = dyn_cast<CompoundAssignOperator>(E)) {
    V = outerScalar(CA->getLHS());
    Operand = CA->getRHS();
    CT = CA->getComputationResultType();
    switch (CA->getOpcode()) {
    case BO_AddAssign: case BO_SubAssign: Op = "+"; break;
    case BO_MulAssign: Op = "*"; break;
    case BO_AndAssign: Op = "&"; break;
    case BO_OrAssign: Op = "|"; break;
    case BO_XorAssign: Op = "^"; break;
    default: return false;
    }
  } else if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() != BO_Assign)
      return false;
    V = outerScalar(BO->getLHS());
    if (!V)
      return false;
    const Expr *RHS = BO->getRHS()->IgnoreParenImpCasts();
    if (const auto *Bin = dyn_cast<BinaryOperator>(RHS)) {
      bool LIsV = outerScalar(Bin->getLHS()) == V, RIsV = outerScalar(Bin->getRHS()) == V;
      switch (Bin->getOpcode()) {
      case BO_Add: Op = "+"; break;
      case BO_Sub: Op = LIsV ? "+" : ""; break;
      case BO_Mul: Op = "*"; break;
      case BO_And: Op = "&"; break;
      case BO_Or: Op = "|"; break;
      case BO_Xor: Op = "^"; break;
      default: break;
      }
      if (Op.empty() || (!LIsV && !RIsV))
        return false;
      Operand = LIsV ? Bin->getRHS() : Bin->getLHS();
      CT = Bin->getType();
    } else if (const auto *Call = dyn_cast<CallExpr>(RHS)) {
      const FunctionDecl *FD = Call->getDirectCallee();
      if (!FD || Call->getNumArgs() != 2 || !FD->getIdentifier())
        return false;
      // Only the standard functions: a user's own `max` may compute anything.
      if (!FD->isInStdNamespace() && !FD->getBuiltinID())
        return false;
      StringRef N = FD->getName();
      bool Fm = N.starts_with("fm");
      if (N == "max" || N == "fmax" || N == "fmaxf")
        Op = "max";
      else if (N == "min" || N == "fmin" || N == "fminf")
        Op = "min";
      else
        return false;
      bool A0 = outerScalar(Call->getArg(0)) == V, A1 = outerScalar(Call->getArg(1)) == V;
      if (A0 == A1)
        return false;
      Operand = A0 ? Call->getArg(1) : Call->getArg(0);
      CT = Call->getType();
      Compared = Operand;
      // std::max(s, e) is `s < e ? e : s`: safe. std::max(e, s) is `e < s ? s : e`, which
      // takes e when the comparison is false: unsafe for NaN. Likewise for min.
      OrderSafe = A0;
      ViaFminFmax = Fm;
    } else if (const auto *CO = dyn_cast<ConditionalOperator>(RHS)) {
      // s = s > e ? s : e  (max), s = e < s ? s : e (max), and the min forms.
      const auto *C = dyn_cast<BinaryOperator>(CO->getCond()->IgnoreParenImpCasts());
      if (!C || !C->isRelationalOp())
        return false;
      const Expr *T = CO->getTrueExpr(), *F = CO->getFalseExpr();
      bool CL = outerScalar(C->getLHS()) == V, CR = outerScalar(C->getRHS()) == V;
      if (CL == CR)
        return false;
      const Expr *CE = CL ? C->getRHS() : C->getLHS();
      bool TIsV = outerScalar(T) == V, FIsV = outerScalar(F) == V;
      if (TIsV == FIsV)
        return false;
      const Expr *Other = TIsV ? F : T;
      if (!sameExpr(Other, CE))
        return false;
      bool Greater = C->getOpcode() == BO_GT || C->getOpcode() == BO_GE;
      // With V on the left: V > e ? V : e is max. Flip for each reversal.
      bool IsMax = Greater == CL;
      if (!TIsV)
        IsMax = !IsMax;
      Op = IsMax ? "max" : "min";
      Operand = Other;
      // Compared in the comparison's type, stored as the conditional's value: both must be
      // exact.
      CT = C->getLHS()->getType();
      Compared = CE;
      Conversion = inexactConversion(V, Op, CO->getType(), Other, Ctx);
      bool Strict = C->getOpcode() == BO_GT || C->getOpcode() == BO_LT;
      OrderSafe = !TIsV && Strict; // e is taken only when a strict comparison holds
    } else {
      return false;
    }
  } else {
    return false;
  }
  if (!V)
    return false;
  if (Operand && mentions(Operand, V))
    return false; // the update reads s elsewhere: a carried dependence, not a reduction
  if (Conversion.empty() && !CT.isNull())
    Conversion = inexactConversion(V, Op, CT, Compared, Ctx);
  noteUpdate(V, Op, E, OrderSafe, ViaFminFmax, std::move(Conversion));
  if (CondDepth > 0)
    Facts.Cost.note(Event::CondUpdate);
  if (Operand)
    walkExpr(Operand, Use::Read);
  return true;
}

/// `if (e > s) s = e;` and the min form, without an else.
bool BodyWalker::matchIfMinMax(const IfStmt *If) {
  if (If->getElse() || If->getInit() || If->getConditionVariable() || If->isConsteval())
    return false;
  const auto *C = dyn_cast<BinaryOperator>(If->getCond()->IgnoreParenImpCasts());
  if (!C || !C->isRelationalOp())
    return false;
  const Stmt *Then = If->getThen();
  if (const auto *CS = dyn_cast<CompoundStmt>(Then)) {
    if (CS->size() != 1)
      return false;
    Then = CS->body_front();
  }
  const auto *Asg = dyn_cast<BinaryOperator>(Then);
  if (!Asg || Asg->getOpcode() != BO_Assign)
    return false;
  const VarDecl *V = outerScalar(Asg->getLHS());
  if (!V)
    return false;
  bool CL = outerScalar(C->getLHS()) == V, CR = outerScalar(C->getRHS()) == V;
  if (CL == CR)
    return false;
  const Expr *CE = CL ? C->getRHS() : C->getLHS();
  if (!sameExpr(CE, Asg->getRHS()) || mentions(CE, V))
    return false;
  bool Greater = C->getOpcode() == BO_GT || C->getOpcode() == BO_GE;
  // if (e > s) s = e : max. With s on the left: if (s < e) s = e : max.
  bool IsMax = CL ? !Greater : Greater;
  bool Strict = C->getOpcode() == BO_GT || C->getOpcode() == BO_LT;
  std::string Op = IsMax ? "max" : "min";
  noteUpdate(V, Op, Asg, Strict, false,
             inexactConversion(V, Op, C->getLHS()->getType(), CE, Ctx));
  Facts.Cost.note(Event::MinMaxIf);
  walkExpr(CE, Use::Read);
  return true;
}

} // namespace analysis
} // namespace clustrix
