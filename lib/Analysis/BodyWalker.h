//===- BodyWalker.h - The closed-world walk of a loop body ------*- C++ -*-===//
//
// Walks the loop body, and inlined into it the bodies of the functions, constructors and lambdas
// it calls, in use-context (read, write, read-write). Every statement class is modelled or
// refused (StmtCoverage.def). Every lvalue is resolved through the memory model below to one of:
//   - an object private to the iteration (declared in the body or in an inlined callee), whose
//     uses need nothing;
//   - an element of a shared array or container (an Access: a root object, subscripts as
//     polynomials, whether the root may alias other roots);
//   - a shared scalar (a ScalarUse of a variable declared outside the loop).
// Pointers and references declared in the body are followed to what they were defined from;
// what cannot be followed is a refusal, never an assumption. What the walk finds is BodyFacts,
// which the later phases (Scalars, Regions, Dependences) read.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_LIB_ANALYSIS_BODYWALKER_H
#define CLUSTRIX_LIB_ANALYSIS_BODYWALKER_H

#include "AnalysisUtil.h"
#include "Complexity.h"
#include "UseScan.h"

#include "clustrix/AST/Spelling.h"
#include "clustrix/Analysis/Dependence.h"
#include "clustrix/Analysis/LoopModel.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace clustrix {
namespace analysis {

/// How an expression is used.
enum class Use { Read, Write, ReadWrite };

struct Frame;
/// Where a name's value comes from: an expression, evaluated in a frame.
struct Binding {
  const clang::Expr *Arg = nullptr;
  const Frame *Caller = nullptr;
};

/// One level of inlined calls: the loop body itself (Fn null), or a callee's body.
struct Frame {
  const Frame *Parent = nullptr;
  const clang::FunctionDecl *Fn = nullptr;
  /// Callee parameters bound to the caller's arguments.
  std::map<const clang::VarDecl *, Binding> Params;
  /// Integer locals and by-value parameters defined once (never written after), as
  /// polynomials: usable in subscripts. ExactDefs: the same where the polynomial is the exact
  /// value (for loop bounds, whose order matters).
  std::map<const clang::VarDecl *, Polynomial> IntDefs, ExactDefs;
  /// Local pointers defined once, and local references: what they were defined from.
  std::map<const clang::VarDecl *, Binding> PtrDefs, RefDefs;
  /// Local aggregates defined once by an initializer list: their fields' values.
  std::map<const clang::VarDecl *, Binding> AggregateDefs;
  /// Integer locals defined once as the smaller or larger of two integers (`b_end = e > n ? n :
  /// e`): a loop bound through them is clamped as the initializer would be (clampedBound).
  std::map<const clang::VarDecl *, const clang::Expr *> MinMaxDefs;
  /// Locals of this body with a use other than a read of their value (UseScan.h): they are
  /// never "defined once".
  std::set<const clang::VarDecl *> Rewritten;
  /// Inside a member function called on an object (or a constructor): `this` is ThisArg,
  /// evaluated in the caller's frame, whose use the caller recorded. ThisPrivate: the object is
  /// private to the iteration (constructed in the body). ThisConst: a const member function.
  bool ThisBound = false, ThisConst = false, ThisPrivate = false;
  Binding ThisArg;
  /// For a callee returning a reference: how the caller uses the lvalue it returns.
  Use ReturnUse = Use::Read;
};

/// A resolved element access of a shared array or container.
struct Access {
  std::string Key;   ///< Identity of the root object (and field path).
  std::string Name;  ///< Spelled base, as generated code can name it.
  const clang::ValueDecl *Decl = nullptr;
  clang::QualType BaseType; ///< Type of the base (array, pointer, container).
  std::vector<Polynomial> Subs;
  bool Read = false, Write = false;
  bool Conditional = false;
  /// Conditional only through inner loops that run their whole body at every point of their
  /// own range, a rectangle that names no loop variable (unit step, no break, continue, goto,
  /// return or throw in them): DenseLoops of them. Where every such loop's variable is in the
  /// subscripts, the access is made at every point of its box (writtenInFull).
  bool Dense = false;
  unsigned DenseLoops = 0;
  /// Made only in some iterations for a reason other than the canonical inner loops around it
  /// (whose ranges the exact test knows): a branch, a loop of unknown trips, a `continue` or
  /// `return` before it. An access that is not Guarded happens at every point of the nest.
  bool Guarded = false;
  /// The affine conditions of the branches around it (`if (i == 1)`, `if (n > 100)`), each
  /// P >= 0, over the nest's variables and symbols: it is made exactly where they hold (and
  /// is not Guarded for them).
  std::vector<Polynomial> Conds;
  bool Partial = false;  ///< Writes a part (a field) of the element.
  /// The members of the element it touches, outermost first (empty: the whole element). A null
  /// entry is a member the walk does not name (an anonymous union's).
  std::vector<const clang::FieldDecl *> Fields;
  /// An array member of the element, indexed (`a[i].v[k]`): the access is to that whole member
  /// (recordAccess makes it partial and the first field).
  const clang::FieldDecl *ElementMember = nullptr;
  bool Affine = true;
  /// Not affine because a subscript runs over the variable of an inner loop whose range the
  /// walk could not take (that loop here), for the refusal's words.
  const clang::VarDecl *UnrangedVar = nullptr;
  const clang::ForStmt *UnrangedLoop = nullptr;
  /// The root is reached through a pointer, a reference, `this` or a view.
  bool MayAlias = false;
  /// The base is one scalar object addressed through `&` (its only subscript is 0).
  bool Scalar = false;
  clang::SourceLocation Loc;
};

/// A pointer (or an array or container lvalue) resolved to a root and leading subscripts.
struct PointerRef {
  bool Ok = false;
  bool Private = false;  ///< Points into an object private to the iteration.
  bool MayAlias = false; ///< Reached through a pointer, reference, `this` or view.
  bool Scalar = false;   ///< `&x` of a scalar object x.
  bool Element = false;  ///< An element itself (`a[i]`, `*p`), not a member of one.
  std::string Key, Name;
  const clang::ValueDecl *Decl = nullptr;
  clang::QualType BaseType;
  std::vector<Polynomial> Subs; ///< Leading subscripts; the last one is the pointer's offset.
  /// Points into this array member of the element Subs name (`&a[i].v[k]`): offsets and
  /// indices move within the member, not across elements; an access through it is to the
  /// whole member of that element.
  const clang::FieldDecl *ElementMember = nullptr;
};

/// The object an element access names, as a pointer to it (WalkPointers.cpp).
PointerRef pointerTo(const Access &A);
/// An access to (part of) the element a pointer names.
Access accessTo(const PointerRef &P);

/// Uses of one shared scalar (declared outside the loop, not an array).
struct ScalarUse {
  const clang::VarDecl *Var = nullptr;
  std::vector<const clang::Expr *> Reads, Writes;
  /// The values of the writes that are plain assignments `v = E` (E each), and whether some
  /// write happens only in some iterations (under a condition).
  std::vector<const clang::Expr *> Assigned;
  bool ConditionalWrite = false;
  /// Reduction-shaped updates: operator and the update expression.
  std::vector<std::pair<std::string, const clang::Expr *>> Updates;
  /// The update forms of float min/max seen: whether each keeps the first of equal values and
  /// ignores a NaN operand (see Scalars.cpp).
  bool OrderSafeMinMax = true;
  /// Updated through std::fmin/std::fmax (which of two equal zeros they return is unspecified).
  bool ViaFminFmax = false;
  /// The first update that is not exact in the variable's type (design rule 9): what it
  /// converts, and where. Such a variable is not a reduction.
  std::string Conversion;
  const clang::Expr *ConversionAt = nullptr;
};

/// A shared scalar object read by the loop (as a value, a bound or a subscript symbol) that a
/// pointer may reach: a global, a local whose address escapes, a member of `this` or of a
/// referenced object. If the loop writes through a pointer of a compatible type, the runtime
/// must check that the write cannot reach it.
struct ReachableRead {
  std::string Name;  ///< As generated code can name the object.
  clang::QualType Type;
  const clang::VarDecl *Local = nullptr; ///< Set for an escaping local (else global/member).
  clang::SourceLocation Loc;
};

/// What the body walk finds.
struct BodyFacts {
  std::vector<Access> Accesses;
  std::map<const clang::VarDecl *, ScalarUse> Scalars;
  /// Whole-object uses of shared arrays and containers, and reads of a container's size.
  std::map<const clang::VarDecl *, std::vector<const clang::Expr *>> WholeUses, MetaUses;
  std::map<const clang::VarDecl *, std::vector<const clang::CXXMemberCallExpr *>> Appended;
  std::vector<const clang::VarDecl *> AppendOrder;
  std::vector<ReachableRead> ReachableReads;
  /// Inner loop variables and their ranges, for delinearization and the dependence test.
  RangeMap Ranges;
  CostModel Cost;
};

/// The walk. One instance per loop.
class BodyWalker {
public:
  BodyWalker(clang::ASTContext &Ctx, LoopResult &R, RejectLog &Log, const EscapeInfo &Escapes,
             const LoopScope &Scope)
      : Ctx(Ctx), R(R), Log(Log), Escapes(Escapes), Scope(Scope) {}

  /// Walks Body of the nest (canonical levels, one normalized variable per level).
  void run(const clang::Stmt *Body, const std::vector<PolyVar> &NormVars);

  BodyFacts Facts;

  // Walker methods named in StmtCoverage.def, one per modelled class (or group of classes).
  // --- Statements (BodyWalker.cpp)
  void findPrivateDefinitions(const clang::Stmt *Body);
  void forgetDefinitionsIn(const clang::Stmt *Loop);
  bool splitMinMax(const clang::Expr *E, bool Min, const clang::Expr *&A, const clang::Expr *&B);
  bool clampedBound(const clang::Expr *E, bool Min, Polynomial &Primary,
                    std::optional<Polynomial> &Clamp);
  void walkCompound(const clang::CompoundStmt *S);
  void walkDeclStmt(const clang::DeclStmt *S);
  void walkIf(const clang::IfStmt *S);
  void walkInnerFor(const clang::ForStmt *S);
  void walkWhileOrDo(const clang::Stmt *S);
  void walkInnerRangeFor(const clang::CXXForRangeStmt *S);
  void walkSwitch(const clang::SwitchStmt *S);
  void walkSwitchCase(const clang::SwitchCase *S);
  void walkBreak(const clang::BreakStmt *S);
  void walkNoStmtEffect(const clang::Stmt *S);
  void walkContinue(const clang::ContinueStmt *S);
  void walkReturn(const clang::ReturnStmt *S);
  void walkLabel(const clang::LabelStmt *S);
  void walkAttributed(const clang::AttributedStmt *S);
  // --- Expressions (WalkExprs.cpp)
  void walkNoEffect(const clang::Expr *E, Use U);
  void walkParen(const clang::ParenExpr *E, Use U);
  void walkFullExpr(const clang::Expr *E, Use U);
  void walkMaterialize(const clang::MaterializeTemporaryExpr *E, Use U);
  void walkImplicitCast(const clang::ImplicitCastExpr *E, Use U);
  void walkExplicitCast(const clang::ExplicitCastExpr *E, Use U);
  void walkBinary(const clang::BinaryOperator *E, Use U);
  void walkUnary(const clang::UnaryOperator *E, Use U);
  void walkConditional(const clang::ConditionalOperator *E, Use U);
  void walkLValueExpr(const clang::Expr *E, Use U);
  void walkBindTemporary(const clang::CXXBindTemporaryExpr *E, Use U);
  void walkDefaultArg(const clang::CXXDefaultArgExpr *E, Use U);
  void walkDefaultInit(const clang::CXXDefaultInitExpr *E, Use U);
  void walkInitList(const clang::Expr *E, Use U);
  void walkCompoundLiteral(const clang::CompoundLiteralExpr *E, Use U);
  void walkChildrenRead(const clang::Expr *E, Use U);
  void walkLambda(const clang::LambdaExpr *E, Use U);
  void walkStmtExpr(const clang::StmtExpr *E, Use U);
  void walkThis(const clang::CXXThisExpr *E, Use U);
  void walkChoose(const clang::ChooseExpr *E, Use U);
  void walkGenericSelection(const clang::GenericSelectionExpr *E, Use U);
  void walkArrayInitLoop(const clang::ArrayInitLoopExpr *E, Use U);
  void walkSubstTemplateParm(const clang::SubstNonTypeTemplateParmExpr *E, Use U);
  void walkRewrittenBinary(const clang::CXXRewrittenBinaryOperator *E, Use U);
  void walkPredefined(const clang::PredefinedExpr *E, Use U);
  void walkUnevaluated(const clang::UnaryExprOrTypeTraitExpr *E, Use U);
  // --- Calls (WalkCalls.cpp)
  void walkPlainCall(const clang::CallExpr *E, Use U);
  void walkOperatorCall(const clang::CXXOperatorCallExpr *E, Use U);
  void walkMemberCall(const clang::CXXMemberCallExpr *E, Use U);
  void walkConstruct(const clang::CXXConstructExpr *E, Use U);

private:
  friend class ScopedFrame;
  // Dispatch (BodyWalker.cpp, through StmtCoverage.def).
  void walkStmt(const clang::Stmt *S);
  void walkExpr(const clang::Expr *E, Use U);
  void refuseNode(const clang::Stmt *S, RejectKind K, const char *What);
  void refuse(RejectKind K, std::string Msg, clang::SourceLocation Loc = {},
              std::string Note = "", std::string Suggestion = "") {
    Log.add(K, std::move(Msg), Loc, std::move(Note), std::move(Suggestion));
  }

  // Declarations and inner loops (BodyWalker.cpp).
  void walkDecl(const clang::Decl *D);
  void walkVarDecl(const clang::VarDecl *VD);
  void checkLocalType(clang::QualType T, clang::SourceLocation Loc, const std::string &Name);
  void noteRecord(const clang::RecordDecl *RD);
  bool definedOnce(const clang::VarDecl *VD) const;
  void innerRange(const clang::ForStmt *F, const clang::VarDecl *&IV,
                  std::optional<PolyRange> &Range, double &Trips);
  std::optional<int64_t> constantIncrement(const clang::Expr *Inc, const clang::VarDecl *V);
  int incrementDirection(const clang::Expr *Inc, const clang::VarDecl *V);
  bool upByInvariantStep(const clang::ForStmt *F, const clang::VarDecl *V,
                         const std::set<const clang::VarDecl *> &Changed);
  Polynomial residueStart(const clang::Expr *E, Polynomial &Num, int64_t &Div);
  int64_t constantStep(const clang::Expr *Inc);

  // Reductions (WalkReductions.cpp).
  const clang::VarDecl *outerScalar(const clang::Expr *E);
  bool matchReductionUpdate(const clang::Expr *E);
  bool matchIfMinMax(const clang::IfStmt *If);
  bool sameExpr(const clang::Expr *A, const clang::Expr *B);
  void noteUpdate(const clang::VarDecl *V, std::string Op, const clang::Expr *At, bool OrderSafe,
                  bool ViaFminFmax, std::string Conversion);

  // Calls (WalkCalls.cpp).
  void walkCall(const clang::Expr *Site, const clang::FunctionDecl *FD,
                llvm::ArrayRef<const clang::Expr *> Args, Use U,
                const clang::Expr *ThisArg = nullptr, bool ThisPrivate = false);
  void inlineBody(const clang::FunctionDecl *Def, Frame &Callee, const clang::Stmt *Body,
                  const clang::CXXConstructorDecl *Ctor);
  void bindArguments(const clang::FunctionDecl *Def, llvm::ArrayRef<const clang::Expr *> Args,
                     Frame &Callee);
  void walkContainerMeta(const clang::Expr *Obj);
  void walkAppend(const clang::CXXMemberCallExpr *MC, const clang::Expr *Obj);
  bool refuseLibraryCall(const clang::Expr *Site, const clang::FunctionDecl *FD,
                         const std::string &Name, llvm::ArrayRef<const clang::Expr *> Args);
  void walkAddressOf(const clang::Expr *Sub, const clang::UnaryOperator *At);
  void noteWholeObject(const clang::Expr *E, Use U);

  // The memory model (WalkPlaces.cpp).
  void walkLValue(const clang::Expr *E, Use U, bool Partial = false);
  void walkMember(const clang::MemberExpr *ME, Use U);
  void walkDeclRef(const clang::DeclRefExpr *DR, Use U, bool Partial = false);
  void walkOuterVar(const clang::VarDecl *VD, const clang::Expr *At, Use U);
  void walkThisMember(const clang::MemberExpr *ME, Use U);
  void walkRangeElement(const clang::Expr *At, Use U, bool Partial = false);
  bool isElementExpr(const clang::Expr *E);
  bool resolveElement(const clang::Expr *E, Access &A);
  bool resolveElementMember(const clang::Expr *Base, llvm::ArrayRef<const clang::Expr *> Indices,
                            Access &A);
  PointerRef resolvePointer(const clang::Expr *E);
  PointerRef resolveObject(const clang::Expr *E);
  PointerRef resolveVar(const clang::VarDecl *VD, const clang::Expr *At);
  PointerRef resolveField(const PointerRef &Base, const clang::FieldDecl *FD,
                          const clang::Expr *At);
  /// How generated code at the loop names D (spelledName); refuses the loop, once, for a
  /// declaration it cannot name there (or a thread_local one).
  std::string nameOf(const clang::NamedDecl *D, clang::SourceLocation Loc);
  Polynomial elementSymbol(const clang::ArraySubscriptExpr *AS);
  /// How generated code at the loop reaches member FD of an object of type ObjType: empty
  /// when it may name it, else the pointer-to-member constant of a member it may not name
  /// (noted in LoopResult::PrivateMembers); refuses the loop, once, when neither works.
  std::string memberAccess(const clang::FieldDecl *FD, clang::QualType ObjType,
                           clang::SourceLocation Loc);
  PointerRef resolveAddressOf(const clang::UnaryOperator *UO);
  PointerRef resolveMemberPointer(const clang::MemberExpr *ME);
  PointerRef resolveAggregateField(const clang::VarDecl *VD, const clang::FieldDecl *FD);
  const Binding *localBinding(const clang::VarDecl *VD,
                              std::map<const clang::VarDecl *, Binding> Frame::*Map) const;
  bool isPrivate(const clang::VarDecl *VD) const;
  void recordAccess(Access A, Use U, bool Partial, const clang::Expr *At);
  void noteReachableRead(const std::string &Name, clang::QualType T,
                         const clang::VarDecl *Local, clang::SourceLocation Loc);
  Polynomial polyOf(const clang::Expr *E, bool Exact = false);
  Polynomial outerDefinition(const clang::VarDecl *VD, bool Exact);
  /// Whether the canonical nest's initial values, steps or bounds name VD (as a symbol).
  bool namedByNestBounds(const clang::VarDecl *VD) const;
  Polynomial computeOuterDefinition(const clang::VarDecl *VD, bool Exact);
  /// outerDefinition's answers, and the enclosing function's variables that collectRewritten
  /// finds (computed once).
  std::map<std::pair<const clang::VarDecl *, bool>, Polynomial> OuterDefinitions;
  std::optional<std::set<const clang::VarDecl *>> FunctionRewritten;
  unsigned OuterDefinitionDepth = 0;
  const Frame *ownerFrame(const clang::DeclRefExpr *DR) const;
  static std::string keyOf(const void *D);
  bool isArrayLike(clang::QualType T);

  template <class Fn> auto inFrame(const Frame *F, Fn &&Body) {
    const Frame *Saved = Cur;
    Cur = F;
    auto Result = Body();
    Cur = Saved;
    return Result;
  }
  Frame &cur() { return const_cast<Frame &>(*Cur); }

  clang::ASTContext &Ctx;
  LoopResult &R;
  RejectLog &Log;
  const EscapeInfo &Escapes;
  const LoopScope &Scope;
  std::set<const clang::Decl *> NameChecked;
  const Frame *Cur = nullptr;
  std::map<const clang::VarDecl *, size_t> IVs;
  std::map<const clang::VarDecl *, Polynomial> IVPolys;
  std::vector<PolyVar> NormVars;
  std::map<const clang::VarDecl *, PolyVar> InnerVars;
  /// Variables of the body's loops met so far: a later loop over one gets a key of its own.
  std::set<const clang::VarDecl *> SeenInner;
  /// The variables of the inner loops being walked whose ranges are not known, with each loop.
  std::map<const clang::VarDecl *, const clang::ForStmt *> UnrangedLoops;
  std::set<const clang::VarDecl *> Locals;
  /// The statements `k = expr;` at the top level of a compound statement of the body (the body
  /// itself, an inner loop's body, a branch) that give an integer private its one value of the
  /// iteration: after each, to the end of its compound statement, subscripts through the
  /// private are its polynomial.
  std::map<const clang::Stmt *, const clang::VarDecl *> PrivateDefs;
  const clang::Stmt *TopBody = nullptr;
  /// Element references of inner range-based loops: their accesses are the range's.
  std::set<const clang::VarDecl *> CoveredRefs;
  /// Init-captures of lambdas created in the body, bound to their initializers.
  std::map<const clang::VarDecl *, Binding> InitCaptures;
  const clang::VarDecl *RangeVar = nullptr; ///< Element variable of a parallel range-based loop.
  PointerRef RangeBase;                     ///< Its range.
  unsigned CondDepth = 0, BreakDepth = 0, CallDepth = 0;
  /// Of CondDepth, the canonical inner `for` loops with known ranges (Access::Guarded).
  unsigned RangedLoopDepth = 0;
  /// Of RangedLoopDepth, the loops that run their whole body at every point of their own range,
  /// which names no loop variable (walkInnerFor): Access::Dense.
  unsigned DenseLoopDepth = 0;
  /// Of CondDepth, the branches with affine conditions, whose conditions are GuardConds.
  unsigned AffineCondDepth = 0;
  std::vector<Polynomial> GuardConds;
  /// The condition of a branch of If as affine constraints (each P >= 0) for its then branch
  /// (Else false) or its else branch; std::nullopt when it is not one comparison of exact
  /// signed values.
  std::optional<std::vector<Polynomial>> affineCondition(const clang::IfStmt *If, bool Else);
  /// Whether inner loop F, of range Range, runs its whole body at every point of a range that
  /// names no loop variable (DenseLoopDepth).
  static bool denseLoop(const clang::ForStmt *F, const PolyRange &Range);
  /// Whether a `continue`, or a `return` of a callee, was walked under a condition since the
  /// start of the innermost loop body or callee: the accesses after it there may not happen in
  /// every iteration. Inner loops and callees restore it when they end.
  bool MayHaveLeft = false;
  /// CondDepth where the callee being walked was called: a `return` deeper is conditional.
  unsigned CallCondDepth = 0;
  /// The members being walked into, innermost last (WalkPlaces.cpp: element members).
  std::vector<const clang::FieldDecl *> FieldPath;
  /// While a structured binding's hidden expression is walked: the use of the binding.
  const clang::Expr *UseSite = nullptr;
};

} // namespace analysis
} // namespace clustrix

#endif
