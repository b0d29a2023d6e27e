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

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

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
  explicit ChangedOrEscaped(const VarDecl *V) : V(V) {}
  bool VisitExpr(Expr *E) {
    if (writtenVar(E) == V)
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
  bool Found = false;
};

bool changedInFunction(const VarDecl *V) {
  const auto *F = dyn_cast<FunctionDecl>(V->getDeclContext());
  if (!F || !F->hasBody())
    return true;
  ChangedOrEscaped C(V);
  C.TraverseStmt(F->getBody());
  return C.Found;
}

/// A local pointer whose only value is a fresh heap block (`double *p = malloc(...)`, `new
/// double[n]`), never written again nor its address taken: it reaches no other variable's block.
bool freshBlock(const ValueDecl *D) {
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
  return Allocates && !changedInFunction(V);
}

/// A pointer parameter its function never changes: its value was fixed before any block the
/// function allocates.
bool fixedParameter(const ValueDecl *D) {
  const auto *P = dyn_cast_or_null<ParmVarDecl>(D);
  return P && !changedInFunction(P);
}

/// Whether Other cannot overlap the fresh block that FreshBase holds: it is another fresh
/// block, an object that is not a pointer, or a parameter fixed before the allocation.
bool apartFromFresh(const ValueDecl *FreshBase, const Region &Other) {
  if (Other.Base == FreshBase)
    return false;
  if (freshBlock(Other.Base))
    return true;
  const auto *V = dyn_cast_or_null<VarDecl>(Other.Base);
  if (V && !V->getType()->isPointerType() && !V->getType()->isReferenceType() && !Other.MayAlias)
    return true;
  return fixedParameter(Other.Base);
}

/// A region of rank 2 or more with a subscript after the first that is not shown to stay in
/// its dimension. The dependence test compares dimensions one by one, which holds only for
/// subscripts inside their bounds (`b[i][j - 1]` at j = 0 is the element before the row, in
/// another iteration's row).
const Region *mayLeaveItsRow(const LoopResult &R) {
  for (const Region &Reg : R.Regions) {
    if (Reg.Rank < 2)
      continue;
    for (const std::vector<Polynomial> &Subs : Reg.Subscripts)
      for (size_t D = 1; D < Subs.size(); ++D) {
        Polynomial Ext = D < Reg.ConstDims.size()        ? Polynomial::constant(Reg.ConstDims[D])
                         : D - 1 < Reg.DimExtents.size() ? Reg.DimExtents[D - 1]
                                                         : Polynomial::invalid();
        const Polynomial &P = Subs[D];
        if (!Ext.isValid() || !P.isValid())
          return &Reg;
        Polynomial Last = Ext - Polynomial::constant(1);
        std::vector<PolyVar> Vs = P.loopVars();
        if (Vs.empty()) {
          if (!provablyAtMost(Polynomial::constant(0), P) || !provablyAtMost(P, Last))
            return &Reg;
          continue;
        }
        std::optional<int64_t> C =
            Vs.size() == 1 ? P.coefficientOf(Vs[0]).asConstant() : std::nullopt;
        if (!C || *C != 1)
          return &Reg;
        Polynomial K = P - Polynomial::variable(Vs[0]);
        std::optional<PolyRange> Range;
        for (const auto &[PV, Rg] : R.InnerRanges)
          if (PV.Key == Vs[0].Key)
            Range = Rg;
        for (unsigned L = 0; L < R.Nest.size() && !Range; ++L)
          if (Vs[0].Key == normalizedVarKey(L)) {
            // The normalized variable counts iterations from 0 (the subscript holds the
            // loop's start in its constant part).
            Polynomial Last = lastNormalized(R.Nest[L]);
            if (Last.isValid())
              Range = PolyRange(Polynomial::constant(0), Last);
          }
        if (!Range || !provablyAtMost(Polynomial::constant(0), Range->Lo + K) ||
            !provablyAtMost(Range->Hi + K, Last))
          return &Reg;
      }
  }
  return nullptr;
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

OmpVerdict clustrix::checkOpenMPLoop(ASTContext &Ctx, const Stmt *Loop, const OmpLoop &L,
                                     const LoopResult &R,
                                     const std::set<std::string> &ThreadPrivate) {
  const SourceManager &SM = Ctx.getSourceManager();
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
  for (const VarDecl *VD : Written) {
    std::string Name = VD->getNameAsString();
    if (Scan.Inside.count(VD) || Associated.count(VD) || L.notShared(Name) ||
        ThreadPrivate.count(Name) || VD->getTLSKind() != VarDecl::TLS_None ||
        (DefaultPrivate && !llvm::is_contained(L.Shared, Name)))
      continue;
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
  const VarDecl *Moving = nullptr;
  for (const VarDecl *VD : Written) {
    if (Scan.Inside.count(VD) || Associated.count(VD) || InnerCounters.count(VD))
      continue;
    for (const Region &Reg : R.Regions)
      for (const std::vector<Polynomial> &Subs : Reg.Subscripts)
        for (const Polynomial &P : Subs)
          if (!Moving && P.mentions(VD))
            Moving = VD;
  }
  bool SubscriptsMoving = Moving != nullptr;
  for (const RejectReason &Reason : R.Reasons)
    if (Reason.Race.Certain && !SubscriptsMoving) {
      V.Verdict = RaceVerdict::Race;
      V.Message = Reason.Message;
      if (V.Message.find(Reason.Race.Iterations) == std::string::npos)
        V.Message += ": " + Reason.Race.Iterations + " touch the same element";
      V.First = Reason.Race.First;
      V.Second = Reason.Race.Second;
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
    llvm::StringRef M = Reason.Message;
    std::string Subject;
    if (M.consume_front("'"))
      Subject = M.take_until([](char C) { return C == '\''; }).str();
    bool Own = !Subject.empty() && (L.notShared(Subject) || ThreadPrivate.count(Subject));
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
  for (const Region &Reg : R.Regions) {
    if (Reg.Scalar) {
      V.Message = "the loop writes through a pointer that may reach '" + Reg.Name +
                  "', which it reads; the proof needs them apart";
      return V;
    }
    if (!Reg.MayAlias || Reg.Restrict || !(Reg.Access & RegionWrite) || Aliased)
      continue;
    bool Fresh = freshBlock(Reg.Base);
    for (const Region &Other : R.Regions)
      if (&Other != &Reg && !(Fresh && apartFromFresh(Reg.Base, Other)))
        Aliased = &Reg;
  }
  if (const Region *Out = mayLeaveItsRow(R)) {
    V.Message = "a subscript of '" + Out->Name + "' may leave its dimension (into the next " +
                "row), which the proof does not cover";
    return V;
  }
  if (Aliased) {
    V.Message = "'" + Aliased->Name +
                "' is written through a pointer that may overlap another "
                "array the loop touches; the proof holds where they do not overlap";
    return V;
  }
  for (const Private &P : R.Privates)
    if (!L.notShared(P.Name) && !ThreadPrivate.count(P.Name)) {
      V.Message = "'" + P.Name +
                  "' is shared under OpenMP's rules and filled by every "
                  "iteration";
      return V;
    }
  if (!R.Appends.empty()) {
    V.Message = "the loop appends to '" + R.Appends.front().Name + "'";
    return V;
  }
  V.Verdict = RaceVerdict::RaceFree;
  V.Message = "no two iterations touch one element or variable where either writes it";
  return V;
}
