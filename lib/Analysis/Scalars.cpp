//===- Scalars.cpp - Shared scalars: read-only, reduction or carried -------===//
//
// A scalar declared outside the loop is fine to read. Written, it is a reduction when every
// update has one operator and the loop does nothing else with it, its type is one a partial can
// hold, and its address never escapes where the loop could observe it; otherwise it carries a
// value between iterations. Ordered appends are decided here too.
//
//===----------------------------------------------------------------------===//
#include "Phases.h"

#include "clang/Basic/SourceManager.h"

#include <optional>

using namespace clang;

namespace clustrix {
namespace analysis {

namespace {

/// Names of variables an expression reads.
void collectNames(const Stmt *S, std::set<const ValueDecl *> &Out) {
  if (!S)
    return;
  if (const auto *DR = dyn_cast<DeclRefExpr>(S))
    Out.insert(DR->getDecl());
  for (const Stmt *C : S->children())
    collectNames(C, Out);
}

/// Whether every iteration of Body assigns VD before any read of it: the first statement of the
/// body that names VD is a plain `VD = E;` (E not naming VD), and every read comes after it. Such
/// a variable needs no value from another iteration; it only lives outside the loop.
bool writtenFirstInEachIteration(const Stmt *Body, const VarDecl *VD,
                                 const std::vector<const Expr *> &Reads,
                                 const SourceManager &SM) {
  const auto *CS = dyn_cast<CompoundStmt>(Body);
  if (!CS)
    return false;
  for (const Stmt *C : CS->body()) {
    std::set<const ValueDecl *> Vars;
    collectNames(C, Vars);
    if (!Vars.count(VD))
      continue;
    const Expr *E = dyn_cast<Expr>(C);
    if (!E)
      return false;
    const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreImplicit()->IgnoreParens());
    if (!BO || BO->getOpcode() != BO_Assign)
      return false;
    const auto *L = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
    if (!L || L->getDecl() != VD)
      return false;
    std::set<const ValueDecl *> RHSVars;
    collectNames(BO->getRHS(), RHSVars);
    if (RHSVars.count(VD))
      return false;
    for (const Expr *R : Reads)
      if (!SM.isBeforeInTranslationUnit(SM.getExpansionLoc(C->getEndLoc()),
                                        SM.getExpansionLoc(R->getBeginLoc())))
        return false;
    return true;
  }
  return false;
}

/// Whether a reduction partial can hold T (the runtime's ScalarKind: 8- to 64-bit integers,
/// float and double).
bool partialType(QualType T, const ASTContext &Ctx) {
  T = T.getCanonicalType().getUnqualifiedType();
  if (T->isRealFloatingType())
    return Ctx.hasSameType(T, Ctx.FloatTy) || Ctx.hasSameType(T, Ctx.DoubleTy);
  if (!T->isIntegerType() || T->isBooleanType() || T->isEnumeralType())
    return false;
  uint64_t W = Ctx.getTypeSize(T);
  return W == 8 || W == 16 || W == 32 || W == 64;
}


enum class ClauseMatch { None, Matches, Mismatch };

/// The `reduce` clause that names Name, marked used; when its operator is not Op, refused with
/// what the loop does with the variable (LoopDoes) at At (Where: "updated here").
ClauseMatch matchClause(const std::map<std::string, const ReduceClause *> &ClauseFor,
                        std::set<std::string> &ClauseUsed, const std::string &Name,
                        const std::string &Op, const std::string &LoopDoes, const Expr *At,
                        const std::string &Where, RejectLog &Log) {
  auto CIt = ClauseFor.find(Name);
  if (CIt == ClauseFor.end())
    return ClauseMatch::None;
  ClauseUsed.insert(Name);
  if (CIt->second->Op == Op)
    return ClauseMatch::Matches;
  Log.add(RejectKind::ReduceClause,
          "'reduce(" + CIt->second->Op + ": " + Name + ")' does not match the loop, which " +
              LoopDoes,
          At->getBeginLoc(), Where + "; write 'reduce(" + Op + ": " + Name + ")'");
  return ClauseMatch::Mismatch;
}

/// The reduction of S, if it is one; refuses why not otherwise.
void classifyUpdated(ASTContext &Ctx, const VarDecl *VD, const ScalarUse &S,
                     const std::map<std::string, const ReduceClause *> &ClauseFor,
                     std::set<std::string> &ClauseUsed, const EscapeInfo &Escapes, LoopResult &R,
                     RejectLog &Log) {
  std::string Name = displayName(VD);
  std::string Op = S.Updates.front().first;
  const Expr *At = S.Updates.front().second;
  for (const auto &U : S.Updates)
    if (U.first != Op) {
      Log.add(RejectKind::CarriedScalar,
              "'" + Name + "' is updated with different operators, so it is not a reduction",
              S.Updates.back().second->getBeginLoc(), "update here");
      return;
    }
  if (!S.Conversion.empty()) {
    Log.add(RejectKind::ReductionConversion,
            "'" + Name + "' is not a reduction: its update " + S.Conversion +
                ", which is not exact in '" +
                VD->getType().getUnqualifiedType().getAsString() + "'",
            S.ConversionAt->getBeginLoc(), "updated here");
    return;
  }
  bool IsFloat = VD->getType()->isRealFloatingType();
  ClauseMatch M = matchClause(ClauseFor, ClauseUsed, Name, Op,
                              "combines '" + Name + "' with '" + Op + "'", At, "updated here", Log);
  bool Clause = M != ClauseMatch::None;
  if (M == ClauseMatch::Mismatch)
    return;
  if (!Clause && IsFloat && (Op == "+" || Op == "*")) {
    Log.add(RejectKind::FloatReduction,
            "'" + Name + "' is a floating-point reduction, whose rounding depends on the order "
            "of the iterations",
            At->getBeginLoc(), "accumulated here", "reduce(" + Op + ": " + Name + ")");
    return;
  }
  if (!Clause && IsFloat && (!S.OrderSafeMinMax || S.ViaFminFmax)) {
    Log.add(RejectKind::FloatReduction,
            "'" + Name + "' is a floating-point " + Op + " written so that its result with NaN "
            "or equal values of different sign depends on the order of the iterations",
            At->getBeginLoc(), "updated here", "reduce(" + Op + ": " + Name + ")");
    return;
  }
  // A static local (NPB CG's `static double rho;`, shared by the threads of an orphaned omp
  // for) is as private to the function as a local: only the function names it, and the escape
  // test below covers its address. A global may be read by a callee while the loop runs.
  if (VD->getType()->isReferenceType() || !(VD->hasLocalStorage() || VD->isStaticLocal())) {
    Log.add(RejectKind::CarriedScalar,
            "reduction variable '" + Name + "' must be a local variable of the function",
            At->getBeginLoc(), "accumulated here");
    return;
  }
  if (const Expr *E = Escapes.escapeOf(VD)) {
    Log.add(RejectKind::Escape,
            "the address of '" + Name + "' escapes where the loop can observe it, so it may be read "
            "or written other than by the loop's updates; it is not a reduction",
            E->getBeginLoc(), "address taken here");
    return;
  }
  if (!partialType(VD->getType(), Ctx)) {
    Log.add(RejectKind::UnsupportedConstruct,
            "reduction variable '" + Name + "' has type '" +
                VD->getType().getUnqualifiedType().getAsString() +
                "', which has no reduction partial (8- to 64-bit integers, float and double do)",
            At->getBeginLoc(), "accumulated here");
    return;
  }
  Reduction Red{VD, Name, Op, IsFloat, Clause};
  Red.OrderedMinMax = IsFloat && !Clause && (Op == "min" || Op == "max");
  R.Reductions.push_back(Red);
}

/// A flag: a bool that the loop never reads and only assigns one constant (`stop = true;`,
/// under conditions or not). Its value after the loop is that constant when some iteration
/// assigned it, and its value before otherwise, in any order: a reduction with `|` (for true)
/// or `&` (for false). True when S was taken as one (or refused as one, with its reason).
bool classifyFlag(ASTContext &Ctx, const VarDecl *VD, const ScalarUse &S,
                  const std::map<std::string, const ReduceClause *> &ClauseFor,
                  std::set<std::string> &ClauseUsed, const EscapeInfo &Escapes, LoopResult &R,
                  RejectLog &Log) {
  QualType T = VD->getType().getCanonicalType().getUnqualifiedType();
  if (!T->isBooleanType() || !S.Updates.empty() || S.Writes.empty() ||
      S.Assigned.size() != S.Writes.size())
    return false;
  std::optional<bool> Value;
  for (const Expr *E : S.Assigned) {
    bool B;
    if (E->isValueDependent() || !E->EvaluateAsBooleanCondition(B, Ctx) || (Value && *Value != B))
      return false;
    Value = B;
  }
  std::string Name = displayName(VD);
  std::string Op = *Value ? "|" : "&";
  const Expr *At = S.Writes.front();
  if (VD->getType()->isReferenceType() || !VD->hasLocalStorage() || Escapes.escapeOf(VD))
    return false; // a shared object: the general refusal says why
  ClauseMatch M =
      matchClause(ClauseFor, ClauseUsed, Name, Op,
                  "sets flag '" + Name + "' to " + (*Value ? "true" : "false"), At, "set here", Log);
  if (M == ClauseMatch::Mismatch)
    return true;
  bool Clause = M == ClauseMatch::Matches;
  Reduction Red;
  Red.Var = VD;
  Red.Name = Name;
  Red.Op = Op;
  Red.FromClause = Clause;
  R.Reductions.push_back(Red);
  return true;
}

} // namespace

void classifyScalars(ASTContext &Ctx, const NestInfo &Nest, const LoopClauses &Clauses,
                     const BodyFacts &Facts, const EscapeInfo &Escapes, LoopResult &R,
                     RejectLog &Log) {
  std::map<std::string, const ReduceClause *> ClauseFor;
  for (const ReduceClause &RC : Clauses.Reductions)
    ClauseFor[RC.Var] = &RC;
  std::set<std::string> ClauseUsed;
  for (const auto &[VD, S] : Facts.Scalars) {
    std::string Name = displayName(VD);
    if (S.Writes.empty() && S.Updates.empty())
      continue; // read-only: captured by value
    if (!S.Updates.empty() && S.Writes.empty() && S.Reads.empty()) {
      classifyUpdated(Ctx, VD, S, ClauseFor, ClauseUsed, Escapes, R, Log);
      continue;
    }
    // Written and read, or written as a plain value.
    const Expr *At = !S.Writes.empty() ? S.Writes.front() : S.Updates.front().second;
    if (!S.Updates.empty() && !S.Reads.empty()) {
      Log.add(RejectKind::CarriedScalar,
              "'" + Name + "' is accumulated and also read in the loop, so each iteration "
              "depends on the previous ones",
              S.Reads.front()->getBeginLoc(), "read here");
      continue;
    }
    if (S.Reads.empty()) {
      if (classifyFlag(Ctx, VD, S, ClauseFor, ClauseUsed, Escapes, R, Log))
        continue;
      if (S.ConditionalWrite)
        Log.add(RejectKind::CarriedScalar,
                "'" + Name + "' is written by some iterations only, so its value after the loop "
                "depends on which of them ran last; make it a 'bool' that every write sets to "
                "the same value (a flag), or declare it inside the loop body",
                At->getBeginLoc(), "written here");
      else
        Log.add(RejectKind::CarriedScalar,
                "'" + Name + "' is declared outside the loop and written by every iteration; "
                "declare it inside the loop body",
                At->getBeginLoc(), "written here");
      continue;
    }
    if (S.Updates.empty() &&
        writtenFirstInEachIteration(Nest.Body, VD, S.Reads, Ctx.getSourceManager())) {
      Log.add(RejectKind::CarriedScalar,
              "'" + Name + "' is declared outside the loop, and each iteration assigns it "
              "before reading it; declare it inside the loop body, so that each iteration has "
              "its own",
              At->getBeginLoc(), "assigned here");
      continue;
    }
    Log.add(RejectKind::CarriedScalar,
            "'" + Name + "' carries a value from one iteration to the next", At->getBeginLoc(),
            "written here and read by a later iteration");
  }
  for (const ReduceClause &RC : Clauses.Reductions)
    if (!ClauseUsed.count(RC.Var)) {
      // A variable the loop writes in another way is refused above; one it only reads or
      // never names is a mistake in the clause.
      bool Written = false;
      for (const auto &[VD, S] : Facts.Scalars)
        Written |= VD->getNameAsString() == RC.Var && (!S.Writes.empty() || !S.Updates.empty());
      if (!Written)
        Log.add(RejectKind::ReduceClause,
                "'reduce' names '" + RC.Var + "', which the loop does not update", RC.Loc);
    }
}

/// The element type of a std::vector, or null.
static QualType vectorElement(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  const auto *CTS = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl());
  if (!CTS || !CTS->isInStdNamespace() || CTS->getName() != "vector" ||
      CTS->getTemplateArgs().size() == 0 ||
      CTS->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return QualType();
  return CTS->getTemplateArgs()[0].getAsType().getCanonicalType();
}

void checkAppends(ASTContext &Ctx, const BodyFacts &Facts, const EscapeInfo &Escapes,
                  LoopResult &R, RejectLog &Log) {
  for (const VarDecl *VD : Facts.AppendOrder) {
    std::string Name = VD->getNameAsString();
    const Expr *Other = nullptr;
    if (auto It = Facts.MetaUses.find(VD); It != Facts.MetaUses.end())
      Other = It->second.front();
    if (auto It = Facts.WholeUses.find(VD); It != Facts.WholeUses.end())
      Other = It->second.front();
    const Access *Indexed = nullptr;
    for (const Access &A : Facts.Accesses)
      if (A.Decl == VD && !Indexed)
        Indexed = &A;
    if (Indexed) {
      Log.add(RejectKind::AppendMisuse,
              "'" + Name + "' is appended to and also indexed in the loop", Indexed->Loc,
              "indexed here");
      continue;
    }
    if (Other) {
      Log.add(RejectKind::AppendMisuse,
              "'" + Name + "' is appended to and also used otherwise in the loop",
              Other->getBeginLoc(), "used here");
      continue;
    }
    if (const Expr *E = Escapes.escapeOf(VD)) {
      Log.add(RejectKind::Escape,
              "the address of '" + Name + "' escapes where the loop can observe it, so the loop "
              "may use it while appending to it",
              E->getBeginLoc(), "address taken here");
      continue;
    }
    // What else could be the same container: another container of the element type the loop
    // reaches by a reference, a pointer or as a global (a local of the function that does not
    // escape is its own object).
    QualType Elem = vectorElement(VD->getType());
    bool Shared = VD->getType()->isReferenceType() || VD->hasGlobalStorage();
    auto MayBeSame = [&](QualType T, bool OtherShared) {
      QualType E = vectorElement(T);
      return (Shared || OtherShared) && !E.isNull() && !Elem.isNull() && Ctx.hasSameType(E, Elem);
    };
    auto OtherShared = [](const VarDecl *O) {
      return O->getType()->isReferenceType() || O->hasGlobalStorage();
    };
    bool Conflict = false;
    for (const Access &A : Facts.Accesses)
      if (!Conflict && A.Decl != VD && MayBeSame(A.BaseType, A.MayAlias)) {
        Log.add(RejectKind::AppendMisuse,
                "'" + Name + "' is appended to while the loop also uses '" + A.Name +
                    "', which may be the same container",
                A.Loc, "used here");
        Conflict = true;
      }
    // Each pair of targets once: with the ones appended to after this one.
    auto Later = std::find(Facts.AppendOrder.begin(), Facts.AppendOrder.end(), VD);
    for (auto It = Later + 1; It < Facts.AppendOrder.end(); ++It)
      if (const VarDecl *O = *It; !Conflict && MayBeSame(O->getType(), OtherShared(O))) {
        Log.add(RejectKind::AppendMisuse,
                "'" + Name + "' and '" + O->getNameAsString() +
                    "' are appended to and may be the same container",
                Facts.Appended.at(O).front()->getBeginLoc(), "appended here");
        Conflict = true;
      }
    for (const auto *Uses : {&Facts.MetaUses, &Facts.WholeUses})
      for (const auto &[O, Es] : *Uses)
        if (!Conflict && O != VD && MayBeSame(O->getType(), OtherShared(O))) {
          Log.add(RejectKind::AppendMisuse,
                  "'" + Name + "' is appended to while the loop also uses '" +
                      O->getNameAsString() + "', which may be the same container",
                  Es.front()->getBeginLoc(), "used here");
          Conflict = true;
        }
    if (Conflict)
      continue;
    R.Appends.push_back({VD, Name});
  }
  // Whole-object uses of containers (passing one to an unknown place, assigning it).
  for (const auto &[VD, Uses] : Facts.WholeUses) {
    if (Facts.Appended.count(VD))
      continue;
    if (isStdContainer(VD->getType().getNonReferenceType()))
      Log.add(RejectKind::UnsupportedConstruct,
              "uses container '" + VD->getNameAsString() + "' as a whole",
              Uses.front()->getBeginLoc(), "used here");
  }
}

} // namespace analysis
} // namespace clustrix
