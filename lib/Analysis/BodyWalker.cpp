//===- BodyWalker.cpp - The walk's entry, dispatch and statements ----------===//
//
// Dispatch goes through StmtCoverage.def: a modelled class calls its method, a refused class
// refuses with its kind, and a class not listed is refused as unsupported. Nothing is skipped.
//
//===----------------------------------------------------------------------===//
#include "BodyWalker.h"
#include "MinMax.h"

#include "clustrix/Analysis/StmtCoverage.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprConcepts.h"

using namespace clang;

namespace clustrix {
namespace analysis {

using Event = CostModel::Event;

void BodyWalker::run(const Stmt *Body, const std::vector<PolyVar> &NormVars) {
  this->NormVars = NormVars;
  for (const Private &P : R.Privates)
    Locals.insert(P.Var); // each iteration's own (Privatize.cpp)
  Frame Top;
  Cur = &Top;
  const std::vector<CanonicalLoop> &Nest = R.Nest;
  if (!Nest.empty() && Nest[0].RangeFor) {
    // The element variable of a range-based loop is the range's element k.
    const auto *RF = cast<CXXForRangeStmt>(Nest[0].Loop);
    if (Nest[0].Var->getType()->isReferenceType())
      RangeVar = Nest[0].Var;
    collectRewritten(RF->getBody(), Top.Rewritten);
    RangeBase = resolveObject(RF->getRangeInit());
    if (!RangeBase.Ok || RangeBase.Private)
      refuse(RejectKind::NotCanonical,
             "the range of the range-based 'for' is not a variable or member the analysis can "
             "follow",
             RF->getRangeInit()->getBeginLoc(), "range here");
    else if (!RangeVar) {
      Locals.insert(Nest[0].Var); // a copy: reading the element once
      walkRangeElement(RF->getRangeInit(), Use::Read);
    }
    walkStmt(RF->getBody());
    Cur = nullptr;
    return;
  }
  for (size_t L = 0; L < Nest.size(); ++L) {
    IVs[Nest[L].Var] = L;
    IVPolys[Nest[L].Var] =
        Nest[L].InitPoly + Nest[L].StepPoly * Polynomial::variable(NormVars[L]);
  }
  collectRewritten(Body, Top.Rewritten);
  findPrivateDefinitions(Body);
  walkStmt(Body);
  Cur = nullptr;
}

/// How many times S names VD other than to read its value (writes, increments, addresses,
/// references, unevaluated uses: everything that is not a plain load), less the writes of VD
/// in the header of a `for` over VD (`for (i = 1; ...; i++)`): within such a loop
/// the walk gives VD the loop's range, and it forgets VD's value on entering the loop
/// (forgetDefinitionsIn), so those writes need no definition of their own.
static unsigned nonReadUses(const Stmt *S, const VarDecl *VD) {
  if (!S)
    return 0;
  auto IsVD = [&](const Expr *E) {
    const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParens());
    return DR && DR->getDecl() == VD;
  };
  const auto *F = dyn_cast<ForStmt>(S);
  const auto *Init = F ? dyn_cast_or_null<BinaryOperator>(F->getInit()) : nullptr;
  if (Init && Init->getOpcode() == BO_Assign && IsVD(Init->getLHS())) {
    // The increment's own write of VD (`i++`, `i += k`) aside, what else it does counts.
    const Stmt *IncRest = F->getInc();
    const Expr *Inc = F->getInc() ? F->getInc()->IgnoreParens() : nullptr;
    if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Inc);
        UO && UO->isIncrementDecrementOp() && IsVD(UO->getSubExpr()))
      IncRest = nullptr;
    else if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc);
             CA && IsVD(CA->getLHS()))
      IncRest = CA->getRHS();
    unsigned N = nonReadUses(Init->getRHS(), VD) + nonReadUses(IncRest, VD);
    for (const Stmt *C : {static_cast<const Stmt *>(F->getConditionVariableDeclStmt()),
                          static_cast<const Stmt *>(F->getCond()), F->getBody()})
      N += nonReadUses(C, VD);
    return N;
  }
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(S); IC && IC->getCastKind() == CK_LValueToRValue)
    if (const auto *DR = dyn_cast<DeclRefExpr>(IC->getSubExpr()->IgnoreParens());
        DR && DR->getDecl() == VD)
      return 0;
  if (const auto *DR = dyn_cast<DeclRefExpr>(S))
    return DR->getDecl() == VD ? 1 : 0;
  unsigned N = 0;
  for (const Stmt *C : S->children())
    N += nonReadUses(C, VD);
  return N;
}

/// The compound statements of S, outside lambdas and blocks (whose bodies run when called),
/// less those with a label among their statements (a switch's body): a jump to the label runs
/// what follows a definition without it.
static void compoundsOf(const Stmt *S, std::vector<const CompoundStmt *> &Out) {
  if (!S || isa<LambdaExpr>(S) || isa<BlockExpr>(S))
    return;
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    bool Labelled = false;
    for (const Stmt *C : CS->body())
      Labelled |= isa<SwitchCase>(C) || isa<LabelStmt>(C);
    if (!Labelled)
      Out.push_back(CS);
  }
  for (const Stmt *C : S->children())
    compoundsOf(C, Out);
}

/// An integer private (declared before the loop, written before it is read in every iteration:
/// Privatize.cpp) whose every write in the body is a `k = expr;` at the top level of a compound
/// statement has, after each, that value up to the next or to the end of that compound
/// statement: `k = i * m; a[k] = ...` subscripts a by i * m, and so does `for (j...) { k = i +
/// n * j; a[k] = ...; }` within the inner loop's body. A statement of a compound runs after the
/// ones before it unless the rest is skipped as well. NPB MG's rprj3 sets `i1 = 2 * j1 - d1`
/// at the top of two loops over j1: each loop's accesses see their own definition. The header
/// of a `for` over k may write it too (nonReadUses). An inner loop forgets on entry the value
/// of everything it changes (forgetDefinitionsIn: its next iteration sees the last one).
void BodyWalker::findPrivateDefinitions(const Stmt *Body) {
  TopBody = Body;
  std::vector<const CompoundStmt *> Compounds;
  compoundsOf(Body, Compounds);
  std::map<const Stmt *, const VarDecl *> Candidates;
  std::map<const VarDecl *, unsigned> Writes;
  for (const CompoundStmt *CS : Compounds)
  for (const Stmt *C : CS->body()) {
    const auto *BO = dyn_cast<BinaryOperator>(C);
    if (!BO || BO->getOpcode() != BO_Assign)
      continue;
    const auto *DR = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens());
    const auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    if (!VD || !VD->getType()->isIntegerType() || VD->getType().isVolatileQualified())
      continue;
    bool IsPrivate = false;
    for (const Private &P : R.Privates)
      IsPrivate |= P.Var == VD;
    if (IsPrivate) {
      Candidates[C] = VD;
      ++Writes[VD];
    }
  }
  for (const auto &[C, VD] : Candidates)
    if (nonReadUses(Body, VD) == Writes[VD])
      PrivateDefs[C] = VD;
}

/// Forgets the value of every variable Loop changes (its header or its body): in its second
/// iteration, what the first left holds until a definition runs again, and the loop's own
/// variable takes its range.
void BodyWalker::forgetDefinitionsIn(const Stmt *Loop) {
  if (!Loop || (cur().IntDefs.empty() && cur().ExactDefs.empty()))
    return;
  std::set<const VarDecl *> Changed;
  collectRewritten(Loop, Changed);
  for (const VarDecl *VD : Changed) {
    cur().IntDefs.erase(VD);
    cur().ExactDefs.erase(VD);
  }
}

// --- Dispatch -----------------------------------------------------------------------------------

void BodyWalker::walkStmt(const Stmt *S) {
  if (!S)
    return;
  switch (S->getStmtClass()) {
#define CLUSTRIX_STMT(Name, Method)                                                              \
  case Stmt::Name##Class:                                                                       \
    Method(cast<Name>(S));                                                                      \
    return;
#define CLUSTRIX_REFUSE(Name, Kind, What)                                                        \
  case Stmt::Name##Class:                                                                       \
    refuseNode(S, RejectKind::Kind, What);                                                       \
    return;
#include "StmtCoverage.def"
  default:
    break;
  }
  if (const auto *E = dyn_cast<Expr>(S)) {
    Facts.Cost.note(Event::Statement);
    if (!matchReductionUpdate(E))
      walkExpr(E, Use::Read);
    return;
  }
  refuseNode(S, RejectKind::UnsupportedConstruct, nullptr);
}

void BodyWalker::walkExpr(const Expr *E, Use U) {
  if (!E)
    return;
  switch (E->getStmtClass()) {
#define CLUSTRIX_EXPR(Name, Method)                                                              \
  case Stmt::Name##Class:                                                                       \
    Method(cast<Name>(E), U);                                                                   \
    return;
#define CLUSTRIX_REFUSE(Name, Kind, What)                                                        \
  case Stmt::Name##Class:                                                                       \
    refuseNode(E, RejectKind::Kind, What);                                                       \
    return;
#include "StmtCoverage.def"
  default:
    refuseNode(E, RejectKind::UnsupportedConstruct, nullptr);
    return;
  }
}

void BodyWalker::refuseNode(const Stmt *S, RejectKind K, const char *What) {
  SourceLocation Loc = S->getBeginLoc();
  switch (S->getStmtClass()) {
  case Stmt::GotoStmtClass:
  case Stmt::IndirectGotoStmtClass:
    return refuse(K, "'goto' in the loop body", Loc, "'goto' here");
  case Stmt::CXXTryStmtClass:
  case Stmt::CXXCatchStmtClass:
    return refuse(K, "exceptions cannot be used on a device", Loc, "'try' here");
  case Stmt::CXXThrowExprClass:
    return refuse(K, "exceptions cannot be used on a device", Loc, "'throw' here");
  case Stmt::GCCAsmStmtClass:
  case Stmt::MSAsmStmtClass:
    return refuse(K, "inline assembly cannot run on a device", Loc, "assembly here");
  case Stmt::CoroutineBodyStmtClass:
  case Stmt::CoreturnStmtClass:
  case Stmt::CoawaitExprClass:
  case Stmt::CoyieldExprClass:
  case Stmt::DependentCoawaitExprClass:
    return refuse(K, "coroutines cannot run on a device", Loc);
  case Stmt::CXXNewExprClass:
  case Stmt::CXXDeleteExprClass:
    return refuse(K, "dynamic allocation cannot happen on a device", Loc, "allocation here");
  case Stmt::AtomicExprClass:
    return refuse(K, "atomic operations on host objects", Loc);
  default:
    break;
  }
  std::string Name = What ? What : std::string("'") + S->getStmtClassName() + "'";
  switch (K) {
  case RejectKind::Context:
    return refuse(K, "the body uses " + Name, Loc, "used here");
  case RejectKind::Template:
    return refuse(K, "the body contains " + Name + ", which the analysis cannot follow", Loc);
  default:
    return refuse(K, Name + (What ? "" : ", a construct the analysis does not model,") +
                         " cannot run on a device",
                  Loc, "here");
  }
}

// --- Statements ---------------------------------------------------------------------------------

void BodyWalker::walkCompound(const CompoundStmt *S) {
  std::vector<const VarDecl *> Defined;
  for (const Stmt *C : S->body()) {
    walkStmt(C);
    auto It = PrivateDefs.find(C);
    if (It == PrivateDefs.end() || Cur->Fn)
      continue;
    const Expr *Value = cast<BinaryOperator>(C)->getRHS();
    if (Polynomial P = polyOf(Value); P.isValid())
      cur().IntDefs[It->second] = P;
    if (Polynomial X = polyOf(Value, /*Exact=*/true); X.isValid())
      cur().ExactDefs[It->second] = X;
    Defined.push_back(It->second);
  }
  // After its compound statement the private holds the value of the last time it ran (an inner
  // loop's last iteration), not the polynomial: no value from there on.
  if (S != TopBody)
    for (const VarDecl *VD : Defined) {
      cur().IntDefs.erase(VD);
      cur().ExactDefs.erase(VD);
    }
}

void BodyWalker::walkDeclStmt(const DeclStmt *S) {
  Facts.Cost.note(Event::Statement);
  for (const Decl *D : S->decls())
    walkDecl(D);
}

void BodyWalker::walkIf(const IfStmt *If) {
  Facts.Cost.note(Event::Statement);
  Facts.Cost.note(Event::Branch);
  if (matchIfMinMax(If))
    return;
  if (If->isConsteval()) {
    refuse(RejectKind::Context, "the body uses 'if consteval'", If->getBeginLoc());
    return;
  }
  if (If->getInit())
    walkStmt(If->getInit());
  if (If->getConditionVariableDeclStmt())
    walkStmt(If->getConditionVariableDeclStmt());
  else
    walkExpr(If->getCond(), Use::Read);
  ++CondDepth;
  for (bool Else : {false, true}) {
    const Stmt *Branch = Else ? If->getElse() : If->getThen();
    if (!Branch)
      continue;
    std::optional<std::vector<Polynomial>> Conds = affineCondition(If, Else);
    size_t Saved = GuardConds.size();
    if (Conds) {
      ++AffineCondDepth;
      llvm::append_range(GuardConds, *Conds);
    }
    walkStmt(Branch);
    if (Conds) {
      --AffineCondDepth;
      GuardConds.resize(Saved);
    }
  }
  --CondDepth;
}

std::optional<std::vector<Polynomial>> BodyWalker::affineCondition(const IfStmt *If, bool Else) {
  if (If->getInit() || If->getConditionVariable())
    return std::nullopt;
  const auto *B = dyn_cast<BinaryOperator>(If->getCond()->IgnoreParenImpCasts());
  if (!B || !B->isComparisonOp() || !B->getLHS()->getType()->isSignedIntegerType() ||
      !B->getRHS()->getType()->isSignedIntegerType())
    return std::nullopt;
  Polynomial X = polyOf(B->getLHS(), /*Exact=*/true), Y = polyOf(B->getRHS(), /*Exact=*/true);
  if (!X.isValid() || !Y.isValid() || !X.isAffineInLoopVars() || !Y.isAffineInLoopVars())
    return std::nullopt;
  Polynomial One = Polynomial::constant(1);
  BinaryOperatorKind Op = B->getOpcode();
  if (Else) // the negation, where it is one conjunction
    switch (Op) {
    case BO_LT: Op = BO_GE; break;
    case BO_LE: Op = BO_GT; break;
    case BO_GT: Op = BO_LE; break;
    case BO_GE: Op = BO_LT; break;
    case BO_NE: Op = BO_EQ; break;
    default: return std::nullopt;
    }
  switch (Op) {
  case BO_LT: return std::vector<Polynomial>{Y - X - One};
  case BO_LE: return std::vector<Polynomial>{Y - X};
  case BO_GT: return std::vector<Polynomial>{X - Y - One};
  case BO_GE: return std::vector<Polynomial>{X - Y};
  case BO_EQ: return std::vector<Polynomial>{X - Y, Y - X};
  default: return std::nullopt;
  }
}

void BodyWalker::walkWhileOrDo(const Stmt *S) {
  Facts.Cost.note(Event::Statement);
  Facts.Cost.note(Event::InnerLoop);
  forgetDefinitionsIn(S);
  ++BreakDepth;
  ++CondDepth;
  const bool SavedLeft = MayHaveLeft; // a `continue` in it leaves an iteration of it only
  double Mark = Facts.Cost.mark();
  if (const auto *W = dyn_cast<WhileStmt>(S)) {
    if (W->getConditionVariableDeclStmt())
      walkStmt(W->getConditionVariableDeclStmt());
    else
      walkExpr(W->getCond(), Use::Read);
    walkStmt(W->getBody());
  } else {
    const auto *D = cast<DoStmt>(S);
    walkStmt(D->getBody());
    walkExpr(D->getCond(), Use::Read);
  }
  // The body runs an unknown number of times.
  Facts.Cost.repeat(Mark, CostModel::UnknownTrips);
  MayHaveLeft = SavedLeft;
  --CondDepth;
  --BreakDepth;
}

void BodyWalker::walkInnerRangeFor(const CXXForRangeStmt *RF) {
  Facts.Cost.note(Event::Statement);
  Facts.Cost.note(Event::InnerLoop);
  forgetDefinitionsIn(RF);
  ++BreakDepth;
  ++CondDepth;
  if (RF->getInit())
    walkStmt(RF->getInit());
  // The element variable stands for every element: the range is read as a whole, and written
  // through a non-const reference, which the dependence test cannot follow.
  const VarDecl *EV = RF->getLoopVariable();
  QualType ET = EV->getType();
  bool Writes = ET->isReferenceType() && !ET.getNonReferenceType().isConstQualified();
  const Expr *RangeE = RF->getRangeInit();
  PointerRef P = resolveObject(RangeE);
  if (P.Ok && !P.Private) {
    Access A;
    A.Key = P.Key;
    A.Name = P.Name;
    A.Decl = P.Decl;
    A.BaseType = P.BaseType;
    A.MayAlias = P.MayAlias;
    A.Subs = {Polynomial::invalid()};
    recordAccess(A, Writes ? Use::ReadWrite : Use::Read, false, RangeE);
  } else {
    // A private range (a local container, or a temporary the body creates) is the iteration's
    // own, unless it only views someone else's elements.
    QualType RT = P.Ok ? P.BaseType : RangeE->getType();
    bool Own = (P.Ok || !RangeE->isGLValue()) && holdsOwnData(RT.getNonReferenceType(), Ctx);
    if (!P.Ok)
      walkExpr(RangeE, Use::Read);
    if (!Own)
      refuse(Writes ? RejectKind::NonAffineWrite : RejectKind::UnboundedAccess,
             (Writes ? "writes the elements of '" : "reads the elements of '") +
                 spell(RangeE, Ctx) +
                 "' through an inner range-based 'for', which the analysis cannot follow",
             RangeE->getBeginLoc(), "range here");
  }
  Locals.insert(EV);
  if (EV->getType()->isReferenceType())
    CoveredRefs.insert(EV); // each element: its accesses are the range's, recorded above
  const bool SavedLeft = MayHaveLeft;
  double Mark = Facts.Cost.mark();
  walkStmt(RF->getBody());
  Facts.Cost.repeat(Mark, CostModel::UnknownTrips);
  MayHaveLeft = SavedLeft;
  --CondDepth;
  --BreakDepth;
}

void BodyWalker::walkSwitch(const SwitchStmt *Sw) {
  Facts.Cost.note(Event::Statement);
  Facts.Cost.note(Event::Switch);
  if (Sw->getInit())
    walkStmt(Sw->getInit());
  if (Sw->getConditionVariableDeclStmt())
    walkStmt(Sw->getConditionVariableDeclStmt());
  else
    walkExpr(Sw->getCond(), Use::Read);
  ++BreakDepth;
  ++CondDepth;
  walkStmt(Sw->getBody());
  --CondDepth;
  --BreakDepth;
}

void BodyWalker::walkSwitchCase(const SwitchCase *S) { walkStmt(S->getSubStmt()); }

void BodyWalker::walkBreak(const BreakStmt *S) {
  Facts.Cost.note(Event::Statement);
  if (BreakDepth == 0 && Cur->Fn == nullptr)
    refuse(RejectKind::EarlyExit, "'break' leaves the loop early", S->getBeginLoc(),
           "'break' here");
}

void BodyWalker::walkNoStmtEffect(const Stmt *) { Facts.Cost.note(Event::Statement); }

void BodyWalker::walkContinue(const ContinueStmt *) {
  Facts.Cost.note(Event::Statement);
  if (CondDepth > 0)
    MayHaveLeft = true; // `if (c) continue; x[i] = ...;` writes x[i] in some iterations only
}

void BodyWalker::walkReturn(const ReturnStmt *S) {
  Facts.Cost.note(Event::Statement);
  if (Cur->Fn == nullptr) {
    refuse(RejectKind::EarlyExit, "'return' leaves the loop early", S->getBeginLoc(),
           "'return' here");
    return;
  }
  if (CondDepth > CallCondDepth)
    MayHaveLeft = true; // the callee's accesses after it happen in some calls only
  const Expr *E = S->getRetValue();
  if (!E)
    return;
  // A callee returning a reference hands out an lvalue, used as the caller uses the call.
  if (Cur->Fn->getReturnType()->isReferenceType()) {
    walkLValue(E, Cur->ReturnUse);
    return;
  }
  walkExpr(E, Use::Read);
}

void BodyWalker::walkLabel(const LabelStmt *S) {
  Facts.Cost.note(Event::Statement);
  walkStmt(S->getSubStmt());
}

void BodyWalker::walkAttributed(const AttributedStmt *S) { walkStmt(S->getSubStmt()); }

// --- Declarations -------------------------------------------------------------------------------

void BodyWalker::walkDecl(const Decl *D) {
  if (const auto *VD = dyn_cast<VarDecl>(D)) {
    walkVarDecl(VD);
    return;
  }
  if (const auto *RD = dyn_cast<RecordDecl>(D)) {
    noteRecord(RD);
    return;
  }
  if (isa<TypedefNameDecl>(D) || isa<StaticAssertDecl>(D) || isa<UsingDecl>(D) ||
      isa<UsingDirectiveDecl>(D) || isa<UsingShadowDecl>(D) || isa<EnumDecl>(D) ||
      isa<NamespaceAliasDecl>(D) || isa<UsingEnumDecl>(D))
    return;
  refuse(RejectKind::UnsupportedConstruct,
         std::string("a local declaration of kind '") + D->getDeclKindName() +
             "' cannot run on a device",
         D->getLocation(), "declared here");
}

bool BodyWalker::definedOnce(const VarDecl *VD) const {
  for (const Frame *F = Cur; F; F = F->Parent)
    if (F->Rewritten.count(VD))
      return false;
  return true;
}

void BodyWalker::walkVarDecl(const VarDecl *VD) {
  if (VD->isStaticLocal() || VD->getTLSKind() != VarDecl::TLS_None) {
    refuse(RejectKind::UnsupportedConstruct,
           "'" + VD->getNameAsString() + "' has static or thread-local storage, which a device "
           "cannot share",
           VD->getLocation(), "declared here");
    return;
  }
  if (VD->hasExternalStorage()) {
    refuse(RejectKind::UnsupportedConstruct,
           "'" + VD->getNameAsString() + "' is declared 'extern' in the body",
           VD->getLocation(), "declared here");
    return;
  }
  Locals.insert(VD);
  checkLocalType(VD->getType(), VD->getLocation(), VD->getNameAsString());
  const Expr *Init = VD->getInit();
  if (const auto *DD = dyn_cast<DecompositionDecl>(VD))
    for (const BindingDecl *B : DD->bindings())
      if (const VarDecl *HV = B->getHoldingVar()) // tuple-like: a hidden reference per name
        walkVarDecl(HV);
  if (!Init) {
    if (VD->getType()->isPointerType() || VD->getType()->isReferenceType())
      cur().Rewritten.insert(VD); // no value to follow
    return;
  }
  QualType T = VD->getType();
  if (T->isReferenceType()) {
    // A reference names its referent: its uses are resolved through the initializer.
    cur().RefDefs[VD] = {Init, Cur};
    return;
  }
  if (T->isIntegerType() && definedOnce(VD)) {
    Polynomial P = polyOf(Init);
    if (P.isValid())
      cur().IntDefs[VD] = P;
    Polynomial X = polyOf(Init, /*Exact=*/true);
    if (X.isValid())
      cur().ExactDefs[VD] = X;
    const Expr *A = nullptr, *B = nullptr;
    if (!X.isValid() && (splitMinMax(Init, /*Min=*/true, A, B) ||
                         splitMinMax(Init, /*Min=*/false, A, B)))
      cur().MinMaxDefs[VD] = Init;
  }
  if (T->isPointerType() && definedOnce(VD))
    cur().PtrDefs[VD] = {Init, Cur};
  const Expr *Bare = Init->IgnoreImplicit();
  if (const auto *IL = dyn_cast<InitListExpr>(Bare); IL && T->isRecordType() && definedOnce(VD))
    cur().AggregateDefs[VD] = {IL, Cur};
  walkExpr(Init, Use::Read);
}

void BodyWalker::checkLocalType(QualType T, SourceLocation Loc, const std::string &Name) {
  T = T.getNonReferenceType();
  while (const ArrayType *AT = Ctx.getAsArrayType(T))
    T = AT->getElementType();
  if (T.isVolatileQualified()) {
    refuse(RejectKind::UnsupportedConstruct, "'" + Name + "' is volatile", Loc);
    return;
  }
  if (const auto *RD = T->getAsCXXRecordDecl()) {
    if (RD->hasDefinition() && !RD->hasTrivialDestructor() && !RD->isLambda())
      refuse(RejectKind::UnsupportedConstruct,
             "'" + Name + "' of type '" + typeString(T, Ctx) +
                 "' manages memory, which cannot happen on a device",
             Loc, "declared here");
    else
      noteRecord(RD);
  }
}

void BodyWalker::noteRecord(const RecordDecl *RD) {
  if (!RD || RD->isLambda() || RD->isInStdNamespace())
    return;
  if (std::find(R.Records.begin(), R.Records.end(), RD) == R.Records.end())
    R.Records.push_back(RD);
}

// --- Inner loops --------------------------------------------------------------------------------

/// Whether S holds a statement that leaves an iteration of the loop around it early, or the
/// loop: break, continue, goto, return, throw (in a nested loop or switch too: conservative).
static bool leavesEarly(const Stmt *S) {
  if (!S)
    return false;
  if (isa<BreakStmt>(S) || isa<ContinueStmt>(S) || isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S) ||
      isa<ReturnStmt>(S) || isa<CXXThrowExpr>(S) || isa<CoreturnStmt>(S))
    return true;
  if (isa<LambdaExpr>(S))
    return false; // its statements leave the lambda's body only
  for (const Stmt *C : S->children())
    if (leavesEarly(C))
      return true;
  return false;
}

bool BodyWalker::denseLoop(const ForStmt *F, const PolyRange &Range) {
  // Every value of the interval (unit step, no clamp), the same interval at every point of the
  // loops around (no loop variable in its ends), and the whole body each time.
  return !Range.isLattice() && !Range.isClamped() && Range.Lo.isValid() && Range.Hi.isValid() &&
         Range.Lo.loopVars().empty() && Range.Hi.loopVars().empty() && !leavesEarly(F->getBody());
}

void BodyWalker::walkInnerFor(const ForStmt *F) {
  Facts.Cost.note(Event::Statement);
  Facts.Cost.note(Event::InnerLoop);
  ++BreakDepth;
  if (F->getInit())
    walkStmt(F->getInit());
  forgetDefinitionsIn(F); // the init's write too: in the loop, the variable has the loop's range
  // Register the inner loop variable's range when the inner loop is canonical.
  const VarDecl *IV = nullptr;
  std::optional<PolyRange> Range;
  double Trips = CostModel::UnknownTrips;
  innerRange(F, IV, Range, Trips);
  // A variable declared before the body's loops and run by several of them: within each loop
  // it is a variable of its own (keyed by that loop), bounded by that loop's range alone, so
  // that the accesses of each loop have their own boxes and dependences. The first loop keeps
  // the variable's own key.
  const void *Key = IV;
  if (IV && !SeenInner.insert(IV).second)
    Key = F;
  if (IV && Range) {
    PolyVar V{Key, IV->getNameAsString(), true};
    InnerVars[IV] = V;
    Facts.Ranges[Key] = *Range;
    auto Entry = std::find_if(R.InnerRanges.begin(), R.InnerRanges.end(),
                              [&](const auto &E) { return E.first.Key == V.Key; });
    if (Entry != R.InnerRanges.end())
      Entry->second = *Range;
    else
      R.InnerRanges.push_back({V, *Range});
  }
  ++CondDepth;
  const bool Ranged = IV && Range;
  const bool Unranged = IV && !Range && !UnrangedLoops.count(IV);
  if (Unranged)
    UnrangedLoops[IV] = F;
  RangedLoopDepth += Ranged;
  const bool Dense = Ranged && denseLoop(F, *Range);
  DenseLoopDepth += Dense;
  if (F->getConditionVariableDeclStmt())
    walkStmt(F->getConditionVariableDeclStmt());
  if (F->getCond())
    walkExpr(F->getCond(), Use::Read);
  if (F->getInc())
    walkExpr(F->getInc(), Use::Read);
  // The body's work counts once per inner iteration.
  const bool SavedLeft = MayHaveLeft;
  double Mark = Facts.Cost.mark();
  walkStmt(F->getBody());
  Facts.Cost.repeat(Mark, Trips);
  MayHaveLeft = SavedLeft;
  RangedLoopDepth -= Ranged;
  DenseLoopDepth -= Dense;
  // Past the loop a variable declared before it holds its exit value, outside the range: no
  // polynomial from there on (a later loop over it registers it again).
  if (Ranged)
    InnerVars.erase(IV);
  if (Unranged)
    UnrangedLoops.erase(IV);
  --CondDepth;
  --BreakDepth;
}

/// Range of a canonical inner loop's variable: [init, bound-1] for `<`, etc. The variable must
/// change only in the increment: every use in the body is a read of its value.
void BodyWalker::innerRange(const ForStmt *F, const VarDecl *&IV,
                            std::optional<PolyRange> &Range, double &Trips) {
  const Expr *InitE = nullptr;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit())) {
    if (DS->isSingleDecl())
      if (const auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl())) {
        IV = VD;
        InitE = VD->getInit();
      }
  } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(F->getInit())) {
    if (BO->getOpcode() == BO_Assign)
      if (const auto *DR = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
        if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl())) {
          IV = VD;
          InitE = BO->getRHS();
        }
  }
  if (!IV || !InitE || !IV->getType()->isIntegerType() ||
      IV->getType().isVolatileQualified()) {
    IV = nullptr;
    return;
  }
  std::set<const VarDecl *> Changed;
  collectRewritten(F->getBody(), Changed);
  if (F->getCond())
    collectRewritten(F->getCond(), Changed);
  if (Changed.count(IV)) {
    IV = nullptr;
    return;
  }
  // A bound that binds a temporary to a reference (`std::min(ii + 64, n)`) makes the
  // condition a full-expression with cleanups around the comparison.
  const auto *Cond =
      dyn_cast_or_null<BinaryOperator>(F->getCond() ? F->getCond()->IgnoreImplicit() : nullptr);
  if (!Cond)
    return;
  const Expr *L = Cond->getLHS()->IgnoreParenImpCasts();
  const Expr *Rh = Cond->getRHS()->IgnoreParenImpCasts();
  BinaryOperatorKind Op = Cond->getOpcode();
  auto IsIV = [&](const Expr *E) {
    const auto *DR = dyn_cast<DeclRefExpr>(E);
    return DR && DR->getDecl() == IV;
  };
  const Expr *BoundE;
  if (IsIV(L))
    BoundE = Cond->getRHS();
  else if (IsIV(Rh)) {
    BoundE = Cond->getLHS();
    Op = BinaryOperator::reverseComparisonOp(Op);
  } else
    return;
  int Dir = incrementDirection(F->getInc(), IV);
  // `jt += t` with t unknown but fixed, under `<` or `<=` (the inner tile loop of a tiled
  // transpose): an interval only, [init, bound].
  if (Dir == 0 && (Op == BO_LT || Op == BO_LE) && upByInvariantStep(F, IV, Changed))
    Dir = 1;
  if (Dir == 0)
    return;
  Polynomial Init = polyOf(InitE, /*Exact=*/true), Bound = polyOf(BoundE, /*Exact=*/true);
  // Clamped ends of a loop that counts up: a start `max(a, b)`, a bound `min(a, b)`.
  std::optional<Polynomial> ClampInit, ClampBound;
  if (Dir > 0 && !Init.isValid())
    clampedBound(InitE, /*Min=*/false, Init, ClampInit);
  if (Dir > 0 && !Bound.isValid() && (Op == BO_LT || Op == BO_LE))
    clampedBound(BoundE, /*Min=*/true, Bound, ClampBound);
  // A start with a residue (`j = 1 + (i + 1) % 2`, red-black sweeps) when counting up.
  Polynomial ResidueNum = Polynomial::constant(0);
  int64_t ResidueDiv = 1;
  if (!Init.isValid() && Dir > 0)
    Init = residueStart(InitE, ResidueNum, ResidueDiv);
  if (!Init.isValid() || !Bound.isValid())
    return;
  Polynomial One = Polynomial::constant(1);
  // `j != b` stepping by one towards b from a start provably on its side: as `<` (`>`).
  if (std::optional<int64_t> S = constantIncrement(F->getInc(), IV);
      Op == BO_NE && S && (*S == 1 || *S == -1)) {
    if (Dir > 0 && provablyLessEq(Init, Bound))
      Op = BO_LT;
    else if (Dir < 0 && provablyLessEq(Bound, Init))
      Op = BO_GT;
  }
  if (Dir > 0 && Op == BO_LT)
    Range = PolyRange{Init, Bound - One};
  else if (Dir > 0 && Op == BO_LE)
    Range = PolyRange{Init, Bound};
  else if (Dir < 0 && Op == BO_GT)
    Range = PolyRange{Bound + One, Init};
  else if (Dir < 0 && Op == BO_GE)
    Range = PolyRange{Bound, Init};
  if (Range && ClampInit)
    Range->ClampLo = *ClampInit;
  // A start at a nest variable's value (`i = it` in tiles of a run-time size, `it += t`): a
  // nest level compared with `<` or `<=` runs wide only with a positive step (tripCount in
  // Runtime.h), so it never goes below its own start, and neither does this variable. The start
  // then bounds it where the symbolic step hides the sign (delinearizing `i * n + j`).
  if (Range && Dir > 0 && !Range->ClampLo)
    for (const CanonicalLoop &CL : R.Nest) {
      if (CL.RangeFor || !CL.InitValue.isValid() || !CL.InitValue.loopVars().empty() ||
          (CL.Cmp != LoopCmp::LT && CL.Cmp != LoopCmp::LE))
        continue;
      auto It = IVPolys.find(CL.Var);
      if (It != IVPolys.end() && Range->Lo == It->second) {
        Range->ClampLo = CL.InitValue;
        break;
      }
    }
  if (Range && ClampBound)
    Range->ClampHi = Op == BO_LT ? *ClampBound - One : *ClampBound;
  if (Range && (!fitsBoxProgram(Range->Lo) || !fitsBoxProgram(Range->Hi) ||
                (Range->ClampLo && !fitsBoxProgram(*Range->ClampLo)) ||
                (Range->ClampHi && !fitsBoxProgram(*Range->ClampHi))))
    Range.reset(); // the variable then makes subscripts non-affine
  if (!Range)
    return;
  if (Dir > 0) {
    // The lattice the values lie on, for the exact dependence test. Until the residue's
    // numerator is known to be nonnegative (Regions.cpp, once the nest's ranges are known),
    // C's `%` may be negative: the interval starts D - 1 lower.
    Range->Step = constantStep(F->getInc());
    Range->Base = Init;
    if (ResidueDiv > 1) {
      Range->ResidueNum = ResidueNum;
      Range->ResidueDiv = ResidueDiv;
      Range->Lo = Range->Lo - Polynomial::constant(ResidueDiv - 1);
    }
  }
  if (auto T = (Range->Hi - Range->Lo).asConstant())
    Trips = *T + 1 > 0 ? double(*T + 1) / double(Range->Step) : 1.0;
}

/// The operands of E when it is the smaller (Min) or larger of two integers (minMaxOf).
bool BodyWalker::splitMinMax(const Expr *E, bool Min, const Expr *&A, const Expr *&B) {
  const Expr *X = nullptr, *Y = nullptr;
  std::optional<bool> IsMax =
      minMaxOf(E, X, Y, [&](const Expr *V) { return polyOf(V, /*Exact=*/true); });
  if (!IsMax || *IsMax == Min)
    return false;
  A = X;
  B = Y;
  return true;
}

/// A bound that is the min (Min) or max of two affine integers: the one that depends on the
/// nest's variables (a tile's own end) becomes Primary, the other Clamp. False, with both left
/// alone, otherwise.
bool BodyWalker::clampedBound(const Expr *E, bool Min, Polynomial &Primary,
                              std::optional<Polynomial> &Clamp) {
  const Expr *A = nullptr, *B = nullptr;
  // Through a local defined once as the min or max (the values it was computed from are the
  // loop's variables and names not written since: its initializer's polynomials hold here).
  if (const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
      if (auto It = cur().MinMaxDefs.find(VD); It != cur().MinMaxDefs.end())
        E = It->second;
  if (!splitMinMax(E, Min, A, B))
    return false;
  Polynomial PA = polyOf(A, /*Exact=*/true), PB = polyOf(B, /*Exact=*/true);
  if (!PA.isValid() || !PB.isValid())
    return false;
  if (PA.loopVars().empty() && !PB.loopVars().empty())
    std::swap(PA, PB);
  Primary = PA;
  Clamp = PB;
  return true;
}

/// A loop start `A + N % D`, `N % D + A` or `N % D` with D a positive constant: A, with N and D
/// apart. Invalid when the start has another form.
Polynomial BodyWalker::residueStart(const Expr *E, Polynomial &Num, int64_t &Div) {
  auto AsRem = [](const Expr *X) -> const BinaryOperator * {
    const auto *B = dyn_cast<BinaryOperator>(X->IgnoreParens());
    return B && B->getOpcode() == BO_Rem ? B : nullptr;
  };
  E = E->IgnoreParens();
  Polynomial A = Polynomial::constant(0);
  const BinaryOperator *Rem = AsRem(E);
  if (const auto *Add = dyn_cast<BinaryOperator>(E); !Rem && Add && Add->getOpcode() == BO_Add) {
    if ((Rem = AsRem(Add->getRHS())))
      A = polyOf(Add->getLHS(), /*Exact=*/true);
    else if ((Rem = AsRem(Add->getLHS())))
      A = polyOf(Add->getRHS(), /*Exact=*/true);
  }
  if (!Rem || !A.isValid() || Rem->getType()->isUnsignedIntegerOrEnumerationType() ||
      E->getType()->isUnsignedIntegerOrEnumerationType())
    return Polynomial::invalid();
  Polynomial N = polyOf(Rem->getLHS(), /*Exact=*/true);
  std::optional<int64_t> D = polyOf(Rem->getRHS(), /*Exact=*/true).asConstant();
  if (!N.isValid() || !D || *D <= 1)
    return Polynomial::invalid();
  Num = N;
  Div = *D;
  return A;
}

/// The step of an increment that counts up: 1 for `++v`, c for `v += c` with c a positive
/// constant; 1 (the interval alone) otherwise.
int64_t BodyWalker::constantStep(const Expr *Inc) {
  const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc ? Inc->IgnoreParens() : nullptr);
  if (!CA || CA->getOpcode() != BO_AddAssign)
    return 1;
  Expr::EvalResult ER;
  if (!CA->getRHS()->EvaluateAsInt(ER, Ctx) || ER.Val.getInt().getSignificantBits() > 32)
    return 1;
  int64_t C = ER.Val.getInt().getExtValue();
  return C > 1 ? C : 1;
}

/// Whether S calls anything (a callee may write what it can reach).
static bool hasCall(const Stmt *S) {
  if (!S)
    return false;
  if (isa<CallExpr>(S) || isa<CXXConstructExpr>(S) || isa<CXXDeleteExpr>(S) ||
      isa<CXXNewExpr>(S))
    return true;
  for (const Stmt *C : S->children())
    if (hasCall(C))
      return true;
  return false;
}

/// Whether S may leave the loop whose body it is other than through the loop's condition: a
/// `break` of that loop, a `return`, a `goto`, a `throw`, or a call that does not return.
static bool mayLeaveEarly(const Stmt *S, bool InBreakable = false) {
  if (!S || isa<LambdaExpr>(S) || isa<BlockExpr>(S))
    return false;
  if (isa<BreakStmt>(S))
    return !InBreakable;
  if (isa<ReturnStmt>(S) || isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S) ||
      isa<CXXThrowExpr>(S) || isa<CoreturnStmt>(S))
    return true;
  if (const auto *C = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *Callee = C->getDirectCallee();
    if (!Callee || Callee->isNoReturn())
      return true; // an indirect call may not return either (longjmp through a pointer)
  }
  bool Inner = InBreakable || isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) ||
               isa<CXXForRangeStmt>(S) || isa<SwitchStmt>(S);
  for (const Stmt *C : S->children())
    if (mayLeaveEarly(C, Inner))
      return true;
  return false;
}

/// `V += t` counting a signed V up under `<` or `<=`, with t a signed integer that nothing in
/// the loop changes (no write in it, and where it calls anything, t names only locals whose
/// address does not escape) and a body that leaves only through the condition. The values V takes
/// while the body runs then lie in [init, bound]: with t <= 0 the body, once entered, would run
/// until V overflows (undefined behaviour) or forever without leaving (undefined too, as a loop
/// that only writes memory), so a defined program steps up. Its step is not known: the range
/// is an interval.
bool BodyWalker::upByInvariantStep(const ForStmt *F, const VarDecl *V,
                                   const std::set<const VarDecl *> &Changed) {
  const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(
      F->getInc() ? F->getInc()->IgnoreParenImpCasts() : nullptr);
  if (!CA || CA->getOpcode() != BO_AddAssign || !V->getType()->isSignedIntegerType())
    return false;
  const auto *DR = dyn_cast<DeclRefExpr>(CA->getLHS()->IgnoreParenImpCasts());
  if (!DR || DR->getDecl() != V)
    return false;
  const Expr *Step = CA->getRHS();
  if (!Step->getType()->isSignedIntegerType() || Step->HasSideEffects(Ctx))
    return false;
  Polynomial P = polyOf(Step, /*Exact=*/true);
  if (!P.isValid())
    return false;
  // Nothing the step names may change while the loop runs.
  std::set<const VarDecl *> Named;
  collectNames(Step, Named);
  bool Calls = hasCall(F->getBody());
  for (const VarDecl *X : Named)
    if (X == V || Changed.count(X) || X->getType().isVolatileQualified() ||
        X->getType()->isReferenceType() ||
        (Calls && (!X->hasLocalStorage() || Escapes.escapeOf(X))))
      return false;
  return !mayLeaveEarly(F->getBody());
}

/// +1 for ++v / v++ / v += c (c > 0), -1 for decrements, 0 otherwise.
/// The constant Inc moves V by (`++v`: 1, `v -= 2`: -2), or none.
std::optional<int64_t> BodyWalker::constantIncrement(const Expr *Inc, const VarDecl *V) {
  if (!Inc)
    return std::nullopt;
  Inc = Inc->IgnoreParenImpCasts();
  auto IsV = [&](const Expr *E) {
    const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DR && DR->getDecl() == V;
  };
  if (const auto *UO = dyn_cast<UnaryOperator>(Inc)) {
    if (!IsV(UO->getSubExpr()) || !UO->isIncrementDecrementOp())
      return std::nullopt;
    return UO->isIncrementOp() ? 1 : -1;
  }
  if (const auto *CA = dyn_cast<CompoundAssignOperator>(Inc)) {
    Expr::EvalResult ER;
    if (!IsV(CA->getLHS()) || !CA->getRHS()->EvaluateAsInt(ER, Ctx) ||
        ER.Val.getInt().getSignificantBits() > 63)
      return std::nullopt;
    int64_t C = ER.Val.getInt().getExtValue();
    if (CA->getOpcode() == BO_AddAssign)
      return C;
    if (CA->getOpcode() == BO_SubAssign)
      return -C;
  }
  return std::nullopt;
}

int BodyWalker::incrementDirection(const Expr *Inc, const VarDecl *V) {
  std::optional<int64_t> S = constantIncrement(Inc, V);
  return !S ? 0 : *S > 0 ? 1 : *S < 0 ? -1 : 0;
}

} // namespace analysis
} // namespace clustrix
