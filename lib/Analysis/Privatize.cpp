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
// v[j] = e;` with N its size, e not naming v, nothing else in that loop changing j or jumping
// or naming v, except as v[j] after the store. A call fills it the same way when the callee's visible definition fills the
// parameter the array is passed to, and names that parameter nowhere else (NPB's
// `exact_solution(xi, eta, zeta, temp)`, which sets `dtemp[m]` for m < 5).
//
// A loop may also fill only a range of the array, `for (j = lo; j < hi; j++) v[j] = e;` with
// lo and hi linear in variables that keep their value through the iteration (NPB MG's scratch
// rows, `for (i1 = 0; i1 < n1; i1++) r1[i1] = ...`, then `r1[i1 - 1] + r1[i1 + 1]` for
// 1 <= i1 < n1 - 1). Every later read of the array must then be a subscript whose value is
// proved to lie in that range: its linear form, with each loop entered since the fill replaced
// by the bounds of its variable, differs from lo and from hi - 1 by constants of the right
// sign. Such an iteration does not end with the whole array written, so the array must be dead
// after the loop.
//
//===----------------------------------------------------------------------===//
#include "Phases.h"
#include "UseScan.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/Analyses/LiveVariables.h"
#include "clang/Analysis/AnalysisDeclContext.h"
#include "clang/Analysis/CFG.h"

#include <functional>
#include <map>
#include <optional>

using namespace clang;

namespace clustrix {
namespace analysis {

namespace {

/// An integer expression as Const + sum of Coef * variable, over signed integers only (an
/// unsigned one may wrap, where the arithmetic below would not).
struct Linear {
  int64_t Const = 0;
  std::map<const VarDecl *, int64_t> Terms;

  /// E's form, where it is linear and every step of it stays small.
  static std::optional<Linear> of(const Expr *E, const ASTContext &Ctx) {
    std::optional<Linear> L = build(E, Ctx);
    return L && L->small() ? L : std::nullopt;
  }

private:
  static std::optional<Linear> build(const Expr *E, const ASTContext &Ctx) {
    if (!E || E->isValueDependent() || E->isTypeDependent())
      return std::nullopt;
    E = E->IgnoreParens();
    if (!E->getType()->isIntegerType() ||
        (E->getType()->isUnsignedIntegerOrEnumerationType() && !isa<IntegerLiteral>(E)))
      return std::nullopt;
    Expr::EvalResult ER;
    if (E->EvaluateAsInt(ER, Ctx)) {
      if (ER.Val.getInt().getSignificantBits() > 40)
        return std::nullopt;
      Linear L;
      L.Const = ER.Val.getInt().getSExtValue();
      return L;
    }
    if (const auto *IC = dyn_cast<ImplicitCastExpr>(E)) {
      if (IC->getCastKind() != CK_IntegralCast && IC->getCastKind() != CK_LValueToRValue &&
          IC->getCastKind() != CK_NoOp)
        return std::nullopt;
      // A signed value widened or kept: never narrowed (which could wrap).
      const Expr *Sub = IC->getSubExpr();
      if (IC->getCastKind() == CK_IntegralCast &&
          Ctx.getTypeSize(Sub->getType()) > Ctx.getTypeSize(IC->getType()))
        return std::nullopt;
      return build(Sub, Ctx);
    }
    if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DR->getDecl());
      if (!VD || VD->getType()->isReferenceType())
        return std::nullopt;
      Linear L;
      L.Terms[VD] = 1;
      return L;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      std::optional<Linear> S = build(UO->getSubExpr(), Ctx);
      if (!S)
        return std::nullopt;
      if (UO->getOpcode() == UO_Plus)
        return S;
      if (UO->getOpcode() == UO_Minus)
        return S->scaled(-1);
      return std::nullopt;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      std::optional<Linear> A = build(BO->getLHS(), Ctx), B = build(BO->getRHS(), Ctx);
      if (!A || !B)
        return std::nullopt;
      switch (BO->getOpcode()) {
      case BO_Add:
        return A->plus(*B, 1);
      case BO_Sub:
        return A->plus(*B, -1);
      case BO_Mul:
        if (A->Terms.empty())
          return B->scaled(A->Const);
        if (B->Terms.empty())
          return A->scaled(B->Const);
        return std::nullopt;
      default:
        return std::nullopt;
      }
    }
    return std::nullopt;
  }

public:
  Linear scaled(int64_t K) const {
    Linear L;
    L.Bad = Bad;
    L.Const = L.checked(__int128(Const) * K);
    for (const auto &[V, C] : Terms)
      if (int64_t X = L.checked(__int128(C) * K))
        L.Terms[V] = X;
    return L;
  }
  Linear plus(const Linear &O, int64_t K) const {
    Linear L = *this;
    L.Bad |= O.Bad;
    L.Const = L.checked(__int128(L.Const) + __int128(O.Const) * K);
    for (const auto &[V, C] : O.Terms)
      if (!(L.Terms[V] = L.checked(__int128(L.Terms[V]) + __int128(C) * K)))
        L.Terms.erase(V);
    return L;
  }
  /// This form with V replaced by R.
  Linear substituted(const VarDecl *V, const Linear &R) const {
    auto It = Terms.find(V);
    if (It == Terms.end())
      return *this;
    Linear L = *this;
    int64_t C = It->second;
    L.Terms.erase(V);
    return L.plus(R, C);
  }
  /// This form with each variable that Defs defines replaced by its definition.
  Linear substituted(const std::map<const VarDecl *, Linear> &Defs) const {
    Linear L = *this;
    for (const auto &[X, C] : Terms)
      if (auto It = Defs.find(X); It != Defs.end())
        L = L.substituted(X, It->second);
    return L;
  }
  /// (this form) / K, where K divides every coefficient and the constant.
  std::optional<Linear> divided(int64_t K) const {
    if (K == 0 || Const % K)
      return std::nullopt;
    Linear L = *this;
    L.Const /= K;
    for (auto &[X, C] : L.Terms) {
      if (C % K)
        return std::nullopt;
      C /= K;
    }
    return L;
  }
  bool mentions(const VarDecl *X) const { return Terms.count(X) != 0; }
  bool operator==(const Linear &O) const {
    return Const == O.Const && Terms == O.Terms && Bad == O.Bad;
  }
  /// No coefficient or constant went beyond 2^40 in magnitude on the way: each product and
  /// sum above was computed exactly.
  bool small() const { return !Bad; }

private:
  static constexpr int64_t Limit = int64_t(1) << 40;
  int64_t checked(__int128 X) {
    if (X <= -Limit || X >= Limit) {
      Bad = true;
      return 0;
    }
    return int64_t(X);
  }
  bool Bad = false;
};

/// Follows whether V is written along the body, in order.
class WriteFlow {
public:
  /// Whether a variable keeps its value through an iteration of the loop (a bound of a range
  /// that a loop fills). Without it, only fills of the whole array count.
  using InvariantFn = std::function<bool(const VarDecl *)>;

  /// Tracked: whether the flow may follow a variable's value as a linear form of others (a
  /// signed integer local of the function whose address nothing holds: only the statements
  /// that name it change it). `i1 = 2 * j1 - d1; x1[i1] = ...` then fills x1 at 2 * j1 - d1.
  explicit WriteFlow(const VarDecl *V, InvariantFn Invariant = nullptr,
                     InvariantFn Tracked = nullptr)
      : V(V), Invariant(std::move(Invariant)), Tracked(std::move(Tracked)) {
    if (const auto *CA = V->getASTContext().getAsConstantArrayType(V->getType()))
      Size = CA->getSize().getZExtValue();
  }
  /// V a callee's pointer parameter, standing for an array of Size elements.
  WriteFlow(const VarDecl *V, uint64_t Size, unsigned CallDepth)
      : V(V), Size(Size), CallDepth(CallDepth) {}

  /// Whether every iteration writes V before reading it; EndsWritten: and ends with it written.
  bool privatizable(const Stmt *Body, bool &EndsWritten) {
    EndsWritten = stmt(Body, State::whole(false), 0).Whole && !EndsUnwritten;
    return Ok;
  }
  /// Where the walk found V read before the iteration wrote it, and a note saying so (an array
  /// only; invalid and empty otherwise).
  clang::SourceLocation FailLoc;
  std::string FailWhy;
  /// Whether some loop filled a range of V only.
  bool filledInPart() const { return LastPart != 0; }

private:
  using Defs = std::map<const VarDecl *, Linear>;
  /// The elements Stride * q + Offset of V, for q in [Lo, Hi), that a loop filled, met at loop
  /// depth Depth of Ranges.
  struct Part {
    Linear Lo, Hi;
    size_t Depth = 0;
    unsigned Id = 0;
    const ForStmt *Fill = nullptr;
    int64_t Stride = 1;
    Linear Offset;
  };
  /// What is written of V at a point of the body: all of it, or some ranges; and the tracked
  /// variables whose values are known there as linear forms of others (none of which has such
  /// a definition itself).
  struct State {
    bool Whole = false;
    std::vector<Part> Parts;
    Defs Known;
    static State whole(bool W) {
      State S;
      S.Whole = W;
      return S;
    }
    /// What both of two paths wrote and know.
    static State meet(const State &A, const State &B) {
      State S;
      for (const auto &[X, L] : A.Known)
        if (auto It = B.Known.find(X); It != B.Known.end() && It->second == L)
          S.Known.emplace(X, L);
      if (A.Whole || B.Whole) {
        S.Whole = A.Whole && B.Whole;
        S.Parts = A.Whole ? B.Parts : A.Parts;
        return S;
      }
      for (const Part &P : A.Parts)
        for (const Part &Q : B.Parts)
          if (P.Id == Q.Id)
            S.Parts.push_back(P);
      return S;
    }
    void forget(const std::set<const VarDecl *> &Changed) { forgetIn(Known, Changed); }
    /// Forgets what S changes.
    void forgetChangedBy(const Stmt *S) {
      std::set<const VarDecl *> Changed;
      collectRewritten(S, Changed);
      forget(Changed);
    }
  };
  /// Forgets what Known says of the variables in Changed, and every definition naming one.
  static void forgetIn(Defs &Known, const std::set<const VarDecl *> &Changed) {
    if (Changed.empty())
      return;
    for (auto It = Known.begin(); It != Known.end();) {
      bool Stale = Changed.count(It->first) != 0;
      for (const auto &[X, C] : It->second.Terms)
        Stale |= Changed.count(X) != 0;
      It = Stale ? Known.erase(It) : std::next(It);
    }
  }
  /// E evaluated in state W: what it changes is no longer known, then its reads of V.
  void evaluate(const Expr *E, State &W) {
    if (!E)
      return;
    W.forgetChangedBy(E);
    read(E, W);
  }
  /// What X holds after `X = Init` (or `int X = Init;`) where Known holds before it: Init's
  /// linear form with Known's definitions put in, where X is tracked and the form names only
  /// tracked variables and invariants, X not among them.
  std::optional<Linear> definition(const VarDecl *X, const Expr *Init, const Defs &Known) const {
    if (!X || !Init || !Tracked || !Tracked(X))
      return std::nullopt;
    std::optional<Linear> L = Linear::of(Init, V->getASTContext());
    if (!L)
      return std::nullopt;
    Linear Form = L->substituted(Known);
    if (!Form.small() || Form.mentions(X))
      return std::nullopt;
    for (const auto &[Y, C] : Form.Terms)
      if (!Tracked(Y) && !(Invariant && Invariant(Y)))
        return std::nullopt;
    return Form;
  }
  /// S's effect on Known: what it changes is forgotten, then what an assignment or a
  /// declaration of a tracked variable defines is known.
  void track(const Stmt *S, Defs &Known) const {
    Defs Before = Known;
    std::set<const VarDecl *> Changed;
    collectRewritten(S, Changed);
    forgetIn(Known, Changed);
    if (const auto *E = dyn_cast<Expr>(S)) {
      const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreImplicit()->IgnoreParens());
      if (BO && BO->getOpcode() == BO_Assign)
        if (const VarDecl *X = varOf(BO->getLHS()))
          if (std::optional<Linear> Form = definition(X, BO->getRHS(), Before))
            Known[X] = *Form;
    } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D)) {
          forgetIn(Known, {VD}); // a new one in each iteration
          if (std::optional<Linear> Form = definition(VD, VD->getInit(), Known))
            Known[VD] = *Form;
        }
    }
  }
  /// A loop of the body entered on the way to a statement: its variable lies in [Lo, Hi]
  /// (inclusive) wherever its body runs; Known false when that is not established.
  struct Range {
    const VarDecl *Var = nullptr;
    Linear Lo, Hi;
    bool Known = false;
  };

  bool mentions(const Stmt *S) const { return analysis::mentions(S, V); }

  /// An expression evaluated in state W: a mention before a write is a read.
  void read(const Stmt *E, const State &W) {
    if (W.Whole || !mentions(E))
      return;
    const Expr *Outside = nullptr;
    if (W.Parts.empty() || !readsWithin(E, W, Outside)) {
      const Expr *At = Outside ? Outside : firstMention(E);
      // A store `V[k] = e` the walk meets is no fill it follows.
      const auto *BO = dyn_cast<BinaryOperator>(cast<Expr>(E)->IgnoreImplicit()->IgnoreParens());
      bool Store = At && BO && BO->getOpcode() == BO_Assign &&
                   BO->getLHS()->IgnoreParens() == At;
      fail(At, W, Outside != nullptr && !Store, Store);
    }
  }

  /// The first failure of the walk: where, and why V is not the iteration's own there.
  void fail(const Expr *At, const State &W, bool PastParts, bool Store = false) {
    if (!Ok)
      return;
    Ok = false;
    if (!Size || !At)
      return;
    const ASTContext &Ctx = V->getASTContext();
    const SourceManager &SM = Ctx.getSourceManager();
    auto Header = [&](const ForStmt *F) {
      std::string H =
          Lexer::getSourceText(CharSourceRange::getCharRange(
                                   F->getBeginLoc(), F->getRParenLoc().getLocWithOffset(1)),
                               SM, Ctx.getLangOpts())
              .str();
      return H.empty() || H.size() > 80 || H.find('\n') != std::string::npos
                 ? std::string()
                 : " ('" + H + "')";
    };
    auto Line = [&](const Stmt *S) {
      return std::to_string(SM.getExpansionLineNumber(S->getBeginLoc()));
    };
    FailLoc = At->getExprLoc();
    std::string Name = V->getNameAsString();
    std::string Head = "'" + Name + "' is not private to each iteration: ";
    if (Store && Unranged) {
      FailLoc = Unranged->getBeginLoc();
      FailWhy = Head + "the loop at line " + Line(Unranged) + Header(Unranged) +
                " fills it over bounds privatization cannot follow (signed integers, linear in "
                "variables the iteration does not change)";
    } else if (Store) {
      FailWhy = Head + "it is written here, but not by a loop that fills a range of it ('for "
                "(j = lo; j < hi; j++) " + Name + "[j] = e;', e not reading '" + Name +
                "'), the only stores privatization follows";
    } else if (!PastParts) {
      FailWhy = Head + "it is read here before the iteration has filled it on every path";
    } else {
      const ForStmt *F = W.Parts.front().Fill;
      int64_t Stride = W.Parts.front().Stride;
      FailWhy = Head + "'" + spell(At, Ctx) + "' may lie outside the elements that the loop at "
                "line " + Line(F) + Header(F) + " fills" +
                (Stride != 1 ? " (one in every " + std::to_string(Stride < 0 ? -Stride : Stride) +
                                   ")"
                             : std::string()) +
                (Changing    ? ": the iteration may change '" + Changing->getNameAsString() + "'"
                 : Unbounded ? ": the loop of '" + Unbounded->getNameAsString() +
                                   "' around it has no range privatization can follow"
                             : std::string());
    }
  }

  /// The first mention of V in S, or null.
  const Expr *firstMention(const Stmt *S) const {
    if (!S)
      return nullptr;
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S); AS && varOf(AS->getBase()) == V)
      return AS;
    if (const auto *DR = dyn_cast<DeclRefExpr>(S); DR && DR->getDecl() == V)
      return DR;
    for (const Stmt *C : S->children())
      if (const Expr *E = firstMention(C))
        return E;
    return nullptr;
  }

  /// Whether every mention of V in S is a subscript whose value lies in one of W's parts;
  /// Outside: the first that is not.
  bool readsWithin(const Stmt *S, const State &W, const Expr *&Outside) const {
    if (!S)
      return true;
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S);
        AS && varOf(AS->getBase()) == V) {
      if (!readsWithin(AS->getIdx(), W, Outside))
        return false;
      if (std::any_of(W.Parts.begin(), W.Parts.end(),
                      [&](const Part &P) { return within(AS->getIdx(), P, W.Known); }))
        return true;
      Outside = AS;
      return false;
    }
    if (const auto *DR = dyn_cast<DeclRefExpr>(S)) {
      if (DR->getDecl() != V)
        return true;
      Outside = DR;
      return false;
    }
    for (const Stmt *C : S->children())
      if (!readsWithin(C, W, Outside))
        return false;
    return true;
  }

  /// Whether Idx, evaluated here (where Known holds), is an element P filled: Idx is
  /// P.Stride * q + P.Offset for a linear q whose least and greatest values over the loops
  /// entered since P's fill differ from P.Lo and P.Hi - 1 by constants, every variable left
  /// keeping its value since the fill.
  bool within(const Expr *Idx, const Part &P, const Defs &Known) const {
    Changing = Unbounded = nullptr;
    const ASTContext &Ctx = V->getASTContext();
    std::optional<Linear> I = Linear::of(Idx, Ctx);
    if (!I)
      return false;
    Linear Form = I->substituted(Known).plus(P.Offset, -1);
    if (!Form.small())
      return false;
    std::optional<Linear> Q = Form.divided(P.Stride);
    if (!Q)
      return false;
    Linear Min = *Q, Max = *Q;
    for (size_t K = Ranges.size(); K-- > P.Depth;) {
      const Range &R = Ranges[K];
      auto Bound = [&](Linear &F, bool Least) {
        auto It = F.Terms.find(R.Var);
        if (It == F.Terms.end())
          return true;
        if (!R.Known) {
          Unbounded = R.Var;
          return false;
        }
        bool Lower = (It->second > 0) == Least;
        F = F.substituted(R.Var, Lower ? R.Lo : R.Hi);
        return F.small();
      };
      if (!Bound(Min, true) || !Bound(Max, false))
        return false;
    }
    // Variables of the loops around the fill: those whose bodies do not change them keep
    // their value; any other variable must be one of the body's invariants.
    auto Kept = [&](const VarDecl *X) {
      for (size_t K = 0; K < P.Depth && K < Ranges.size(); ++K)
        if (Ranges[K].Var == X)
          return Ranges[K].Known;
      return Invariant && Invariant(X);
    };
    for (const Linear *F : {(const Linear *)&Min, (const Linear *)&Max, &P.Lo, &P.Hi, &P.Offset})
      for (const auto &[X, C] : F->Terms)
        if (!Kept(X)) {
          if (!Changing)
            Changing = X;
          return false;
        }
    Linear Above = Min.plus(P.Lo, -1);      // Min - Lo >= 0
    Linear Below = P.Hi.plus(Max, -1);      // Hi - Max >= 1
    return Above.Terms.empty() && Below.Terms.empty() && Above.Const >= 0 && Below.Const >= 1;
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
  /// Whether S assigns J: assignments, increments, its address taken.
  static bool assigns(const Stmt *S, const VarDecl *J) {
    if (!S)
      return false;
    if (const auto *UO = dyn_cast<UnaryOperator>(S);
        UO && (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
        varOf(UO->getSubExpr()) == J)
      return true;
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp() && varOf(BO->getLHS()) == J)
      return true;
    if (const auto *DS = dyn_cast<DeclStmt>(S)) // bound to a reference
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D);
            VD && VD->getType()->isReferenceType() && mentionsVar(VD->getInit(), J))
          return true;
    if (const auto *CE = dyn_cast<CallExpr>(S)) // passed by reference
      for (const Expr *A : CE->arguments())
        if (A->isLValue() && varOf(A) == J)
          return true;
    if (isa<LambdaExpr>(S))
      return mentionsVar(S, J);
    for (const Stmt *C : S->children())
      if (assigns(C, J))
        return true;
    return false;
  }
  static bool mentionsVar(const Stmt *S, const VarDecl *J) { return analysis::mentions(S, J); }

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

  /// The variable of `for (j = a; ...; ...)` or `for (int j = a; ...)`, and a.
  static const VarDecl *loopVar(const ForStmt *F, const Expr *&Start) {
    Start = nullptr;
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(F->getInit());
        BO && BO->getOpcode() == BO_Assign) {
      Start = BO->getRHS();
      return varOf(BO->getLHS());
    }
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit()); DS && DS->isSingleDecl()) {
      const auto *J = dyn_cast<VarDecl>(DS->getSingleDecl());
      Start = J ? J->getInit() : nullptr;
      return J;
    }
    return nullptr;
  }

  /// The range of F's variable wherever its body runs: `for (j = a; j < b (or <= b); j++ (or
  /// ++j, j += 1))` gives [a, b - 1] (or [a, b]), `for (j = a; j > b (or >= b); j-- (...))`
  /// [b + 1 (or b), a], where the body does not change j, with a and b's variables replaced by
  /// what Known (which names nothing the loop changes) says of them. Known false otherwise.
  static Range rangeOf(const ForStmt *F, const Defs &Known) {
    Range R;
    const Expr *Start = nullptr;
    const VarDecl *J = loopVar(F, Start);
    R.Var = J;
    if (!J || !J->getType()->isSignedIntegerType() || assigns(F->getBody(), J))
      return R;
    const ASTContext &Ctx = J->getASTContext();
    const auto *Cond = dyn_cast_or_null<BinaryOperator>(F->getCond());
    if (!Cond || varOf(Cond->getLHS()) != J)
      return R;
    const Expr *Inc = F->getInc() ? F->getInc()->IgnoreParens() : nullptr;
    int Step = 0;
    if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Inc);
        UO && varOf(UO->getSubExpr()) == J)
      Step = UO->isIncrementOp() ? 1 : UO->isDecrementOp() ? -1 : 0;
    else if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc);
             CA && varOf(CA->getLHS()) == J && constant(CA->getRHS(), Ctx) == 1)
      Step = CA->getOpcode() == BO_AddAssign ? 1 : CA->getOpcode() == BO_SubAssign ? -1 : 0;
    std::optional<Linear> A = Linear::of(Start, Ctx), B = Linear::of(Cond->getRHS(), Ctx);
    if (!Step || !A || !B)
      return R;
    // Known holds throughout the loop: it names nothing the loop changes.
    A = A->substituted(Known);
    B = B->substituted(Known);
    Linear One;
    One.Const = 1;
    BinaryOperatorKind Op = Cond->getOpcode();
    if (Step > 0 && (Op == BO_LT || Op == BO_LE)) {
      R.Lo = *A;
      R.Hi = Op == BO_LT ? B->plus(One, -1) : *B;
    } else if (Step < 0 && (Op == BO_GT || Op == BO_GE)) {
      R.Lo = Op == BO_GT ? B->plus(One, 1) : *B;
      R.Hi = *A;
    } else {
      return R;
    }
    R.Known = R.Lo.small() && R.Hi.small();
    return R;
  }

  /// `for (j = lo; j < hi; j++) V[j] = e;`: the elements [lo, hi) of the array V written, in
  /// a loop whose statements neither change j nor jump, and name V before the store not at all
  /// and after it only as V[j]. Whole when that is the array (lo 0, hi its size); a range only
  /// where the flow follows ranges (Invariant). Where it tracks variables, the subscript may
  /// be linear in j, through variables defined before the store in the loop's body
  /// (`i1 = 2 * j1 - d1; V[i1] = e;`): the elements a * j + b. Outer: the state before it;
  /// Changed: what it changes.
  std::optional<State> fills(const ForStmt *F, const State &Outer,
                             const std::set<const VarDecl *> &Changed) {
    const ASTContext &Ctx = V->getASTContext();
    const Expr *Start = nullptr;
    const VarDecl *J = loopVar(F, Start);
    if (!J || J == V || !J->getType()->isIntegerType())
      return std::nullopt;
    const auto *Cond = dyn_cast_or_null<BinaryOperator>(F->getCond());
    if (!Cond || varOf(Cond->getLHS()) != J)
      return std::nullopt;
    const Expr *Inc = F->getInc() ? F->getInc()->IgnoreParens() : nullptr;
    bool UnitStep = false;
    if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Inc))
      UnitStep = UO->isIncrementOp() && varOf(UO->getSubExpr()) == J;
    else if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc))
      UnitStep = CA->getOpcode() == BO_AddAssign && varOf(CA->getLHS()) == J &&
                 constant(CA->getRHS(), Ctx) == 1;
    if (!UnitStep)
      return std::nullopt;
    std::vector<const Stmt *> Body;
    if (const auto *CS = dyn_cast<CompoundStmt>(F->getBody()))
      Body.assign(CS->body_begin(), CS->body_end());
    else
      Body.push_back(F->getBody());
    // What the loop changes (Changed) is not known anywhere in it.
    Defs Throughout = Outer.Known;
    forgetIn(Throughout, Changed);
    Defs Known = Throughout;
    // The store's subscript: J itself, or (tracking) the linear form Stored.
    bool Plain = false;
    std::optional<Linear> Stored;
    auto SameElement = [&](const Expr *Idx) {
      if (Plain)
        return varOf(Idx) == J;
      std::optional<Linear> L = Linear::of(Idx, Ctx);
      return L && L->substituted(Known) == *Stored;
    };
    bool Filled = false;
    for (const Stmt *S : Body) {
      if (changesOrJumps(S, J))
        return std::nullopt;
      // Definitions of tracked variables, before the store or after it.
      auto Track = [&] { track(S, Known); };
      if (!mentions(S)) {
        Track();
        continue;
      }
      // After the store, the element just written may be used again (`z1[i1] = a;
      // z3[i1] = b + z1[i1];`): each mention must be that element.
      if (Filled) {
        if (!onlyCurrent(S, SameElement))
          return std::nullopt;
        Track();
        continue;
      }
      const auto *BO = dyn_cast<BinaryOperator>(S);
      const auto *Sub = BO && BO->getOpcode() == BO_Assign
                            ? dyn_cast<ArraySubscriptExpr>(BO->getLHS()->IgnoreParens())
                            : nullptr;
      if (!Sub || varOf(Sub->getBase()) != V || mentions(BO->getRHS()) || mentions(Sub->getIdx()))
        return std::nullopt;
      if (varOf(Sub->getIdx()) == J) {
        Plain = true;
      } else {
        std::optional<Linear> L = Tracked ? Linear::of(Sub->getIdx(), Ctx) : std::nullopt;
        if (!L)
          return std::nullopt;
        Stored = L->substituted(Known);
        auto It = Stored->Terms.find(J);
        if (!Stored->small() || It == Stored->Terms.end())
          return std::nullopt;
      }
      Filled = true;
      Track();
    }
    if (!Filled)
      return std::nullopt;
    std::optional<int64_t> Bound = constant(Cond->getRHS(), Ctx);
    if (Plain && constant(Start, Ctx) == 0 && Bound &&
        ((Cond->getOpcode() == BO_LT && *Bound == int64_t(Size)) ||
         (Cond->getOpcode() == BO_NE && *Bound == int64_t(Size)) ||
         (Cond->getOpcode() == BO_LE && *Bound == int64_t(Size) - 1)))
      return State::whole(true);
    if (!Invariant)
      return std::nullopt;
    Range R = rangeOf(F, Throughout);
    if (!R.Known || (Cond->getOpcode() != BO_LT && Cond->getOpcode() != BO_LE)) {
      if (!Unranged)
        Unranged = F;
      return std::nullopt;
    }
    Linear One;
    One.Const = 1;
    Part P{R.Lo, R.Hi.plus(One, 1), Ranges.size(), ++LastPart, F, 1, Linear()};
    if (Stored) {
      P.Stride = Stored->Terms.at(J);
      P.Offset = Stored->substituted(J, Linear());
    }
    // Nothing the loop changes may be part of what it filled (J aside).
    for (const Linear *L : {&P.Lo, &P.Hi, &P.Offset})
      for (const auto &[X, C] : L->Terms)
        if (Changed.count(X)) {
          if (!Unranged)
            Unranged = F;
          return std::nullopt;
        }
    State S;
    S.Parts.push_back(P);
    return S;
  }

  /// Whether every mention of V in S is a subscript V[k] with Same(k).
  bool onlyCurrent(const Stmt *S, const std::function<bool(const Expr *)> &Same) const {
    if (!S)
      return true;
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S); AS && varOf(AS->getBase()) == V)
      return Same(AS->getIdx());
    if (const auto *DR = dyn_cast<DeclRefExpr>(S))
      return DR->getDecl() != V;
    for (const Stmt *C : S->children())
      if (!onlyCurrent(C, Same))
        return false;
    return true;
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
  State stmt(const Stmt *S, State W, unsigned Depth) {
    if (!S || !Ok)
      return W;
    if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *C : CS->body())
        W = stmt(C, std::move(W), Depth);
      return W;
    }
    if (const auto *E = dyn_cast<Expr>(S)) {
      const Expr *X = E->IgnoreImplicit()->IgnoreParens();
      if (const auto *BO = dyn_cast<BinaryOperator>(X); BO && BO->getOpcode() == BO_Assign)
        if (const auto *L = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
            L && L->getDecl() == V) {
          evaluate(BO->getRHS(), W);
          W.Whole = true;
          return W;
        }
      if (const auto *CE = dyn_cast<CallExpr>(X); CE && Size && !W.Whole && callFills(CE)) {
        W.forgetChangedBy(E);
        W.Whole = true;
        return W;
      }
      // What E defines may join Known before its reads are checked: a linear right-hand side
      // names no element of V.
      track(E, W.Known);
      read(E, W);
      return W;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      track(DS, W.Known); // an initializer names no variable declared after it
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D))
          read(VD->getInit(), W);
      return W;
    }
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      W = stmt(If->getInit(), std::move(W), Depth);
      if (const DeclStmt *CV = If->getConditionVariableDeclStmt())
        W = stmt(CV, std::move(W), Depth);
      evaluate(If->getCond(), W);
      State Then = stmt(If->getThen(), W, Depth);
      State Else = If->getElse() ? stmt(If->getElse(), W, Depth) : W;
      return State::meet(Then, Else);
    }
    if (const auto *F = dyn_cast<ForStmt>(S)) {
      // What the loop changes is known nowhere in it (its next iteration) nor after it.
      std::set<const VarDecl *> Changed;
      collectRewritten(F, Changed);
      if (Size)
        if (std::optional<State> Filled = fills(F, W, Changed)) {
          Fills.push_back(F);
          W.forget(Changed);
          if (Filled->Whole)
            W.Whole = true;
          else
            W.Parts.push_back(Filled->Parts.front());
          return W;
        }
      W = stmt(F->getInit(), std::move(W), Depth);
      W.forget(Changed);
      evaluate(F->getCond(), W);
      Ranges.push_back(rangeOf(F, W.Known));
      State Body = stmt(F->getBody(), W, Depth + 1);
      Ranges.pop_back();
      evaluate(F->getInc(), Body);
      return W; // the body may not run
    }
    if (const auto *Wh = dyn_cast<WhileStmt>(S)) {
      W.forgetChangedBy(Wh);
      evaluate(Wh->getCond(), W);
      stmt(Wh->getBody(), W, Depth + 1);
      return W;
    }
    if (const auto *D = dyn_cast<DoStmt>(S)) {
      W.forgetChangedBy(D);
      W = stmt(D->getBody(), std::move(W), Depth + 1); // runs at least once
      W.forgetChangedBy(D);
      evaluate(D->getCond(), W);
      return W;
    }
    if (const auto *RF = dyn_cast<CXXForRangeStmt>(S)) {
      evaluate(RF->getRangeInit(), W);
      W.forgetChangedBy(RF);
      stmt(RF->getBody(), W, Depth + 1);
      return W;
    }
    if (const auto *Sw = dyn_cast<SwitchStmt>(S)) {
      W = stmt(Sw->getInit(), std::move(W), Depth);
      if (const DeclStmt *CV = Sw->getConditionVariableDeclStmt())
        W = stmt(CV, std::move(W), Depth);
      evaluate(Sw->getCond(), W);
      // Which cases run is not followed: each label is reached from the switch as well as
      // from the statement before it (a case that falls through).
      Switches.push_back({W, Ranges.size()});
      stmt(Sw->getBody(), W, Depth + 1);
      Switches.pop_back();
      W.forgetChangedBy(Sw->getBody());
      return W;
    }
    if (isa<ContinueStmt>(S)) {
      if (Depth == 0 && !W.Whole)
        EndsUnwritten = true; // this iteration ends without writing V
      return W;
    }
    if (isa<NullStmt>(S) || isa<BreakStmt>(S))
      return W;
    if (const auto *L = dyn_cast<LabelStmt>(S)) // a goto may come from anywhere
      return stmt(L->getSubStmt(), State::whole(false), Depth);
    if (const auto *A = dyn_cast<AttributedStmt>(S))
      return stmt(A->getSubStmt(), std::move(W), Depth);
    if (const auto *C = dyn_cast<SwitchCase>(S)) {
      // Reached from the switch with what was written before it, or by falling through. A
      // label inside a loop of the switch's body (Duff's device) is not followed.
      if (Switches.empty() || Switches.back().Loops != Ranges.size()) {
        Ok = false;
        return W;
      }
      return stmt(C->getSubStmt(), State::meet(Switches.back().Entry, W), Depth);
    }
    // Anything else (return, goto, try, asm): whatever the body walk says of it, V is not
    // followed through it.
    Ok = false;
    return W;
  }

  const VarDecl *V;
  InvariantFn Invariant; ///< Null: ranges are not followed (a callee's parameter).
  InvariantFn Tracked;   ///< Null: no variable's value is followed.
  uint64_t Size = 0; ///< Elements of an array V; 0 for a scalar.
  unsigned CallDepth = 0; ///< Calls followed to get here (callFills).
  std::vector<const ForStmt *> Fills; ///< The loops that filled V.
  std::vector<Range> Ranges; ///< The loops of the body entered on the way to this point.
  /// The switches entered on the way to this point: what was written when each was entered,
  /// and how many loops of Ranges were entered before it.
  struct SwitchEntry {
    State Entry;
    size_t Loops;
  };
  std::vector<SwitchEntry> Switches;
  unsigned LastPart = 0;
  const ForStmt *Unranged = nullptr; ///< The first fill of V whose range could not be followed.
  /// The last test of a read against a filled range met this variable, which may not keep its
  /// value through the iteration (a global, or a local the body writes or whose address
  /// escapes).
  mutable const VarDecl *Changing = nullptr;
  /// The last such test met the variable of a loop around the read whose range is not known
  /// (it changes its variable in its body, or its bounds are not linear).
  mutable const VarDecl *Unbounded = nullptr;
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
                                  const EscapeInfo &Escapes, std::vector<PrivateMiss> *Misses) {
  std::vector<Private> Out;
  if (!Enclosing || !Nest.Body || !Enclosing->getBody())
    return Out;
  std::optional<LiveAfter> After;
  std::set<const VarDecl *> Written, InBounds, Named, Rewritten;
  collectRewritten(Nest.Body, Written);
  Rewritten = Written;
  // What keeps its value through an iteration, for the bounds of a range a loop fills: a
  // local of the function (or a parameter) that the body never changes and whose address
  // nothing holds, or a constant.
  auto Invariant = [&](const VarDecl *X) {
    QualType T = X->getType();
    if (T->isReferenceType() || T.isVolatileQualified() || !T->isIntegerType())
      return false;
    if (T.isConstQualified() && X->hasLocalStorage())
      return true;
    return X->hasLocalStorage() && !Rewritten.count(X) && !Escapes.escapeOf(X) &&
           !X->isStaticLocal();
  };
  // What the flow may follow the value of: a signed integer local whose address nothing
  // holds, so that only the statements naming it change it.
  auto Tracked = [&](const VarDecl *X) {
    QualType T = X->getType();
    return X->hasLocalStorage() && !X->isStaticLocal() && !T->isReferenceType() &&
           !T.isVolatileQualified() && T->isSignedIntegerType() && !Escapes.escapeOf(X);
  };
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
    WriteFlow Flow(VD, Invariant, Tracked);
    if (!Flow.privatizable(Nest.Body, EndsWritten)) {
      if (Misses && !Flow.FailWhy.empty())
        Misses->push_back({VD, Flow.FailLoc, Flow.FailWhy});
      continue;
    }
    if (!After)
      After.emplace(Enclosing, outermostFor(Loop));
    bool LiveOut = privatizableArray(VD) ? After->arrayMayBeRead(VD, Enclosing->getBody())
                                         : After->mayBeRead(VD);
    if (LiveOut && !EndsWritten) {
      // An iteration may leave it unwritten, and the code after the loop reads it.
      if (Misses && privatizableArray(VD) && Flow.filledInPart())
        Misses->push_back({VD, VD->getLocation(),
                           "'" + VD->getNameAsString() +
                               "' is not private to each iteration: an iteration fills only "
                               "part of it, and the code after the loop may read it"});
      continue;
    }
    Out.push_back({VD, VD->getNameAsString(), LiveOut});
  }
  std::sort(Out.begin(), Out.end(), [](const Private &A, const Private &B) {
    return A.Var->getLocation() < B.Var->getLocation();
  });
  return Out;
}

} // namespace analysis
} // namespace clustrix
