//===- OpenMPCheck.cpp - An OpenMP loop: a race with a witness, or a proof --===//
//
// The analysis judges a loop by Clustrix's rules, under which a scalar that every iteration
// writes before reading it is the iteration's own, and a reduction needs no clause. OpenMP's
// rules differ: such a variable, declared outside the loop, is shared by every thread unless a
// clause says otherwise, and two iterations that write it race. So the check first finds the
// variables OpenMP shares that the loop writes, then reads the analysis's own verdict:
// dependences with a certain witness are races, an acceptance is a proof, the rest unknown.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Decide/OpenMPCheck.h"

#include "clustrix/Analysis/Dependence.h"
#include "clustrix/Analysis/ExactDependence.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <optional>

using namespace clang;
using namespace clustrix;

namespace {

const VarDecl *varOf(const Expr *E) {
  if (!E)
    return nullptr;
  if (const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    return dyn_cast<VarDecl>(DR->getDecl());
  return nullptr;
}

/// The variable an expression assigns, increments or decrements, when it is one of those.
const VarDecl *writtenVar(const Expr *E) {
  E = E->IgnoreParens();
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    if (B->isAssignmentOp())
      return varOf(B->getLHS());
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    if (U->isIncrementDecrementOp())
      return varOf(U->getSubExpr());
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
    if (Op->isAssignmentOp() || Op->getOperator() == OO_PlusPlus ||
        Op->getOperator() == OO_MinusMinus)
      return Op->getNumArgs() > 0 ? varOf(Op->getArg(0)) : nullptr;
  return nullptr;
}

/// Variables declared inside the loop, and the expressions that write a variable directly.
class BodyScan : public RecursiveASTVisitor<BodyScan> {
public:
  bool VisitVarDecl(VarDecl *V) {
    Inside.insert(V);
    return true;
  }
  bool VisitExpr(Expr *E) {
    if (const VarDecl *V = writtenVar(E))
      if (!Writes.count(V))
        Writes[V] = E;
    return true;
  }
  std::set<const VarDecl *> Inside;
  std::map<const VarDecl *, const Expr *> Writes;
};

/// Whether S may leave the iteration (or the program) before its end: a jump out of the
/// iteration, a throw, a call that does not return.
bool mayLeave(const Stmt *S, unsigned LoopDepth = 0) {
  if (!S)
    return false;
  if (isa<ContinueStmt>(S) || isa<BreakStmt>(S))
    return LoopDepth == 0;
  if (isa<ReturnStmt>(S) || isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S) || isa<CXXThrowExpr>(S) ||
      isa<LabelStmt>(S) || isa<CoreturnStmt>(S))
    return true;
  if (const auto *C = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *F = C->getDirectCallee())
      if (F->isNoReturn())
        return true;
  bool Loop = isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) || isa<CXXForRangeStmt>(S) ||
              isa<SwitchStmt>(S);
  for (const Stmt *C : S->children())
    if (mayLeave(C, LoopDepth + Loop))
      return true;
  return false;
}

/// Whether expression E writes V wherever it is evaluated: at its top, or in an operand that
/// is always evaluated (not the arms of ?:, not the right of && and ||).
const Expr *alwaysWrites(const Expr *E, const VarDecl *V) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (writtenVar(E) == V)
    return E;
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    if (B->isLogicalOp())
      return alwaysWrites(B->getLHS(), V);
  if (const auto *C = dyn_cast<AbstractConditionalOperator>(E))
    return alwaysWrites(C->getCond(), V);
  // Operands that are not evaluated, or evaluated elsewhere.
  if (isa<UnaryExprOrTypeTraitExpr>(E) || isa<LambdaExpr>(E) || isa<StmtExpr>(E) ||
      isa<CXXTypeidExpr>(E) || isa<CXXNoexceptExpr>(E) || isa<GenericSelectionExpr>(E))
    return nullptr;
  for (const Stmt *C : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(C))
      if (const Expr *W = alwaysWrites(CE, V))
        return W;
  return nullptr;
}

/// Whether A <= B for every value of the symbols, as a constant difference shows.
bool provablyAtMost(const Polynomial &A, const Polynomial &B) {
  if (!A.isValid() || !B.isValid())
    return false;
  std::optional<int64_t> D = (B - A).asConstant();
  return D && *D >= 0;
}

/// The last value of nest level L's normalized variable (its first is 0), for a loop that
/// counts up by 1; invalid otherwise.
Polynomial lastNormalized(const CanonicalLoop &N) {
  std::optional<int64_t> Step = N.StepPoly.isValid() ? N.StepPoly.asConstant() : std::nullopt;
  if (!Step || *Step != 1 || !N.InitValue.isValid() || !N.BoundValue.isValid() || N.RangeFor)
    return Polynomial::invalid();
  if (N.Cmp == LoopCmp::LT)
    return N.BoundValue - N.InitValue - Polynomial::constant(1);
  if (N.Cmp == LoopCmp::LE)
    return N.BoundValue - N.InitValue;
  return Polynomial::invalid();
}

/// Whether the canonical inner loop F runs at least once in every iteration of a loop that
/// runs at least two: its range is not empty, by a constant, or by the parallel loop's own
/// range (`for (j = 0; j < n; j++)` inside `for (i = 0; i < n; i++)`).
bool innerLoopRuns(const ForStmt *F, const LoopResult &R) {
  const VarDecl *IV = nullptr;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit())) {
    if (DS->isSingleDecl())
      IV = dyn_cast<VarDecl>(DS->getSingleDecl());
  } else if (const auto *E = dyn_cast_or_null<Expr>(F->getInit())) {
    IV = writtenVar(E);
  }
  if (!IV)
    return false;
  for (const auto &[PV, Range] : R.InnerRanges) {
    if (PV.Key != IV || Range.isLattice() || Range.isClamped())
      continue;
    if (provablyAtMost(Range.Lo, Range.Hi))
      return true;
    if (R.Nest.empty())
      return false;
    // Hi - Lo >= 0 follows from the outer loop's last normalized value being at least 1.
    Polynomial OuterLast = lastNormalized(R.Nest.front());
    return OuterLast.isValid() &&
           provablyAtMost(OuterLast - Polynomial::constant(1), Range.Hi - Range.Lo);
  }
  return false;
}

/// The first write of V that every iteration of the loop body makes, if the body's statements,
/// in order, reach one before anything that may leave the iteration.
const Expr *writtenEveryIteration(const Stmt *S, const VarDecl *V, const LoopResult &R,
                                  bool &Stop) {
  if (!S || Stop)
    return nullptr;
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *C : CS->body()) {
      if (const Expr *W = writtenEveryIteration(C, V, R, Stop))
        return W;
      if (Stop)
        return nullptr;
    }
    return nullptr;
  }
  if (const auto *E = dyn_cast<Expr>(S)) {
    if (const Expr *W = alwaysWrites(E, V))
      return W;
  } else if (const auto *F = dyn_cast<ForStmt>(S)) {
    if (const auto *Init = dyn_cast_or_null<Expr>(F->getInit()))
      if (const Expr *W = alwaysWrites(Init, V))
        return W;
    // A canonical inner loop that surely runs: its first iteration's writes, up to anything
    // that may leave it.
    if (innerLoopRuns(F, R)) {
      bool InnerStop = false;
      if (const Expr *W = writtenEveryIteration(F->getBody(), V, R, InnerStop))
        return W;
    }
  } else if (const auto *I = dyn_cast<IfStmt>(S)) {
    if (!I->getInit() && !I->getConditionVariable())
      if (const Expr *W = alwaysWrites(I->getCond(), V))
        return W;
  }
  if (mayLeave(S))
    Stop = true;
  return nullptr;
}

/// The variables of the loops the directive distributes (private in OpenMP).
std::set<const VarDecl *> associatedVars(const Stmt *Loop, unsigned Collapse) {
  std::set<const VarDecl *> Vars;
  for (unsigned K = 0; K < Collapse && Loop; ++K) {
    if (const auto *RF = dyn_cast<CXXForRangeStmt>(Loop)) {
      Vars.insert(RF->getLoopVariable());
      Loop = RF->getBody();
    } else if (const auto *F = dyn_cast<ForStmt>(Loop)) {
      if (const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit())) {
        for (const Decl *D : DS->decls())
          if (const auto *VD = dyn_cast<VarDecl>(D))
            Vars.insert(VD);
      } else if (const auto *E = dyn_cast_or_null<Expr>(F->getInit())) {
        if (const VarDecl *V = writtenVar(E))
          Vars.insert(V);
      }
      Loop = F->getBody();
    } else {
      break;
    }
    while (const auto *CS = dyn_cast_or_null<CompoundStmt>(Loop)) {
      if (CS->size() != 1)
        break;
      Loop = CS->body_front();
    }
  }
  return Vars;
}

/// Whether the call is `omp_get_thread_num()`.
bool isThreadNum(const Expr *E) {
  const auto *C = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
  const FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
  return F && F->getIdentifier() && F->getName() == "omp_get_thread_num" && !C->getNumArgs();
}

/// Whether every use of V in S is in the then branch of an `if (omp_get_thread_num() == C)`
/// (C a constant): one thread of the team makes them all. Thread: inside such a branch.
bool oneThreadOnly(const Stmt *S, const VarDecl *V, ASTContext &Ctx, bool Thread = false) {
  if (!S)
    return true;
  if (const auto *DR = dyn_cast<DeclRefExpr>(S))
    return DR->getDecl() != V || Thread;
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    const auto *B = dyn_cast<BinaryOperator>(If->getCond()->IgnoreParenImpCasts());
    bool Master = false;
    if (B && B->getOpcode() == BO_EQ && !If->getInit() && !If->getConditionVariable())
      for (auto [Call, K] : {std::pair{B->getLHS(), B->getRHS()}, {B->getRHS(), B->getLHS()}})
        Master |= isThreadNum(Call) && !K->isValueDependent() && K->isIntegerConstantExpr(Ctx);
    return oneThreadOnly(If->getCond(), V, Ctx, Thread) &&
           oneThreadOnly(If->getThen(), V, Ctx, Thread || Master) &&
           oneThreadOnly(If->getElse(), V, Ctx, Thread);
  }
  for (const Stmt *C : S->children())
    if (!oneThreadOnly(C, V, Ctx, Thread))
      return false;
  return true;
}

/// The variable a refusal is about, when its message starts with one ('a' is written ...).
std::string subjectOf(const RejectReason &Reason) {
  llvm::StringRef M = Reason.Message;
  if (!M.consume_front("'"))
    return "";
  return M.take_until([](char C) { return C == '\''; }).str();
}

const Stmt *bodyOf(const Stmt *Loop) {
  if (const auto *F = dyn_cast<ForStmt>(Loop))
    return F->getBody();
  if (const auto *RF = dyn_cast<CXXForRangeStmt>(Loop))
    return RF->getBody();
  return nullptr;
}

/// The first two iterations of the distributed loop, as "i = 0 and i = 1", and whether the loop
/// is known to run at least two (std::nullopt: it is known not to).
std::optional<std::string> firstTwo(const LoopResult &R, bool &Known) {
  Known = false;
  if (R.Nest.empty())
    return std::string("two iterations");
  const CanonicalLoop &L = R.Nest.front();
  auto Constant = [](const Polynomial &P, int64_t &Out) {
    if (!P.isValid())
      return false;
    std::optional<int64_t> C = P.asConstant();
    Out = C.value_or(0);
    return C.has_value();
  };
  int64_t Init = 0, Step = 0, Bound = 0;
  if (L.RangeFor || !Constant(L.InitValue, Init) || !Constant(L.StepPoly, Step) || Step == 0)
    return std::string("two iterations");
  int64_t Second = Init + Step;
  if (Constant(L.BoundValue, Bound)) {
    bool Runs = false;
    switch (L.Cmp) {
    case LoopCmp::LT:
      Runs = Second < Bound;
      break;
    case LoopCmp::LE:
      Runs = Second <= Bound;
      break;
    case LoopCmp::GT:
      Runs = Second > Bound;
      break;
    case LoopCmp::GE:
      Runs = Second >= Bound;
      break;
    case LoopCmp::NE:
      Runs = Init != Bound && Second != Bound;
      break;
    }
    if (!Runs)
      return std::nullopt;
    Known = true;
  }
  return "iterations " + L.VarName + " = " + std::to_string(Init) + " and " + L.VarName + " = " +
         std::to_string(Second);
}

/// Whether the function writes V anywhere but its declaration, or takes its address.
class ChangedOrEscaped : public RecursiveASTVisitor<ChangedOrEscaped> {
public:
  /// Writes: whether a write counts too (else only an escape of the address).
  explicit ChangedOrEscaped(const VarDecl *V, bool Writes = true) : V(V), Writes(Writes) {}
  bool VisitExpr(Expr *E) {
    if (Writes && writtenVar(E) == V)
      Found = true;
    if (const auto *U = dyn_cast<UnaryOperator>(E))
      if (U->getOpcode() == UO_AddrOf && varOf(U->getSubExpr()) == V)
        Found = true;
    return !Found;
  }
  bool VisitVarDecl(VarDecl *D) {
    // A reference bound to it may write it.
    if (D->getType()->isReferenceType() && !D->getType().getNonReferenceType().isConstQualified() &&
        varOf(D->getInit()) == V)
      Found = true;
    return !Found;
  }
  bool VisitCallExpr(CallExpr *C) {
    // Passed to a reference parameter.
    if (const FunctionDecl *F = C->getDirectCallee())
      for (unsigned I = 0; I < C->getNumArgs() && I < F->getNumParams(); ++I)
        if (F->getParamDecl(I)->getType()->isReferenceType() && varOf(C->getArg(I)) == V)
          Found = true;
    return !Found;
  }
  const VarDecl *V;
  bool Writes;
  bool Found = false;
};

/// Whether S calls a function other than the OpenMP runtime's queries.
bool callsAnything(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *C = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *F = C->getDirectCallee();
    if (!F || !F->getIdentifier() || !F->getName().starts_with("omp_get_"))
      return true;
  }
  for (const Stmt *C : S->children())
    if (callsAnything(C))
      return true;
  return false;
}

/// Whether a callee of the loop may reach V: the body calls a function, and V is not a local
/// whose address stays in its function.
bool calleesMayReach(const VarDecl *V, const Stmt *Body) {
  if (!callsAnything(Body))
    return false;
  const auto *F = dyn_cast<FunctionDecl>(V->getDeclContext());
  if (!V->hasLocalStorage() || !F || !F->hasBody())
    return true;
  ChangedOrEscaped C(V, /*Writes=*/false);
  C.TraverseStmt(F->getBody());
  return C.Found;
}

/// How often the unit names each variable with static storage, and how often as a read of its
/// value: a variable with no other use (no write, no address, no reference bound to it, no
/// sizeof) keeps the value it starts with.
class StaticUses : public RecursiveASTVisitor<StaticUses> {
public:
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const auto *V = dyn_cast<VarDecl>(E->getDecl()); V && V->hasGlobalStorage())
      ++Uses[V->getCanonicalDecl()];
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    // A static data member named through an object (`s.n = 1`): a use that is never counted
    // as a read, so the member is no constant.
    if (const auto *V = dyn_cast<VarDecl>(E->getMemberDecl()); V && V->hasGlobalStorage())
      ++Uses[V->getCanonicalDecl()];
    return true;
  }
  bool VisitImplicitCastExpr(ImplicitCastExpr *C) {
    if (C->getCastKind() != CK_LValueToRValue)
      return true;
    const Expr *Sub = C->getSubExpr()->IgnoreParens();
    // An element read of an array: `t[e]`, the array decayed to a pointer.
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Sub))
      if (const auto *Decay = dyn_cast<ImplicitCastExpr>(AS->getBase()->IgnoreParens());
          Decay && Decay->getCastKind() == CK_ArrayToPointerDecay)
        Sub = Decay->getSubExpr()->IgnoreParens();
    if (const auto *DR = dyn_cast<DeclRefExpr>(Sub))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()); V && V->hasGlobalStorage())
        ++Reads[V->getCanonicalDecl()];
    return true;
  }
  std::map<const VarDecl *, unsigned> Uses, Reads;
};

/// The integer local variables of a function that keep their constant initializer's value.
class ConstantLocals : public RecursiveASTVisitor<ConstantLocals> {
public:
  explicit ConstantLocals(OpenMPChecker::Facts &F) : F(F) {}
  bool VisitVarDecl(VarDecl *V);
  OpenMPChecker::Facts &F;
  std::map<const void *, int64_t> Values;
};

/// The value of a constant integer initializer.
std::optional<int64_t> constantInit(const VarDecl *V, ASTContext &Ctx) {
  const VarDecl *Def = nullptr;
  const Expr *Init = V->getAnyInitializer(Def);
  if (!Init || Init->isValueDependent() || !V->getType()->isIntegerType() ||
      V->getType().isVolatileQualified())
    return std::nullopt;
  Expr::EvalResult ER;
  if (!Init->EvaluateAsInt(ER, Ctx) || ER.Val.getInt().getSignificantBits() > 64)
    return std::nullopt;
  return ER.Val.getInt().getSExtValue();
}

/// The calls of one function in the unit, and whether its name is used otherwise (its address
/// taken).
class CallSites : public RecursiveASTVisitor<CallSites> {
public:
  explicit CallSites(const FunctionDecl *Fn) : Fn(Fn) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitCallExpr(CallExpr *C) {
    if (const FunctionDecl *D = C->getDirectCallee(); D && D->getCanonicalDecl() == Fn) {
      Found.push_back(C);
      if (const auto *Callee = dyn_cast<ImplicitCastExpr>(C->getCallee()))
        Direct.insert(Callee->getSubExpr()->IgnoreParens());
    }
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const auto *D = dyn_cast<FunctionDecl>(E->getDecl()); D && D->getCanonicalDecl() == Fn)
      ++Uses;
    return true;
  }
  const FunctionDecl *Fn;
  std::vector<const CallExpr *> Found;
  std::set<const Expr *> Direct;
  unsigned Uses = 0;
  bool Escapes = false;
  void finish() { Escapes = Uses != Direct.size() || Found.size() != Direct.size(); }
};

/// Where a pointer points, in a run the check follows: an object and an offset in bytes. The
/// object is an array variable, a local that holds a fresh block all its life, or a heap block
/// by its allocation and how many times that allocation had run.
struct Place {
  const void *Object = nullptr;
  unsigned Instance = 0;
  std::string Name;            ///< "b", or "the block allocated at line 21"
  bool Block = false;          ///< A heap block named by its allocation: "element 3 of ..."
  std::optional<int64_t> Size; ///< In bytes, where known.
  int64_t Offset = 0;
  bool sameObject(const Place &O) const { return Object == O.Object && Instance == O.Instance; }
  bool operator==(const Place &O) const { return sameObject(O) && Offset == O.Offset; }
};

/// The values a run knows: integers, pointers, and arrays of pointers, by variable.
struct RunState {
  std::map<const VarDecl *, int64_t> Ints;
  std::map<const VarDecl *, Place> Pointers;
  std::map<const VarDecl *, std::vector<std::optional<Place>>> PointerArrays;
  bool operator==(const RunState &O) const {
    return Ints == O.Ints && Pointers == O.Pointers && PointerArrays == O.PointerArrays;
  }
};

} // namespace

struct OpenMPChecker::Facts {
  Facts(ASTContext &Ctx, bool WholeProgram) : Ctx(Ctx), WholeProgram(WholeProgram) {}
  ASTContext &Ctx;
  bool WholeProgram;
  std::optional<std::map<const void *, int64_t>> Globals;
  /// Arrays of integers with static storage that keep their initializer's elements (the same
  /// rule as Globals), with those elements, by the address of each declaration.
  std::map<const void *, std::vector<int64_t>> Tables;
  std::map<const FunctionDecl *, std::map<const void *, int64_t>> Locals;
  std::map<const VarDecl *, bool> Changed;
  /// For each function, whether a run of it can be followed (no goto, no setjmp), the
  /// variables a run follows, and the state in which it starts (the followed globals' values).
  struct Followed {
    bool Runnable = false;
    std::set<const VarDecl *> Vars;
    RunState Start;
  };
  std::map<const FunctionDecl *, Followed> FollowedIn;
  /// While a race is tested again in one state of a run: that state's integers, which fold()
  /// then takes as constants too (StateScope sets it).
  const std::map<const void *, int64_t> *State = nullptr;

  /// fold() of each polynomial.
  std::vector<Polynomial> foldAll(const std::vector<Polynomial> &Ps, const FunctionDecl *Fn) {
    std::vector<Polynomial> Out;
    Out.reserve(Ps.size());
    for (const Polynomial &P : Ps)
      Out.push_back(fold(P, Fn));
    return Out;
  }

  /// Whether the function writes V anywhere but its declaration, or takes its address.
  bool changedInFunction(const VarDecl *V) {
    auto [It, New] = Changed.emplace(V, true);
    if (!New)
      return It->second;
    const auto *F = dyn_cast<FunctionDecl>(V->getDeclContext());
    if (!F || !F->hasBody())
      return true;
    ChangedOrEscaped C(V);
    C.TraverseStmt(F->getBody());
    return It->second = C.Found;
  }

  /// The variables with static storage that keep their initializer's value in every run: no
  /// code of the unit changes them, and no other unit can (internal linkage, a const object,
  /// or the whole program in this unit). By the address of each declaration.
  const std::map<const void *, int64_t> &globals() {
    if (Globals)
      return *Globals;
    Globals.emplace();
    StaticUses U;
    U.TraverseDecl(Ctx.getTranslationUnitDecl());
    for (const auto &[V, N] : U.Uses) {
      if (U.Reads[V] != N || V->getDeclContext()->isDependentContext())
        continue;
      bool Const = V->getType().isConstQualified() ||
                   (V->getType()->isArrayType() &&
                    Ctx.getAsArrayType(V->getType())->getElementType().isConstQualified());
      if (V->isExternallyVisible() && !Const && !WholeProgram)
        continue;
      if (std::optional<int64_t> C = constantInit(V, Ctx))
        for (const VarDecl *D : V->redecls())
          (*Globals)[D] = *C;
      if (std::optional<std::vector<int64_t>> T = constantTable(V))
        for (const VarDecl *D : V->redecls())
          Tables[D] = *T;
    }
    return *Globals;
  }

  /// The elements of a one-dimensional array of integers initialized by a list of constants
  /// (the elements it does not list are zero), up to 1 << 20 of them.
  std::optional<std::vector<int64_t>> constantTable(const VarDecl *V) {
    const auto *AT = Ctx.getAsConstantArrayType(V->getType());
    const VarDecl *Def = nullptr;
    const Expr *Init = V->getAnyInitializer(Def);
    if (!AT || !AT->getElementType()->isIntegerType() || AT->getSize().getZExtValue() > (1 << 20))
      return std::nullopt;
    const auto *IL = dyn_cast_or_null<InitListExpr>(Init ? Init->IgnoreParens() : nullptr);
    if (!IL || IL->getNumInits() > AT->getSize().getZExtValue() ||
        (IL->hasArrayFiller() && !isa<ImplicitValueInitExpr>(IL->getArrayFiller())))
      return std::nullopt;
    std::vector<int64_t> Out(AT->getSize().getZExtValue(), 0);
    for (unsigned I = 0; I < IL->getNumInits(); ++I) {
      Expr::EvalResult ER;
      const Expr *E = IL->getInit(I);
      if (E->isValueDependent() || !E->EvaluateAsInt(ER, Ctx) ||
          ER.Val.getInt().getSignificantBits() > 64)
        return std::nullopt;
      Out[I] = ER.Val.getInt().getSExtValue();
    }
    return Out;
  }

  const std::vector<int64_t> *table(const VarDecl *V) {
    globals();
    auto It = Tables.find(V);
    return It == Tables.end() ? nullptr : &It->second;
  }

  const std::map<const void *, int64_t> &locals(const FunctionDecl *Fn) {
    auto [It, New] = Locals.emplace(Fn, std::map<const void *, int64_t>());
    if (New && Fn && Fn->hasBody()) {
      ConstantLocals L(*this);
      L.TraverseStmt(Fn->getBody());
      It->second = std::move(L.Values);
    }
    return It->second;
  }

  /// The calls of each function, or null where the unit does not hold them all: its address is
  /// taken, or another unit may call it (external linkage, not the whole program).
  std::map<const FunctionDecl *, std::optional<std::vector<const CallExpr *>>> Calls;

  const std::vector<const CallExpr *> *callsOf(const FunctionDecl *Fn) {
    Fn = Fn->getCanonicalDecl();
    auto [It, New] = Calls.emplace(Fn, std::nullopt);
    if (!New)
      return It->second ? &*It->second : nullptr;
    if (Fn->isMain() || (Fn->isExternallyVisible() && !WholeProgram))
      return nullptr;
    CallSites S(Fn);
    S.TraverseDecl(Ctx.getTranslationUnitDecl());
    S.finish();
    if (S.Escapes)
      return nullptr;
    It->second = std::move(S.Found);
    return &*It->second;
  }

  /// The object an argument designates as a whole: an array variable (decayed) or `&v`.
  static const VarDecl *objectOf(const Expr *E) {
    E = E->IgnoreParens();
    if (const auto *C = dyn_cast<ImplicitCastExpr>(E)) {
      if (C->getCastKind() == CK_ArrayToPointerDecay)
        if (const auto *DR = dyn_cast<DeclRefExpr>(C->getSubExpr()->IgnoreParens()))
          return dyn_cast<VarDecl>(DR->getDecl());
      if (C->getCastKind() == CK_NoOp)
        return objectOf(C->getSubExpr());
      return nullptr;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
      if (const auto *DR = dyn_cast<DeclRefExpr>(U->getSubExpr()->IgnoreParens()))
        return dyn_cast<VarDecl>(DR->getDecl());
    return nullptr;
  }

  /// Whether the objects behind A and B (parameters of Fn, or variables that are not pointers)
  /// are different objects at every call of Fn: each call passes a different variable's whole
  /// object for each.
  bool apartAtEveryCall(const FunctionDecl *Fn, const ValueDecl *A, const ValueDecl *B) {
    const auto *PA = dyn_cast_or_null<ParmVarDecl>(A), *PB = dyn_cast_or_null<ParmVarDecl>(B);
    if (!Fn || (!PA && !PB) || !A || !B)
      return false;
    auto Own = [&](const ParmVarDecl *P) {
      return !P || (P->getDeclContext() == Fn && !changedInFunction(P));
    };
    if (!Own(PA) || !Own(PB))
      return false;
    for (const ValueDecl *D : {A, B})
      if (!isa<ParmVarDecl>(D) && (!isa<VarDecl>(D) || cast<VarDecl>(D)->getType()->isPointerType() ||
                                   cast<VarDecl>(D)->getType()->isReferenceType()))
        return false;
    const std::vector<const CallExpr *> *Sites = callsOf(Fn);
    if (!Sites || Sites->empty())
      return false;
    for (const CallExpr *C : *Sites) {
      auto At = [&](const ValueDecl *D) -> const VarDecl * {
        if (const auto *P = dyn_cast<ParmVarDecl>(D))
          return P->getFunctionScopeIndex() < C->getNumArgs()
                     ? objectOf(C->getArg(P->getFunctionScopeIndex()))
                     : nullptr;
        return cast<VarDecl>(D);
      };
      const VarDecl *OA = At(A), *OB = At(B);
      if (!OA || !OB || OA->getCanonicalDecl() == OB->getCanonicalDecl() ||
          OA->getType()->isReferenceType() || OB->getType()->isReferenceType())
        return false;
    }
    return true;
  }

  /// P with the symbols that are constants (globals() and Fn's constant locals) replaced.
  Polynomial fold(const Polynomial &P, const FunctionDecl *Fn) {
    if (!P.isValid())
      return P;
    const auto &G = globals();
    const auto &L = locals(Fn);
    Polynomial Out = P;
    for (const auto &[M, C] : P.terms())
      for (const PolyVar &V : M) {
        if (V.IsLoopVar)
          continue;
        auto It = G.find(V.Key);
        if (It == G.end() && (It = L.find(V.Key)) == L.end() &&
            (!State || (It = State->find(V.Key)) == State->end()))
          continue;
        Out = Out.substitute(V, Polynomial::constant(It->second));
      }
    return Out;
  }
};

namespace {

bool ConstantLocals::VisitVarDecl(VarDecl *V) {
  if (V->isLocalVarDecl() && !V->hasGlobalStorage() && !F.changedInFunction(V))
    if (std::optional<int64_t> C = constantInit(V, F.Ctx))
      Values[V] = *C;
  return true;
}

using Facts = OpenMPChecker::Facts;

/// A local pointer whose only value is a fresh heap block (`double *p = malloc(...)`, `new
/// double[n]`), never written again nor its address taken: it reaches no other variable's block.
bool freshBlock(Facts &F, const ValueDecl *D) {
  const auto *V = dyn_cast_or_null<VarDecl>(D);
  if (!V || isa<ParmVarDecl>(V) || !V->hasLocalStorage() || !V->getType()->isPointerType() ||
      !V->getInit())
    return false;
  const Expr *Init = V->getInit()->IgnoreParenCasts();
  bool Allocates = isa<CXXNewExpr>(Init);
  if (const auto *C = dyn_cast<CallExpr>(Init))
    if (const FunctionDecl *F = C->getDirectCallee())
      Allocates = F->getIdentifier() && (F->getName() == "malloc" || F->getName() == "calloc" ||
                                         F->getName() == "aligned_alloc");
  return Allocates && !F.changedInFunction(V);
}

/// A pointer parameter its function never changes: its value was fixed before any block the
/// function allocates.
bool fixedParameter(Facts &F, const ValueDecl *D) {
  const auto *P = dyn_cast_or_null<ParmVarDecl>(D);
  return P && !F.changedInFunction(P);
}

/// Whether Other cannot overlap the fresh block that FreshBase holds: it is another fresh
/// block, an object that is not a pointer, or a parameter fixed before the allocation.
bool apartFromFresh(Facts &F, const ValueDecl *FreshBase, const Region &Other) {
  if (Other.Base == FreshBase)
    return false;
  if (freshBlock(F, Other.Base))
    return true;
  const auto *V = dyn_cast_or_null<VarDecl>(Other.Base);
  if (V && !V->getType()->isPointerType() && !V->getType()->isReferenceType() && !Other.MayAlias)
    return true;
  return fixedParameter(F, Other.Base);
}

/// The loop's variables with their ranges, the symbols that are constants folded: the inner
/// loops' as the analysis found them, each nest level's normalized variable from 0 to its last.
RangeMap foldedRanges(Facts &F, const LoopResult &R, const FunctionDecl *Fn,
                      std::vector<PolyVar> &NormVars) {
  static const char *const NormNames[] = {"__clx_k0", "__clx_k1", "__clx_k2"};
  RangeMap M;
  for (const auto &[PV, Rg] : R.InnerRanges) {
    PolyRange Folded = Rg;
    Folded.Lo = F.fold(Rg.Lo, Fn);
    Folded.Hi = F.fold(Rg.Hi, Fn);
    M[PV.Key] = Folded;
  }
  NormVars.clear();
  for (unsigned L = 0; L < R.Nest.size() && L < 3; ++L) {
    NormVars.push_back({normalizedVarKey(L), NormNames[L], true});
    CanonicalLoop N = R.Nest[L];
    N.InitValue = F.fold(N.InitValue, Fn);
    N.BoundValue = F.fold(N.BoundValue, Fn);
    N.StepPoly = F.fold(N.StepPoly, Fn);
    Polynomial Last = lastNormalized(N);
    if (Last.isValid())
      M[normalizedVarKey(L)] = PolyRange(Polynomial::constant(0), Last);
  }
  return M;
}

/// The extents of a region's dimensions after the first, constants folded: its type's, else
/// those delinearization found. Invalid where neither tells.
std::vector<Polynomial> rowExtents(Facts &F, const Region &Reg, const FunctionDecl *Fn) {
  std::vector<Polynomial> Out;
  for (unsigned D = 1; D < Reg.Rank; ++D) {
    Polynomial E = Polynomial::invalid();
    if (D - 1 < Reg.RowExtents.size() && Reg.RowExtents[D - 1].isValid())
      E = Reg.RowExtents[D - 1];
    else if (D - 1 < Reg.DimExtents.size())
      E = Reg.DimExtents[D - 1];
    Out.push_back(F.fold(E, Fn));
  }
  return Out;
}

/// What is known of the rows of a region of rank 2 or more. The dependence test compares
/// dimensions one by one, which holds only for subscripts inside their bounds (`b[i][j - 1]` at
/// j = 0 is the element before the row, in another iteration's row). Where a subscript may
/// leave its row, the accesses are compared again as addresses (row-major, from the extents).
/// A race the check found between two accesses of one region: the exact test's iterations.
struct Witness {
  const Region *Reg = nullptr; ///< Null: none found.
  std::string Iterations;
  SourceLocation First, Second; ///< The write, and the other access.
  bool BothWrite = false;
  std::vector<std::pair<const void *, int64_t>> Symbols;
};

struct RowCheck {
  const Region *Leaves = nullptr; ///< The first region whose rows no proof covers.
  Witness Race; ///< Between accesses every point of the nest makes, found on addresses.
};

/// Compares every write of Reg with every access of it, through the subscripts Subs (one
/// vector per access, constants folded) and under each access's conditions. A conflict is
/// recorded in Out as a witness where both accesses happen at every point of the nest and
/// CanWitness holds. False where the exact test cannot decide, or a conflict is no witness.
bool compareAccesses(Facts &F, const FunctionDecl *Fn, const Region &Reg,
                     const std::vector<std::vector<Polynomial>> &Subs,
                     const std::vector<PolyVar> &NormVars, const RangeMap &Ranges,
                     bool CanWitness, Witness &Out) {
  if (Subs.size() != Reg.Writes.size() || Subs.size() != Reg.Guarded.size() ||
      Subs.size() != Reg.Conds.size() || Subs.size() != Reg.Locs.size() || NormVars.empty())
    return false;
  for (const PolyVar &K : NormVars)
    if (!Ranges.count(K.Key))
      return false;
  for (size_t I = 0; I < Subs.size(); ++I) {
    if (!Reg.Writes[I])
      continue;
    for (size_t J = 0; J < Subs.size(); ++J) {
      if (J < I && Reg.Writes[J])
        continue; // tested as (J, I)
      std::vector<Polynomial> CI = F.foldAll(Reg.Conds[I], Fn), CJ = F.foldAll(Reg.Conds[J], Fn);
      std::optional<ExactAnswer> X = testExactly(Subs[I], Subs[J], NormVars, Ranges, &CI, &CJ);
      if (!X)
        return false;
      if (!X->Conflict)
        continue;
      if (Reg.Guarded[I] || Reg.Guarded[J] || X->Witness.empty() || !CanWitness)
        return false;
      if (!Out.Reg)
        Out = {&Reg, X->Witness, Reg.Locs[I], Reg.Locs[J], Reg.Writes[J], X->Symbols};
    }
  }
  return true;
}

/// The race verdict for a witness: "'a' is written in one iteration and read in another
/// HOW: ITERATIONS touch the same element", with notes at the two accesses.
OmpVerdict raceVerdict(const Witness &W, const std::string &How) {
  OmpVerdict V;
  V.Verdict = RaceVerdict::Race;
  V.Message = "'" + W.Reg->Name + "' is written in one iteration and " +
              (W.BothWrite ? "written" : "read") + " in another" + How + ": " + W.Iterations +
              " touch the same element";
  V.First = W.First;
  V.Second = W.Second;
  V.FirstNote = "written here";
  V.SecondNote = W.First == W.Second ? "" : W.BothWrite ? "and written here" : "and read here";
  V.Symbols = W.Symbols;
  V.Iterations = W.Iterations;
  return V;
}


/// The evaluator the runs share: integer expressions (constants, the state's integers, the
/// unit's constants, elements of lookup tables, exact arithmetic and comparisons) and pointer
/// expressions (where they point).
class Machine {
public:
  Machine(Facts &F, const FunctionDecl *Fn) : F(F), Fn(Fn) {}

  /// The value of an integer expression; none where any part of it is not known exactly (an
  /// overflow, unsigned arithmetic, a variable of unknown value, a side effect).
  std::optional<int64_t> eval(const Expr *E) {
    E = E->IgnoreParens();
    if (!E->getType()->isIntegerType())
      return std::nullopt;
    if (const auto *C = dyn_cast<ImplicitCastExpr>(E)) {
      if (C->getCastKind() == CK_IntegralToBoolean) {
        std::optional<int64_t> X = eval(C->getSubExpr());
        return X ? std::optional<int64_t>(*X != 0) : std::nullopt;
      }
      if (C->getCastKind() == CK_LValueToRValue || C->getCastKind() == CK_NoOp ||
          (C->getCastKind() == CK_IntegralCast &&
           F.Ctx.getIntWidth(C->getType()) >= F.Ctx.getIntWidth(C->getSubExpr()->getType()) &&
           C->getType()->isSignedIntegerType() ==
               C->getSubExpr()->getType()->isSignedIntegerType()))
        return eval(C->getSubExpr());
      return std::nullopt;
    }
    if (const auto *L = dyn_cast<IntegerLiteral>(E))
      return L->getValue().getActiveBits() < 63 ? std::optional<int64_t>(L->getValue().getZExtValue())
                                                : std::nullopt;
    if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DR->getDecl());
      if (!V || V->getType().isVolatileQualified())
        return std::nullopt;
      if (auto It = S.Ints.find(V); It != S.Ints.end())
        return It->second;
      if (Tracked && Tracked->count(V))
        return std::nullopt; // the run lost its value
      Polynomial P = F.fold(Polynomial::variable({V, V->getNameAsString(), false}), Fn);
      return P.asConstant();
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      const auto *Decay = dyn_cast<ImplicitCastExpr>(AS->getBase()->IgnoreParens());
      if (!Decay || Decay->getCastKind() != CK_ArrayToPointerDecay)
        return std::nullopt;
      const auto *DR = dyn_cast<DeclRefExpr>(Decay->getSubExpr()->IgnoreParens());
      const auto *T = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
      const std::vector<int64_t> *Table = T ? F.table(T) : nullptr;
      std::optional<int64_t> I = Table ? eval(AS->getIdx()) : std::nullopt;
      if (!I || *I < 0 || uint64_t(*I) >= Table->size())
        return std::nullopt;
      ReadTable = true;
      return (*Table)[*I];
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      std::optional<int64_t> X = eval(U->getSubExpr());
      if (X && U->getOpcode() == UO_LNot)
        return *X == 0;
      if (X && U->getOpcode() == UO_Plus)
        return X;
      return X && U->getOpcode() == UO_Minus && *X != INT64_MIN ? std::optional<int64_t>(-*X)
                                                                 : std::nullopt;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      if (B->getOpcode() == BO_LAnd || B->getOpcode() == BO_LOr) {
        std::optional<int64_t> X = eval(B->getLHS());
        if (!X)
          return std::nullopt;
        if ((*X != 0) == (B->getOpcode() == BO_LOr))
          return *X != 0; // the right side is not evaluated
        std::optional<int64_t> Y = eval(B->getRHS());
        return Y ? std::optional<int64_t>(*Y != 0) : std::nullopt;
      }
      if (B->isComparisonOp()) {
        if (!B->getLHS()->getType()->isSignedIntegerType() ||
            !B->getRHS()->getType()->isSignedIntegerType())
          return std::nullopt;
        std::optional<int64_t> X = eval(B->getLHS()), Y = eval(B->getRHS());
        if (!X || !Y)
          return std::nullopt;
        switch (B->getOpcode()) {
        case BO_LT: return *X < *Y;
        case BO_GT: return *X > *Y;
        case BO_LE: return *X <= *Y;
        case BO_GE: return *X >= *Y;
        case BO_EQ: return *X == *Y;
        case BO_NE: return *X != *Y;
        default: return std::nullopt;
        }
      }
      if (!B->getType()->isSignedIntegerType())
        return std::nullopt; // unsigned arithmetic wraps
      std::optional<int64_t> X = eval(B->getLHS()), Y = eval(B->getRHS());
      if (!X || !Y)
        return std::nullopt;
      return arithmetic(B->getOpcode(), *X, *Y, B->getType());
    }
    return std::nullopt;
  }

  /// X op Y in the type T, none where it overflows the type or divides by zero.
  std::optional<int64_t> arithmetic(BinaryOperatorKind Op, int64_t X, int64_t Y, QualType T) {
    int64_t Out = 0;
    switch (Op) {
    case BO_Add:
    case BO_AddAssign:
      if (__builtin_add_overflow(X, Y, &Out))
        return std::nullopt;
      break;
    case BO_Sub:
    case BO_SubAssign:
      if (__builtin_sub_overflow(X, Y, &Out))
        return std::nullopt;
      break;
    case BO_Mul:
    case BO_MulAssign:
      if (__builtin_mul_overflow(X, Y, &Out))
        return std::nullopt;
      break;
    case BO_Div:
    case BO_Rem:
    case BO_DivAssign:
    case BO_RemAssign:
      if (Y == 0 || (X == INT64_MIN && Y == -1))
        return std::nullopt;
      Out = Op == BO_Div || Op == BO_DivAssign ? X / Y : X % Y;
      break;
    default:
      return std::nullopt;
    }
    // The value must fit the expression's type, or the program's arithmetic overflowed.
    if (!T->isSignedIntegerType() ||
        llvm::APSInt::getMinValue(F.Ctx.getIntWidth(T), false).getSExtValue() > Out ||
        llvm::APSInt::getMaxValue(F.Ctx.getIntWidth(T), false).getSExtValue() < Out)
      return std::nullopt;
    return Out;
  }

  /// The size in bytes of Elem, the elements a pointer of type Elem * steps over.
  std::optional<int64_t> elementSize(QualType Elem) {
    if (Elem->isIncompleteType() || Elem->isFunctionType() || Elem->isVoidType())
      return std::nullopt;
    return F.Ctx.getTypeSizeInChars(Elem).getQuantity();
  }

  /// Where a pointer expression of elements of type Elem points. Follows the state's pointers
  /// and arrays of pointers, locals that the function never changes (a fresh block, another
  /// such pointer plus a constant), arrays, `&p[k]` and `p + k`.
  std::optional<Place> pointee(const Expr *E, QualType Elem, unsigned Depth = 0) {
    if (Depth > 8)
      return std::nullopt;
    std::optional<int64_t> ElemSize = elementSize(Elem);
    if (!ElemSize || *ElemSize == 0)
      return std::nullopt;
    E = E->IgnoreParens();
    if (const auto *C = dyn_cast<ImplicitCastExpr>(E)) {
      if (C->getCastKind() == CK_LValueToRValue || C->getCastKind() == CK_NoOp)
        return pointee(C->getSubExpr(), Elem, Depth);
      if (C->getCastKind() == CK_ArrayToPointerDecay) {
        const auto *DR = dyn_cast<DeclRefExpr>(C->getSubExpr()->IgnoreParens());
        const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
        return V ? arrayPlace(V, Elem) : std::nullopt;
      }
      return std::nullopt;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      if (B->getOpcode() != BO_Add && B->getOpcode() != BO_Sub)
        return std::nullopt;
      std::optional<int64_t> K = eval(B->getRHS());
      auto P = K ? pointee(B->getLHS(), Elem, Depth + 1) : std::nullopt;
      if (!P)
        return std::nullopt;
      return moved(*P, B->getOpcode() == BO_Add ? *K : -*K, *ElemSize);
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      // `&p[k]`: where p points, k elements on.
      const auto *AS = U->getOpcode() == UO_AddrOf
                           ? dyn_cast<ArraySubscriptExpr>(U->getSubExpr()->IgnoreParens())
                           : nullptr;
      std::optional<int64_t> K = AS ? eval(AS->getIdx()) : std::nullopt;
      auto P = K && F.Ctx.hasSameUnqualifiedType(AS->getType(), Elem)
                   ? pointee(AS->getBase(), Elem, Depth + 1)
                   : std::nullopt;
      if (!P)
        return std::nullopt;
      return moved(*P, *K, *ElemSize);
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      // An element of an array of pointers the state knows.
      const auto *Decay = dyn_cast<ImplicitCastExpr>(AS->getBase()->IgnoreParens());
      const auto *DR = Decay && Decay->getCastKind() == CK_ArrayToPointerDecay
                           ? dyn_cast<DeclRefExpr>(Decay->getSubExpr()->IgnoreParens())
                           : nullptr;
      const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
      auto It = V ? S.PointerArrays.find(V) : S.PointerArrays.end();
      std::optional<int64_t> K = It != S.PointerArrays.end() ? eval(AS->getIdx()) : std::nullopt;
      if (!K || *K < 0 || uint64_t(*K) >= It->second.size() ||
          !AS->getType()->isPointerType() ||
          !F.Ctx.hasSameUnqualifiedType(AS->getType()->getPointeeType(), Elem))
        return std::nullopt;
      return It->second[*K];
    }
    const auto *DR = dyn_cast<DeclRefExpr>(E);
    const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    return V ? pointerPlace(V, Elem, Depth) : std::nullopt;
  }

  /// The first element of array V, of elements of type Elem.
  std::optional<Place> arrayPlace(const VarDecl *V, QualType Elem) {
    const auto *AT = F.Ctx.getAsArrayType(V->getType());
    if (!AT || !F.Ctx.hasSameUnqualifiedType(AT->getElementType(), Elem))
      return std::nullopt;
    Place P;
    P.Object = V->getCanonicalDecl();
    P.Name = V->getNameAsString();
    if (const auto *CAT = dyn_cast<ConstantArrayType>(AT))
      P.Size = F.Ctx.getTypeSizeInChars(CAT).getQuantity();
    return P;
  }

  /// Where pointer variable V (to elements of type Elem) points: its value in the state, or,
  /// for a local the function never changes, its fresh block or where its initializer points.
  std::optional<Place> pointerPlace(const VarDecl *V, QualType Elem, unsigned Depth = 0) {
    if (!V->getType()->isPointerType() || V->getType().isVolatileQualified() ||
        !F.Ctx.hasSameUnqualifiedType(V->getType()->getPointeeType(), Elem))
      return std::nullopt;
    if (auto It = S.Pointers.find(V); It != S.Pointers.end())
      return It->second;
    if ((Tracked && Tracked->count(V)) || !V->hasLocalStorage() || isa<ParmVarDecl>(V) ||
        !V->getInit() || F.changedInFunction(V))
      return std::nullopt;
    if (freshBlock(F, V)) {
      Place P;
      P.Object = V;
      P.Name = V->getNameAsString();
      return P;
    }
    return pointee(V->getInit(), Elem, Depth + 1);
  }

  /// P moved by K elements of ElemSize bytes; none where the offset overflows.
  static std::optional<Place> moved(Place P, int64_t K, int64_t ElemSize) {
    int64_t Bytes = 0;
    if (__builtin_mul_overflow(K, ElemSize, &Bytes) ||
        __builtin_add_overflow(P.Offset, Bytes, &P.Offset))
      return std::nullopt;
    return P;
  }

  Facts &F;
  const FunctionDecl *Fn;
  RunState S;
  /// Whether an evaluation read an element of a lookup table.
  bool ReadTable = false;
  /// The variables a context run follows: where it lost one's value, the value is unknown (not
  /// the initializer's).
  const std::set<const VarDecl *> *Tracked = nullptr;
};

/// One state in which a function reaches a loop: the values of the variables the loop names
/// that a run of the function from its start follows, and at which arrival it was first seen.
struct LoopContext {
  RunState State;
  unsigned Arrival = 0;
};

/// The integers of a run's state folded as constants (Facts::State) while the scope lives.
class StateScope {
public:
  StateScope(Facts &F, const RunState &S)
      : F(F), Prev(F.State), Ints(S.Ints.begin(), S.Ints.end()) {
    F.State = &Ints;
  }
  ~StateScope() { F.State = Prev; }
  StateScope(const StateScope &) = delete;
  StateScope &operator=(const StateScope &) = delete;

private:
  Facts &F;
  const std::map<const void *, int64_t> *Prev;
  std::map<const void *, int64_t> Ints;
};

/// A loop whose every memory access the check can compute, iteration by iteration: one level
/// with constant bounds, a body of declarations of integer locals and assignments to elements
/// through pointers of fixed value, with subscripts through lookup tables the program never
/// changes (`idx = indexSet[i]; xa1[idx] += 1.0; xa2[idx] += 3.0;`, where xa2 = xa1 + 12).
/// The verdict is then exact: a race with the two iterations and the element, or race-free.
/// Run in a context (a state in which its function reaches it), the loop may name variables
/// whose value the run knows: pointers swapped between time steps, a buffer index `p = 1 - p`.
class TableLoop : private Machine {
public:
  TableLoop(Facts &F, const FunctionDecl *Fn) : Machine(F, Fn) {}

  std::optional<OmpVerdict> check(const Stmt *Loop, const LoopResult &R,
                                  const LoopContext *Context = nullptr,
                                  const std::set<const VarDecl *> *Follows = nullptr) {
    const auto *For = dyn_cast<ForStmt>(Loop);
    if (!For || R.Nest.size() != 1 || !R.Nest[0].Var)
      return std::nullopt;
    const CanonicalLoop &N = R.Nest[0];
    RunState Base = Context ? Context->State : RunState();
    Tracked = Follows;
    std::optional<int64_t> Init, Bound, Step;
    {
      StateScope Scope(F, Base);
      auto Constant = [&](const Polynomial &P) { return F.fold(P, Fn).asConstant(); };
      Init = Constant(N.InitValue);
      Bound = Constant(N.BoundValue);
      Step = Constant(N.StepPoly);
    }
    if (!Init || !Bound || !Step || *Step == 0 || N.RangeFor)
      return std::nullopt;
    IV = N.Var;
    // The body's statements, understood before any iteration is run.
    std::vector<const Stmt *> Stmts;
    if (const auto *CS = dyn_cast<CompoundStmt>(For->getBody()))
      Stmts.assign(CS->body_begin(), CS->body_end());
    else
      Stmts.push_back(For->getBody());
    std::map<std::tuple<const void *, unsigned, int64_t>, Touch> Seen;
    std::map<std::pair<const void *, unsigned>, int64_t> ElemSizes;
    unsigned Trips = 0;
    for (int64_t I = *Init; inRange(I, *Bound, N.Cmp); I += *Step) {
      if (++Trips > (1u << 16))
        return std::nullopt;
      S = Base;
      S.Ints[IV] = I;
      std::vector<Access> As;
      for (const Stmt *St : Stmts)
        if (!run(St, As))
          return std::nullopt;
      for (const Access &A : As) {
        // One object is read and written in one element size, or the elements are not
        // compared as elements.
        auto [SizeIt, NewObject] =
            ElemSizes.emplace(std::make_pair(A.At.Object, A.At.Instance), A.ElemSize);
        if (!NewObject && SizeIt->second != A.ElemSize)
          return std::nullopt;
        auto [It, New] = Seen.emplace(std::make_tuple(A.At.Object, A.At.Instance, A.At.Offset),
                                      Touch{I, A, false});
        Touch &T = It->second;
        if (New || T.Iteration == I) {
          T.Written |= A.Write;
          if (A.Write && !T.First.Write)
            T.First = A;
          continue;
        }
        if (!A.Write && !T.Written)
          continue; // reads alone
        const Access &Other = T.First; // a write where its iteration made one
        OmpVerdict V;
        V.Verdict = RaceVerdict::Race;
        V.Message = "iterations " + N.VarName + " = " + std::to_string(T.Iteration) + " and " +
                    N.VarName + " = " + std::to_string(I) + " both reach " + elementName(A) +
                    ", through '" + Other.Spelled + "' and '" + A.Spelled + "', and " +
                    (Other.Write && A.Write ? "both write it" : "one writes it");
        V.First = Other.Loc;
        V.Second = A.Loc;
        V.FirstNote = Other.Write ? "written here" : "read here";
        V.SecondNote = A.Write ? "and written here" : "and read here";
        return V;
      }
    }
    OmpVerdict V;
    V.Verdict = RaceVerdict::RaceFree;
    V.Message = std::string("run iteration by iteration") +
                (ReadTable ? " through its lookup tables" : "") +
                ", no two iterations touch one element where either writes it";
    return V;
  }

private:
  struct Access {
    Place At;
    int64_t ElemSize = 1;
    bool Write = false;
    SourceLocation Loc;
    std::string Spelled;
  };
  struct Touch {
    int64_t Iteration;
    Access First;
    bool Written;
  };

  static std::string elementName(const Access &A) {
    std::string Index = std::to_string(A.At.Offset / A.ElemSize);
    return A.At.Block ? "element " + Index + " of " + A.At.Name : A.At.Name + "[" + Index + "]";
  }

  static bool inRange(int64_t I, int64_t Bound, LoopCmp Cmp) {
    switch (Cmp) {
    case LoopCmp::LT: return I < Bound;
    case LoopCmp::LE: return I <= Bound;
    case LoopCmp::GT: return I > Bound;
    case LoopCmp::GE: return I >= Bound;
    case LoopCmp::NE: return I != Bound;
    }
    return false;
  }

  /// Runs one statement of the body: false where it is not of the understood shape.
  bool run(const Stmt *St, std::vector<Access> &As) {
    if (const auto *DS = dyn_cast<DeclStmt>(St)) {
      for (const Decl *D : DS->decls()) {
        const auto *V = dyn_cast<VarDecl>(D);
        if (!V || !V->getType()->isIntegerType() || !V->getInit() || V->isStaticLocal())
          return false;
        // The initializer's reads of tables are constant: no access to record.
        std::optional<int64_t> X = eval(V->getInit());
        if (!X || F.changedInFunction(V))
          return false;
        S.Ints[V] = *X;
      }
      return true;
    }
    const auto *E = dyn_cast<Expr>(St);
    if (!E)
      return false;
    E = E->IgnoreParenImpCasts();
    const auto *B = dyn_cast<BinaryOperator>(E);
    if (!B || !B->isAssignmentOp())
      return false;
    // The right side first: what it reads.
    if (!B->getRHS()->getType()->isArithmeticType() || !readsOnly(B->getRHS(), As))
      return false;
    std::optional<Access> W = element(B->getLHS());
    if (!W)
      return false;
    W->Write = true; // a compound assignment's read is of the element it writes
    As.push_back(*W);
    return true;
  }

  /// Records the element reads of a value expression; false where it does anything else
  /// (a call, an assignment, a read of a variable the check does not know).
  bool readsOnly(const Expr *E, std::vector<Access> &As) {
    E = E->IgnoreParens();
    if (isa<IntegerLiteral>(E) || isa<FloatingLiteral>(E) || isa<CharacterLiteral>(E))
      return true;
    if (const auto *C = dyn_cast<ImplicitCastExpr>(E))
      return readsOnly(C->getSubExpr(), As);
    if (const auto *C = dyn_cast<CStyleCastExpr>(E))
      return C->getType()->isArithmeticType() && readsOnly(C->getSubExpr(), As);
    if (const auto *U = dyn_cast<UnaryOperator>(E))
      return (U->getOpcode() == UO_Minus || U->getOpcode() == UO_Plus) &&
             readsOnly(U->getSubExpr(), As);
    if (const auto *B = dyn_cast<BinaryOperator>(E))
      return !B->isAssignmentOp() && !B->isCommaOp() && readsOnly(B->getLHS(), As) &&
             readsOnly(B->getRHS(), As);
    if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
      // A variable of arithmetic type: the body writes none but its own integer locals (its
      // writes are to elements of arrays and blocks), so the loop reads the value it starts
      // with.
      const auto *V = dyn_cast<VarDecl>(DR->getDecl());
      return V && (S.Ints.count(V) || (V->getType()->isArithmeticType() &&
                                        !V->getType().isVolatileQualified()));
    }
    if (isa<ArraySubscriptExpr>(E)) {
      if (eval(E))
        return true; // a table's element
      std::optional<Access> A = element(E);
      if (!A)
        return false;
      As.push_back(*A);
      return true;
    }
    return false;
  }

  /// The element `p[e]` names, through a pointer of fixed value.
  std::optional<Access> element(const Expr *E) {
    const auto *AS = dyn_cast<ArraySubscriptExpr>(E->IgnoreParens());
    if (!AS)
      return std::nullopt;
    std::optional<int64_t> Index = eval(AS->getIdx());
    std::optional<Place> P = Index ? pointee(AS->getBase(), AS->getType()) : std::nullopt;
    std::optional<int64_t> ElemSize = P ? elementSize(AS->getType()) : std::nullopt;
    if (!ElemSize)
      return std::nullopt;
    P = moved(*P, *Index, *ElemSize);
    // Inside the object (an array's elements; a heap block's from its start, to its end where
    // the run knows it): an element outside is undefined behaviour, of which no run tells.
    if (!P || P->Offset < 0 || P->Offset % *ElemSize != 0 ||
        (P->Size && P->Offset + *ElemSize > *P->Size))
      return std::nullopt;
    Access A;
    A.At = *P;
    A.ElemSize = *ElemSize;
    A.Loc = AS->getBeginLoc();
    A.Spelled = spellingOf(AS);
    return A;
  }

  std::string spellingOf(const Expr *E) {
    const SourceManager &SM = F.Ctx.getSourceManager();
    CharSourceRange Range = CharSourceRange::getTokenRange(E->getSourceRange());
    return Lexer::getSourceText(Range, SM, F.Ctx.getLangOpts()).str();
  }

  const VarDecl *IV = nullptr;
};

/// The variables of a function that a run of it can follow, because nothing but the function's
/// own statements changes them: locals (integers, pointers, arrays of up to 64 pointers) whose
/// address stays in the function, and, in `main` of a whole program that never names `main`,
/// globals of those types that only `main` writes and no code takes the address of.
class FollowedVariables : public RecursiveASTVisitor<FollowedVariables> {
public:
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }
  bool TraverseDecl(Decl *D) {
    const FunctionDecl *Saved = Current;
    if (auto *FD = dyn_cast_or_null<FunctionDecl>(D))
      Current = FD;
    bool Go = RecursiveASTVisitor::TraverseDecl(D);
    Current = Saved;
    return Go;
  }
  bool VisitExpr(Expr *E) {
    if (const VarDecl *V = writtenVar(E))
      WrittenIn[V].insert(Current);
    if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf) {
      const Expr *Sub = U->getSubExpr()->IgnoreParens();
      if (const VarDecl *V = varOf(Sub))
        Escaped.insert(V);
      if (const VarDecl *A = subscripted(Sub))
        Escaped.insert(A);
    }
    if (const auto *DR = dyn_cast<DeclRefExpr>(E))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
        ++Uses[V];
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      if (const VarDecl *A = subscripted(AS))
        ++SubscriptUses[A];
    // An element of an array of pointers assigned: a write of the array.
    if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isAssignmentOp())
      if (const VarDecl *A = subscripted(B->getLHS()->IgnoreParens()))
        WrittenIn[A].insert(Current);
    if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->isIncrementDecrementOp())
      if (const VarDecl *A = subscripted(U->getSubExpr()->IgnoreParens()))
        WrittenIn[A].insert(Current);
    return true;
  }
  bool VisitVarDecl(VarDecl *D) {
    // A reference bound to it (or to one of its elements) may write it.
    if (D->getType()->isReferenceType() && D->getInit()) {
      const Expr *Init = D->getInit()->IgnoreParenImpCasts();
      if (const VarDecl *V = varOf(Init))
        Escaped.insert(V);
      if (const VarDecl *A = subscripted(Init))
        Escaped.insert(A);
    }
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *Callee = C->getDirectCallee();
    for (unsigned I = 0; I < C->getNumArgs(); ++I) {
      bool ByReference = !Callee || I >= Callee->getNumParams() ||
                         Callee->getParamDecl(I)->getType()->isReferenceType();
      if (!ByReference)
        continue;
      const Expr *Arg = C->getArg(I)->IgnoreParenImpCasts();
      if (const VarDecl *V = varOf(Arg); V && C->getArg(I)->isGLValue())
        Escaped.insert(V);
      if (const VarDecl *A = subscripted(Arg); A && C->getArg(I)->isGLValue())
        Escaped.insert(A);
    }
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    // A capture by reference lets the lambda change the variable wherever it is called.
    for (const LambdaCapture &C : L->captures())
      if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef)
        if (const auto *V = dyn_cast<VarDecl>(C.getCapturedVar()))
          Escaped.insert(V);
    return true;
  }

  /// The array variable whose element E names (`u[k]`), where it is one.
  static const VarDecl *subscripted(const Expr *E) {
    const auto *AS = dyn_cast<ArraySubscriptExpr>(E);
    const auto *Decay = AS ? dyn_cast<ImplicitCastExpr>(AS->getBase()->IgnoreParens()) : nullptr;
    if (!Decay || Decay->getCastKind() != CK_ArrayToPointerDecay)
      return nullptr;
    return varOf(Decay->getSubExpr());
  }

  const FunctionDecl *Current = nullptr;
  std::map<const VarDecl *, std::set<const FunctionDecl *>> WrittenIn;
  std::set<const VarDecl *> Escaped;
  std::map<const VarDecl *, unsigned> Uses, SubscriptUses;
};

/// The statements a run cannot follow through: a jump (goto), a function that may return
/// twice (setjmp).
class Unfollowable : public RecursiveASTVisitor<Unfollowable> {
public:
  bool VisitGotoStmt(GotoStmt *) { return !(Found = true); }
  bool VisitIndirectGotoStmt(IndirectGotoStmt *) { return !(Found = true); }
  bool VisitCallExpr(CallExpr *C) {
    if (const FunctionDecl *F = C->getDirectCallee())
      if (F->getIdentifier() && F->getName().contains("setjmp"))
        Found = true;
    return !Found;
  }
  bool Found = false;
};

/// The followed variables that S writes and does not declare (a variable S declares, such as a
/// loop's counter, is gone when S ends).
class FollowedWrites : public RecursiveASTVisitor<FollowedWrites> {
public:
  explicit FollowedWrites(const std::set<const VarDecl *> &Follows) : Follows(Follows) {}
  bool VisitVarDecl(VarDecl *D) {
    Declared.insert(D);
    return true;
  }
  bool VisitExpr(Expr *E) {
    const VarDecl *V = writtenVar(E);
    if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isAssignmentOp())
      if (const VarDecl *A = FollowedVariables::subscripted(B->getLHS()->IgnoreParens()))
        V = A;
    if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->isIncrementDecrementOp())
      if (const VarDecl *A = FollowedVariables::subscripted(U->getSubExpr()->IgnoreParens()))
        V = A;
    if (V && Follows.count(V))
      Written.insert(V);
    return true;
  }
  bool any() const {
    return llvm::any_of(Written, [&](const VarDecl *V) { return !Declared.count(V); });
  }
  std::vector<const VarDecl *> outside() const {
    std::vector<const VarDecl *> Out;
    for (const VarDecl *V : Written)
      if (!Declared.count(V))
        Out.push_back(V);
    return Out;
  }
  const std::set<const VarDecl *> &Follows;
  std::set<const VarDecl *> Declared, Written;
};

/// A run of a function from its start, at compile time, following the values of its followed
/// variables, to find the states in which it reaches one loop. Every decision of its control
/// flow before and around the loop must be known (a condition on a followed variable or on the
/// unit's constants), and statements whose effect it does not compute must change no followed
/// variable and leave no enclosing statement. Calls are allowed: no callee can change a followed
/// variable. The run is exact: each state it records is the one the program has when it
/// arrives at the loop that time. Where it stops early, the states seen so far are still
/// states of the program, but there may be others.
class ContextRun : private Machine {
public:
  ContextRun(Facts &F, const FunctionDecl *Fn, const Stmt *Target) : Machine(F, Fn), Target(Target) {}

  /// Runs the function. Complete: the run reached the function's end (or a return, or a call
  /// that does not return), so Contexts holds every state.
  void run() {
    const Stmt *Body = Fn ? Fn->getBody() : nullptr;
    if (!Body || !onPath(Body))
      return;
    auto [It, New] = F.FollowedIn.emplace(Fn, Facts::Followed());
    if (New) {
      Unfollowable U;
      U.TraverseStmt(const_cast<Stmt *>(Body));
      It->second.Runnable = !U.Found;
      if (It->second.Runnable) {
        chooseFollowed(Body);
        It->second.Vars = Follows;
        It->second.Start = S;
      }
    }
    if (!It->second.Runnable)
      return;
    Follows = It->second.Vars;
    S = It->second.Start;
    chooseNeeded();
    if (Needed.empty())
      return; // the loop names no variable the run follows: one state, that of the unit
    Tracked = &Follows;
    Flow Out = exec(Body);
    Complete = Out == Flow::Next || Out == Flow::Return;
  }

  /// Whether the loop names no variable the run follows (or the run never chose them).
  bool needsNone() const { return Needed.empty(); }

  std::set<const VarDecl *> Follows;
  std::vector<LoopContext> Contexts;
  bool Complete = false;

private:
  enum class Flow { Next, Break, Continue, Return, Lost };

  /// Whether S holds the target loop (and records the statements on the way to it).
  bool onPath(const Stmt *S) {
    if (!S)
      return false;
    bool On = S == Target;
    for (const Stmt *C : S->children())
      On |= onPath(C);
    if (On)
      Path.insert(S);
    return On;
  }

  void chooseFollowed(const Stmt *Body) {
    FollowedVariables Uses;
    bool Globals = Fn->isMain() && F.WholeProgram;
    if (Globals)
      Uses.TraverseDecl(F.Ctx.getTranslationUnitDecl());
    else
      Uses.TraverseStmt(const_cast<Stmt *>(Body));
    auto Kind = [&](const VarDecl *V) {
      QualType T = V->getType();
      if (T.isVolatileQualified() || T->isReferenceType() || V->getTLSKind() != VarDecl::TLS_None)
        return 0;
      if (T->isIntegerType())
        return 1;
      if (T->isPointerType() && elementSize(T->getPointeeType()))
        return 2;
      const auto *AT = F.Ctx.getAsConstantArrayType(T);
      if (AT && AT->getElementType()->isPointerType() && AT->getSize().getZExtValue() <= 64 &&
          !AT->getElementType().isVolatileQualified() &&
          Uses.Uses[V] == Uses.SubscriptUses[V] && elementSize(AT->getElementType()->getPointeeType()))
        return 3;
      return 0;
    };
    // Locals of the function.
    class Locals : public RecursiveASTVisitor<Locals> {
    public:
      bool VisitVarDecl(VarDecl *V) {
        if (V->hasLocalStorage() && !isa<ParmVarDecl>(V))
          Found.push_back(V);
        return true;
      }
      std::vector<const VarDecl *> Found;
    } L;
    L.TraverseStmt(const_cast<Stmt *>(Body));
    for (const VarDecl *V : L.Found)
      if (Kind(V) && !Uses.Escaped.count(V))
        Follows.insert(V);
    if (Globals) {
      CallSites Main(Fn->getCanonicalDecl());
      Main.TraverseDecl(F.Ctx.getTranslationUnitDecl());
      if (Main.Uses == 0 && Main.Found.empty())
        for (const auto &[V, Count] : Uses.Uses) {
          (void)Count;
          if (!V->hasGlobalStorage() || V->isStaticLocal() || !Kind(V) || Uses.Escaped.count(V) ||
              V->getType().isConstQualified())
            continue;
          auto W = Uses.WrittenIn.find(V);
          if (W != Uses.WrittenIn.end() &&
              llvm::any_of(W->second, [&](const FunctionDecl *D) {
                return !D || D->getCanonicalDecl() != Fn->getCanonicalDecl();
              }))
            continue;
          const VarDecl *Canon = V->getCanonicalDecl();
          bool Redeclared = llvm::any_of(Canon->redecls(), [&](const VarDecl *D) { return D != V; });
          if (Redeclared)
            continue; // one declaration, so each use names the one followed here
          Follows.insert(V);
          start(V);
        }
    }
  }

  /// The followed variables the loop names: the states keep only these.
  void chooseNeeded() {
    class Names : public RecursiveASTVisitor<Names> {
    public:
      bool VisitDeclRefExpr(DeclRefExpr *E) {
        if (const auto *V = dyn_cast<VarDecl>(E->getDecl()))
          Found.insert(V);
        return true;
      }
      std::set<const VarDecl *> Found;
    } N;
    N.TraverseStmt(const_cast<Stmt *>(Target));
    for (const VarDecl *V : N.Found)
      if (Follows.count(V))
        Needed.insert(V);
  }

  /// A global's value when main starts: its initializer's, or zero.
  void start(const VarDecl *V) {
    const VarDecl *Def = nullptr;
    const Expr *Init = V->getAnyInitializer(Def);
    if (V->getType()->isIntegerType()) {
      if (!Init)
        S.Ints[V] = 0;
      else if (std::optional<int64_t> C = constantInit(V, F.Ctx))
        S.Ints[V] = *C;
    } else if (V->getType()->isPointerType() && Init) {
      if (std::optional<Place> P = pointee(Init, V->getType()->getPointeeType()))
        S.Pointers[V] = *P;
    }
  }

  bool writesFollowed(const Stmt *St) {
    auto [It, New] = Writes.emplace(St, false);
    if (New) {
      FollowedWrites W(Follows);
      W.TraverseStmt(const_cast<Stmt *>(St));
      It->second = W.any();
    }
    return It->second;
  }

  bool leaves(const Stmt *St) {
    auto [It, New] = Leaves.emplace(St, false);
    if (New)
      It->second = mayLeave(St);
    return It->second;
  }

  /// Whether the run may pass over St without computing it.
  bool skippable(const Stmt *St) {
    return !Path.count(St) && !writesFollowed(St) && !leaves(St);
  }

  /// Passes over St, whose effect the run does not compute, where St cannot hold the loop nor
  /// leave: the followed variables it may write lose their values. False where it cannot.
  bool pass(const Stmt *St) {
    if (Path.count(St) || leaves(St))
      return false;
    FollowedWrites W(Follows);
    W.TraverseStmt(const_cast<Stmt *>(St));
    for (const VarDecl *V : W.outside())
      forget(V);
    return true;
  }

  void arrive() {
    ++Arrivals;
    RunState Now;
    for (const VarDecl *V : Needed) {
      if (auto It = S.Ints.find(V); It != S.Ints.end())
        Now.Ints.insert(*It);
      if (auto It = S.Pointers.find(V); It != S.Pointers.end())
        Now.Pointers.insert(*It);
      if (auto It = S.PointerArrays.find(V); It != S.PointerArrays.end())
        Now.PointerArrays.insert(*It);
    }
    for (const LoopContext &C : Contexts)
      if (C.State == Now)
        return;
    Contexts.push_back({std::move(Now), Arrivals});
  }

  Flow exec(const Stmt *St) {
    if (!St)
      return Flow::Next;
    if (++Steps > (1u << 20))
      return Flow::Lost;
    if (St == Target || (isa<OMPExecutableDirective>(St) && Path.count(St))) {
      // The loop (or the OpenMP construct around it) is not run: the states before it are
      // what the check needs, and it must change no followed variable.
      if (writesFollowed(St))
        return Flow::Lost;
      arrive();
      if (Contexts.size() > 16)
        return Flow::Lost;
      return Flow::Next;
    }
    if (const auto *CS = dyn_cast<CompoundStmt>(St)) {
      for (const Stmt *C : CS->body())
        if (Flow Out = exec(C); Out != Flow::Next)
          return Out;
      return Flow::Next;
    }
    if (const auto *AS = dyn_cast<AttributedStmt>(St))
      return exec(AS->getSubStmt());
    if (isa<NullStmt>(St))
      return Flow::Next;
    if (isa<ReturnStmt>(St))
      return Flow::Return;
    if (isa<BreakStmt>(St))
      return Flow::Break;
    if (isa<ContinueStmt>(St))
      return Flow::Continue;
    if (const auto *DS = dyn_cast<DeclStmt>(St)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D); V && !declare(V))
          return Flow::Lost;
      return Flow::Next;
    }
    if (const auto *E = dyn_cast<Expr>(St))
      return expression(E);
    if (const auto *If = dyn_cast<IfStmt>(St)) {
      std::optional<int64_t> C =
          If->getInit() || If->getConditionVariable() || If->isConsteval() || !pure(If->getCond())
              ? std::nullopt
              : eval(If->getCond());
      if (!C)
        return pass(St) ? Flow::Next : Flow::Lost;
      return exec(*C ? If->getThen() : If->getElse());
    }
    if (const auto *For = dyn_cast<ForStmt>(St)) {
      if (skippable(St))
        return Flow::Next;
      if (For->getConditionVariable())
        return Flow::Lost;
      if (Flow Out = exec(For->getInit()); Out != Flow::Next)
        return Flow::Lost;
      return loop(St, For->getCond(), For->getBody(), For->getInc(), false);
    }
    if (const auto *While = dyn_cast<WhileStmt>(St)) {
      if (skippable(St))
        return Flow::Next;
      if (While->getConditionVariable())
        return Flow::Lost;
      return loop(St, While->getCond(), While->getBody(), nullptr, false);
    }
    if (const auto *Do = dyn_cast<DoStmt>(St)) {
      if (skippable(St))
        return Flow::Next;
      return loop(St, Do->getCond(), Do->getBody(), nullptr, true);
    }
    return skippable(St) || pass(St) ? Flow::Next : Flow::Lost;
  }

  /// Runs a loop's iterations while its condition is known; where it stops being known, the
  /// rest of the loop is passed over (pass()).
  Flow loop(const Stmt *Loop, const Expr *Cond, const Stmt *Body, const Expr *Inc,
            bool BodyFirst) {
    for (bool First = true;; First = false) {
      if (!(BodyFirst && First) && Cond) {
        std::optional<int64_t> C = pure(Cond) ? eval(Cond) : std::nullopt;
        if (!C)
          return pass(Loop) ? Flow::Next : Flow::Lost;
        if (!*C)
          return Flow::Next;
      }
      Flow Out = exec(Body);
      if (Out == Flow::Break)
        return Flow::Next;
      if (Out == Flow::Return || Out == Flow::Lost)
        return Out;
      if (Inc && expression(Inc) != Flow::Next)
        return Flow::Lost;
    }
  }

  /// Whether evaluating E leaves the followed variables as they are and returns.
  bool pure(const Expr *E) { return !writesFollowed(E) && !leaves(E); }

  /// A declaration: a followed variable takes its initializer's value (unknown where the run
  /// cannot compute it); any other must be initialized without effect on followed variables.
  bool declare(const VarDecl *V) {
    const Expr *Init = V->getInit();
    if (Init && !pure(Init))
      return false;
    if (!Follows.count(V))
      return true;
    forget(V);
    if (!Init)
      return true;
    QualType T = V->getType();
    if (T->isIntegerType()) {
      if (std::optional<int64_t> X = eval(Init))
        S.Ints[V] = *X;
    } else if (T->isPointerType()) {
      if (std::optional<Place> P = pointerValue(Init, T->getPointeeType()))
        S.Pointers[V] = *P;
    } else if (const auto *AT = F.Ctx.getAsConstantArrayType(T)) {
      std::vector<std::optional<Place>> Elems(AT->getSize().getZExtValue());
      if (const auto *IL = dyn_cast<InitListExpr>(Init->IgnoreParens()))
        for (unsigned I = 0; I < IL->getNumInits() && I < Elems.size(); ++I)
          Elems[I] = pointerValue(IL->getInit(I), AT->getElementType()->getPointeeType());
      S.PointerArrays[V] = std::move(Elems);
    }
    return true;
  }

  void forget(const VarDecl *V) {
    S.Ints.erase(V);
    S.Pointers.erase(V);
    S.PointerArrays.erase(V);
  }

  /// A pointer's new value: a fresh block, or where another pointer expression points.
  std::optional<Place> pointerValue(const Expr *E, QualType Elem) {
    const Expr *Bare = E->IgnoreParenCasts();
    std::optional<int64_t> Bytes;
    bool Allocates = false;
    if (const auto *C = dyn_cast<CallExpr>(Bare)) {
      const FunctionDecl *Callee = C->getDirectCallee();
      StringRef Name = Callee && Callee->getIdentifier() ? Callee->getName() : "";
      if (Name == "malloc" && C->getNumArgs() == 1) {
        Allocates = true;
        Bytes = size(C->getArg(0));
      } else if (Name == "calloc" && C->getNumArgs() == 2) {
        Allocates = true;
        std::optional<int64_t> N = size(C->getArg(0)), M = size(C->getArg(1));
        int64_t Out = 0;
        if (N && M && !__builtin_mul_overflow(*N, *M, &Out))
          Bytes = Out;
      } else if (Name == "aligned_alloc" && C->getNumArgs() == 2) {
        Allocates = true;
        Bytes = size(C->getArg(1));
      }
    } else if (const auto *New = dyn_cast<CXXNewExpr>(Bare)) {
      Allocates = !New->getNumPlacementArgs();
      std::optional<int64_t> Elem = elementSize(New->getAllocatedType());
      std::optional<int64_t> Count = int64_t(1);
      if (New->isArray())
        Count = New->getArraySize() ? size(*New->getArraySize()) : std::nullopt;
      int64_t Out = 0;
      if (Elem && Count && !__builtin_mul_overflow(*Elem, *Count, &Out))
        Bytes = Out;
    }
    if (!Allocates)
      return pointee(E, Elem);
    Place P;
    P.Object = Bare;
    P.Instance = ++Allocations[Bare];
    P.Block = true;
    P.Name = "the block allocated at line " +
             std::to_string(F.Ctx.getSourceManager().getPresumedLineNumber(Bare->getExprLoc()));
    if (P.Instance > 1)
      P.Name += " (its allocation number " + std::to_string(P.Instance) + ")";
    P.Size = Bytes;
    return P;
  }

  /// A size in bytes, as the program computes it in unsigned arithmetic (`n * sizeof(double)`),
  /// where no step wraps.
  std::optional<int64_t> size(const Expr *E) {
    Expr::EvalResult R;
    if (!E->isValueDependent() && E->EvaluateAsInt(R, F.Ctx)) {
      const llvm::APSInt &V = R.Val.getInt();
      if (V.isNegative() || V.getActiveBits() > 62)
        return std::nullopt;
      return V.getZExtValue();
    }
    E = E->IgnoreParens();
    if (const auto *C = dyn_cast<CastExpr>(E))
      if (C->getCastKind() == CK_IntegralCast || C->getCastKind() == CK_LValueToRValue ||
          C->getCastKind() == CK_NoOp)
        return size(C->getSubExpr());
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      std::optional<int64_t> X = size(B->getLHS()), Y = size(B->getRHS());
      int64_t Out = 0;
      if (!X || !Y)
        return std::nullopt;
      if (B->getOpcode() == BO_Mul && !__builtin_mul_overflow(*X, *Y, &Out))
        return Out;
      if (B->getOpcode() == BO_Add && !__builtin_add_overflow(*X, *Y, &Out))
        return Out;
      return std::nullopt;
    }
    std::optional<int64_t> X = E->getType()->isSignedIntegerType() ? eval(E) : std::nullopt;
    return X && *X >= 0 ? X : std::nullopt;
  }

  /// An expression statement: an assignment (or increment) of a followed variable or of an
  /// element of a followed array is computed; anything else must leave them alone.
  Flow expression(const Expr *E) {
    E = E->IgnoreParens();
    if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
      E = EWC->getSubExpr()->IgnoreParens();
    if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->getOpcode() == BO_Comma) {
      if (Flow Out = expression(B->getLHS()); Out != Flow::Next)
        return Out;
      return expression(B->getRHS());
    }
    const Expr *Target = nullptr, *Value = nullptr;
    BinaryOperatorKind Op = BO_Assign;
    if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isAssignmentOp()) {
      Target = B->getLHS()->IgnoreParens();
      Value = B->getRHS();
      Op = B->getOpcode();
    } else if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->isIncrementDecrementOp()) {
      Target = U->getSubExpr()->IgnoreParens();
      Op = U->isIncrementOp() ? BO_AddAssign : BO_SubAssign;
    }
    const VarDecl *V = Target ? varOf(Target) : nullptr;
    const VarDecl *A = Target ? FollowedVariables::subscripted(Target) : nullptr;
    if ((V && Follows.count(V) && isa<DeclRefExpr>(Target)) || (A && Follows.count(A))) {
      if (Value && !pure(Value))
        return Flow::Lost;
      if (A) {
        assignElement(A, cast<ArraySubscriptExpr>(Target), Op, Value);
        return Flow::Next;
      }
      assign(V, Op, Value);
      return Flow::Next;
    }
    if (pure(E))
      return Flow::Next;
    // A call that does not return ends the run, where its arguments change nothing.
    if (const auto *C = dyn_cast<CallExpr>(E))
      if (const FunctionDecl *Callee = C->getDirectCallee(); Callee && Callee->isNoReturn())
        if (llvm::all_of(C->arguments(), [&](const Expr *Arg) { return pure(Arg); }))
          return Flow::Return;
    return Flow::Lost;
  }

  /// V op= Value (Value null: an increment or decrement by one).
  void assign(const VarDecl *V, BinaryOperatorKind Op, const Expr *Value) {
    QualType T = V->getType();
    if (T->isIntegerType()) {
      auto Old = S.Ints.find(V);
      std::optional<int64_t> New;
      if (Op == BO_Assign)
        New = eval(Value);
      else if (Old != S.Ints.end()) {
        std::optional<int64_t> Y = Value ? eval(Value) : std::optional<int64_t>(1);
        if (Y && (!Value || Value->getType()->isSignedIntegerType()))
          New = arithmetic(Op, Old->second, *Y, T);
      }
      forget(V);
      if (New)
        S.Ints[V] = *New;
      return;
    }
    auto Old = S.Pointers.find(V);
    std::optional<Place> New = pointerAssigned(
        Old == S.Pointers.end() ? std::nullopt : std::optional<Place>(Old->second), Op, Value,
        T->getPointeeType());
    forget(V);
    if (New)
      S.Pointers[V] = *New;
  }

  /// A pointer's value after `p op= Value` from Old (unknown: none), with Elem its pointee
  /// type; Value null: an increment or decrement by one.
  std::optional<Place> pointerAssigned(std::optional<Place> Old, BinaryOperatorKind Op,
                                       const Expr *Value, QualType Elem) {
    if (Op == BO_Assign)
      return pointerValue(Value, Elem);
    if (!Old || (Op != BO_AddAssign && Op != BO_SubAssign))
      return std::nullopt;
    std::optional<int64_t> K = Value ? eval(Value) : std::optional<int64_t>(1);
    std::optional<int64_t> ElemSize = elementSize(Elem);
    if (!K || !ElemSize)
      return std::nullopt;
    return moved(*Old, Op == BO_AddAssign ? *K : -*K, *ElemSize);
  }

  /// A[k] op= Value, for an array of pointers.
  void assignElement(const VarDecl *A, const ArraySubscriptExpr *AS, BinaryOperatorKind Op,
                     const Expr *Value) {
    auto It = S.PointerArrays.find(A);
    std::optional<int64_t> K = eval(AS->getIdx());
    if (It == S.PointerArrays.end() || !K || *K < 0 || uint64_t(*K) >= It->second.size()) {
      S.PointerArrays.erase(A);
      return;
    }
    std::optional<Place> &Slot = It->second[*K];
    Slot = pointerAssigned(Slot, Op, Value, AS->getType()->getPointeeType());
  }

  const Stmt *Target;
  std::set<const Stmt *> Path;
  std::set<const VarDecl *> Needed;
  std::map<const Expr *, unsigned> Allocations;
  std::map<const Stmt *, bool> Writes, Leaves;
  unsigned Arrivals = 0;
  unsigned Steps = 0;
};

/// Whether a race's witness gives its symbols values they can have. A constant of the unit has
/// one value; a variable that a complete run of the function computes in every state has its
/// states' values; any other symbol (a parameter, an input) may take any value. Returns the
/// values no run has ("k = -10"), or none where the witness holds.
std::optional<std::string> impossibleWitness(Facts &F, const FunctionDecl *Fn,
                                             const OmpVerdict &V, const ContextRun &Run) {
  std::vector<std::pair<const VarDecl *, int64_t>> Computed;
  std::string Out;
  auto Say = [&](const VarDecl *VD, int64_t Value) {
    Out += (Out.empty() ? "" : " and ") + VD->getNameAsString() + " = " + std::to_string(Value);
  };
  bool ConstantsHold = true;
  for (const auto &[Key, Value] : V.Symbols) {
    const auto *VD = static_cast<const VarDecl *>(Key);
    // Only variables are constants of the unit, and followed: the key is one where either
    // finds it.
    if (std::optional<int64_t> C = F.fold(Polynomial::variable({Key, "s", false}), Fn).asConstant()) {
      if (*C != Value) {
        ConstantsHold = false;
        Say(VD, Value);
      }
      continue;
    }
    if (Run.Complete && !Run.Contexts.empty() && Run.Follows.count(VD) &&
        llvm::all_of(Run.Contexts,
                     [&](const LoopContext &C) { return C.State.Ints.count(VD) != 0; }))
      Computed.push_back({VD, Value});
  }
  if (ConstantsHold) {
    if (Computed.empty())
      return std::nullopt;
    for (const LoopContext &C : Run.Contexts)
      if (llvm::all_of(Computed,
                       [&](const auto &S) { return C.State.Ints.at(S.first) == S.second; }))
        return std::nullopt;
  }
  for (const auto &[VD, Value] : Computed)
    Say(VD, Value);
  return Out;
}

/// The race V (two accesses of one region the analysis compared, at V.First and V.Second)
/// tested again in the state C, whose integers are constants there. None where the accesses are
/// not found or the test cannot decide.
std::optional<ExactAnswer> raceInState(Facts &F, const LoopResult &R, const FunctionDecl *Fn,
                                       const OmpVerdict &V, const LoopContext &C) {
  StateScope Scope(F, C.State);
  std::vector<PolyVar> NormVars;
  RangeMap Ranges = foldedRanges(F, R, Fn, NormVars);
  for (const Region &Reg : R.Regions) {
    size_t N = Reg.Subscripts.size();
    if (Reg.Writes.size() != N || Reg.Conds.size() != N || Reg.Locs.size() != N ||
        Reg.Guarded.size() != N)
      continue;
    for (size_t I = 0; I < N; ++I) {
      if (!Reg.Writes[I] || Reg.Locs[I] != V.First || Reg.Guarded[I])
        continue;
      for (size_t J = 0; J < N; ++J) {
        if (Reg.Locs[J] != V.Second || Reg.Guarded[J])
          continue;
        std::vector<Polynomial> CI = F.foldAll(Reg.Conds[I], Fn),
                                CJ = F.foldAll(Reg.Conds[J], Fn);
        return testExactly(F.foldAll(Reg.Subscripts[I], Fn), F.foldAll(Reg.Subscripts[J], Fn),
                           NormVars, Ranges, &CI, &CJ);
      }
    }
  }
  return std::nullopt;
}

std::string describe(Facts &F, const LoopContext &C, const FunctionDecl *Fn,
                     bool Pointers = true);

/// Where a region's base points in a state (a followed pointer's value, an array, or a local
/// the function never changes, as Machine::pointee follows it), with the element type and
/// size of its accesses.
struct BasePlace {
  Place At;
  QualType Elem;
  int64_t ElemSize = 0;
};
std::optional<BasePlace> baseIn(Machine &M, const Region &Reg) {
  const auto *V = dyn_cast_or_null<VarDecl>(Reg.Base);
  if (!V || Reg.IsContainer || Reg.Scalar || Reg.Rank != 1 || !Reg.Affine)
    return std::nullopt;
  QualType T = V->getType();
  QualType Elem;
  if (T->isPointerType())
    Elem = T->getPointeeType();
  else if (const ArrayType *AT = M.F.Ctx.getAsArrayType(T))
    Elem = AT->getElementType();
  else
    return std::nullopt;
  std::optional<Place> P = T->isPointerType() ? M.pointerPlace(V, Elem) : M.arrayPlace(V, Elem);
  std::optional<int64_t> Size = M.elementSize(Elem);
  if (!P || !Size || *Size <= 0)
    return std::nullopt;
  return BasePlace{*P, Elem, *Size};
}

/// "the one state" or "each of the N states", of a run's contexts.
std::string statesText(size_t N) {
  return N == 1 ? std::string("the one state") : "each of the " + std::to_string(N) + " states";
}

/// A loop the analysis proves where the objects its pointers reach are apart, judged in each
/// state of a complete run: every region's base points somewhere the state knows; regions on
/// different objects are apart; regions on one object are compared as offsets into it with the
/// exact test (the state's integers as constants). A conflict between accesses every iteration
/// makes is a race in that state; none in any state is a proof.
std::optional<OmpVerdict> checkApartInStates(Facts &F, const FunctionDecl *Fn,
                                             const LoopResult &R, const ContextRun &Run) {
  if (!Fn || Run.Contexts.empty())
    return std::nullopt;
  bool AllApart = Run.Complete;
  for (const LoopContext &C : Run.Contexts) {
    Machine M(F, Fn);
    M.S = C.State;
    M.Tracked = &Run.Follows;
    StateScope Scope(F, C.State);
    std::vector<PolyVar> NormVars;
    RangeMap Ranges = foldedRanges(F, R, Fn, NormVars);
    std::vector<std::pair<const Region *, BasePlace>> Bases;
    bool Known = true;
    for (const Region &Reg : R.Regions) {
      if (Reg.Scalar)
        continue; // no pointer of a state reaches a scalar: they point into arrays and blocks
      std::optional<BasePlace> B = baseIn(M, Reg);
      if (!B || B->At.Offset % B->ElemSize != 0 ||
          Reg.Subscripts.size() != Reg.Writes.size() || Reg.Conds.size() != Reg.Writes.size() ||
          Reg.Guarded.size() != Reg.Writes.size() || Reg.Locs.size() != Reg.Writes.size()) {
        Known = false;
        break;
      }
      // Inside its block where the run knows the block's size: an element outside it is
      // undefined behaviour, and may be another object's.
      if (B->At.Size)
        for (const std::vector<Polynomial> &Sub : Reg.Subscripts) {
          Polynomial At = F.fold(Sub[0], Fn) + Polynomial::constant(B->At.Offset / B->ElemSize);
          auto [AfterStart, BeforeEnd] = provablyInside(
              At, Polynomial::constant(*B->At.Size / B->ElemSize - 1), Ranges);
          Known &= AfterStart && BeforeEnd;
        }
      if (!Known)
        break;
      Bases.push_back({&Reg, *B});
    }
    if (!Known) {
      AllApart = false;
      continue;
    }
    for (size_t A = 0; A < Bases.size(); ++A)
      for (size_t B = A + 1; B < Bases.size(); ++B) {
        const auto &[RA, PA] = Bases[A];
        const auto &[RB, PB] = Bases[B];
        if (!PA.At.sameObject(PB.At))
          continue;
        if (!F.Ctx.hasSameUnqualifiedType(PA.Elem, PB.Elem)) {
          AllApart = false; // one block in two element types
          continue;
        }
        int64_t Size = PA.ElemSize;
        for (size_t I = 0; I < RA->Writes.size(); ++I)
          for (size_t J = 0; J < RB->Writes.size(); ++J) {
            if (!RA->Writes[I] && !RB->Writes[J])
              continue;
            std::vector<Polynomial> SA = {F.fold(RA->Subscripts[I][0], Fn) +
                                          Polynomial::constant(PA.At.Offset / Size)};
            std::vector<Polynomial> SB = {F.fold(RB->Subscripts[J][0], Fn) +
                                          Polynomial::constant(PB.At.Offset / Size)};
            std::vector<Polynomial> CA = F.foldAll(RA->Conds[I], Fn),
                                    CB = F.foldAll(RB->Conds[J], Fn);
            std::optional<ExactAnswer> X = testExactly(SA, SB, NormVars, Ranges, &CA, &CB);
            if (!X) {
              AllApart = false;
              continue;
            }
            if (!X->Conflict)
              continue;
            AllApart = false;
            if (RA->Guarded[I] || RB->Guarded[J] || X->Witness.empty())
              continue;
            bool WritesA = RA->Writes[I];
            OmpVerdict V;
            V.Verdict = RaceVerdict::Race;
            V.Message = "'" + (WritesA ? RA : RB)->Name + "' and '" + (WritesA ? RB : RA)->Name +
                        "' point into " + (PA.At.Block ? PA.At.Name : "'" + PA.At.Name + "'") +
                        ", and " + X->Witness + " touch one element through them, one " +
                        (RA->Writes[I] && RB->Writes[J] ? "writing, the other writing" :
                                                          "writing, the other reading") +
                        ", " + describe(F, C, Fn);
            V.First = WritesA ? RA->Locs[I] : RB->Locs[J];
            V.Second = WritesA ? RB->Locs[J] : RA->Locs[I];
            V.FirstNote = "written here";
            V.SecondNote = RA->Writes[I] && RB->Writes[J] ? "and written here" : "and read here";
            V.Iterations = X->Witness;
            V.Symbols = X->Symbols;
            return V;
          }
      }
  }
  if (!AllApart)
    return std::nullopt;
  OmpVerdict V;
  V.Verdict = RaceVerdict::RaceFree;
  V.Message = "the analysis proves it where its pointers reach apart objects, and in " +
              statesText(Run.Contexts.size()) + " in which '" + Fn->getNameAsString() + "' reaches it they do, or meet only where " +
              "the exact test finds no two iterations";
  return V;
}

std::string ordinal(unsigned N) {
  const char *Suffix = (N % 100 >= 11 && N % 100 <= 13) ? "th"
                       : N % 10 == 1                   ? "st"
                       : N % 10 == 2                   ? "nd"
                       : N % 10 == 3                   ? "rd"
                                                       : "th";
  return std::to_string(N) + Suffix;
}

/// "the 2nd time 'main' reaches the loop, with p = 1 and u1 and u2 at the block allocated at
/// line 20": the context's integers, and its pointers grouped by where they point.
std::string describe(Facts &F, const LoopContext &C, const FunctionDecl *Fn,
                     bool Pointers) {
  const SourceManager &SM = F.Ctx.getSourceManager();
  std::string Out = "the " + ordinal(C.Arrival) + " time '" + Fn->getNameAsString() +
                    "' reaches the loop";
  auto Before = [&](const VarDecl *A, const VarDecl *B) {
    return SM.isBeforeInTranslationUnit(A->getLocation(), B->getLocation());
  };
  std::vector<std::string> Parts;
  std::vector<const VarDecl *> Ints;
  for (const auto &[V, X] : C.State.Ints)
    if (!F.fold(Polynomial::variable({V, V->getNameAsString(), false}), Fn).asConstant())
      Ints.push_back(V); // a constant of the unit is no news
  llvm::sort(Ints, Before);
  for (const VarDecl *V : Ints)
    Parts.push_back(V->getNameAsString() + " = " + std::to_string(C.State.Ints.at(V)));
  std::vector<const VarDecl *> Named;
  for (const auto &[V, P] : C.State.Pointers)
    if (Pointers)
      Named.push_back(V);
  llvm::sort(Named, Before);
  std::set<const VarDecl *> Said;
  for (const VarDecl *V : Named) {
    if (Said.count(V))
      continue;
    const Place &P = C.State.Pointers.at(V);
    std::vector<std::string> Names;
    for (const VarDecl *W : Named)
      if (!Said.count(W) && C.State.Pointers.at(W) == P) {
        Names.push_back(W->getNameAsString());
        Said.insert(W);
      }
    std::string Where = P.Name;
    int64_t ElemSize = F.Ctx.getTypeSizeInChars(V->getType()->getPointeeType()).getQuantity();
    if (P.Offset != 0 && ElemSize > 0)
      Where = P.Block ? "element " + std::to_string(P.Offset / ElemSize) + " of " + P.Name
                      : P.Name + "[" + std::to_string(P.Offset / ElemSize) + "]";
    std::string Who = Names[0];
    for (size_t I = 1; I < Names.size(); ++I)
      Who += (I + 1 == Names.size() ? " and " : ", ") + Names[I];
    Parts.push_back(Who + " at " + Where);
  }
  for (size_t I = 0; I < Parts.size(); ++I)
    Out += (I == 0 ? ", with " : I + 1 == Parts.size() ? " and " : ", ") + Parts[I];
  return Out;
}

/// The loop judged in each state in which a run of its function reaches it: a race in one of
/// them (with that state), or race-free in all of them where the run saw every state.
std::optional<OmpVerdict> checkInContexts(Facts &F, const Stmt *Loop, const FunctionDecl *Fn,
                                          const LoopResult &R, const ContextRun &Run) {
  if (!isa<ForStmt>(Loop) || !Fn || !Fn->hasBody())
    return std::nullopt;
  if (Run.needsNone())
    return TableLoop(F, Fn).check(Loop, R);
  if (Run.Contexts.empty())
    return std::nullopt;
  bool AllFree = Run.Complete;
  for (const LoopContext &C : Run.Contexts) {
    std::optional<OmpVerdict> V = TableLoop(F, Fn).check(Loop, R, &C, &Run.Follows);
    if (V && V->Verdict == RaceVerdict::Race) {
      V->Message += ", " + describe(F, C, Fn);
      return V;
    }
    AllFree &= V && V->Verdict == RaceVerdict::RaceFree;
  }
  if (!AllFree)
    return std::nullopt;
  OmpVerdict V;
  V.Verdict = RaceVerdict::RaceFree;
  V.Message = "run iteration by iteration in " + statesText(Run.Contexts.size()) + " in which '" + Fn->getNameAsString() +
              "' reaches it, no two iterations touch one element where either writes it";
  return V;
}

/// The steps of a loop's `linear(j)` and `linear(j: s)` variables (s an integer literal), by
/// name; a linear clause of another form gives no step.
std::map<std::string, int64_t> linearSteps(const OmpLoop &L) {
  std::map<std::string, int64_t> Out;
  for (const OmpClause &C : L.Clauses) {
    if (C.Name != "linear")
      continue;
    auto [List, Step] = llvm::StringRef(C.Args).split(':');
    int64_t S = 1;
    if (!Step.empty() && Step.trim().getAsInteger(10, S))
      continue;
    llvm::SmallVector<llvm::StringRef, 4> Names;
    List.split(Names, ',');
    for (llvm::StringRef N : Names) {
      N = N.trim();
      if (!N.empty() && llvm::all_of(N, [](char Ch) { return isalnum(Ch) || Ch == '_'; }))
        Out[N.str()] = S;
    }
  }
  return Out;
}

/// What is known of the regions whose subscripts name a `linear` variable j (OpenMP's j at the
/// start of iteration k is j0 + s*k): where every such access comes before the body's first
/// change of j, its subscripts are those of j0 + s*k, compared again pair by pair.
struct LinearCheck {
  std::set<const VarDecl *> Handled;  ///< Linear variables whose accesses were compared.
  std::set<std::string> Regions;      ///< The regions compared (the analysis's refusals of
                                      ///< them took j for an invariant).
  Witness Race;
};

LinearCheck checkLinear(Facts &F, const Stmt *Body, const FunctionDecl *Fn, const OmpLoop &L,
                        const LoopResult &R, const std::vector<const VarDecl *> &Written) {
  LinearCheck Out;
  std::map<std::string, int64_t> Steps = linearSteps(L);
  const auto *CS = dyn_cast_or_null<CompoundStmt>(Body);
  if (Steps.empty() || !CS || R.Nest.size() != 1)
    return Out;
  const SourceManager &SM = F.Ctx.getSourceManager();
  std::vector<PolyVar> NormVars;
  RangeMap Ranges = foldedRanges(F, R, Fn, NormVars);
  if (!Ranges.count(R.Outer.Key))
    return Out;
  for (const VarDecl *VD : Written) {
    auto Step = Steps.find(VD->getNameAsString());
    if (Step == Steps.end() || !VD->hasLocalStorage() || calleesMayReach(VD, Body))
      continue;
    // The first statement of the body that changes j; none before it may do so within.
    SourceLocation Change;
    for (const Stmt *S : CS->body()) {
      ChangedOrEscaped C(VD);
      C.TraverseStmt(const_cast<Stmt *>(S));
      if (C.Found) {
        Change = S->getBeginLoc();
        break;
      }
    }
    // Each access that names j, before that change, and its subscripts with j0 + s*k.
    PolyVar J;
    bool Found = false, Before = true;
    for (const Region &Reg : R.Regions)
      for (size_t A = 0; A < Reg.Subscripts.size(); ++A)
        for (const Polynomial &P : Reg.Subscripts[A])
          if (P.mentions(VD)) {
            for (const auto &[M, C] : P.terms())
              for (const PolyVar &V : M)
                if (V.Key == VD)
                  J = V, Found = true;
            Before &= A < Reg.Locs.size() &&
                      (Change.isInvalid() || SM.isBeforeInTranslationUnit(Reg.Locs[A], Change));
          }
    if (!Found || !Before)
      continue;
    Polynomial Now = Polynomial::variable(J) +
                     Polynomial::variable(R.Outer).scaled(Step->second);
    bool Decided = true;
    for (const Region &Reg : R.Regions) {
      bool Names = false;
      for (const std::vector<Polynomial> &Subs : Reg.Subscripts)
        for (const Polynomial &P : Subs)
          Names |= P.mentions(VD);
      if (!Names)
        continue;
      std::vector<std::vector<Polynomial>> Subs;
      for (const std::vector<Polynomial> &S : Reg.Subscripts) {
        Subs.emplace_back();
        for (const Polynomial &P : S)
          Subs.back().push_back(F.fold(P.substitute(J, Now), Fn));
      }
      Decided = compareAccesses(F, Fn, Reg, Subs, NormVars, Ranges, /*CanWitness=*/true,
                                Out.Race);
      if (!Decided)
        break;
      Out.Regions.insert(Reg.Name);
    }
    if (Decided)
      Out.Handled.insert(VD);
  }
  return Out;
}

/// Own names the threadprivate variables, which no two threads share.
RowCheck checkRows(Facts &F, const LoopResult &R, const FunctionDecl *Fn,
                   const std::set<std::string> &Own) {
  RowCheck Out;
  std::vector<PolyVar> NormVars;
  RangeMap Ranges = foldedRanges(F, R, Fn, NormVars);
  for (const Region &Reg : R.Regions) {
    if (Reg.Rank < 2 || Own.count(Reg.Name))
      continue;
    std::vector<Polynomial> Ext = rowExtents(F, Reg, Fn);
    bool InRows = true, BelowEnds = true;
    for (const std::vector<Polynomial> &Subs : Reg.Subscripts)
      for (size_t D = 1; D < Subs.size(); ++D) {
        auto [AtStart, AtEnd] =
            D - 1 < Ext.size()
                ? provablyInside(F.fold(Subs[D], Fn), Ext[D - 1] - Polynomial::constant(1),
                                 Ranges)
                : std::pair<bool, bool>{false, false};
        InRows &= AtStart && AtEnd;
        BelowEnds &= AtEnd;
      }
    if (InRows)
      continue;
    // As addresses: the element's offset from the base, row-major. A witness needs no
    // subscript past the end of its row: that needs a bound larger than the row, which callers
    // may never pass (a parameter `n` over rows of 500), where a subscript before the start of
    // its row (`j - 1` at j = 0) leaves it whatever the input.
    std::vector<std::vector<Polynomial>> Flat;
    bool Decided = true;
    for (const std::vector<Polynomial> &Subs : Reg.Subscripts) {
      Polynomial P = Subs.size() == Reg.Rank ? flattenRowMajor(F.foldAll(Subs, Fn), Ext)
                                             : Polynomial::invalid();
      Decided &= P.isValid();
      Flat.push_back({P});
    }
    Decided = Decided &&
              compareAccesses(F, Fn, Reg, Flat, NormVars, Ranges, /*CanWitness=*/BelowEnds,
                              Out.Race);
    if (!Decided && !Out.Leaves)
      Out.Leaves = &Reg;
  }
  return Out;
}

} // namespace

llvm::StringRef clustrix::verdictName(RaceVerdict V) {
  switch (V) {
  case RaceVerdict::Race:
    return "race";
  case RaceVerdict::RaceFree:
    return "race-free";
  case RaceVerdict::Unknown:
    return "unknown";
  }
  return "unknown";
}

OpenMPChecker::OpenMPChecker(ASTContext &Ctx, bool WholeProgram)
    : F(std::make_unique<Facts>(Ctx, WholeProgram)) {}

OpenMPChecker::~OpenMPChecker() = default;

OmpVerdict OpenMPChecker::check(const Stmt *Loop, const FunctionDecl *Fn, const OmpLoop &L,
                                const LoopResult &R,
                                const std::set<std::string> &ThreadPrivate) {
  OmpVerdict V = checkRules(Loop, Fn, L, R, ThreadPrivate);
  if (V.Verdict == RaceVerdict::RaceFree)
    return V;
  std::optional<ContextRun> Run;
  auto States = [&]() -> ContextRun & {
    if (!Run) {
      Run.emplace(*F, Fn, Loop);
      Run->run();
    }
    return *Run;
  };
  if (V.Verdict == RaceVerdict::Race) {
    // The exact test takes each symbol for a free value. A witness that needs a variable the
    // run of the function computes (a local `k = 1 - k`) holds only where a state has it.
    std::optional<std::string> Missing = impossibleWitness(*F, Fn, V, States());
    if (!Missing)
      return V;
    // The same two accesses tested again with the values they can have: in each state the run
    // saw (a conflict there is a race of the program), or with the unit's constants alone.
    std::vector<LoopContext> Tries = States().Contexts;
    if (Tries.empty())
      Tries.emplace_back();
    for (const LoopContext &C : Tries) {
      std::optional<ExactAnswer> X = raceInState(*F, R, Fn, V, C);
      if (!X || !X->Conflict || X->Witness.empty())
        continue;
      OmpVerdict W = V;
      if (size_t At = W.Message.find(V.Iterations);
          !V.Iterations.empty() && At != std::string::npos)
        W.Message.replace(At, V.Iterations.size(), X->Witness);
      if (C.Arrival)
        W.Message += ", " + describe(*F, C, Fn, /*Pointers=*/false);
      W.Iterations = X->Witness;
      W.Symbols = X->Symbols;
      return W;
    }
    if (std::optional<OmpVerdict> C = checkInContexts(*F, Loop, Fn, R, States()))
      return *C;
    OmpVerdict U;
    U.Message = "the dependence test's witness needs " + *Missing + ", which '" +
                (Fn ? Fn->getNameAsString() : std::string("the function")) +
                "' never has when it reaches the loop";
    return U;
  }
  // Last, the loop run iteration by iteration, in each state in which its function reaches
  // it: exact where it applies, whatever the rules could not tell.
  if (Fn)
    if (std::optional<OmpVerdict> C = checkInContexts(*F, Loop, Fn, R, States()))
      return *C;
  // A proof that lacks only its pointers apart: the states say where they point.
  if (Fn && V.NeedsApart)
    if (std::optional<OmpVerdict> C = checkApartInStates(*F, Fn, R, States()))
      return *C;
  return V;
}

OmpVerdict OpenMPChecker::checkRules(const Stmt *Loop, const FunctionDecl *Fn, const OmpLoop &L,
                                     const LoopResult &R,
                                     const std::set<std::string> &ThreadPrivate) {
  const SourceManager &SM = F->Ctx.getSourceManager();
  OmpVerdict V;
  const Stmt *Body = bodyOf(Loop);
  BodyScan Scan;
  Scan.TraverseStmt(const_cast<Stmt *>(Body));
  std::set<const VarDecl *> Associated = associatedVars(Loop, L.Collapse);
  bool DefaultPrivate = L.Default == "private" || L.Default == "firstprivate";

  // The variables OpenMP shares that the loop writes: directly, through callees (the walk's
  // shared scalars), or as Clustrix's privates.
  std::vector<const VarDecl *> Written;
  auto Add = [&](const VarDecl *VD) {
    if (VD && !llvm::is_contained(Written, VD))
      Written.push_back(VD);
  };
  for (const auto &[VD, E] : Scan.Writes)
    Add(VD);
  for (const VarDecl *VD : R.WrittenScalars)
    Add(VD);
  for (const Private &P : R.Privates)
    Add(P.Var);
  llvm::sort(Written, [&](const VarDecl *A, const VarDecl *B) {
    return SM.isBeforeInTranslationUnit(A->getLocation(), B->getLocation());
  });

  std::string Unknown;
  std::set<std::string> OneThread; // every use made by one thread (OpenMP's thread 0, say)
  for (const VarDecl *VD : Written) {
    std::string Name = VD->getNameAsString();
    if (Scan.Inside.count(VD) || Associated.count(VD) || L.notShared(Name) ||
        ThreadPrivate.count(Name) || VD->getTLSKind() != VarDecl::TLS_None ||
        (DefaultPrivate && !llvm::is_contained(L.Shared, Name)))
      continue;
    if (oneThreadOnly(Body, VD, F->Ctx) && !calleesMayReach(VD, Body)) {
      OneThread.insert(Name);
      continue;
    }
    bool Stop = false;
    const Expr *W =
        VD->getType()->isScalarType() ? writtenEveryIteration(Body, VD, R, Stop) : nullptr;
    if (!W) {
      if (Unknown.empty())
        Unknown = "'" + Name +
                  "' is shared (declared outside the loop, in no private or "
                  "reduction clause) and written in some iterations only, so no two "
                  "iterations are known to write it";
      continue;
    }
    bool Known = false;
    std::optional<std::string> Two = firstTwo(R, Known);
    if (!Two)
      continue; // the loop runs one iteration: nothing to race with
    V.Verdict = RaceVerdict::Race;
    V.Message = "'" + Name + "' is shared (declared outside the loop, in no private or " +
                "reduction clause) and every iteration writes it: " + *Two + " both write it" +
                (Known ? "" : ", where the loop runs at least two iterations");
    V.First = V.Second = W->getExprLoc();
    V.FirstNote = "written here by every iteration";
    return V;
  }

  // A subscript that names a variable the loop writes (a `linear` counter, `j++` in the body)
  // is not the invariant symbol the dependence test took it for: its witness proves nothing.
  std::set<const VarDecl *> InnerCounters;
  for (const auto &[PV, Range] : R.InnerRanges)
    InnerCounters.insert(static_cast<const VarDecl *>(PV.Key));
  LinearCheck Linear = checkLinear(*F, Body, Fn, L, R, Written);
  if (Linear.Race.Reg)
    return raceVerdict(Linear.Race, ", its subscript through a linear variable");
  const VarDecl *Moving = nullptr;
  for (const VarDecl *VD : Written) {
    if (Scan.Inside.count(VD) || Associated.count(VD) || InnerCounters.count(VD) ||
        Linear.Handled.count(VD))
      continue;
    for (const Region &Reg : R.Regions) {
      for (const std::vector<Polynomial> &Subs : Reg.Subscripts)
        for (const Polynomial &P : Subs)
          if (!Moving && P.mentions(VD))
            Moving = VD;
      // A branch's condition too (a witness meets it).
      for (const std::vector<Polynomial> &Conds : Reg.Conds)
        for (const Polynomial &P : Conds)
          if (!Moving && P.mentions(VD))
            Moving = VD;
    }
  }
  bool SubscriptsMoving = Moving != nullptr;
  // Subscripts the analysis cannot follow may still be computed, iteration by iteration, where
  // they go through lookup tables: an exact verdict.
  if (llvm::any_of(R.Regions, [](const Region &Reg) { return !Reg.Affine; }))
    if (std::optional<OmpVerdict> T = TableLoop(*F, Fn).check(Loop, R))
      return *T;
  RowCheck Rows = checkRows(*F, R, Fn, ThreadPrivate);
  if (Rows.Race.Reg && !SubscriptsMoving)
    return raceVerdict(Rows.Race, " through a subscript that leaves its row");
  for (const RejectReason &Reason : R.Reasons)
    if (Reason.Race.Certain && !SubscriptsMoving && !ThreadPrivate.count(subjectOf(Reason)) &&
        !Linear.Regions.count(subjectOf(Reason))) {
      V.Verdict = RaceVerdict::Race;
      V.Message = Reason.Message;
      if (V.Message.find(Reason.Race.Iterations) == std::string::npos)
        V.Message += ": " + Reason.Race.Iterations + " touch the same element";
      V.First = Reason.Race.First;
      V.Second = Reason.Race.Second;
      V.Symbols = Reason.Race.Symbols;
      V.Iterations = Reason.Race.Iterations;
      V.FirstNote = "written here";
      V.SecondNote = Reason.Race.BothWrite ? "and written here" : "and read here";
      if (V.First == V.Second)
        V.SecondNote.clear();
      return V;
    }

  if (!Unknown.empty()) {
    V.Message = Unknown;
    return V;
  }
  if (Moving) {
    // Neither a dependence nor its absence holds for a subscript that moves (a `linear(j: -1)`
    // counter makes `a[i + j]` one element).
    V.Message = "a subscript names '" + Moving->getNameAsString() +
                "', which the loop changes, so the dependence test does not hold for it";
    return V;
  }
  // Refusals about a variable that a clause makes each thread's own (or a reduction) do not
  // concern OpenMP: such a variable is not shared. The analysis goes on past them, so what
  // remains decides.
  const RejectReason *Blocking = nullptr;
  for (const RejectReason &Reason : R.Reasons) {
    bool AboutScalar =
        Reason.Kind == RejectKind::CarriedScalar || Reason.Kind == RejectKind::FloatReduction ||
        Reason.Kind == RejectKind::ReductionConversion || Reason.Kind == RejectKind::ReduceClause;
    std::string Subject = subjectOf(Reason);
    bool Own = !Subject.empty() && (L.notShared(Subject) || ThreadPrivate.count(Subject) ||
                                    OneThread.count(Subject));
    if (Reason.ThreadSafeCall)
      continue; // stdio locks the stream; the OpenMP runtime's queries write nothing
    if (!Subject.empty() && ThreadPrivate.count(Subject))
      continue; // a threadprivate variable: each OpenMP thread's own
    if (!Subject.empty() && Linear.Regions.count(Subject) &&
        (Reason.Kind == RejectKind::ArrayDependence))
      continue; // compared again with the linear variable's value
    if (!(AboutScalar && Own)) {
      Blocking = &Reason;
      break;
    }
  }
  if (Blocking || (!R.Accepted && R.Reasons.empty())) {
    V.Message = Blocking ? Blocking->Message : "the analysis did not finish";
    return V;
  }
  // Accepted: the proof holds unless it rests on what only the run can tell.
  const Region *Aliased = nullptr;
  std::string Apart; // what the proof needs apart, where that is all it needs
  for (const Region &Reg : R.Regions) {
    if (Reg.Scalar) {
      if (Apart.empty())
        Apart = "the loop writes through a pointer that may reach '" + Reg.Name +
                "', which it reads; the proof needs them apart";
      continue;
    }
    if (!Reg.MayAlias || Reg.Restrict || !(Reg.Access & RegionWrite) || Aliased)
      continue;
    bool Fresh = freshBlock(*F, Reg.Base);
    for (const Region &Other : R.Regions)
      if (&Other != &Reg && !(Fresh && apartFromFresh(*F, Reg.Base, Other)) &&
          !F->apartAtEveryCall(Fn, Reg.Base, Other.Base))
        Aliased = &Reg;
  }
  if (const Region *Out = Rows.Leaves) {
    V.Message = "a subscript of '" + Out->Name + "' may leave its dimension (into the next " +
                "row), which the proof does not cover";
    return V;
  }
  if (Aliased && Apart.empty())
    Apart = "'" + Aliased->Name +
            "' is written through a pointer that may overlap another "
            "array the loop touches; the proof holds where they do not overlap";
  for (const Private &P : R.Privates)
    if (!L.notShared(P.Name) && !ThreadPrivate.count(P.Name) && !OneThread.count(P.Name)) {
      V.Message = "'" + P.Name +
                  "' is shared under OpenMP's rules and filled by every "
                  "iteration";
      return V;
    }
  if (!R.Appends.empty()) {
    V.Message = "the loop appends to '" + R.Appends.front().Name + "'";
    return V;
  }
  if (!Apart.empty()) {
    V.Message = Apart;
    V.NeedsApart = true;
    return V;
  }
  V.Verdict = RaceVerdict::RaceFree;
  V.Message = "no two iterations touch one element or variable where either writes it";
  return V;
}
