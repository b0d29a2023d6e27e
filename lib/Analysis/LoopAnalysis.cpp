//===- LoopAnalysis.cpp - Analyze one annotated loop -----------------------===//
//
// Walks the loop body (and, inlined, the bodies of the functions it calls) in use-context: every
// lvalue is resolved to an array access (a base and per-dimension subscript polynomials) or a
// scalar use. Scalars are then classified (private, read-only, reduction, carried), appends are
// checked, and every pair of accesses to one array goes through the dependence test.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Analysis/LoopAnalysis.h"
#include "clustrix/Analysis/Dependence.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include "llvm/ADT/StringSet.h"

#include <map>
#include <set>

using namespace clang;
using namespace clustrix;

const char *clustrix::rejectKindName(RejectKind K) {
  switch (K) {
  case RejectKind::NotCanonical: return "not-canonical";
  case RejectKind::NonIntegerInduction: return "non-integer-induction";
  case RejectKind::BoundNotInvariant: return "bound-not-invariant";
  case RejectKind::InductionModified: return "induction-modified";
  case RejectKind::EarlyExit: return "early-exit";
  case RejectKind::Exceptions: return "exceptions";
  case RejectKind::CarriedScalar: return "carried-scalar";
  case RejectKind::FloatReduction: return "float-reduction";
  case RejectKind::ReduceClause: return "reduce-clause";
  case RejectKind::ArrayDependence: return "array-dependence";
  case RejectKind::NonAffineWrite: return "non-affine-write";
  case RejectKind::UnboundedAccess: return "unbounded-access";
  case RejectKind::UnsupportedCall: return "unsupported-call";
  case RejectKind::UnsupportedConstruct: return "unsupported-construct";
  case RejectKind::AppendMisuse: return "append-misuse";
  case RejectKind::Escape: return "escape";
  case RejectKind::Template: return "template";
  case RejectKind::Macro: return "macro";
  case RejectKind::NotInMainFile: return "not-in-main-file";
  case RejectKind::Collapse: return "collapse";
  case RejectKind::TooComplex: return "too-complex";
  case RejectKind::Disabled: return "disabled";
  case RejectKind::Nested: return "nested";
  }
  return "unknown";
}

const void *clustrix::normalizedVarKey(unsigned Level) {
  static const char Keys[3] = {};
  return &Keys[Level];
}

bool clustrix::fitsBoxProgram(const Polynomial &P) {
  for (const auto &[M, C] : P.terms())
    if (M.size() > MaxBoxFactors)
      return false;
  return true;
}

unsigned clustrix::complexityLevel(unsigned Score) {
  if (Score <= 8)
    return 1;
  if (Score <= 20)
    return 2;
  if (Score <= 40)
    return 3;
  if (Score <= 80)
    return 4;
  return 5;
}

namespace {

/// How an expression is used.
enum class Use { Read, Write, ReadWrite };

bool isStdContainer(QualType T, bool *IsVector = nullptr) {
  T = T.getNonReferenceType().getCanonicalType();
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->isInStdNamespace())
    return false;
  StringRef N = RD->getName();
  if (IsVector)
    *IsVector = N == "vector";
  return N == "vector" || N == "array" || N == "span";
}

bool isMathFunction(StringRef N) {
  static const llvm::StringSet<> Names = {
      "sqrt",  "sqrtf", "cbrt",   "cbrtf", "exp",   "expf",     "exp2",      "expm1", "log",
      "logf",  "log2",  "log10",  "log1p", "pow",   "powf",     "sin",       "sinf",  "cos",
      "cosf",  "tan",   "tanf",   "asin",  "acos",  "atan",     "atan2",     "sinh",  "cosh",
      "tanh",  "fabs",  "fabsf",  "abs",   "labs",  "llabs",    "floor",     "floorf", "ceil",
      "ceilf", "round", "roundf", "trunc", "fmod",  "fmin",     "fmax",      "fminf", "fmaxf",
      "min",   "max",   "hypot",  "erf",   "erfc",  "tgamma",   "lgamma",    "copysign", "fma",
      "isnan", "isinf", "isfinite", "signbit", "clamp", "rsqrt", "__builtin_fabs",
      "__builtin_sqrt", "__builtin_expect"};
  return Names.contains(N);
}

bool isIOOrAllocName(StringRef N) {
  static const llvm::StringSet<> Names = {
      "printf", "fprintf", "sprintf", "snprintf", "puts",   "putchar", "fputs", "fwrite",
      "fread",  "scanf",   "fopen",   "fclose",   "malloc", "calloc",  "realloc", "free",
      "exit",   "abort",   "rand",    "srand",    "time",   "getenv",  "system"};
  return Names.contains(N);
}

/// Whether converting an integer from From to To keeps every value (so orderings and bounds
/// carry over).
bool preservesValue(QualType From, QualType To, const ASTContext &Ctx) {
  if (!From->isIntegerType() || !To->isIntegerType() || To->isBooleanType())
    return false;
  uint64_t FW = Ctx.getIntWidth(From), TW = Ctx.getIntWidth(To);
  bool FS = From->isSignedIntegerOrEnumerationType(), TS = To->isSignedIntegerOrEnumerationType();
  if (FS && !TS)
    return false;
  if (!FS && TS)
    return TW > FW;
  return TW >= FW;
}

/// Whether converting an integer from From to To keeps distinct values distinct: no truncation.
/// A change of sign at the same width (or into a 64-bit index) only renames values modulo the
/// width, which address arithmetic does as well.
bool keepsDistinct(QualType From, QualType To, const ASTContext &Ctx) {
  if (!From->isIntegerType() || !To->isIntegerType() || To->isBooleanType())
    return false;
  return Ctx.getIntWidth(To) >= Ctx.getIntWidth(From) || Ctx.getIntWidth(To) >= 64;
}

/// std::vector<bool> packs its elements into shared words: not an array of elements.
bool isBitVector(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  const auto *CTS = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl());
  if (!CTS || !CTS->isInStdNamespace() || CTS->getName() != "vector" ||
      CTS->getTemplateArgs().size() == 0 ||
      CTS->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return false;
  return CTS->getTemplateArgs()[0].getAsType()->isBooleanType();
}

std::string spell(const Expr *E, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = CharSourceRange::getTokenRange(E->getSourceRange());
  R = Lexer::makeFileCharRange(R, SM, Ctx.getLangOpts());
  if (R.isValid()) {
    StringRef S = Lexer::getSourceText(R, SM, Ctx.getLangOpts());
    if (!S.empty())
      return S.str();
  }
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  E->printPretty(OS, nullptr, PrintingPolicy(Ctx.getLangOpts()));
  return OS.str();
}

std::string typeString(QualType T, const ASTContext &Ctx) {
  PrintingPolicy P(Ctx.getLangOpts());
  P.SuppressTagKeyword = true;
  P.FullyQualifiedName = true;
  P.PrintCanonicalTypes = true;
  return T.getAsString(P);
}

/// A binding of a callee parameter to the caller's argument.
struct Frame;
struct Binding {
  const Expr *Arg = nullptr;
  const Frame *Caller = nullptr;
};

/// One level of (inlined) calls: the loop body itself, or a callee's body.
struct Frame {
  const Frame *Parent = nullptr;
  const FunctionDecl *Fn = nullptr;
  std::map<const VarDecl *, Binding> Params;
  /// Locals with a single affine definition, usable in subscripts.
  std::map<const VarDecl *, Polynomial> IntDefs;
  /// The same definitions where they are exact values (see polyOf's Exact), for loop bounds.
  std::map<const VarDecl *, Polynomial> ExactDefs;
  /// Local pointers defined once from an array address.
  std::map<const VarDecl *, Binding> PtrDefs;
  /// Inside a method called on an object: member accesses through `this` belong to that object,
  /// whose use the caller already recorded.
  bool ThisBound = false;
  /// The bound object was recorded as read only (a const method).
  bool ThisConst = false;
};

/// A resolved array access.
struct Access {
  std::string Key;   ///< Identity of the base.
  std::string Name;  ///< Spelled base.
  const ValueDecl *Decl = nullptr;
  QualType BaseType; ///< Type of the base variable (array, pointer, container).
  std::vector<Polynomial> Subs;
  bool Read = false, Write = false;
  bool Conditional = false;
  bool Partial = false; ///< Writes a part (a field) of the element.
  bool Affine = true;
  SourceLocation Loc;
};

/// A pointer expression resolved to a base and an element offset.
struct PointerRef {
  bool Ok = false;
  std::string Key, Name;
  const ValueDecl *Decl = nullptr;
  QualType BaseType;
  std::vector<Polynomial> Subs; ///< Leading subscripts; the last one is the pointer's offset.
};

/// Uses of one outer scalar (a variable declared outside the loop and not an array).
struct ScalarUse {
  const VarDecl *Var = nullptr;
  std::vector<const Expr *> Reads, Writes;
  std::vector<std::pair<std::string, const Expr *>> Updates; ///< Reduction-shaped updates.
  bool Escapes = false;
  const Expr *EscapeAt = nullptr;
};

class Walker {
public:
  Walker(ASTContext &Ctx, LoopResult &R) : Ctx(Ctx), R(R) {}

  void refuse(RejectKind K, std::string Msg, SourceLocation Loc = {}, std::string Note = "",
              std::string Suggestion = "") {
    for (const RejectReason &Old : R.Reasons)
      if (Old.Kind == K && Old.Message == Msg)
        return;
    R.Reasons.push_back({K, std::move(Msg), Loc, std::move(Note), std::move(Suggestion)});
  }

  // --- Entry --------------------------------------------------------------------------------
  void run(const Stmt *Body, const std::vector<CanonicalLoop> &Nest,
           const std::vector<PolyVar> &NormVars) {
    if (!Nest.empty() && Nest[0].RangeFor) {
      // The element variable of a range-based loop is the range's element k.
      const auto *RF = cast<CXXForRangeStmt>(Nest[0].Loop);
      if (Nest[0].Var->getType()->isReferenceType())
        RangeVar = Nest[0].Var;
      this->NormVars = NormVars;
      Frame Top;
      Cur = &Top;
      RangeBase = resolveObject(RF->getRangeInit());
      if (!RangeBase.Ok || RangeBase.Key.rfind("local:", 0) == 0)
        refuse(RejectKind::NotCanonical,
               "the range of the range-based 'for' is not a variable or member the analysis can "
               "follow",
               RF->getRangeInit()->getBeginLoc(), "range here");
      else if (!RangeVar) {
        Locals.insert(Nest[0].Var); // a copy: reading the element once
        walkRangeElement(nullptr, Use::Read);
      }
      walkStmt(RF->getBody());
      Cur = nullptr;
      return;
    }
    for (size_t L = 0; L < Nest.size(); ++L) {
      IVs[Nest[L].Var] = L;
      Polynomial IV = Nest[L].InitPoly + Nest[L].StepPoly * Polynomial::variable(NormVars[L]);
      IVPolys[Nest[L].Var] = IV;
    }
    this->NormVars = NormVars;
    Frame Top;
    Cur = &Top;
    walkStmt(Body);
    Cur = nullptr;
  }

  /// Evaluates Body with Cur set to F: the frame a caller's argument or a captured name belongs to.
  template <class Fn> auto inFrame(const Frame *F, Fn &&Body) {
    const Frame *Saved = Cur;
    Cur = F;
    auto Result = Body();
    Cur = Saved;
    return Result;
  }

  // --- Statements ---------------------------------------------------------------------------
  void walkStmt(const Stmt *S) {
    if (!S)
      return;
    ++R.Score;
    switch (S->getStmtClass()) {
    case Stmt::CompoundStmtClass:
      --R.Score;
      for (const Stmt *C : cast<CompoundStmt>(S)->body())
        walkStmt(C);
      return;
    case Stmt::DeclStmtClass:
      for (const Decl *D : cast<DeclStmt>(S)->decls())
        walkDecl(D);
      return;
    case Stmt::IfStmtClass: {
      const auto *If = cast<IfStmt>(S);
      R.Score += 2;
      if (matchIfMinMax(If))
        return;
      if (If->getInit())
        walkStmt(If->getInit());
      if (If->getConditionVariableDeclStmt())
        walkStmt(If->getConditionVariableDeclStmt());
      else
        walkExpr(If->getCond(), Use::Read);
      ++CondDepth;
      walkStmt(If->getThen());
      walkStmt(If->getElse());
      --CondDepth;
      return;
    }
    case Stmt::ForStmtClass:
      walkInnerFor(cast<ForStmt>(S));
      return;
    case Stmt::WhileStmtClass:
    case Stmt::DoStmtClass: {
      R.Score += 5;
      ++BreakDepth;
      ++CondDepth;
      double Before = Work;
      for (const Stmt *C : S->children())
        if (C && isa<Expr>(C))
          walkExpr(cast<Expr>(C), Use::Read);
        else
          walkStmt(C);
      // The body runs an unknown number of times: count it as UnknownTrips.
      Work = Before + (Work - Before) * UnknownTrips;
      --CondDepth;
      --BreakDepth;
      return;
    }
    case Stmt::CXXForRangeStmtClass: {
      const auto *RF = cast<CXXForRangeStmt>(S);
      R.Score += 5;
      ++BreakDepth;
      ++CondDepth;
      // The element variable stands for every element: the range is read as a whole, and
      // written through a non-const reference, which the dependence test cannot follow.
      const VarDecl *EV = RF->getLoopVariable();
      QualType ET = EV->getType();
      bool Writes = ET->isReferenceType() && !ET.getNonReferenceType().isConstQualified();
      Access A;
      PointerRef P = resolveObject(RF->getRangeInit());
      if (P.Ok) {
        A.Key = P.Key;
        A.Name = P.Name;
        A.Decl = P.Decl;
        A.BaseType = P.BaseType;
        A.Subs = {Polynomial::invalid()};
        recordAccess(A, Writes ? Use::ReadWrite : Use::Read, false, RF->getRangeInit());
      } else {
        walkExpr(RF->getRangeInit(), Use::Read);
        if (Writes)
          refuse(RejectKind::NonAffineWrite,
                 "writes the elements of '" + spell(RF->getRangeInit(), Ctx) +
                     "' through an inner range-based 'for', which the analysis cannot follow",
                 RF->getRangeInit()->getBeginLoc(), "range here");
      }
      Locals.insert(EV);
      walkStmt(RF->getBody());
      --CondDepth;
      --BreakDepth;
      return;
    }
    case Stmt::SwitchStmtClass: {
      const auto *Sw = cast<SwitchStmt>(S);
      R.Score += 2;
      if (Sw->getInit())
        walkStmt(Sw->getInit());
      walkExpr(Sw->getCond(), Use::Read);
      ++BreakDepth;
      ++CondDepth;
      walkStmt(Sw->getBody());
      --CondDepth;
      --BreakDepth;
      return;
    }
    case Stmt::CaseStmtClass:
    case Stmt::DefaultStmtClass:
      --R.Score;
      walkStmt(cast<SwitchCase>(S)->getSubStmt());
      return;
    case Stmt::BreakStmtClass:
      if (BreakDepth == 0 && Cur->Fn == nullptr)
        refuse(RejectKind::EarlyExit, "'break' leaves the loop early", S->getBeginLoc(),
               "'break' here");
      return;
    case Stmt::ContinueStmtClass:
    case Stmt::NullStmtClass:
      return;
    case Stmt::ReturnStmtClass:
      if (Cur->Fn == nullptr) {
        refuse(RejectKind::EarlyExit, "'return' leaves the loop early", S->getBeginLoc(),
               "'return' here");
        return;
      }
      if (const Expr *E = cast<ReturnStmt>(S)->getRetValue())
        walkExpr(E, Use::Read);
      return;
    case Stmt::GotoStmtClass:
    case Stmt::IndirectGotoStmtClass:
      refuse(RejectKind::EarlyExit, "'goto' in the loop body", S->getBeginLoc(), "'goto' here");
      return;
    case Stmt::LabelStmtClass:
      walkStmt(cast<LabelStmt>(S)->getSubStmt());
      return;
    case Stmt::CXXTryStmtClass:
      refuse(RejectKind::Exceptions, "exceptions cannot be used on a device", S->getBeginLoc(),
             "'try' here");
      return;
    case Stmt::GCCAsmStmtClass:
    case Stmt::MSAsmStmtClass:
      refuse(RejectKind::UnsupportedConstruct, "inline assembly cannot run on a device",
             S->getBeginLoc(), "assembly here");
      return;
    case Stmt::CoreturnStmtClass:
    case Stmt::CoroutineBodyStmtClass:
      refuse(RejectKind::EarlyExit, "coroutines cannot run on a device", S->getBeginLoc());
      return;
    case Stmt::AttributedStmtClass:
      --R.Score;
      walkStmt(cast<AttributedStmt>(S)->getSubStmt());
      return;
    default:
      break;
    }
    if (const auto *E = dyn_cast<Expr>(S)) {
      if (!matchReductionUpdate(E))
        walkExpr(E, Use::Read);
      return;
    }
    for (const Stmt *C : S->children())
      walkStmt(C);
  }

  void walkDecl(const Decl *D) {
    const auto *VD = dyn_cast<VarDecl>(D);
    if (!VD) {
      if (isa<TypedefNameDecl>(D) || isa<StaticAssertDecl>(D) || isa<UsingDecl>(D) ||
          isa<UsingDirectiveDecl>(D) || isa<TypeAliasDecl>(D))
        return;
      if (const auto *RD = dyn_cast<RecordDecl>(D)) {
        noteRecord(RD);
        return;
      }
      return;
    }
    if (VD->isStaticLocal() || VD->getTLSKind() != VarDecl::TLS_None) {
      refuse(RejectKind::UnsupportedConstruct,
             "'" + VD->getNameAsString() + "' has static or thread-local storage, which a device "
             "cannot share",
             VD->getLocation(), "declared here");
      return;
    }
    Locals.insert(VD);
    checkLocalType(VD->getType(), VD->getLocation(), VD->getNameAsString());
    const Expr *Init = VD->getInit();
    if (!Init)
      return;
    if (VD->getType()->isIntegerType() && !writtenLater(VD)) {
      Polynomial P = polyOf(Init);
      if (P.isValid())
        const_cast<Frame *>(Cur)->IntDefs[VD] = P;
      Polynomial X = polyOf(Init, /*Exact=*/true);
      if (X.isValid())
        const_cast<Frame *>(Cur)->ExactDefs[VD] = X;
    }
    if (VD->getType()->isPointerType() && !writtenLater(VD))
      const_cast<Frame *>(Cur)->PtrDefs[VD] = {Init, Cur};
    if (VD->getType()->isReferenceType()) {
      // A reference to an element behaves like the element: its uses are resolved through the
      // initializer where they happen.
      RefDefs[VD] = {Init, Cur};
      return;
    }
    walkExpr(Init, Use::Read);
  }

  /// Conservative: whether any assignment to VD occurs in the current body after its definition.
  /// Locals written in the loop never get a definition binding; computed up front.
  bool writtenLater(const VarDecl *VD) const { return WrittenLocals.count(VD) != 0; }

  void collectWrittenLocals(const Stmt *S) {
    if (!S)
      return;
    if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->isAssignmentOp())
        if (const auto *DR = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
          if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
            WrittenLocals.insert(VD);
    } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
      if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
        if (const auto *DR = dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParenImpCasts()))
          if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
            WrittenLocals.insert(VD);
    }
    for (const Stmt *C : S->children())
      collectWrittenLocals(C);
  }

  void checkLocalType(QualType T, SourceLocation Loc, const std::string &Name) {
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

  void noteRecord(const RecordDecl *RD) {
    if (!RD || RD->isLambda() || RD->isInStdNamespace())
      return;
    if (std::find(R.Records.begin(), R.Records.end(), RD) == R.Records.end())
      R.Records.push_back(RD);
  }

  void walkInnerFor(const ForStmt *F) {
    R.Score += 5;
    ++BreakDepth;
    if (F->getInit())
      walkStmt(F->getInit());
    // Register the inner loop variable's range when the inner loop is canonical.
    const VarDecl *IV = nullptr;
    std::optional<PolyRange> Range;
    double Trips = UnknownTrips;
    innerRange(F, IV, Range, Trips);
    if (IV && Range) {
      PolyVar V{IV, IV->getNameAsString(), true};
      InnerVars[IV] = V;
      Ranges[IV] = *Range;
      R.InnerRanges.push_back({V, *Range});
    }
    ++CondDepth;
    if (F->getCond())
      walkExpr(F->getCond(), Use::Read);
    if (F->getInc())
      walkExpr(F->getInc(), Use::Read);
    // The body's work counts once per inner iteration.
    double Before = Work;
    walkStmt(F->getBody());
    Work = Before + (Work - Before) * Trips;
    --CondDepth;
    --BreakDepth;
  }

  /// Range of a canonical inner loop's variable: [init, bound-1] for `<`, etc.
  void innerRange(const ForStmt *F, const VarDecl *&IV, std::optional<PolyRange> &Range,
                  double &Trips) {
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
    if (!IV || !InitE || !IV->getType()->isIntegerType())
      return;
    // The inner variable must change only in the increment.
    if (assignsInBody(F->getBody(), IV)) {
      IV = nullptr;
      return;
    }
    const auto *Cond = dyn_cast_or_null<BinaryOperator>(F->getCond());
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
    if (Dir == 0)
      return;
    Polynomial Init = polyOf(InitE, /*Exact=*/true), Bound = polyOf(BoundE, /*Exact=*/true);
    if (!Init.isValid() || !Bound.isValid())
      return;
    Polynomial One = Polynomial::constant(1);
    if (Dir > 0 && Op == BO_LT)
      Range = PolyRange{Init, Bound - One};
    else if (Dir > 0 && Op == BO_LE)
      Range = PolyRange{Init, Bound};
    else if (Dir < 0 && Op == BO_GT)
      Range = PolyRange{Bound + One, Init};
    else if (Dir < 0 && Op == BO_GE)
      Range = PolyRange{Bound, Init};
    if (Range && (!fitsBoxProgram(Range->Lo) || !fitsBoxProgram(Range->Hi)))
      Range.reset(); // the variable then makes subscripts non-affine
    if (Range) {
      if (auto T = (Range->Hi - Range->Lo).asConstant())
        Trips = *T + 1 > 0 ? double(*T + 1) : 1.0;
    }
  }

  /// +1 for ++v / v++ / v += c (c > 0), -1 for decrements, 0 otherwise.
  int incrementDirection(const Expr *Inc, const VarDecl *V) {
    if (!Inc)
      return 0;
    Inc = Inc->IgnoreParenImpCasts();
    auto IsV = [&](const Expr *E) {
      const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      return DR && DR->getDecl() == V;
    };
    if (const auto *UO = dyn_cast<UnaryOperator>(Inc)) {
      if (!IsV(UO->getSubExpr()))
        return 0;
      return UO->isIncrementOp() ? 1 : UO->isDecrementOp() ? -1 : 0;
    }
    if (const auto *CA = dyn_cast<CompoundAssignOperator>(Inc)) {
      if (!IsV(CA->getLHS()))
        return 0;
      Expr::EvalResult ER;
      if (!CA->getRHS()->EvaluateAsInt(ER, Ctx))
        return 0;
      int64_t C = ER.Val.getInt().getExtValue();
      if (CA->getOpcode() == BO_AddAssign)
        return C > 0 ? 1 : C < 0 ? -1 : 0;
      if (CA->getOpcode() == BO_SubAssign)
        return C > 0 ? -1 : C < 0 ? 1 : 0;
    }
    return 0;
  }

  static bool assignsInBody(const Stmt *S, const VarDecl *V) {
    if (!S)
      return false;
    if (const auto *BO = dyn_cast<BinaryOperator>(S))
      if (BO->isAssignmentOp())
        if (const auto *DR = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
          if (DR->getDecl() == V)
            return true;
    if (const auto *UO = dyn_cast<UnaryOperator>(S))
      if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
        if (const auto *DR = dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParenImpCasts()))
          if (DR->getDecl() == V)
            return true;
    for (const Stmt *C : S->children())
      if (assignsInBody(C, V))
        return true;
    return false;
  }

  // --- Reductions ---------------------------------------------------------------------------

  /// The outer scalar an expression names, if it is a plain reference to one.
  const VarDecl *outerScalar(const Expr *E) {
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

  bool mentions(const Stmt *S, const VarDecl *V) {
    if (!S)
      return false;
    if (const auto *DR = dyn_cast<DeclRefExpr>(S))
      if (DR->getDecl() == V)
        return true;
    for (const Stmt *C : S->children())
      if (mentions(C, V))
        return true;
    return false;
  }

  /// Recognizes `s op= e`, `s = s op e`, `s = e op s`, `s++`, `s = max(s, e)` and
  /// `s = s > e ? s : e`. Records the update and walks e.
  bool matchReductionUpdate(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    const VarDecl *V = nullptr;
    std::string Op;
    const Expr *Operand = nullptr;
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (!UO->isIncrementDecrementOp())
        return false;
      V = outerScalar(UO->getSubExpr());
      Op = "+";
    } else if (const auto *CA = dyn_cast<CompoundAssignOperator>(E)) {
      V = outerScalar(CA->getLHS());
      Operand = CA->getRHS();
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
      } else if (const auto *Call = dyn_cast<CallExpr>(RHS)) {
        const FunctionDecl *FD = Call->getDirectCallee();
        if (!FD || Call->getNumArgs() != 2 || !FD->getIdentifier())
          return false;
        // Only the standard functions: a user's own `max` may compute anything.
        if (!FD->isInStdNamespace() && !FD->getBuiltinID())
          return false;
        StringRef N = FD->getName();
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
    Scalars[V].Var = V;
    Scalars[V].Updates.push_back({Op, E});
    if (CondDepth > 0)
      ++R.Score;
    if (Operand)
      walkExpr(Operand, Use::Read);
    return true;
  }

  bool sameExpr(const Expr *A, const Expr *B) {
    A = A->IgnoreParenImpCasts();
    B = B->IgnoreParenImpCasts();
    llvm::FoldingSetNodeID IA, IB;
    A->Profile(IA, Ctx, true);
    B->Profile(IB, Ctx, true);
    return IA == IB;
  }

  /// `if (e > s) s = e;` and the min form, without an else.
  bool matchIfMinMax(const IfStmt *If) {
    if (If->getElse() || If->getInit() || If->getConditionVariable())
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
    Scalars[V].Var = V;
    Scalars[V].Updates.push_back({IsMax ? "max" : "min", Asg});
    R.Score += 2;
    walkExpr(CE, Use::Read);
    return true;
  }

  // --- Expressions --------------------------------------------------------------------------
  void walkExpr(const Expr *E, Use U) {
    if (!E)
      return;
    E = E->IgnoreParens();
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
      if (ICE->getCastKind() == CK_LValueToRValue) {
        walkExpr(ICE->getSubExpr(), Use::Read);
        return;
      }
      if (ICE->getCastKind() == CK_ArrayToPointerDecay) {
        // An array used as a pointer outside of a subscript: escapes as a whole object.
        noteWholeObject(ICE->getSubExpr(), U);
        return;
      }
      walkExpr(ICE->getSubExpr(), U);
      return;
    }
    if (isa<IntegerLiteral>(E) || isa<FloatingLiteral>(E) || isa<CharacterLiteral>(E) ||
        isa<CXXBoolLiteralExpr>(E) || isa<StringLiteral>(E) || isa<CXXNullPtrLiteralExpr>(E) ||
        isa<UnaryExprOrTypeTraitExpr>(E) || isa<SizeOfPackExpr>(E))
      return;
    if (isa<LambdaExpr>(E))
      return; // analyzed where it is called
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      Work += 1;
      if (BO->isAssignmentOp()) {
        walkExpr(BO->getLHS(), BO->getOpcode() == BO_Assign ? Use::Write : Use::ReadWrite);
        walkExpr(BO->getRHS(), Use::Read);
        return;
      }
      if (BO->isLogicalOp()) {
        walkExpr(BO->getLHS(), Use::Read);
        ++CondDepth;
        walkExpr(BO->getRHS(), Use::Read);
        --CondDepth;
        return;
      }
      if (BO->getOpcode() == BO_Comma) {
        walkExpr(BO->getLHS(), Use::Read);
        walkExpr(BO->getRHS(), U);
        return;
      }
      walkExpr(BO->getLHS(), Use::Read);
      walkExpr(BO->getRHS(), Use::Read);
      return;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->isIncrementDecrementOp()) {
        walkExpr(UO->getSubExpr(), Use::ReadWrite);
        return;
      }
      if (UO->getOpcode() == UO_Deref) {
        walkLValue(E, U);
        return;
      }
      if (UO->getOpcode() == UO_AddrOf) {
        walkAddressOf(UO->getSubExpr(), UO);
        return;
      }
      walkExpr(UO->getSubExpr(), Use::Read);
      return;
    }
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
      walkExpr(CO->getCond(), Use::Read);
      ++CondDepth;
      walkExpr(CO->getTrueExpr(), U);
      walkExpr(CO->getFalseExpr(), U);
      --CondDepth;
      return;
    }
    if (isa<DeclRefExpr>(E) || isa<ArraySubscriptExpr>(E) || isa<MemberExpr>(E)) {
      walkLValue(E, U);
      return;
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
      walkOperatorCall(Op, U);
      return;
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      walkMemberCall(MC, U);
      return;
    }
    if (const auto *CE = dyn_cast<CallExpr>(E)) {
      walkCall(CE, CE->getDirectCallee(), 0);
      return;
    }
    if (const auto *C = dyn_cast<CXXConstructExpr>(E)) {
      checkLocalType(C->getType(), C->getBeginLoc(), typeString(C->getType(), Ctx));
      for (const Expr *A : C->arguments())
        walkExpr(A, Use::Read);
      return;
    }
    if (isa<CXXNewExpr>(E) || isa<CXXDeleteExpr>(E)) {
      refuse(RejectKind::UnsupportedConstruct, "dynamic allocation cannot happen on a device",
             E->getBeginLoc(), "allocation here");
      return;
    }
    if (isa<CXXThrowExpr>(E)) {
      refuse(RejectKind::Exceptions, "exceptions cannot be used on a device", E->getBeginLoc(),
             "'throw' here");
      return;
    }
    if (isa<CXXThisExpr>(E)) {
      if (!Cur->ThisBound && U != Use::Read)
        refuse(RejectKind::Escape, "'this' escapes from the loop", E->getBeginLoc());
      return;
    }
    if (isa<StmtExpr>(E)) {
      walkStmt(cast<StmtExpr>(E)->getSubStmt());
      return;
    }
    if (const auto *Ex = dyn_cast<ExprWithCleanups>(E)) {
      walkExpr(Ex->getSubExpr(), U);
      return;
    }
    if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E)) {
      walkExpr(MT->getSubExpr(), U);
      return;
    }
    if (const auto *CE = dyn_cast<ExplicitCastExpr>(E)) {
      walkExpr(CE->getSubExpr(), U == Use::Read ? Use::Read : U);
      return;
    }
    if (isa<AtomicExpr>(E)) {
      refuse(RejectKind::UnsupportedConstruct, "atomic operations on host objects",
             E->getBeginLoc());
      return;
    }
    for (const Stmt *C : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(C))
        walkExpr(CE, Use::Read);
      else
        walkStmt(C);
  }

  /// `&x`: the address of a shared object must not escape (a pointer the analysis cannot follow).
  void walkAddressOf(const Expr *Sub, const UnaryOperator *At) {
    Sub = Sub->IgnoreParens();
    if (const auto *DR = dyn_cast<DeclRefExpr>(Sub)) {
      if (const Frame *Owner = ownerFrame(DR)) {
        inFrame(Owner, [&] { walkAddressOf(Sub, At); return 0; });
        return;
      }
      const auto *VD = dyn_cast<VarDecl>(DR->getDecl());
      if (VD && VD == RangeVar) {
        walkRangeElement(DR, Use::ReadWrite);
        return;
      }
      if (VD && (Locals.count(VD) || Cur->Fn))
        return;
      if (VD && IVs.count(VD)) {
        refuse(RejectKind::InductionModified, "the address of the induction variable is taken",
               At->getBeginLoc());
        return;
      }
      if (VD && !isArrayLike(VD->getType())) {
        auto &S = Scalars[VD];
        S.Var = VD;
        S.Escapes = true;
        S.EscapeAt = At;
        return;
      }
    }
    // &a[i] outside a pointer binding: the element may be written through it.
    walkLValue(Sub, Use::ReadWrite);
  }

  bool isArrayLike(QualType T) {
    T = T.getNonReferenceType();
    return T->isArrayType() || T->isPointerType() || isStdContainer(T);
  }

  /// Records a whole-object use of an array that decays to a pointer outside a subscript.
  void noteWholeObject(const Expr *E, Use U) {
    E = E->IgnoreParenImpCasts();
    if (const auto *DR = dyn_cast<DeclRefExpr>(E))
      if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
        if (Locals.count(VD))
          return;
    walkLValue(E, U == Use::Read ? Use::Read : Use::ReadWrite);
  }

  // --- Calls --------------------------------------------------------------------------------
  void walkOperatorCall(const CXXOperatorCallExpr *Op, Use U) {
    OverloadedOperatorKind K = Op->getOperator();
    if (K == OO_Subscript) {
      walkLValue(Op, U);
      return;
    }
    if (K == OO_Call) {
      const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
      if (MD && MD->getParent()->isLambda()) {
        // A mutable lambda changes its own captured copies: the lambda object is written.
        walkExpr(Op->getArg(0), MD->isConst() ? Use::Read : Use::ReadWrite);
        walkCall(Op, MD, 1);
        return;
      }
      refuse(RejectKind::UnsupportedCall,
             "calls a function object the analysis cannot follow", Op->getBeginLoc(),
             "call here");
      return;
    }
    if (K == OO_Equal || (K >= OO_PlusEqual && K <= OO_PipeEqual)) {
      walkExpr(Op->getArg(0), K == OO_Equal ? Use::Write : Use::ReadWrite);
      walkExpr(Op->getArg(1), Use::Read);
      return;
    }
    if (K == OO_LessLess || K == OO_GreaterGreater) {
      QualType T = Op->getArg(0)->getType().getNonReferenceType();
      if (const auto *RD = T->getAsCXXRecordDecl())
        if (RD->isInStdNamespace()) {
          refuse(RejectKind::UnsupportedConstruct, "stream I/O cannot happen on a device",
                 Op->getBeginLoc(), "I/O here");
          return;
        }
    }
    // A member operator: the left operand is the object, as for a member call.
    if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
        MD && MD->isInstance() && !MD->getParent()->isInStdNamespace()) {
      walkLValue(Op->getArg(0), MD->isConst() ? Use::Read : Use::ReadWrite, /*Partial=*/true);
      walkCall(Op, MD, 1, /*BindThis=*/true);
      return;
    }
    walkCall(Op, Op->getDirectCallee(), 0);
  }

  void walkMemberCall(const CXXMemberCallExpr *MC, Use) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    const Expr *Obj = MC->getImplicitObjectArgument();
    if (!MD || !Obj) {
      refuse(RejectKind::UnsupportedCall, "calls a member through a pointer the analysis cannot "
                                          "follow", MC->getBeginLoc(), "call here");
      return;
    }
    if (MD->isVirtual() && !MD->hasAttr<FinalAttr>() && !MD->getParent()->hasAttr<FinalAttr>()) {
      refuse(RejectKind::UnsupportedCall,
             "calls virtual function '" + MD->getQualifiedNameAsString() + "'",
             MC->getBeginLoc(), "virtual call here");
      return;
    }
    StringRef Name = MD->getIdentifier() ? MD->getName() : "";
    QualType ObjT = Obj->getType();
    if (ObjT->isPointerType())
      ObjT = ObjT->getPointeeType();
    bool IsVector = false;
    if (isStdContainer(ObjT, &IsVector)) {
      if (Name == "size" || Name == "empty" || Name == "max_size") {
        walkContainerMeta(Obj);
        return;
      }
      if (IsVector && (Name == "push_back" || Name == "emplace_back")) {
        walkAppend(MC, Obj);
        return;
      }
      if (Name == "data") {
        walkLValue(Obj, Use::ReadWrite);
        return;
      }
      if (Name == "at") {
        refuse(RejectKind::UnsupportedCall,
               "'at' may throw, which a device cannot do; use operator[]", MC->getBeginLoc(),
               "call here");
        return;
      }
      refuse(RejectKind::UnsupportedCall,
             "calls '" + Name.str() + "' on a standard container, which cannot happen on a device",
             MC->getBeginLoc(), "call here");
      return;
    }
    if (const auto *RD = ObjT->getAsCXXRecordDecl())
      if (RD->isInStdNamespace()) {
        StringRef RN = RD->getName();
        refuse(RejectKind::UnsupportedCall,
               (RN.starts_with("atomic") ? "atomic operations on host objects ('"
                                         : "calls '") +
                   MD->getQualifiedNameAsString() + "'" +
                   (RN.starts_with("atomic") ? ")" : ", which has no device version"),
               MC->getBeginLoc(), "call here");
        return;
      }
    // A user method: the object is read (const method) or written (otherwise) as a whole.
    walkLValue(Obj, MD->isConst() ? Use::Read : Use::ReadWrite, /*Partial=*/true);
    walkCall(MC, MD, 0, /*BindThis=*/true);
  }

  /// v.size() and friends: a read of the container's length, not of its elements.
  void walkContainerMeta(const Expr *Obj) {
    const Expr *Base = Obj->IgnoreParenImpCasts();
    if (const auto *DR = dyn_cast<DeclRefExpr>(Base))
      if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
        MetaUses[VD].push_back(Obj);
  }

  void walkAppend(const CXXMemberCallExpr *MC, const Expr *Obj) {
    const auto *DR = dyn_cast<DeclRefExpr>(Obj->IgnoreParenImpCasts());
    const auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    if (!VD || Cur->Fn) {
      refuse(RejectKind::AppendMisuse,
             "appends to a container the analysis cannot identify", MC->getBeginLoc(),
             "append here");
      return;
    }
    if (Locals.count(VD))
      return; // a vector private to the iteration: allocation is refused by its declaration
    if (Appended.find(VD) == Appended.end())
      AppendOrder.push_back(VD);
    Appended[VD].push_back(MC);
    for (const Expr *A : MC->arguments()) {
      if (mentions(A, VD))
        refuse(RejectKind::AppendMisuse,
               "'" + VD->getNameAsString() + "' is appended to with a value that reads it",
               A->getBeginLoc());
      walkExpr(A, Use::Read);
    }
  }

  void walkCall(const CallExpr *CE, const FunctionDecl *FD, unsigned FirstArg,
                bool BindThis = false) {
    if (!FD) {
      refuse(RejectKind::UnsupportedCall, "calls through a function pointer",
             CE->getBeginLoc(), "indirect call here");
      for (const Expr *A : CE->arguments())
        walkExpr(A, Use::Read);
      return;
    }
    std::string Name = FD->getIdentifier() ? FD->getName().str() : FD->getNameAsString();
    if (unsigned B = FD->getBuiltinID()) {
      if (Ctx.BuiltinInfo.isPredefinedLibFunction(B) || isMathFunction(Name) ||
          Name.rfind("__builtin_", 0) == 0) {
        if (isIOOrAllocName(Name) || Name.find("atomic") != std::string::npos ||
            Name.rfind("__sync", 0) == 0) {
          refuse(RejectKind::UnsupportedConstruct,
                 "calls '" + Name + "', which cannot run on a device", CE->getBeginLoc(),
                 "call here");
          return;
        }
      }
    }
    if (isIOOrAllocName(Name) && (!FD->hasBody() || FD->isInStdNamespace() ||
                                  FD->getDeclContext()->isTranslationUnit())) {
      refuse(RejectKind::UnsupportedConstruct,
             "calls '" + Name + "', which cannot run on a device (I/O, allocation or process "
             "state)",
             CE->getBeginLoc(), "call here");
      return;
    }
    bool ByValue = llvm::all_of(FD->parameters(), [](const ParmVarDecl *P) {
      return P->getType()->isArithmeticType();
    });
    if (isMathFunction(Name) && (FD->isInStdNamespace() || FD->getBuiltinID() != 0 ||
                                 (!FD->hasBody() && ByValue))) {
      if (std::find(R.MathCalls.begin(), R.MathCalls.end(), Name) == R.MathCalls.end())
        R.MathCalls.push_back(Name);
      for (const Expr *A : CE->arguments())
        walkExpr(A, Use::Read);
      Work += 8;
      return;
    }
    if (FD->isInStdNamespace()) {
      refuse(RejectKind::UnsupportedCall,
             "calls '" + FD->getQualifiedNameAsString() + "', which has no device version",
             CE->getBeginLoc(), "call here");
      return;
    }
    const FunctionDecl *Def = nullptr;
    if (!FD->hasBody(Def) || !Def) {
      refuse(RejectKind::UnsupportedCall,
             "calls '" + FD->getQualifiedNameAsString() +
                 "', whose definition is not visible in this translation unit",
             CE->getBeginLoc(), "call here");
      return;
    }
    if (Def->isVariadic()) {
      refuse(RejectKind::UnsupportedCall,
             "calls variadic function '" + FD->getQualifiedNameAsString() + "'",
             CE->getBeginLoc(), "call here");
      return;
    }
    for (const Frame *F = Cur; F; F = F->Parent)
      if (F->Fn == Def) {
        refuse(RejectKind::UnsupportedCall,
               "calls '" + FD->getQualifiedNameAsString() + "' recursively",
               CE->getBeginLoc(), "recursive call here");
        return;
      }
    if (CallDepth >= 8) {
      refuse(RejectKind::UnsupportedCall, "calls are nested more than 8 deep", CE->getBeginLoc());
      return;
    }
    // Bind parameters to arguments; walk by-value arguments here, reference and pointer
    // arguments where the callee uses them.
    Frame Callee;
    Callee.Parent = Cur;
    Callee.Fn = Def;
    // In a lambda, `this` is the enclosing object's, captured: not bound to the lambda object.
    Callee.ThisBound = BindThis;
    if (const auto *MD = dyn_cast<CXXMethodDecl>(Def))
      Callee.ThisConst = BindThis && MD->isConst();
    unsigned NArgs = CE->getNumArgs();
    for (unsigned I = FirstArg, P = 0; I < NArgs && P < Def->getNumParams(); ++I, ++P) {
      const ParmVarDecl *PV = Def->getParamDecl(P);
      const Expr *A = CE->getArg(I);
      QualType PT = PV->getType();
      if (PT->isReferenceType() || PT->isPointerType() || isArrayLike(PT)) {
        Callee.Params[PV] = {A, Cur};
        if (!PT->isReferenceType() && !PT->isPointerType())
          walkExpr(A, Use::Read);
      } else {
        walkExpr(A, Use::Read);
        Polynomial Pol = polyOf(A);
        if (Pol.isValid() && PV->getType()->isIntegerType())
          Callee.IntDefs[PV] = Pol;
        Polynomial X = polyOf(A, /*Exact=*/true);
        if (X.isValid() && PV->getType()->isIntegerType())
          Callee.ExactDefs[PV] = X;
        Callee.Params[PV] = {A, Cur};
      }
    }
    if (std::find(R.Callees.begin(), R.Callees.end(), Def) == R.Callees.end())
      PendingCallees.push_back(Def);
    unsigned SavedScore = R.Score;
    const Frame *Saved = Cur;
    std::set<const VarDecl *> SavedLocals = Locals;
    Cur = &Callee;
    ++CallDepth;
    collectWrittenLocals(Def->getBody());
    for (const ParmVarDecl *PV : Def->parameters())
      if (!PV->getType()->isReferenceType() && !PV->getType()->isPointerType())
        Locals.insert(PV);
    walkStmt(Def->getBody());
    --CallDepth;
    Cur = Saved;
    Locals = SavedLocals;
    // A call costs its callee's score.
    R.Score = SavedScore + (R.Score - SavedScore) + 1;
    if (std::find(R.Callees.begin(), R.Callees.end(), Def) == R.Callees.end())
      R.Callees.push_back(Def);
  }

  // --- Lvalues: scalars and array accesses ---------------------------------------------------
  void walkLValue(const Expr *E, Use U, bool Partial = false) {
    E = E->IgnoreParens();
    // Scalars and whole objects named directly.
    if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
      walkDeclRef(DR, U, Partial);
      return;
    }
    // Member access: `this->x`, `s.x`, `a[i].x`, `p->x`.
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
      if (isa<CXXThisExpr>(Base)) {
        if (Cur->ThisBound && Cur->ThisConst && U != Use::Read) {
          refuse(RejectKind::CarriedScalar,
                 "const member function '" + Cur->Fn->getNameAsString() +
                     "' writes mutable member '" + ME->getMemberDecl()->getNameAsString() +
                     "', which every iteration shares",
                 ME->getBeginLoc(), "written here");
          return;
        }
        if (Cur->ThisBound)
          return; // the object's use was recorded at the call
        walkMember(ME, U);
        return;
      }
      if (ME->isArrow()) {
        // p->x is (*p).x: an element access of p's pointee.
        Access A;
        if (resolveElement(E, A)) {
          recordAccess(A, U, true, ME);
          return;
        }
        walkExpr(ME->getBase(), Use::Read);
        return;
      }
      if (isElementExpr(Base)) {
        walkLValue(Base, U == Use::Read ? Use::Read : U, /*Partial=*/true);
        return;
      }
      // s.x on a struct variable: a use of s.
      if (isa<DeclRefExpr>(Base) || isa<MemberExpr>(Base)) {
        walkLValue(Base, U);
        return;
      }
      walkExpr(ME->getBase(), U);
      return;
    }
    Access A;
    if (resolveElement(E, A)) {
      recordAccess(A, U, Partial, E);
      return;
    }
    if (!A.Key.empty() || isa<ArraySubscriptExpr>(E) || isa<CXXOperatorCallExpr>(E) ||
        isa<UnaryOperator>(E)) {
      // Could not resolve the base: reads are unbounded, writes unanalyzable.
      if (U == Use::Read)
        refuse(RejectKind::UnboundedAccess,
               "reads memory through '" + spell(E, Ctx) +
                   "', whose extent the analysis cannot determine",
               E->getBeginLoc(), "access here");
      else
        refuse(RejectKind::NonAffineWrite,
               "writes memory through '" + spell(E, Ctx) +
                   "', which the analysis cannot follow",
               E->getBeginLoc(), "write here");
      walkSubExprsRead(E);
      return;
    }
    walkExpr(E, U);
  }

  void walkSubExprsRead(const Expr *E) {
    for (const Stmt *C : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(C))
        walkExpr(CE, Use::Read);
  }

  bool isElementExpr(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (isa<ArraySubscriptExpr>(E))
      return true;
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
      return Op->getOperator() == OO_Subscript;
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      return UO->getOpcode() == UO_Deref;
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return isElementExpr(ME->getBase());
    if (const auto *DR = dyn_cast<DeclRefExpr>(E))
      return RangeVar && DR->getDecl() == RangeVar && RangeVar->getType()->isReferenceType();
    return false;
  }

  /// `this->x` in the loop body (not inside a bound method).
  void walkMember(const MemberExpr *ME, Use U) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD)
      return;
    if (U != Use::Read) {
      if (isArrayLike(FD->getType()))
        refuse(RejectKind::UnsupportedConstruct,
               "assigns member array '" + FD->getNameAsString() + "' as a whole",
               ME->getBeginLoc());
      else
        refuse(RejectKind::CarriedScalar,
               "member '" + FD->getNameAsString() +
                   "' is written by every iteration and read after it",
               ME->getBeginLoc(), "written here");
    }
  }

  /// A use of the element variable of the parallel range-based loop: element k of the range.
  /// DR is null for the copy into a by-value element variable.
  void walkRangeElement(const DeclRefExpr *DR, Use U, bool Partial = false) {
    if (!RangeBase.Ok)
      return;
    Access A;
    A.Key = RangeBase.Key;
    A.Name = RangeBase.Name;
    A.Decl = RangeBase.Decl;
    A.BaseType = RangeBase.BaseType;
    A.Subs = {Polynomial::variable(NormVars[0])};
    const Expr *At = DR ? static_cast<const Expr *>(DR) : cast<CXXForRangeStmt>(R.Nest[0].Loop)->getRangeInit();
    recordAccess(A, U, Partial, At);
  }

  void walkDeclRef(const DeclRefExpr *DR, Use U, bool Partial = false) {
    const auto *VD = dyn_cast<VarDecl>(DR->getDecl());
    if (!VD)
      return; // functions, enumerators
    if (const Frame *Owner = ownerFrame(DR)) {
      inFrame(Owner, [&] { walkDeclRef(DR, U, Partial); return 0; });
      return;
    }
    if (VD == RangeVar) {
      walkRangeElement(DR, U, Partial);
      return;
    }
    // A parameter bound to a caller's reference or pointer: the use applies to the argument.
    if (auto It = Cur->Params.find(VD); It != Cur->Params.end()) {
      QualType PT = VD->getType();
      if (PT->isReferenceType()) {
        inFrame(It->second.Caller, [&] { walkLValue(It->second.Arg, U); return 0; });
        return;
      }
      if (U != Use::Read && !PT->isReferenceType())
        return; // a by-value parameter is the callee's own
      return;
    }
    if (auto It = RefDefs.find(VD); It != RefDefs.end() && Locals.count(VD)) {
      inFrame(It->second.Caller, [&] { walkLValue(It->second.Arg, U); return 0; });
      return;
    }
    if (IVs.count(VD)) {
      if (U != Use::Read)
        refuse(RejectKind::InductionModified,
               "the body modifies the induction variable '" + VD->getNameAsString() + "'",
               DR->getBeginLoc(), "modified here");
      return;
    }
    if (Locals.count(VD))
      return;
    if (Cur->Fn && (VD->hasLocalStorage() || isa<ParmVarDecl>(VD)))
      return; // a callee's own local
    if (VD->hasGlobalStorage() && !VD->isStaticLocal() && VD->getType().isConstQualified())
      return; // a constant
    if (VD->isStaticLocal() && Cur->Fn) {
      refuse(RejectKind::UnsupportedConstruct,
             "'" + Cur->Fn->getNameAsString() + "' uses static variable '" +
                 VD->getNameAsString() + "'",
             DR->getBeginLoc());
      return;
    }
    if (Cur->Fn && VD->hasGlobalStorage() && U != Use::Read) {
      refuse(RejectKind::UnsupportedConstruct,
             "'" + Cur->Fn->getNameAsString() + "' writes global '" + VD->getNameAsString() + "'",
             DR->getBeginLoc(), "written here");
      return;
    }
    if (VD->getType().getNonReferenceType().isVolatileQualified()) {
      refuse(RejectKind::UnsupportedConstruct, "'" + VD->getNameAsString() + "' is volatile",
             DR->getBeginLoc());
      return;
    }
    if (isArrayLike(VD->getType())) {
      if (U != Use::Read) {
        if (VD->getType()->isPointerType())
          refuse(RejectKind::CarriedScalar,
                 "pointer '" + VD->getNameAsString() + "' is modified by the loop",
                 DR->getBeginLoc(), "modified here");
        else
          WholeUses[VD].push_back(DR);
      } else if (!VD->getType()->isPointerType()) {
        WholeUses[VD].push_back(DR);
      }
      return;
    }
    auto &S = Scalars[VD];
    S.Var = VD;
    if (U == Use::Read || U == Use::ReadWrite)
      S.Reads.push_back(DR);
    if (U == Use::Write || U == Use::ReadWrite)
      S.Writes.push_back(DR);
  }

  /// Resolves an element access (a[i], a[i][j], v[i], *p, p[i], p->x) to a base and subscripts.
  bool resolveElement(const Expr *E, Access &A) {
    E = E->IgnoreParens();
    std::vector<const Expr *> Indices;
    const Expr *Base = E;
    bool IsDeref = false;
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (!ME->isArrow())
        return false;
      Base = ME->getBase();
      IsDeref = true;
    }
    // Peel subscripts from the outside in.
    while (true) {
      Base = Base->IgnoreParens();
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Base)) {
        Indices.push_back(AS->getIdx());
        const Expr *B = AS->getBase()->IgnoreParens();
        if (const auto *ICE = dyn_cast<ImplicitCastExpr>(B);
            ICE && ICE->getCastKind() == CK_ArrayToPointerDecay) {
          Base = ICE->getSubExpr()->IgnoreParens();
          if (isa<ArraySubscriptExpr>(Base))
            continue; // multi-dimensional C array: keep peeling
          break;      // the array itself
        }
        Base = B;
        break;
      }
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Base);
          Op && Op->getOperator() == OO_Subscript) {
        Indices.push_back(Op->getArg(1));
        Base = Op->getArg(0);
        if (isElementExpr(Base)) {
          A.Key = "nested";
          refuse(RejectKind::UnsupportedConstruct,
                 "'" + spell(Base, Ctx) +
                     "' is an element of a container of containers, which is not contiguous",
                 Base->getBeginLoc(), "access here");
          return false;
        }
        break;
      }
      if (const auto *UO = dyn_cast<UnaryOperator>(Base); UO && UO->getOpcode() == UO_Deref) {
        Indices.push_back(nullptr); // *p is p[0]
        Base = UO->getSubExpr();
        break;
      }
      if (IsDeref) {
        Indices.push_back(nullptr);
        break;
      }
      return false;
    }
    std::reverse(Indices.begin(), Indices.end());
    // Resolve the base: a pointer expression for p[i] / *p, an array or container lvalue else.
    PointerRef P;
    const Expr *BaseS = Base->IgnoreParenImpCasts();
    if (Base->getType()->isPointerType() && !isa<ImplicitCastExpr>(Base->IgnoreParens()))
      P = resolvePointer(Base);
    else if (Base->getType()->isPointerType())
      P = resolvePointer(Base);
    else
      P = resolveObject(BaseS);
    if (!P.Ok) {
      A.Key = P.Key.empty() ? "?" : P.Key;
      return false;
    }
    A.Key = P.Key;
    A.Name = P.Name;
    A.Decl = P.Decl;
    A.BaseType = P.BaseType;
    A.Loc = E->getBeginLoc();
    A.Subs = P.Subs;
    // The pointer's offset adds to the first index.
    for (size_t I = 0; I < Indices.size(); ++I) {
      Polynomial Ix = Indices[I] ? polyOf(Indices[I]) : Polynomial::constant(0);
      if (Indices[I])
        walkExpr(Indices[I], Use::Read);
      if (I == 0 && !A.Subs.empty()) {
        A.Subs.back() = A.Subs.back() + Ix;
        continue;
      }
      A.Subs.push_back(Ix);
    }
    return true;
  }

  /// A pointer-valued expression as base + offset.
  PointerRef resolvePointer(const Expr *E) {
    E = E->IgnoreParens();
    PointerRef P;
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
      if (ICE->getCastKind() == CK_ArrayToPointerDecay) {
        P = resolveObject(ICE->getSubExpr()->IgnoreParenImpCasts());
        if (P.Ok)
          P.Subs.push_back(Polynomial::constant(0));
        return P;
      }
      if (ICE->getCastKind() == CK_NoOp || ICE->getCastKind() == CK_LValueToRValue)
        return resolvePointer(ICE->getSubExpr());
      return P;
    }
    if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DR->getDecl());
      if (!VD)
        return P;
      if (const Frame *Owner = ownerFrame(DR)) {
        P = inFrame(Owner, [&] { return resolvePointer(DR); });
        return P;
      }
      if (auto It = Cur->Params.find(VD); It != Cur->Params.end()) {
        P = inFrame(It->second.Caller, [&] { return resolvePointer(It->second.Arg); });
        return P;
      }
      for (const Frame *F = Cur; F; F = F->Parent)
        if (auto It = F->PtrDefs.find(VD); It != F->PtrDefs.end()) {
          P = inFrame(It->second.Caller, [&] { return resolvePointer(It->second.Arg); });
          return P;
        }
      if (Locals.count(VD) || (Cur->Fn && VD->hasLocalStorage())) {
        P.Key = "local-pointer";
        return P; // a pointer computed in the body: not followed
      }
      if (IVs.count(VD))
        return P;
      P.Ok = true;
      P.Key = keyOf(VD);
      P.Name = VD->getNameAsString();
      P.Decl = VD;
      P.BaseType = VD->getType();
      P.Subs.push_back(Polynomial::constant(0));
      return P;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if ((BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub) &&
          BO->getLHS()->getType()->isPointerType()) {
        P = resolvePointer(BO->getLHS());
        walkExpr(BO->getRHS(), Use::Read);
        Polynomial Off = polyOf(BO->getRHS());
        if (P.Ok)
          P.Subs.back() = BO->getOpcode() == BO_Add ? P.Subs.back() + Off : P.Subs.back() - Off;
        return P;
      }
      if (BO->getOpcode() == BO_Add && BO->getRHS()->getType()->isPointerType()) {
        P = resolvePointer(BO->getRHS());
        walkExpr(BO->getLHS(), Use::Read);
        if (P.Ok)
          P.Subs.back() = P.Subs.back() + polyOf(BO->getLHS());
        return P;
      }
      return P;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_AddrOf) {
      Access A;
      if (resolveElement(UO->getSubExpr(), A)) {
        P.Ok = true;
        P.Key = A.Key;
        P.Name = A.Name;
        P.Decl = A.Decl;
        P.BaseType = A.BaseType;
        P.Subs = A.Subs;
      }
      return P;
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      if (MD && MD->getIdentifier() && MD->getName() == "data" &&
          isStdContainer(MC->getImplicitObjectArgument()->getType())) {
        P = resolveObject(MC->getImplicitObjectArgument()->IgnoreParenImpCasts());
        if (P.Ok)
          P.Subs.push_back(Polynomial::constant(0));
      }
      return P;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      // this->p or s.p: a pointer member, read-only in the loop.
      P = resolveObject(ME);
      if (P.Ok)
        P.Subs.push_back(Polynomial::constant(0));
      return P;
    }
    return P;
  }

  /// An array or container lvalue (a variable, a member of this, a member of a struct variable).
  PointerRef resolveObject(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    PointerRef P;
    if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DR->getDecl());
      if (!VD)
        return P;
      if (const Frame *Owner = ownerFrame(DR)) {
        P = inFrame(Owner, [&] { return resolveObject(DR); });
        return P;
      }
      if (VD == RangeVar) {
        P.Key = "range-element";
        return P; // an element used as an array: a container of containers
      }
      if (auto It = Cur->Params.find(VD); It != Cur->Params.end()) {
        const Frame *Saved = Cur;
        Cur = It->second.Caller;
        if (VD->getType()->isPointerType())
          P = resolvePointer(It->second.Arg);
        else
          P = resolveObject(It->second.Arg);
        Cur = Saved;
        return P;
      }
      if (auto It = RefDefs.find(VD); It != RefDefs.end() && Locals.count(VD)) {
        P = inFrame(It->second.Caller, [&] { return resolveObject(It->second.Arg); });
        return P;
      }
      if (Locals.count(VD) || (Cur->Fn && VD->hasLocalStorage())) {
        P.Ok = true;
        P.Key = "local:" + keyOf(VD);
        P.Name = VD->getNameAsString();
        P.Decl = VD;
        P.BaseType = VD->getType();
        return P;
      }
      if (VD->getType()->isPointerType())
        return resolvePointer(E);
      P.Ok = true;
      P.Key = keyOf(VD);
      P.Name = VD->getNameAsString();
      P.Decl = VD;
      P.BaseType = VD->getType();
      return P;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
      if (!FD)
        return P;
      const Expr *B = ME->getBase()->IgnoreParenImpCasts();
      if (isa<CXXThisExpr>(B)) {
        if (Cur->Fn)
          return P; // members of a callee's object: not followed
        P.Ok = true;
        P.Key = keyOf(FD);
        P.Name = "this->" + FD->getNameAsString();
        P.Decl = FD;
        P.BaseType = FD->getType();
        return P;
      }
      if (const auto *DR = dyn_cast<DeclRefExpr>(B)) {
        const auto *VD = dyn_cast<VarDecl>(DR->getDecl());
        if (!VD || Cur->Params.count(VD) || ME->isArrow())
          return P;
        P.Ok = true;
        P.Key = keyOf(VD) + "." + keyOf(FD);
        P.Name = VD->getNameAsString() + "." + FD->getNameAsString();
        P.Decl = FD;
        P.BaseType = FD->getType();
        if (Locals.count(VD))
          P.Key = "local:" + P.Key;
        return P;
      }
    }
    return P;
  }

  static std::string keyOf(const void *D) {
    char Buf[32];
    snprintf(Buf, sizeof Buf, "%p", D);
    return Buf;
  }

  void recordAccess(Access A, Use U, bool Partial, const Expr *At) {
    if (A.Key.rfind("local:", 0) == 0)
      return; // an array private to the iteration
    A.Read = U != Use::Write || Partial;
    A.Write = U != Use::Read;
    A.Partial = Partial;
    A.Conditional = CondDepth > 0;
    A.Loc = At->getBeginLoc();
    for (const Polynomial &P : A.Subs)
      A.Affine &= P.isValid() && P.isAffineInLoopVars() && fitsBoxProgram(P);
    Work += 2;
    Accesses.push_back(std::move(A));
  }

  // --- Polynomials --------------------------------------------------------------------------

  /// The subscript polynomial of E. Conversions that truncate make it invalid (they can map two
  /// iterations to one element); a change of sign is kept, as address arithmetic wraps alike.
  /// With Exact, the polynomial must also be E's value (for loop bounds, whose order matters):
  /// conversions must keep every value and unsigned arithmetic, which may wrap, is refused.
  Polynomial polyOf(const Expr *E, bool Exact = false) {
    if (!E)
      return Polynomial::invalid();
    E = E->IgnoreParens();
    if (!E->isValueDependent() && !E->isTypeDependent() && E->getType()->isIntegerType()) {
      Expr::EvalResult ER;
      if (E->EvaluateAsInt(ER, Ctx) && ER.Val.getInt().getSignificantBits() <= 64)
        return Polynomial::constant(ER.Val.getInt().getSExtValue());
    }
    if (const auto *CE = dyn_cast<CastExpr>(E)) {
      const Expr *Sub = CE->getSubExpr();
      switch (CE->getCastKind()) {
      case CK_LValueToRValue:
      case CK_NoOp:
        return polyOf(Sub, Exact);
      case CK_IntegralCast:
        if (Exact ? preservesValue(Sub->getType(), CE->getType(), Ctx)
                  : keepsDistinct(Sub->getType(), CE->getType(), Ctx))
          return polyOf(Sub, Exact);
        return Polynomial::invalid();
      default:
        return Polynomial::invalid();
      }
    }
    if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DR->getDecl());
      if (!VD)
        return Polynomial::invalid();
      if (const Frame *Owner = ownerFrame(DR)) {
        Polynomial P = inFrame(Owner, [&] { return polyOf(E, Exact); });
        return P;
      }
      if (auto It = IVPolys.find(VD); It != IVPolys.end())
        return It->second;
      if (auto It = InnerVars.find(VD); It != InnerVars.end())
        return Polynomial::variable(It->second);
      for (const Frame *F = Cur; F; F = F->Parent) {
        const auto &Defs = Exact ? F->ExactDefs : F->IntDefs;
        if (auto It = Defs.find(VD); It != Defs.end())
          return It->second;
        if (F->Params.count(VD) || F->Fn == nullptr)
          break;
      }
      if (auto It = Cur->Params.find(VD); It != Cur->Params.end()) {
        Polynomial P = inFrame(It->second.Caller, [&] { return polyOf(It->second.Arg, Exact); });
        return P;
      }
      if (Locals.count(VD) || Cur->Fn)
        return Polynomial::invalid();
      if (!VD->getType()->isIntegerType())
        return Polynomial::invalid();
      // An outer integer: a symbol. A loop that writes it is refused for that write.
      return Polynomial::variable({VD, VD->getNameAsString(), false});
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) && !Cur->Fn &&
          ME->getType()->isIntegerType())
        if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl()))
          return Polynomial::variable({FD, "this->" + FD->getNameAsString(), false});
      return Polynomial::invalid();
    }
    bool Wraps = E->getType()->isUnsignedIntegerOrEnumerationType();
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (Exact && Wraps)
        return Polynomial::invalid();
      Polynomial L = polyOf(BO->getLHS(), Exact);
      Polynomial Rr = polyOf(BO->getRHS(), Exact);
      switch (BO->getOpcode()) {
      case BO_Add: return L + Rr;
      case BO_Sub: return L - Rr;
      case BO_Mul: return L * Rr;
      case BO_Shl:
        if (auto C = Rr.asConstant(); C && *C >= 0 && *C < 62)
          return L.scaled(int64_t(1) << *C);
        return Polynomial::invalid();
      default: return Polynomial::invalid();
      }
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() == UO_Minus && !(Exact && Wraps))
        return -polyOf(UO->getSubExpr(), Exact);
      if (UO->getOpcode() == UO_Plus)
        return polyOf(UO->getSubExpr(), Exact);
    }
    return Polynomial::invalid();
  }

  /// Inside a lambda's body, a captured variable belongs to the frame of the function that
  /// declares it (the loop's own frame for the loop's function). Null when it is not a capture.
  const Frame *ownerFrame(const DeclRefExpr *DR) const {
    if (!Cur || !Cur->Fn || !DR->refersToEnclosingVariableOrCapture())
      return nullptr;
    const auto *VD = dyn_cast<VarDecl>(DR->getDecl());
    if (!VD)
      return nullptr;
    const DeclContext *DC = VD->getParentFunctionOrMethod();
    if (DC == Cur->Fn)
      return nullptr;
    const Frame *F = Cur->Parent;
    while (F && F->Fn && F->Fn != DC)
      F = F->Parent;
    return F;
  }

  // State.
  ASTContext &Ctx;
  LoopResult &R;
  const Frame *Cur = nullptr;
  std::map<const VarDecl *, size_t> IVs;
  std::map<const VarDecl *, Polynomial> IVPolys;
  std::vector<PolyVar> NormVars;
  std::map<const VarDecl *, PolyVar> InnerVars;
  RangeMap Ranges;
  std::set<const VarDecl *> Locals;
  std::set<const VarDecl *> WrittenLocals;
  std::map<const VarDecl *, Binding> RefDefs;
  const VarDecl *RangeVar = nullptr; ///< Element variable of a parallel range-based loop.
  PointerRef RangeBase;              ///< Its range.
  unsigned CondDepth = 0, BreakDepth = 0, CallDepth = 0;
  /// Iterations assumed for an inner loop whose trip count is not a constant.
  static constexpr double UnknownTrips = 16;
  double Work = 1.0;

public:
  std::vector<Access> Accesses;
  std::map<const VarDecl *, ScalarUse> Scalars;
  std::map<const VarDecl *, std::vector<const Expr *>> WholeUses, MetaUses;
  std::map<const VarDecl *, std::vector<const CXXMemberCallExpr *>> Appended;
  std::vector<const VarDecl *> AppendOrder;
  std::vector<const FunctionDecl *> PendingCallees;

  const RangeMap &ranges() const { return Ranges; }
  double work() const { return Work; }
  void prepare(const Stmt *Body) { collectWrittenLocals(Body); }
};

// --- Canonical form --------------------------------------------------------------------------

class CanonicalChecker {
public:
  CanonicalChecker(ASTContext &Ctx, LoopResult &R) : Ctx(Ctx), R(R) {}

  void refuse(std::string Msg, SourceLocation Loc, std::string Note = "") {
    R.Reasons.push_back({RejectKind::NotCanonical, std::move(Msg), Loc, std::move(Note), ""});
  }

  bool check(const ForStmt *F, CanonicalLoop &L) {
    L.Loop = F;
    const Expr *InitE = nullptr;
    const Stmt *Init = F->getInit();
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(Init)) {
      if (!DS->isSingleDecl()) {
        refuse("the loop initializes more than one variable", DS->getBeginLoc());
        return false;
      }
      L.Var = dyn_cast<VarDecl>(DS->getSingleDecl());
      InitE = L.Var ? L.Var->getInit() : nullptr;
      L.DeclaredInLoop = true;
    } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Init)) {
      if (BO->getOpcode() == BO_Assign)
        if (const auto *DR = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts())) {
          L.Var = dyn_cast<VarDecl>(DR->getDecl());
          InitE = BO->getRHS();
          L.DeclaredInLoop = false;
        }
    }
    if (!L.Var || !InitE) {
      refuse("the loop does not start by initializing one induction variable",
             Init ? Init->getBeginLoc() : F->getForLoc(),
             Init ? "initialization here" : "");
      return false;
    }
    if (!L.Var->getType()->isIntegerType() || L.Var->getType()->isBooleanType() ||
        L.Var->getType()->isEnumeralType()) {
      R.Reasons.push_back({RejectKind::NonIntegerInduction,
                           "induction variable '" + L.Var->getNameAsString() + "' has type '" +
                               L.Var->getType().getAsString() + "', not an integer type",
                           L.Var->getLocation(), "declared here", ""});
      return false;
    }
    if (L.Var->getType().isVolatileQualified() || !L.Var->hasLocalStorage()) {
      refuse("induction variable '" + L.Var->getNameAsString() + "' is not a local variable",
             L.Var->getLocation());
      return false;
    }
    L.VarName = L.Var->getNameAsString();
    L.VarType = typeString(L.Var->getType().getUnqualifiedType(), Ctx);
    L.InitText = spell(InitE, Ctx);
    L.InitPoly = polyOfSimple(InitE);
    L.InitValue = exactValue(InitE);

    const auto *Cond = dyn_cast_or_null<BinaryOperator>(
        F->getCond() ? F->getCond()->IgnoreParenImpCasts() : nullptr);
    if (!Cond || !Cond->isComparisonOp() || Cond->getOpcode() == BO_EQ ||
        Cond->getOpcode() == BO_Cmp) {
      refuse("the condition is not a comparison of the induction variable with a bound",
             F->getCond() ? F->getCond()->getBeginLoc() : F->getForLoc(),
             F->getCond() ? "condition here" : "");
      return false;
    }
    const Expr *LHS = Cond->getLHS(), *RHS = Cond->getRHS();
    BinaryOperatorKind Op = Cond->getOpcode();
    const Expr *BoundE;
    if (isVar(LHS, L.Var)) {
      BoundE = RHS;
    } else if (isVar(RHS, L.Var)) {
      BoundE = LHS;
      Op = BinaryOperator::reverseComparisonOp(Op);
    } else {
      refuse("the condition does not compare the induction variable '" + L.VarName + "'",
             Cond->getBeginLoc(), "condition here");
      return false;
    }
    if (isVar(BoundE, L.Var)) {
      refuse("the bound depends on the induction variable", BoundE->getBeginLoc());
      return false;
    }
    switch (Op) {
    case BO_LT: L.Cmp = LoopCmp::LT; break;
    case BO_LE: L.Cmp = LoopCmp::LE; break;
    case BO_GT: L.Cmp = LoopCmp::GT; break;
    case BO_GE: L.Cmp = LoopCmp::GE; break;
    case BO_NE: L.Cmp = LoopCmp::NE; break;
    default: break;
    }
    L.BoundText = spell(BoundE, Ctx);
    L.BoundValue = exactValue(BoundE);
    CondExpr = Cond;
    // The comparison happens in the type both sides convert to.
    const Expr *VarSide = isVar(LHS, L.Var) ? LHS : RHS;
    L.CmpType = typeString(VarSide->getType().getUnqualifiedType(), Ctx);
    BoundExpr = BoundE;

    const Expr *Inc = F->getInc() ? F->getInc()->IgnoreParenImpCasts() : nullptr;
    const Expr *StepE = nullptr;
    bool Neg = false;
    if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Inc)) {
      if (UO->isIncrementDecrementOp() && isVar(UO->getSubExpr(), L.Var)) {
        L.StepText = "1";
        Neg = UO->isDecrementOp();
        L.StepPoly = Polynomial::constant(Neg ? -1 : 1);
        L.StepNegated = Neg;
        StepExpr = nullptr;
        return true;
      }
    } else if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc)) {
      if (isVar(CA->getLHS(), L.Var) &&
          (CA->getOpcode() == BO_AddAssign || CA->getOpcode() == BO_SubAssign)) {
        StepE = CA->getRHS();
        Neg = CA->getOpcode() == BO_SubAssign;
      }
    } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Inc)) {
      if (BO->getOpcode() == BO_Assign && isVar(BO->getLHS(), L.Var))
        if (const auto *Add = dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts())) {
          if (Add->getOpcode() == BO_Add && isVar(Add->getLHS(), L.Var))
            StepE = Add->getRHS();
          else if (Add->getOpcode() == BO_Add && isVar(Add->getRHS(), L.Var))
            StepE = Add->getLHS();
          else if (Add->getOpcode() == BO_Sub && isVar(Add->getLHS(), L.Var)) {
            StepE = Add->getRHS();
            Neg = true;
          }
        }
    }
    if (!StepE) {
      refuse("the increment is not '++', '--', '+=' or '-=' of the induction variable",
             Inc ? Inc->getBeginLoc() : F->getForLoc(), Inc ? "increment here" : "");
      return false;
    }
    if (!StepE->getType()->isIntegerType()) {
      refuse("the step is not an integer", StepE->getBeginLoc());
      return false;
    }
    L.StepText = spell(StepE, Ctx);
    L.StepNegated = Neg;
    Polynomial S = polyOfSimple(StepE);
    L.StepPoly = S.isValid() ? (Neg ? -S : S) : Polynomial::invalid();
    StepExpr = StepE;
    return true;
  }

  static bool isVar(const Expr *E, const VarDecl *V) {
    const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DR && DR->getDecl() == V;
  }

  /// The value of a bound or an initial value as a polynomial over outer integer variables,
  /// only where it is exact: conversions keep every value and no unsigned arithmetic (which
  /// wraps, as in `n - 1` with n == 0) is involved. Invalid otherwise.
  Polynomial exactValue(const Expr *E) {
    E = E->IgnoreParens();
    Expr::EvalResult ER;
    if (!E->isValueDependent() && E->getType()->isIntegerType() && E->EvaluateAsInt(ER, Ctx)) {
      const llvm::APSInt &V = ER.Val.getInt();
      if (V.isSigned() ? V.getSignificantBits() <= 64 : V.getActiveBits() <= 63)
        return Polynomial::constant(V.getExtValue());
      return Polynomial::invalid();
    }
    if (const auto *CE = dyn_cast<CastExpr>(E)) {
      if (CE->getCastKind() == CK_LValueToRValue || CE->getCastKind() == CK_NoOp)
        return exactValue(CE->getSubExpr());
      if (CE->getCastKind() == CK_IntegralCast &&
          preservesValue(CE->getSubExpr()->getType(), CE->getType(), Ctx))
        return exactValue(CE->getSubExpr());
      return Polynomial::invalid();
    }
    if (const auto *DR = dyn_cast<DeclRefExpr>(E))
      if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()); VD && VD->getType()->isIntegerType())
        return Polynomial::variable({VD, VD->getNameAsString(), false});
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) && ME->getType()->isIntegerType())
        if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl()))
          return Polynomial::variable({FD, "this->" + FD->getNameAsString(), false});
    if (!E->getType()->isSignedIntegerType())
      return Polynomial::invalid();
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      Polynomial A = exactValue(BO->getLHS()), B = exactValue(BO->getRHS());
      if (BO->getOpcode() == BO_Add) return A + B;
      if (BO->getOpcode() == BO_Sub) return A - B;
      if (BO->getOpcode() == BO_Mul) return A * B;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_Minus)
      return -exactValue(UO->getSubExpr());
    return Polynomial::invalid();
  }

  /// Polynomial of a bound or step: constants and outer integer variables only.
  Polynomial polyOfSimple(const Expr *E) {
    Expr::EvalResult ER;
    if (!E->isValueDependent() && E->getType()->isIntegerType() && E->EvaluateAsInt(ER, Ctx) &&
        ER.Val.getInt().getSignificantBits() <= 64)
      return Polynomial::constant(ER.Val.getInt().getSExtValue());
    E = E->IgnoreParens();
    if (const auto *CE = dyn_cast<CastExpr>(E)) {
      if (CE->getCastKind() == CK_LValueToRValue || CE->getCastKind() == CK_NoOp ||
          (CE->getCastKind() == CK_IntegralCast &&
           keepsDistinct(CE->getSubExpr()->getType(), CE->getType(), Ctx)))
        return polyOfSimple(CE->getSubExpr());
      return Polynomial::invalid();
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) && ME->getType()->isIntegerType())
        if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl()))
          return Polynomial::variable({FD, "this->" + FD->getNameAsString(), false});
    if (const auto *DR = dyn_cast<DeclRefExpr>(E))
      if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()); VD && VD->getType()->isIntegerType())
        return Polynomial::variable({VD, VD->getNameAsString(), false});
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      Polynomial A = polyOfSimple(BO->getLHS()), B = polyOfSimple(BO->getRHS());
      if (BO->getOpcode() == BO_Add) return A + B;
      if (BO->getOpcode() == BO_Sub) return A - B;
      if (BO->getOpcode() == BO_Mul) return A * B;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_Minus)
      return -polyOfSimple(UO->getSubExpr());
    return Polynomial::invalid();
  }

  const Expr *BoundExpr = nullptr;
  const Expr *StepExpr = nullptr;
  const Expr *CondExpr = nullptr;

  /// A constant step must move the induction variable towards the bound, and the condition
  /// must be able to become false; otherwise the loop only ends by overflow or wrap-around.
  bool checkDirection(const ForStmt *F, const CanonicalLoop &L) {
    SourceLocation CondLoc = CondExpr ? CondExpr->getBeginLoc() : F->getForLoc();
    std::optional<int64_t> S = L.StepPoly.asConstant();
    if (S && *S == 0) {
      refuse("the step is zero, so the loop never ends", StepExpr ? StepExpr->getBeginLoc()
                                                                  : F->getForLoc(),
             "step here");
      return false;
    }
    if (S && L.Cmp != LoopCmp::NE) {
      bool Up = *S > 0;
      bool Less = L.Cmp == LoopCmp::LT || L.Cmp == LoopCmp::LE;
      if (Up != Less) {
        refuse("induction variable '" + L.VarName + "' moves away from the bound: it " +
                   (Up ? "increases" : "decreases") + " while the condition needs it to " +
                   (Up ? "decrease" : "increase"),
               CondLoc, "condition here");
        return false;
      }
    }
    if (L.Cmp == LoopCmp::GE && CondExpr && BoundExpr) {
      const auto *Cmp = cast<BinaryOperator>(CondExpr);
      QualType CT = Cmp->getLHS()->getType();
      Expr::EvalResult ER;
      if (CT->isUnsignedIntegerType() && !BoundExpr->isValueDependent() &&
          BoundExpr->EvaluateAsInt(ER, Ctx) && ER.Val.getInt().isZero()) {
        refuse("the condition '" + spell(CondExpr, Ctx) + "' is always true for unsigned '" +
                   L.VarName + "', so the loop only ends by wrapping around",
               CondLoc, "condition here");
        return false;
      }
    }
    return true;
  }

private:
  ASTContext &Ctx;
  LoopResult &R;
};

/// Names of variables an expression reads, and whether it has side effects beyond const calls.
void collectVars(const Stmt *S, std::set<const ValueDecl *> &Out, bool &SideEffects) {
  if (!S)
    return;
  if (const auto *DR = dyn_cast<DeclRefExpr>(S))
    Out.insert(DR->getDecl());
  if (const auto *ME = dyn_cast<MemberExpr>(S))
    Out.insert(ME->getMemberDecl());
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
    SideEffects = true;
  if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->isIncrementDecrementOp())
    SideEffects = true;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (!MD || !MD->isConst())
      SideEffects = true;
  } else if (const auto *CE = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD || !(FD->hasAttr<ConstAttr>() || FD->hasAttr<PureAttr>() || FD->isConstexpr()))
      if (!isa<CXXOperatorCallExpr>(S))
        SideEffects = true;
  }
  for (const Stmt *C : S->children())
    collectVars(C, Out, SideEffects);
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
    bool SE = false;
    collectVars(C, Vars, SE);
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
    collectVars(BO->getRHS(), RHSVars, SE);
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

} // namespace

/// An upper bound of the normalized iteration k (0 <= k < trip) as a polynomial: from exact
/// bounds where the step is a constant (k*|step| <= span), else an opaque trip-count symbol.
/// An over-approximation is sound: ranges only ever prove accesses apart.
Polynomial lastIteration(const CanonicalLoop &L) {
  Polynomial Opaque =
      Polynomial::variable({&L, "__clx_trip", false}) - Polynomial::constant(1);
  std::optional<int64_t> S = L.StepPoly.asConstant();
  if (L.RangeFor || !S || *S == 0 || !L.BoundValue.isValid() || !L.InitValue.isValid())
    return Opaque;
  Polynomial One = Polynomial::constant(1);
  Polynomial Hi;
  if (*S > 0 && L.Cmp == LoopCmp::LT)
    Hi = L.BoundValue - L.InitValue - One;
  else if (*S > 0 && L.Cmp == LoopCmp::LE)
    Hi = L.BoundValue - L.InitValue;
  else if (*S < 0 && L.Cmp == LoopCmp::GT)
    Hi = L.InitValue - L.BoundValue - One;
  else if (*S < 0 && L.Cmp == LoopCmp::GE)
    Hi = L.InitValue - L.BoundValue;
  else
    return Opaque; // `!=` may wrap around for unsigned types
  return Hi.isValid() ? Hi : Opaque;
}

// --- The analysis -----------------------------------------------------------------------------

LoopResult LoopAnalyzer::analyze(const Stmt *Loop, const LoopClauses &Clauses,
                                 const FunctionDecl *Enclosing) {
  LoopResult R;
  const SourceManager &SM = Ctx.getSourceManager();
  auto Refuse = [&](RejectKind K, std::string Msg, SourceLocation Loc = {}, std::string Note = "",
                    std::string Sugg = "") {
    R.Reasons.push_back({K, std::move(Msg), Loc, std::move(Note), std::move(Sugg)});
  };

  if (Enclosing && (Enclosing->isDependentContext() || Enclosing->isTemplateInstantiation())) {
    Refuse(RejectKind::Template,
           "loops in templates are not supported; call a non-template function from the template");
    return R;
  }
  if (Loop->getBeginLoc().isMacroID()) {
    Refuse(RejectKind::Macro, "the loop is written inside a macro, which cannot be rewritten");
    return R;
  }
  if (!SM.isWrittenInMainFile(SM.getExpansionLoc(Loop->getBeginLoc()))) {
    Refuse(RejectKind::NotInMainFile,
           "the loop is in an included file; only the main file is rewritten");
    return R;
  }

  // The nest: collapse(n) takes n perfectly nested canonical loops.
  std::vector<const ForStmt *> Fors;
  const Stmt *Body = nullptr;
  CanonicalChecker Canon(Ctx, R);
  // Per nest level, the expressions that must be loop-invariant: the bound (a range-for's range),
  // the initializer of an induction variable declared in the loop, and the step.
  struct LevelExprs {
    const Expr *Bound = nullptr, *Init = nullptr, *Step = nullptr;
  };
  std::vector<LevelExprs> Levels;
  if (const auto *RF = dyn_cast<CXXForRangeStmt>(Loop)) {
    if (Clauses.Collapse > 1) {
      Refuse(RejectKind::Collapse, "'collapse' needs 'for' loops with an induction variable");
      return R;
    }
    QualType RT = RF->getRangeInit()->getType().getNonReferenceType();
    bool Contiguous = isStdContainer(RT) || RT->isConstantArrayType();
    if (!Contiguous) {
      Refuse(RejectKind::NotCanonical,
             "range-based 'for' over '" + RT.getAsString() +
                 "', which is not a contiguous container (std::vector, std::array, std::span or "
                 "an array)",
             RF->getRangeInit()->getBeginLoc(), "range here");
      return R;
    }
    CanonicalLoop L;
    L.Loop = RF;
    L.RangeFor = true;
    L.Var = RF->getLoopVariable();
    L.VarName = L.Var->getNameAsString();
    L.RangeText = spell(RF->getRangeInit(), Ctx);
    L.VarType = "std::size_t";
    L.CmpType = "std::size_t";
    L.InitPoly = Polynomial::constant(0);
    L.StepPoly = Polynomial::constant(1);
    L.InitText = "0";
    L.StepText = "1";
    {
      const SourceManager &SM2 = Ctx.getSourceManager();
      CharSourceRange DR = CharSourceRange::getCharRange(
          L.Var->getBeginLoc(), L.Var->getLocation().getLocWithOffset(L.VarName.size()));
      L.ElemDeclText = Lexer::getSourceText(DR, SM2, Ctx.getLangOpts()).str();
    }
    R.Nest.push_back(L);
    Body = RF->getBody();
    Levels.push_back({RF->getRangeInit(), nullptr, nullptr});
  } else {
    const Stmt *S = Loop;
    for (int64_t Level = 0; Level < Clauses.Collapse; ++Level) {
      const auto *F = dyn_cast<ForStmt>(S);
      if (!F) {
        Refuse(RejectKind::Collapse,
               "'collapse(" + std::to_string(Clauses.Collapse) + ")' needs " +
                   std::to_string(Clauses.Collapse) + " perfectly nested 'for' loops",
               S->getBeginLoc(), "this statement is not a 'for' loop");
        return R;
      }
      CanonicalLoop L;
      if (!Canon.check(F, L) || !Canon.checkDirection(F, L))
        return R;
      Fors.push_back(F);
      Levels.push_back({Canon.BoundExpr,
                        L.DeclaredInLoop ? cast<VarDecl>(L.Var)->getInit() : nullptr,
                        Canon.StepExpr});
      R.Nest.push_back(L);
      Body = F->getBody();
      if (Level + 1 < Clauses.Collapse) {
        // The next loop must be the only statement of this body.
        const Stmt *Inner = Body;
        while (const auto *CS = dyn_cast<CompoundStmt>(Inner)) {
          if (CS->size() != 1) {
            Refuse(RejectKind::Collapse,
                   "'collapse' needs perfectly nested loops, but this loop's body has other "
                   "statements",
                   Body->getBeginLoc(), "body here");
            return R;
          }
          Inner = CS->body_front();
        }
        S = Inner;
      }
    }
  }

  // Normalized iteration variables, one per nest level.
  std::vector<PolyVar> NormVars;
  static const char *const NormNames[] = {"__clx_k0", "__clx_k1", "__clx_k2"};
  for (size_t L = 0; L < R.Nest.size(); ++L)
    NormVars.push_back({normalizedVarKey(unsigned(L)), NormNames[L], true});
  R.Outer = NormVars[0];

  Walker W(Ctx, R);
  W.prepare(Body);
  // Induction variable written in the body?
  W.run(Body, R.Nest, NormVars);

  // Bounds and steps must be invariant: no variable they read is written by the loop, and they
  // have no side effects of their own.
  std::vector<const Expr *> Bounds;
  for (const LevelExprs &X : Levels)
    for (const Expr *E : {X.Bound, X.Init})
      if (E)
        Bounds.push_back(E);
  for (const Expr *B : Bounds) {
    std::set<const ValueDecl *> Vars;
    bool SideEffects = false;
    collectVars(B, Vars, SideEffects);
    if (SideEffects) {
      Refuse(RejectKind::BoundNotInvariant, "a loop bound has side effects", B->getBeginLoc(),
             "bound here");
      continue;
    }
    for (const ValueDecl *V : Vars) {
      const auto *VD = dyn_cast<VarDecl>(V);
      if (!VD)
        continue;
      auto It = W.Scalars.find(VD);
      bool Written = It != W.Scalars.end() &&
                     (!It->second.Writes.empty() || !It->second.Updates.empty() ||
                      It->second.Escapes);
      if (Written || W.Appended.count(VD))
        Refuse(RejectKind::BoundNotInvariant,
               "the bound '" + spell(B, Ctx) + "' reads '" + VD->getNameAsString() +
                   "', which the loop modifies",
               B->getBeginLoc(), "bound here");
    }
  }
  // collapse: inner bounds, initializers and steps must not depend on outer induction variables
  // (a rectangular nest, whose inner trip counts are evaluated once).
  for (size_t L = 1; L < R.Nest.size(); ++L)
    for (size_t O = 0; O < L; ++O) {
      const std::pair<const Expr *, const char *> Parts[] = {
          {Levels[L].Bound, "bound"}, {Levels[L].Init, "start"}, {Levels[L].Step, "step"}};
      for (auto [E, What] : Parts) {
        if (!E)
          continue;
        std::set<const ValueDecl *> Vars;
        bool SE = false;
        collectVars(E, Vars, SE);
        if (Vars.count(R.Nest[O].Var))
          Refuse(RejectKind::Collapse,
                 "'collapse' needs a rectangular nest, but the " + std::string(What) +
                     " of the loop over '" + R.Nest[L].VarName + "' depends on '" +
                     R.Nest[O].VarName + "'",
                 E->getBeginLoc(), std::string(What) + " here");
      }
    }
  for (const LevelExprs &X : Levels) {
    const Expr *S = X.Step;
    if (!S)
      continue;
    std::set<const ValueDecl *> Vars;
    bool SE = false;
    collectVars(S, Vars, SE);
    for (const ValueDecl *V : Vars)
      if (const auto *VD = dyn_cast<VarDecl>(V)) {
        auto It = W.Scalars.find(VD);
        if (SE || (It != W.Scalars.end() && !It->second.Writes.empty()))
          Refuse(RejectKind::BoundNotInvariant, "the step '" + spell(S, Ctx) + "' may change",
                 S->getBeginLoc(), "step here");
      }
  }

  // Scalars: reductions, carried values, escapes.
  std::map<std::string, const ReduceClause *> ClauseFor;
  for (const ReduceClause &RC : Clauses.Reductions)
    ClauseFor[RC.Var] = &RC;
  std::set<std::string> ClauseUsed;
  for (auto &[VD, S] : W.Scalars) {
    std::string Name = VD->getNameAsString();
    if (S.Escapes) {
      Refuse(RejectKind::Escape,
             "the address of '" + Name + "' escapes, so iterations may share it",
             S.EscapeAt->getBeginLoc(), "address taken here");
      continue;
    }
    if (S.Writes.empty() && S.Updates.empty())
      continue; // read-only: captured by value
    if (!S.Updates.empty() && S.Writes.empty() && S.Reads.empty()) {
      std::string Op = S.Updates.front().first;
      bool Mixed = false;
      for (const auto &U : S.Updates)
        Mixed |= U.first != Op;
      if (Mixed) {
        Refuse(RejectKind::CarriedScalar,
               "'" + Name + "' is updated with different operators, so it is not a reduction",
               S.Updates.back().second->getBeginLoc(), "update here");
        continue;
      }
      bool IsFloat = VD->getType()->isRealFloatingType();
      auto CIt = ClauseFor.find(Name);
      if (CIt != ClauseFor.end()) {
        ClauseUsed.insert(Name);
        if (CIt->second->Op != Op) {
          R.Reasons.push_back({RejectKind::ReduceClause,
                               "'reduce(" + CIt->second->Op + ": " + Name +
                                   ")' does not match the loop, which combines '" + Name +
                                   "' with '" + Op + "'",
                               S.Updates.front().second->getBeginLoc(),
                               "updated here; write 'reduce(" + Op + ": " + Name + ")'", ""});
          continue;
        }
      } else if (IsFloat && (Op == "+" || Op == "*")) {
        R.Reasons.push_back(
            {RejectKind::FloatReduction,
             "'" + Name + "' is a floating-point reduction, whose rounding depends on the order "
             "of the iterations",
             S.Updates.front().second->getBeginLoc(), "accumulated here",
             "reduce(" + Op + ": " + Name + ")"});
        continue;
      }
      if (VD->getType()->isReferenceType() || !VD->hasLocalStorage()) {
        Refuse(RejectKind::CarriedScalar,
               "reduction variable '" + Name + "' must be a local variable of the function",
               S.Updates.front().second->getBeginLoc(), "accumulated here");
        continue;
      }
      R.Reductions.push_back({VD, Name, Op, IsFloat, CIt != ClauseFor.end()});
      continue;
    }
    // Written and read, or written as a plain value.
    const Expr *At = !S.Writes.empty() ? S.Writes.front()
                                       : S.Updates.front().second;
    if (!S.Updates.empty() && !S.Reads.empty()) {
      Refuse(RejectKind::CarriedScalar,
             "'" + Name + "' is accumulated and also read in the loop, so each iteration "
             "depends on the previous ones",
             S.Reads.front()->getBeginLoc(), "read here");
      continue;
    }
    if (S.Reads.empty()) {
      Refuse(RejectKind::CarriedScalar,
             "'" + Name + "' is declared outside the loop and written by every iteration; "
             "declare it inside the loop body",
             At->getBeginLoc(), "written here");
      continue;
    }
    if (S.Updates.empty() &&
        writtenFirstInEachIteration(Body, VD, S.Reads, Ctx.getSourceManager())) {
      Refuse(RejectKind::CarriedScalar,
             "'" + Name + "' is declared outside the loop, and each iteration assigns it "
             "before reading it; declare it inside the loop body, so that each iteration has "
             "its own",
             At->getBeginLoc(), "assigned here");
      continue;
    }
    Refuse(RejectKind::CarriedScalar,
           "'" + Name + "' carries a value from one iteration to the next",
           At->getBeginLoc(), "written here and read by a later iteration");
  }
  for (const ReduceClause &RC : Clauses.Reductions)
    if (!ClauseUsed.count(RC.Var)) {
      // A variable the loop writes in another way is refused above; one it only reads or
      // never names is a mistake in the clause.
      bool Written = false;
      for (const auto &[VD, S] : W.Scalars)
        Written |= VD->getNameAsString() == RC.Var && (!S.Writes.empty() || !S.Updates.empty() ||
                                                       S.Escapes);
      if (!Written)
        R.Reasons.push_back({RejectKind::ReduceClause,
                             "'reduce' names '" + RC.Var + "', which the loop does not update",
                             RC.Loc, "", ""});
    }

  // Ordered appends: the vector is used only through push_back/emplace_back.
  for (const VarDecl *VD : W.AppendOrder) {
    std::string Name = VD->getNameAsString();
    const Expr *Other = nullptr;
    if (auto It = W.MetaUses.find(VD); It != W.MetaUses.end())
      Other = It->second.front();
    if (auto It = W.WholeUses.find(VD); It != W.WholeUses.end())
      Other = It->second.front();
    const Access *Indexed = nullptr;
    for (const Access &A : W.Accesses)
      if (A.Decl == VD && !Indexed)
        Indexed = &A;
    if (Indexed) {
      Refuse(RejectKind::AppendMisuse, "'" + Name + "' is appended to and also indexed in the loop",
             Indexed->Loc, "indexed here");
      continue;
    }
    if (Other) {
      Refuse(RejectKind::AppendMisuse,
             "'" + Name + "' is appended to and also used otherwise in the loop",
             Other->getBeginLoc(), "used here");
      continue;
    }
    R.Appends.push_back({VD, Name});
  }

  // Whole-object uses of arrays (passing an array to an unknown place, assigning a container).
  for (auto &[VD, Uses] : W.WholeUses) {
    if (W.Appended.count(VD))
      continue;
    QualType T = VD->getType().getNonReferenceType();
    if (isStdContainer(T)) {
      Refuse(RejectKind::UnsupportedConstruct,
             "uses container '" + VD->getNameAsString() + "' as a whole",
             Uses.front()->getBeginLoc(), "used here");
    }
  }

  // Regions and the dependence test.
  std::map<std::string, size_t> RegionOf;
  std::vector<std::vector<const Access *>> ByRegion;
  for (const Access &A : W.Accesses) {
    auto [It, New] = RegionOf.emplace(A.Key, R.Regions.size());
    if (New) {
      if (isBitVector(A.BaseType))
        Refuse(RejectKind::UnsupportedConstruct,
               "'" + A.Name + "' is a std::vector<bool>, whose elements are bits packed into "
               "shared words",
               A.Loc, "access here");
      Region Reg;
      Reg.Name = A.Name;
      QualType T = A.BaseType.getNonReferenceType();
      Reg.MayAlias = A.BaseType->isReferenceType() || T->isPointerType();
      if (const auto *PV = dyn_cast_or_null<ParmVarDecl>(A.Decl))
        Reg.MayAlias |= PV->getType()->isReferenceType() || PV->getType()->isPointerType();
      bool IsVec = false;
      if (isStdContainer(T, &IsVec)) {
        Reg.IsContainer = true;
        Reg.Extent = ExtentKind::Container;
        Reg.ExtentText = A.Name + ".size()";
        if (const auto *CTS = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
                T->getAsCXXRecordDecl()))
          if (CTS->getTemplateArgs().size() > 0 &&
              CTS->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
            Reg.ElemType = typeString(CTS->getTemplateArgs()[0].getAsType(), Ctx);
      } else if (const auto *CAT = Ctx.getAsConstantArrayType(T)) {
        Reg.Extent = ExtentKind::ConstantArray;
        QualType E = T;
        uint64_t Total = 1;
        while (const auto *C = Ctx.getAsConstantArrayType(E)) {
          Reg.ConstDims.push_back(int64_t(C->getSize().getZExtValue()));
          Total *= C->getSize().getZExtValue();
          E = C->getElementType();
        }
        (void)CAT;
        Reg.ExtentText = std::to_string(Total);
        Reg.ElemType = typeString(E, Ctx);
      } else if (T->isPointerType()) {
        Reg.ElemType = typeString(T->getPointeeType(), Ctx);
        for (const ExtentClause &X : Clauses.Extents)
          if (X.Var == A.Name) {
            Reg.Extent = ExtentKind::Clause;
            Reg.ExtentText = X.Count;
          }
      }
      R.Regions.push_back(Reg);
      ByRegion.emplace_back();
    }
    Region &Reg = R.Regions[It->second];
    Reg.Access |= (A.Read ? unsigned(RegionRead) : 0u) | (A.Write ? unsigned(RegionWrite) : 0u);
    Reg.Affine &= A.Affine;
    ByRegion[It->second].push_back(&A);
  }

  // Delinearize, then test every write against every access of the same region.
  RangeMap Ranges = W.ranges();
  for (size_t L = 0; L < NormVars.size(); ++L)
    Ranges[NormVars[L].Key] = PolyRange{Polynomial::constant(0), lastIteration(R.Nest[L])};
  for (size_t RI = 0; RI < R.Regions.size(); ++RI) {
    Region &Reg = R.Regions[RI];
    std::vector<std::vector<Polynomial>> Subs;
    std::vector<Polynomial> Extents;
    bool ExtentsAgree = true;
    for (const Access *A : ByRegion[RI]) {
      std::vector<Polynomial> S = A->Subs;
      if (A->Affine && A->Subs.size() == 1 && Reg.ConstDims.size() <= 1) {
        std::vector<Polynomial> E;
        if (auto D = delinearize(A->Subs[0], Ranges, &E)) {
          S = *D;
          if (Subs.empty())
            Extents = E;
          else
            ExtentsAgree &= E == Extents;
        }
      }
      Subs.push_back(S);
    }
    // Unify ranks: accesses that delinearized differently are compared as written.
    size_t Rank = 0;
    for (auto &S : Subs)
      Rank = std::max(Rank, S.size());
    bool SameRank = ExtentsAgree;
    for (auto &S : Subs)
      SameRank &= S.size() == Rank;
    if (!SameRank) {
      for (size_t I = 0; I < Subs.size(); ++I)
        Subs[I] = ByRegion[RI][I]->Subs;
      Extents.clear();
    }
    Reg.DimExtents = Extents;
    Reg.Rank = 1;
    for (auto &S : Subs)
      Reg.Rank = std::max<unsigned>(Reg.Rank, S.size());
    Reg.Subscripts = Subs;

    // Extent needed for non-affine reads.
    if (!Reg.Affine && Reg.Extent == ExtentKind::Unknown) {
      const Access *A = ByRegion[RI].front();
      for (const Access *X : ByRegion[RI])
        if (!X->Affine) {
          A = X;
          break;
        }
      if (!(Reg.Access & RegionWrite))
        R.Reasons.push_back({RejectKind::UnboundedAccess,
                             "'" + Reg.Name + "' is read through a subscript that is not affine "
                             "and its extent is unknown",
                             A->Loc, "read here", "extent(" + Reg.Name + ", <count>)"});
    }
    // Non-affine writes.
    bool Refused = false;
    for (const Access *A : ByRegion[RI])
      if (A->Write && !A->Affine && !Refused) {
        Refuse(RejectKind::NonAffineWrite,
               "'" + Reg.Name + "' is written through a subscript that is not affine in the loop "
               "variables, so iterations may write the same element",
               A->Loc, "written here");
        Refused = true;
      }
    if (Refused)
      continue;
    // Pairwise test.
    const std::vector<const Access *> &As = ByRegion[RI];
    bool Found = false;
    for (size_t I = 0; I < As.size() && !Found; ++I) {
      if (!As[I]->Write)
        continue;
      for (size_t J = 0; J < As.size() && !Found; ++J) {
        if (J < I && As[J]->Write)
          continue; // tested as (J, I)
        if (!As[J]->Affine)
          continue;
        bool Independent = true;
        DepResult Res;
        for (const PolyVar &K : NormVars) {
          Res = testCrossIteration(Subs[I], Subs[J], K, Ranges);
          if (Res.Kind != DepKind::Independent) {
            Independent = false;
            break;
          }
        }
        if (Independent)
          continue;
        Found = true;
        std::string What = I == J ? "writes" : (As[J]->Write ? "writes" : "reads");
        std::string Msg = "'" + Reg.Name + "' is written in one iteration and " +
                          (I == J ? "written" : As[J]->Write ? "written" : "read") +
                          " in another";
        if (Res.Kind == DepKind::Dependent && Res.Distance)
          Msg += " (dependence distance " +
                 std::to_string(*Res.Distance < 0 ? -*Res.Distance : *Res.Distance) + ")";
        else if (Res.Kind == DepKind::Dependent && !Res.Why.empty())
          Msg += ": " + Res.Why;
        else if (Res.Kind == DepKind::Unknown)
          Msg = "'" + Reg.Name + "' may be written in one iteration and " +
                (As[J]->Write ? "written" : "read") + " in another: " + Res.Why;
        R.Reasons.push_back({RejectKind::ArrayDependence, Msg,
                             I == J ? As[I]->Loc : As[J]->Loc,
                             I == J ? "written here" : What == "reads" ? "conflicting read here"
                                                                       : "conflicting write here",
                             ""});
      }
    }
    // Full-write: one write subscript vector, unconditional, whole elements, each dimension a
    // unit-stride function of its own loop variable.
    Reg.FullWrite = false;
    if (Reg.Access & RegionWrite) {
      const std::vector<Polynomial> *WS = nullptr;
      bool Ok = true;
      for (size_t I = 0; I < As.size(); ++I) {
        if (!As[I]->Write)
          continue;
        if (As[I]->Conditional || As[I]->Partial || !As[I]->Affine)
          Ok = false;
        if (WS && *WS != Subs[I])
          Ok = false;
        WS = &Subs[I];
      }
      if (Ok && WS) {
        std::set<const void *> Used;
        for (const Polynomial &P : *WS) {
          std::vector<PolyVar> Vs = P.loopVars();
          if (Vs.size() != 1 || Used.count(Vs[0].Key)) {
            Ok = false;
            break;
          }
          Used.insert(Vs[0].Key);
          auto C = P.coefficientOf(Vs[0]).asConstant();
          if (!C || (*C != 1 && *C != -1))
            Ok = false;
        }
        // The loops behind those variables must be unit-step and unconditional.
        for (const CanonicalLoop &L : R.Nest) {
          auto S = L.StepPoly.asConstant();
          if (!S || (*S != 1 && *S != -1))
            Ok = false;
        }
        Reg.FullWrite = Ok;
      }
    }
  }

  // Complexity.
  R.Level = complexityLevel(R.Score);
  R.WorkPerIter = W.work();
  if (R.Level > Opts.MaxLevel)
    Refuse(RejectKind::TooComplex,
           "complexity level " + std::to_string(R.Level) + " (score " + std::to_string(R.Score) +
               ") is above the configured maximum " + std::to_string(Opts.MaxLevel));
  if (Clauses.Enable && !*Clauses.Enable)
    Refuse(RejectKind::Disabled, "disabled by 'gpu_parallel(disable)'");

  R.Accepted = R.Reasons.empty();
  return R;
}
