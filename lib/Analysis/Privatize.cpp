//===- Privatize.cpp - Scalars of the function that each iteration owns ----===//
//
// A scalar declared before the loop (C89 style: `int j; double t;` at the top of the function)
// needs no value from another iteration when every iteration writes it before any read, on every
// path, and has written it when the iteration ends. It is then private: each chunk has its own,
// and the chunk that runs the last iteration leaves its value in the variable, which is what the
// serial loop leaves. The test is structural and conservative: a plain `v = e;` statement (e not
// naming v) is the only write that counts; every other mention is a read; branches must both
// write; loops inside the body may not run; a `continue` ends an iteration where it stands.
// A variable that is dead after the loop (clang's liveness over the function's CFG) need not be
// written by every iteration: nothing reads what the last one left (an inner loop's counter,
// `for (k = 0; k < nk; k++)`, under a loop that may not run).
//
// A one-dimensional array of numbers declared before the loop is private the same way, where
// the write that counts is a loop that fills it whole before any read: `for (j = 0; j < N; j++)
// v[j] = e;` with N its size, e not naming v, nothing else in that loop naming v, changing j or
// jumping. A call fills it the same way when the callee's visible definition fills the
// parameter the array is passed to, and names that parameter nowhere else (NPB's
// `exact_solution(xi, eta, zeta, temp)`, which sets `dtemp[m]` for m < 5).
//
//===----------------------------------------------------------------------===//
#include "Phases.h"
#include "UseScan.h"

#include "clang/Basic/SourceManager.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/Analyses/LiveVariables.h"
#include "clang/Analysis/AnalysisDeclContext.h"
#include "clang/Analysis/CFG.h"

#include <functional>
#include <optional>

using namespace clang;

namespace clustrix {
namespace analysis {

namespace {

/// Follows whether V is written along the body, in order.
class WriteFlow {
public:
  explicit WriteFlow(const VarDecl *V) : V(V) {
    if (const auto *CA = V->getASTContext().getAsConstantArrayType(V->getType()))
      Size = CA->getSize().getZExtValue();
  }
  /// V a callee's pointer parameter, standing for an array of Size elements.
  WriteFlow(const VarDecl *V, uint64_t Size, unsigned CallDepth)
      : V(V), Size(Size), CallDepth(CallDepth) {}

  /// Whether every iteration writes V before reading it; EndsWritten: and ends with it written.
  bool privatizable(const Stmt *Body, bool &EndsWritten) {
    EndsWritten = stmt(Body, false, 0) && !EndsUnwritten;
    return Ok;
  }

private:
  bool mentions(const Stmt *S) const { return analysis::mentions(S, V); }

  /// An expression evaluated in state W: a mention before a write is a read.
  void read(const Stmt *E, bool W) {
    if (!W && mentions(E))
      Ok = false;
  }

  static const VarDecl *varOf(const Expr *E) {
    if (const auto *DR = dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr))
      return dyn_cast<VarDecl>(DR->getDecl());
    return nullptr;
  }
  static std::optional<int64_t> constant(const Expr *E, const ASTContext &Ctx) {
    Expr::EvalResult ER;
    if (!E || E->isValueDependent() || !E->EvaluateAsInt(ER, Ctx) ||
        ER.Val.getInt().getSignificantBits() > 64)
      return std::nullopt;
    return ER.Val.getInt().getSExtValue();
  }
  /// Whether S changes J or jumps (assignments and increments of J, break/continue/goto/return).
  static bool changesOrJumps(const Stmt *S, const VarDecl *J) {
    if (!S)
      return false;
    if (isa<BreakStmt>(S) || isa<ContinueStmt>(S) || isa<GotoStmt>(S) || isa<ReturnStmt>(S) ||
        isa<IndirectGotoStmt>(S) || isa<CXXThrowExpr>(S))
      return true;
    if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->isIncrementDecrementOp() &&
                                                     varOf(UO->getSubExpr()) == J)
      return true;
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp() && varOf(BO->getLHS()) == J)
      return true;
    if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->getOpcode() == UO_AddrOf &&
                                                     varOf(UO->getSubExpr()) == J)
      return true;
    for (const Stmt *C : S->children())
      if (changesOrJumps(C, J))
        return true;
    return false;
  }

  /// `for (j = 0; j < Size; j++) V[j] = e;`: every element of the array V written, in a loop
  /// whose other statements neither name V nor change j nor jump.
  bool fills(const ForStmt *F) const {
    const ASTContext &Ctx = V->getASTContext();
    const VarDecl *J = nullptr;
    const Expr *Start = nullptr;
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(F->getInit());
        BO && BO->getOpcode() == BO_Assign) {
      J = varOf(BO->getLHS());
      Start = BO->getRHS();
    } else if (const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit());
               DS && DS->isSingleDecl()) {
      J = dyn_cast<VarDecl>(DS->getSingleDecl());
      Start = J ? J->getInit() : nullptr;
    }
    if (!J || J == V || !J->getType()->isIntegerType() || constant(Start, Ctx) != 0)
      return false;
    const auto *Cond = dyn_cast_or_null<BinaryOperator>(F->getCond());
    if (!Cond || varOf(Cond->getLHS()) != J)
      return false;
    std::optional<int64_t> Bound = constant(Cond->getRHS(), Ctx);
    if (!Bound || !((Cond->getOpcode() == BO_LT && *Bound == int64_t(Size)) ||
                    (Cond->getOpcode() == BO_NE && *Bound == int64_t(Size)) ||
                    (Cond->getOpcode() == BO_LE && *Bound == int64_t(Size) - 1)))
      return false;
    const Expr *Inc = F->getInc() ? F->getInc()->IgnoreParens() : nullptr;
    bool UnitStep = false;
    if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Inc))
      UnitStep = UO->isIncrementOp() && varOf(UO->getSubExpr()) == J;
    else if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc))
      UnitStep = CA->getOpcode() == BO_AddAssign && varOf(CA->getLHS()) == J &&
                 constant(CA->getRHS(), Ctx) == 1;
    if (!UnitStep)
      return false;
    std::vector<const Stmt *> Body;
    if (const auto *CS = dyn_cast<CompoundStmt>(F->getBody()))
      Body.assign(CS->body_begin(), CS->body_end());
    else
      Body.push_back(F->getBody());
    bool Filled = false;
    for (const Stmt *S : Body) {
      if (changesOrJumps(S, J))
        return false;
      if (!mentions(S))
        continue;
      const auto *BO = dyn_cast<BinaryOperator>(S);
      const auto *Sub = BO && BO->getOpcode() == BO_Assign
                            ? dyn_cast<ArraySubscriptExpr>(BO->getLHS()->IgnoreParens())
                            : nullptr;
      if (Filled || !Sub || varOf(Sub->getBase()) != V || varOf(Sub->getIdx()) != J ||
          mentions(BO->getRHS()))
        return false;
      Filled = true;
    }
    return Filled;
  }

  /// `f(x, v, y)`: a call of a function whose definition fills the parameter v is passed to
  /// (privatizable, ending written), naming that parameter only in the loops that fill it; no
  /// other argument names v. (The walk of the body follows what else the callee does.)
  bool callFills(const CallExpr *CE) const {
    if (CallDepth >= 2)
      return false;
    for (unsigned I = 0; I < CE->getNumArgs(); ++I)
      if (varOf(CE->getArg(I)) != V && mentions(CE->getArg(I)))
        return false;
    return fillsArgument(CE, V, CallDepth);
  }

public:
  /// Whether CE passes the array Arr (decayed) as one argument, to a parameter that the
  /// callee's visible definition fills whole before any other use (privatizable, ending
  /// written) and names nowhere but in the loops that fill it: the callee keeps no pointer to
  /// Arr and reads nothing of it.
  static bool fillsArgument(const CallExpr *CE, const VarDecl *Arr, unsigned Depth = 0) {
    if (Depth >= 2 || isa<CXXMemberCallExpr>(CE) || isa<CXXOperatorCallExpr>(CE))
      return false;
    const FunctionDecl *FD = CE->getDirectCallee();
    const FunctionDecl *Def = nullptr;
    if (!FD || !FD->hasBody(Def) || !Def || Def->isVariadic())
      return false;
    std::optional<unsigned> At;
    for (unsigned I = 0; I < CE->getNumArgs(); ++I)
      if (varOf(CE->getArg(I)) == Arr) {
        if (At)
          return false;
        At = I;
      }
    if (!At || *At >= Def->getNumParams())
      return false;
    const ParmVarDecl *P = Def->getParamDecl(*At);
    const ASTContext &Ctx = Arr->getASTContext();
    const auto *CA = Ctx.getAsConstantArrayType(Arr->getType());
    if (!CA || !P->getType()->isPointerType() ||
        !Ctx.hasSameUnqualifiedType(P->getType()->getPointeeType(), CA->getElementType()))
      return false;
    WriteFlow Inner(P, CA->getSize().getZExtValue(), Depth + 1);
    bool EndsWritten = false;
    if (!Inner.privatizable(Def->getBody(), EndsWritten) || !EndsWritten)
      return false;
    unsigned InFills = 0;
    for (const ForStmt *F : Inner.Fills)
      InFills += countMentions(F, P);
    return InFills == countMentions(Def->getBody(), P);
  }

private:

  static unsigned countMentions(const Stmt *S, const VarDecl *X) {
    if (!S)
      return 0;
    unsigned N = 0;
    if (const auto *DR = dyn_cast<DeclRefExpr>(S); DR && DR->getDecl() == X)
      ++N;
    for (const Stmt *C : S->children())
      N += countMentions(C, X);
    return N;
  }

  /// Depth: loops and switches of the body enclosing S (a `continue` inside them is theirs).
  bool stmt(const Stmt *S, bool W, unsigned Depth) {
    if (!S || !Ok)
      return W;
    if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *C : CS->body())
        W = stmt(C, W, Depth);
      return W;
    }
    if (const auto *E = dyn_cast<Expr>(S)) {
      const Expr *X = E->IgnoreImplicit()->IgnoreParens();
      if (const auto *BO = dyn_cast<BinaryOperator>(X); BO && BO->getOpcode() == BO_Assign)
        if (const auto *L = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
            L && L->getDecl() == V) {
          read(BO->getRHS(), W);
          return true;
        }
      if (const auto *CE = dyn_cast<CallExpr>(X); CE && Size && !W && callFills(CE))
        return true;
      read(E, W);
      return W;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D))
          read(VD->getInit(), W);
      return W;
    }
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      W = stmt(If->getInit(), W, Depth);
      if (const DeclStmt *CV = If->getConditionVariableDeclStmt())
        W = stmt(CV, W, Depth);
      read(If->getCond(), W);
      bool Then = stmt(If->getThen(), W, Depth);
      bool Else = If->getElse() ? stmt(If->getElse(), W, Depth) : W;
      return Then && Else;
    }
    if (const auto *F = dyn_cast<ForStmt>(S)) {
      if (Size && fills(F)) {
        Fills.push_back(F);
        return true;
      }
      W = stmt(F->getInit(), W, Depth);
      read(F->getCond(), W);
      stmt(F->getBody(), W, Depth + 1);
      read(F->getInc(), W);
      return W; // the body may not run
    }
    if (const auto *Wh = dyn_cast<WhileStmt>(S)) {
      read(Wh->getCond(), W);
      stmt(Wh->getBody(), W, Depth + 1);
      return W;
    }
    if (const auto *D = dyn_cast<DoStmt>(S)) {
      W = stmt(D->getBody(), W, Depth + 1); // runs at least once
      read(D->getCond(), W);
      return W;
    }
    if (const auto *RF = dyn_cast<CXXForRangeStmt>(S)) {
      read(RF->getRangeInit(), W);
      stmt(RF->getBody(), W, Depth + 1);
      return W;
    }
    if (const auto *Sw = dyn_cast<SwitchStmt>(S)) {
      read(Sw->getCond(), W);
      stmt(Sw->getBody(), W, Depth + 1); // which cases run is not followed
      return W;
    }
    if (isa<ContinueStmt>(S)) {
      if (Depth == 0 && !W)
        EndsUnwritten = true; // this iteration ends without writing V
      return W;
    }
    if (isa<NullStmt>(S) || isa<BreakStmt>(S))
      return W;
    if (const auto *L = dyn_cast<LabelStmt>(S))
      return stmt(L->getSubStmt(), W, Depth);
    if (const auto *A = dyn_cast<AttributedStmt>(S))
      return stmt(A->getSubStmt(), W, Depth);
    if (const auto *C = dyn_cast<SwitchCase>(S))
      return stmt(C->getSubStmt(), W, Depth);
    // Anything else (return, goto, try, asm): whatever the body walk says of it, V is not
    // followed through it.
    Ok = false;
    return W;
  }

  const VarDecl *V;
  uint64_t Size = 0; ///< Elements of an array V; 0 for a scalar.
  unsigned CallDepth = 0; ///< Calls followed to get here (callFills).
  std::vector<const ForStmt *> Fills; ///< The loops that filled V.
  bool Ok = true;
  bool EndsUnwritten = false;
};

/// Whether every escape of the array VD that the loop may observe (scanEscapes) is its decay
/// into an argument of a call that fills it and keeps no pointer to it
/// (WriteFlow::fillsArgument), somewhere in Body.
bool escapesOnlyIntoFills(const VarDecl *VD, const EscapeInfo &Escapes, const Stmt *Body) {
  std::set<const Expr *> IntoFills;
  std::function<void(const Stmt *)> Scan = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *CE = dyn_cast<CallExpr>(S); CE && WriteFlow::fillsArgument(CE, VD))
      for (const Expr *A : CE->arguments())
        for (const Expr *X = A->IgnoreParens(); X;) { // the decay under other conversions
          IntoFills.insert(X);
          const auto *IC = dyn_cast<ImplicitCastExpr>(X);
          X = IC ? IC->getSubExpr()->IgnoreParens() : nullptr;
        }
    for (const Stmt *C : S->children())
      Scan(C);
  };
  Scan(Body);
  const auto &Es = Escapes.escapesOf(VD);
  return std::all_of(Es.begin(), Es.end(), [&](const Expr *E) { return IntoFills.count(E); });
}

/// A one-dimensional array of numbers small enough for each chunk's stack.
bool privatizableArray(const VarDecl *VD) {
  const ASTContext &Ctx = VD->getASTContext();
  const auto *CA = Ctx.getAsConstantArrayType(VD->getType());
  if (!CA)
    return false;
  QualType E = CA->getElementType();
  return !E->isArrayType() && (E->isArithmeticType() || E->isEnumeralType()) &&
         !E.isVolatileQualified() && !E.isConstQualified() &&
         Ctx.getTypeSizeInChars(VD->getType()).getQuantity() <= MaxPrivateArrayBytes;
}

bool containsTry(const Stmt *S) {
  if (!S)
    return false;
  if (isa<CXXTryStmt>(S))
    return true;
  for (const Stmt *C : S->children())
    if (containsTry(C))
      return true;
  return false;
}

/// Which variables of the enclosing function the code after a loop may read: liveness where
/// control goes when the loop's condition (the block whose terminator is the loop) is false.
class LiveAfter {
public:
  LiveAfter(const FunctionDecl *Fn, const Stmt *Loop) : Mgr(Fn->getASTContext()) {
    // A handler may read what an iteration left when the body throws: no CFG edge shows that.
    if (containsTry(Fn->getBody()))
      return;
    // Liveness visits each CFG element alone: every expression must be one (as for the
    // static analyzer), or the reads inside `return k;` go unseen.
    Mgr.getCFGBuildOptions().setAllAlwaysAdd();
    ADC = Mgr.getContext(Fn);
    const CFG *G = ADC ? ADC->getCFG() : nullptr;
    if (!G)
      return;
    const CFGBlock *Cond = nullptr;
    for (const CFGBlock *B : *G)
      if (B && B->getTerminatorStmt() == Loop)
        Cond = B;
    // The condition's successors: the body when true, the exit when false.
    if (!Cond || Cond->succ_size() != 2)
      return;
    Exit = *std::next(Cond->succ_begin());
    if (!Exit)
      return; // pruned as unreachable: nothing is known
    for (const CFGElement &E : *Exit)
      if (std::optional<CFGStmt> S = E.getAs<CFGStmt>()) {
        First = S->getStmt();
        break;
      }
    Live = ADC->getAnalysis<LiveVariables>();
  }
  /// True unless V is proved dead after the loop: liveness before the exit's first statement
  /// (or, in a block without statements, at its end).
  bool mayBeRead(const VarDecl *V) const {
    if (!Live)
      return true;
    return First ? Live->isLive(First, V) : Live->isLive(Exit, V);
  }

  /// For an array V, what mayBeRead says, where a call that fills V (fillsArgument) is no read
  /// but a write of all of it, and a store to one element (`V[j] = e`) is no read: a scratch
  /// array that the next loop fills again is dead here. A backward dataflow over the same CFG;
  /// true where it cannot tell.
  bool arrayMayBeRead(const VarDecl *V, const Stmt *FnBody) const {
    if (!Live || !ADC || !ADC->getCFG())
      return true;
    std::set<const CallExpr *> FillCalls;
    std::set<const DeclRefExpr *> NotReads;
    noteFillsAndStores(FnBody, V, FillCalls, NotReads);
    const CFG &G = *ADC->getCFG();
    std::vector<char> LiveIn(G.getNumBlockIDs(), 0);
    auto Uses = [&](const Stmt *S) { return readsOf(S, V, NotReads); };
    bool Changed = true;
    while (Changed) {
      Changed = false;
      for (const CFGBlock *B : G) {
        if (!B)
          continue;
        bool L = false;
        for (const CFGBlock *S : B->succs())
          if (S)
            L |= LiveIn[S->getBlockID()] != 0;
        for (auto E = B->rbegin(); E != B->rend(); ++E)
          if (std::optional<CFGStmt> CS = E->getAs<CFGStmt>()) {
            const Stmt *S = CS->getStmt();
            if (const auto *CE = dyn_cast<CallExpr>(S); CE && FillCalls.count(CE))
              L = false;
            else if (Uses(S))
              L = true;
          }
        if (const Stmt *T = B->getTerminatorCondition())
          L |= Uses(T);
        if (L && !LiveIn[B->getBlockID()]) {
          LiveIn[B->getBlockID()] = 1;
          Changed = true;
        }
      }
    }
    return LiveIn[Exit->getBlockID()] != 0;
  }

private:
  /// The calls of S that fill V, and the references to V that read nothing of it: the
  /// arguments of those calls, and the bases of stores to one element.
  static void noteFillsAndStores(const Stmt *S, const VarDecl *V,
                                 std::set<const CallExpr *> &Fills,
                                 std::set<const DeclRefExpr *> &NotReads) {
    if (!S)
      return;
    auto RefOf = [&](const Expr *E) -> const DeclRefExpr * {
      const auto *DR = dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
      return DR && DR->getDecl() == V ? DR : nullptr;
    };
    if (const auto *CE = dyn_cast<CallExpr>(S); CE && WriteFlow::fillsArgument(CE, V)) {
      Fills.insert(CE);
      for (const Expr *A : CE->arguments())
        if (const DeclRefExpr *DR = RefOf(A))
          NotReads.insert(DR);
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->getOpcode() == BO_Assign)
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(BO->getLHS()->IgnoreParens()))
        if (const DeclRefExpr *DR = RefOf(AS->getBase()))
          NotReads.insert(DR);
    for (const Stmt *C : S->children())
      noteFillsAndStores(C, V, Fills, NotReads);
  }

  /// Whether S reads V: names it other than in NotReads.
  static bool readsOf(const Stmt *S, const VarDecl *V,
                      const std::set<const DeclRefExpr *> &NotReads) {
    if (!S)
      return false;
    if (const auto *DR = dyn_cast<DeclRefExpr>(S))
      return DR->getDecl() == V && !NotReads.count(DR);
    for (const Stmt *C : S->children())
      if (readsOf(C, V, NotReads))
        return true;
    return false;
  }

  AnalysisDeclContextManager Mgr;
  AnalysisDeclContext *ADC = nullptr;
  const CFGBlock *Exit = nullptr;
  const Stmt *First = nullptr;
  LiveVariables *Live = nullptr;
};

const Stmt *outermostFor(const Stmt *Loop) {
  while (const auto *A = dyn_cast_or_null<AttributedStmt>(Loop))
    Loop = A->getSubStmt();
  return Loop;
}

} // namespace

std::vector<Private> findPrivates(const NestInfo &Nest, const LoopResult &R,
                                  const clang::FunctionDecl *Enclosing, const Stmt *Loop,
                                  const EscapeInfo &Escapes) {
  std::vector<Private> Out;
  if (!Enclosing || !Nest.Body || !Enclosing->getBody())
    return Out;
  std::optional<LiveAfter> After;
  std::set<const VarDecl *> Written, InBounds, Named;
  collectRewritten(Nest.Body, Written);
  collectNames(Nest.Body, Named);
  for (const VarDecl *VD : Named)
    if (privatizableArray(VD))
      Written.insert(VD);
  for (const NestInfo::Level &L : Nest.Levels)
    for (const Expr *E : {L.Bound, L.Init, L.Step})
      collectNames(E, InBounds);
  for (const VarDecl *VD : Written) {
    QualType T = VD->getType();
    if (!VD->hasLocalStorage() || T->isReferenceType() || T.isVolatileQualified() ||
        !(T->isArithmeticType() || T->isEnumeralType() || privatizableArray(VD)) ||
        isa<DecompositionDecl>(VD) ||
        VD->isInitCapture() || InBounds.count(VD))
      continue;
    if (Escapes.escapeOf(VD) &&
        !(privatizableArray(VD) && escapesOnlyIntoFills(VD, Escapes, Enclosing->getBody())))
      continue;
    // Declared before the loop, in the enclosing function itself. Where the declaration is
    // written counts, not where its tokens were spelled (`fp t;` with `#define fp float`).
    const SourceManager &SM = Enclosing->getASTContext().getSourceManager();
    auto Within = [&](const Stmt *S) {
      SourceLocation At = SM.getExpansionLoc(VD->getLocation());
      CharSourceRange Range = SM.getExpansionRange(S->getSourceRange());
      return SM.isPointWithin(At, Range.getBegin(), Range.getEnd());
    };
    if (VD->getDeclContext() != Enclosing || !Within(Enclosing->getBody()))
      continue;
    bool IsNest = false;
    for (const CanonicalLoop &L : R.Nest)
      IsNest |= L.Var == VD;
    if (IsNest || Within(Nest.Body))
      continue;
    bool EndsWritten = false;
    if (!WriteFlow(VD).privatizable(Nest.Body, EndsWritten))
      continue;
    if (!After)
      After.emplace(Enclosing, outermostFor(Loop));
    bool LiveOut = privatizableArray(VD) ? After->arrayMayBeRead(VD, Enclosing->getBody())
                                         : After->mayBeRead(VD);
    if (LiveOut && !EndsWritten)
      continue; // an iteration may leave it unwritten, and the code after the loop reads it
    Out.push_back({VD, VD->getNameAsString(), LiveOut});
  }
  std::sort(Out.begin(), Out.end(), [](const Private &A, const Private &B) {
    return A.Var->getLocation() < B.Var->getLocation();
  });
  return Out;
}

} // namespace analysis
} // namespace clustrix
