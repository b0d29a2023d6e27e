//===- HostCodeGen.cpp - The block that replaces a loop --------------------===//
//
// Names in the block: __clx_trip<L> and __clx_init<L>/__clx_mag<L>/__clx_up<L> per nest level,
// __clx_info (the descriptor), __clx_chunk (the host chunk function), __clx_args (LoopArgs).
//
//===----------------------------------------------------------------------===//
#include "clustrix/Rewrite/HostCodeGen.h"
#include "HostCodeGenShared.h"
#include "clustrix/AST/LoopNest.h"
#include "clustrix/Analysis/LoopAnalysis.h"
#include "clustrix/AST/StatementEnd.h"
#include "clustrix/Rewrite/BoxCodeGen.h"
#include "clustrix/Rewrite/CCaptures.h"
#include "clustrix/Rewrite/DescriptorGen.h"
#include "clustrix/Rewrite/FileRewriter.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <set>

using namespace clang;
using namespace clustrix;

namespace {

/// Structured bindings declared outside Loop that it names: a lambda cannot capture them before
/// C++20, so the lambdas generated around the body bind each by an init-capture of its own.
void outerBindings(const Stmt *S, const SourceManager &SM, SourceRange Loop,
                   std::vector<std::string> &Names) {
  if (!S)
    return;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *B = dyn_cast<BindingDecl>(DRE->getDecl())) {
      SourceLocation L = SM.getExpansionLoc(B->getLocation());
      bool Inside = !SM.isBeforeInTranslationUnit(L, SM.getExpansionLoc(Loop.getBegin())) &&
                    !SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Loop.getEnd()), L);
      std::string Name = B->getName().str();
      if (!Inside && !Name.empty() &&
          std::find(Names.begin(), Names.end(), Name) == Names.end())
        Names.push_back(Name);
    }
  for (const Stmt *C : S->children())
    outerBindings(C, SM, Loop, Names);
}

/// Variables of variably modified type declared outside Loop that it names, in order of first
/// use.
void outerVariablyModified(const Stmt *S, const SourceManager &SM, SourceRange Loop,
                           std::vector<const VarDecl *> &Out) {
  if (!S)
    return;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      if (V->hasLocalStorage() && V->getType()->isVariablyModifiedType() &&
          SM.isBeforeInTranslationUnit(SM.getExpansionLoc(V->getLocation()),
                                       SM.getExpansionLoc(Loop.getBegin())) &&
          std::find(Out.begin(), Out.end(), V) == Out.end())
        Out.push_back(V);
  for (const Stmt *C : S->children())
    outerVariablyModified(C, SM, Loop, Out);
}

/// Whether Text contains the identifier Id as a whole word.
bool mentions(const std::string &Text, const std::string &Id) {
  auto IsIdChar = [](char C) { return std::isalnum(static_cast<unsigned char>(C)) || C == '_'; };
  for (size_t At = Text.find(Id); At != std::string::npos; At = Text.find(Id, At + 1))
    if ((At == 0 || !IsIdChar(Text[At - 1])) &&
        (At + Id.size() == Text.size() || !IsIdChar(Text[At + Id.size()])))
      return true;
  return false;
}

/// `::clustrix::rt::inductionValue<__clx_ivL>(<P>initL, <P>magL, <P>upL, K)`: P is `__clx_` for
/// the enclosing block's values, `__clx_c` for the chunk function's copies of them.
std::string inductionValue(size_t L, const std::string &K, const char *P = "__clx_") {
  std::string I = std::to_string(L);
  return "::clustrix::rt::inductionValue<__clx_iv" + I + ">(" + P + "init" + I + ", " + P + "mag" +
         I + ", " + P + "up" + I + ", " + K + ")";
}

/// Variables of the enclosing function that the body only reads, as values: scalars (numbers,
/// enumerators, pointers) with automatic storage, declared before the loop, not references,
/// not volatile, not constants, and named in the body only where their value is read. The chunk
/// function takes copies of them, so that the optimizer sees values the body's stores cannot
/// change (as it does in the loop as written) instead of memory reached through the closure.
/// A loop the analysis accepted writes no such variable, by any name: the kernel passes the
/// same variables by value.
class ReadOnlyScalars : public RecursiveASTVisitor<ReadOnlyScalars> {
public:
  ReadOnlyScalars(const SourceManager &SM, SourceRange Loop, std::set<const VarDecl *> Excluded)
      : SM(SM), Loop(Loop), Excluded(std::move(Excluded)) {}

  /// The names to copy, in order of first use.
  std::vector<std::string> names() const {
    std::vector<std::string> Out;
    for (const VarDecl *V : Order)
      if (!Disqualified.count(V))
        Out.push_back(V->getNameAsString());
    return Out;
  }

  bool VisitImplicitCastExpr(ImplicitCastExpr *E) {
    if (E->getCastKind() == CK_LValueToRValue)
      if (const auto *D = dyn_cast<DeclRefExpr>(E->getSubExpr()->IgnoreParens()))
        ValueReads.insert(D);
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *D) {
    const auto *V = dyn_cast<VarDecl>(D->getDecl());
    if (!V || !candidate(V))
      return true;
    if (std::find(Order.begin(), Order.end(), V) == Order.end())
      Order.push_back(V);
    if (Unevaluated > 0 || !ValueReads.count(D))
      Disqualified.insert(V);
    return true;
  }

  // Operands that are not evaluated: a copy named only there would be an unused capture.
  bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *E) {
    return unevaluated([&] { return RecursiveASTVisitor::TraverseUnaryExprOrTypeTraitExpr(E); });
  }
  bool TraverseCXXNoexceptExpr(CXXNoexceptExpr *E) {
    return unevaluated([&] { return RecursiveASTVisitor::TraverseCXXNoexceptExpr(E); });
  }
  bool TraverseCXXTypeidExpr(CXXTypeidExpr *E) {
    return unevaluated([&] { return RecursiveASTVisitor::TraverseCXXTypeidExpr(E); });
  }
  bool TraverseDecltypeTypeLoc(DecltypeTypeLoc TL) {
    return unevaluated([&] { return RecursiveASTVisitor::TraverseDecltypeTypeLoc(TL); });
  }

private:
  template <class F> bool unevaluated(F Traverse) {
    ++Unevaluated;
    bool Ok = Traverse();
    --Unevaluated;
    return Ok;
  }

  bool candidate(const VarDecl *V) const {
    if (Excluded.count(V) || !V->hasLocalStorage() || isa<DecompositionDecl>(V))
      return false;
    QualType T = V->getType();
    // A pointer to a variable-length array stays captured by reference: clang cannot generate
    // code for an init-capture of a variably modified type.
    if (T->isDependentType() || T->isReferenceType() || T.isVolatileQualified() ||
        T->isVariablyModifiedType() || !(T->isArithmeticType() || T->isEnumeralType() || T->isPointerType()))
      return false;
    if (V->isUsableInConstantExpressions(V->getASTContext()))
      return false; // not captured at all: the body sees the constant
    SourceLocation L = SM.getExpansionLoc(V->getLocation());
    return SM.isBeforeInTranslationUnit(L, SM.getExpansionLoc(Loop.getBegin()));
  }

  const SourceManager &SM;
  SourceRange Loop;
  std::set<const VarDecl *> Excluded;
  std::set<const DeclRefExpr *> ValueReads;
  std::vector<const VarDecl *> Order;
  std::set<const VarDecl *> Disqualified;
  int Unevaluated = 0;
};

} // namespace

HostCodeGen::HostCodeGen(const FileRewriter &FR, const Stmt *Loop, const LoopResult &R,
                         const LoopClauses &C, const Kernel &K, unsigned LoopBegin,
                         unsigned LoopEnd)
    : FR(FR), Loop(Loop), R(R), C(C), K(K), LoopBegin(LoopBegin), LoopEnd(LoopEnd),
      N(R.Nest.size()) {
  std::vector<std::string> Bindings;
  outerBindings(Loop, FR.sourceManager(), Loop->getSourceRange(), Bindings);
  for (const std::string &B : Bindings)
    Captures += ", &" + B + " = " + B;
  std::set<const VarDecl *> Excluded;
  for (const CanonicalLoop &L : R.Nest)
    Excluded.insert(L.Var);
  for (const Reduction &X : R.Reductions)
    Excluded.insert(X.Var);
  for (const Append &X : R.Appends)
    Excluded.insert(X.Var);
  for (const Private &X : R.Privates) // each chunk has its own
    Excluded.insert(X.Var);
  // Only the innermost body runs in the chunk function (the headers of a collapsed nest do not).
  ReadOnlyScalars Scalars(FR.sourceManager(), Loop->getSourceRange(), std::move(Excluded));
  Scalars.TraverseStmt(const_cast<Stmt *>(innermostBody(Loop, unsigned(N))));
  // A guard region is a scalar that writes through a pointer may reach: the body must read the
  // variable itself, never a copy.
  std::set<std::string> Guards;
  for (const Region &G : R.Regions)
    if (G.Scalar)
      Guards.insert(G.Name);
  for (const std::string &Name : Scalars.names())
    if (!Guards.count(Name))
      Copies += ", " + Name + " = " + Name;
  std::vector<const VarDecl *> Modified;
  outerVariablyModified(Loop, FR.sourceManager(), Loop->getSourceRange(), Modified);
  for (size_t I = 0; I < Modified.size(); ++I) {
    const VarDecl *V = Modified[I];
    const ASTContext &Ctx = V->getASTContext();
    QualType T = V->getType();
    if (!isPointerArrayChain(T, Ctx))
      continue; // Clang's capture by reference reaches it; GCC has no way to
    std::string Name = V->getNameAsString();
    std::string Id = "__clx_vm" + std::to_string(I);
    // A length the analysis knows (a constant, or a variable nothing changes) is spelled as
    // such; another is read with sizeof from the variable's type. (GCC 12 fails on two sizeofs
    // of a type that a `using` alias makes variably modified.)
    std::vector<std::string> Bounds = variableBounds(Ctx.getPointerType(T), "&" + Name, Ctx);
    std::vector<Polynomial> Known =
        variableLengths(Ctx, T, dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod()),
                        R.Spellings);
    for (size_t B = 0; B < Bounds.size() && B < Known.size(); ++B)
      if (Known[B].isValid())
        Bounds[B] = "static_cast<std::size_t>(" + Known[B].str() + ")";
    std::vector<std::string> BoundNames;
    VariablyModifiedOutside += "  void *const " + Id + " = (void *)&" + Name + ";\n";
    for (size_t B = 0; B < Bounds.size(); ++B) {
      BoundNames.push_back(Id + "_b" + std::to_string(B));
      VariablyModifiedOutside +=
          "  const std::size_t " + BoundNames.back() + " = " + Bounds[B] + ";\n";
      Copies += ", " + BoundNames.back() + " = " + BoundNames.back();
    }
    Copies += ", " + Id + " = " + Id;
    // One typedef: Clang takes two spellings of a variable array type for unrelated types.
    VariablyModifiedInside += "      typedef " + cDeclaration(T, Id + "_t", BoundNames, Ctx) +
                              ";\n      " + Id + "_t &" + Name + " = *(" + Id + "_t *)" + Id +
                              ";\n      (void)" + Name + ";\n";
  }
  // Whether a header names a guard: by the last identifier of its spelling ("this->n": n), a
  // conservative test (a false match only costs the serial fast path).
  for (const std::string &G : Guards) {
    size_t From = G.find_last_of(".>");
    std::string Id = From == std::string::npos ? G : G.substr(From + 1);
    for (const CanonicalLoop &L : R.Nest)
      for (const std::string *T : {&L.InitText, &L.BoundText, &L.StepText, &L.RangeText})
        GuardedHeader |= mentions(*T, Id);
  }
}

std::string HostCodeGen::generate() {
  const SourceManager &SM = FR.sourceManager();
  SourceLocation ForLoc = SM.getComposedLoc(FR.file(), LoopBegin);
  unsigned Line = SM.getSpellingLineNumber(ForLoc), Col = SM.getSpellingColumnNumber(ForLoc);
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << "{ /* clustrix: loop at line " << Line << " runs through libclustrix_rt */\n"
     << VariablyModifiedOutside;
  emitIterationSpace(OS);
  // What the compiler proved.
  emitDescriptor(OS, {R, C, K, FR.presumedName(), Line, Col, GuardedHeader});
  if (GuardedHeader)
    OS << "  auto __clx_as_written = " << asWritten() << ";\n";
  OS << "  if (__clx_trip.Ok) {\n";
  for (size_t I = 0; I < R.Reductions.size(); ++I)
    OS << "    using __clx_r" << I << "_t = std::remove_reference_t<decltype("
       << R.Reductions[I].Name << ")>;\n";
  for (size_t I = 0; I < R.Appends.size(); ++I)
    OS << "    using __clx_a" << I << "_t = std::remove_reference_t<decltype("
       << R.Appends[I].Name << ")>;\n";
  for (size_t I = 0; I < R.Privates.size(); ++I) {
    OS << "    using __clx_p" << I << "_t = std::remove_reference_t<decltype("
       << R.Privates[I].Name << ")>;\n";
    if (R.Privates[I].LiveOut)
      OS << "    __clx_p" << I << "_t *const __clx_pv" << I << " = static_cast<__clx_p" << I
         << "_t *>(::clustrix::rt::ownAddress(" << R.Privates[I].Name << "));\n";
  }
  emitChunkFunction(OS);
  emitSerialFastPath(OS);
  emitSlots(OS);
  if (!R.Regions.empty())
    OS << boxProgramCode(R);
  emitArgs(OS);
  emitSerialFallback(OS);
  emitAsWritten(OS);
  OS << "\n}" << FR.lineDirective(LoopEnd);
  return S;
}

/// The trip count of every level and of the whole nest, evaluated once, as the serial loop
/// evaluates its bounds.
void HostCodeGen::emitIterationSpace(llvm::raw_ostream &OS) {
  const CanonicalLoop &L0 = R.Nest[0];
  if (L0.RangeFor) {
    namespace T = descriptor::TripField;
    OS << "  auto &&__clx_range = (" << L0.RangeText << ");\n"
       << "  const ::clustrix::rt::Trip __clx_trip0"
       << descriptor::init(descriptor::Trip{
              T::Count("static_cast<std::uint64_t>(std::size(__clx_range))"), T::Ok("true")})
       << ";\n";
  } else {
    for (size_t L = 0; L < N; ++L) {
      const CanonicalLoop &CL = R.Nest[L];
      std::string I = std::to_string(L);
      OS << "  using __clx_iv" << I << " = " << CL.VarType << ";\n"
         << "  using __clx_ct" << I << " = " << CL.CmpType << ";\n"
         << "  const __clx_iv" << I << " __clx_init" << I << " = static_cast<__clx_iv" << I
         << ">(" << CL.InitText << ");\n"
         << "  const __clx_ct" << I << " __clx_bound" << I << " = static_cast<__clx_ct" << I
         << ">(" << CL.BoundText << ");\n"
         << "  const auto __clx_stepv" << I << " = (" << CL.StepText << ");\n"
         << "  const bool __clx_up" << I << " = " << (CL.StepNegated ? "!" : "")
         << "::clustrix::rt::stepUp(__clx_stepv" << I << ");\n"
         << "  const auto __clx_mag" << I << " = ::clustrix::rt::stepMagnitude<__clx_iv" << I
         << ">(__clx_stepv" << I << ");\n"
         << "  const ::clustrix::rt::Trip __clx_trip" << I
         << " = ::clustrix::rt::tripCountMixed<__clx_iv" << I << ", __clx_ct" << I
         << ">(__clx_init" << I << ", __clx_bound" << I << ", ::clustrix::rt::Cmp::"
         << runtimeName(CL.Cmp) << ", __clx_mag" << I << ", __clx_up" << I << ");\n";
    }
  }
  OS << "  const ::clustrix::rt::Trip __clx_trip = ";
  for (size_t L = 1; L < N; ++L)
    OS << "::clustrix::rt::tripProduct(";
  OS << "__clx_trip0";
  for (size_t L = 1; L < N; ++L)
    OS << ", __clx_trip" << L << ")";
  OS << ";\n";
}

/// `__clx_chunk(Lo, Hi, Ctx)`: iterations [Lo, Hi) of the body, in order, with the reduction
/// and append variables bound to the chunk's partials and buffers. Written so that the optimizer
/// treats the body as it treats the loop as written: the scalars the body reads are copies
/// (chunkThunk copies the whole closure onto its own frame), a reduction variable is a local
/// stored back to its partial when the chunk ends (also by an exception), and the induction
/// variable steps as the loop's own does. The `for` carries the loop's line, so that remarks
/// such as -Rpass=loop-vectorize name the user's loop.
void HostCodeGen::emitChunkFunction(llvm::raw_ostream &OS) {
  OS << "    auto __clx_chunk = [&" << Captures << Copies
     << "](std::uint64_t __clx_lo, std::uint64_t __clx_hi, "
        "::clustrix::rt::ChunkContext &__clx_ctx) {\n      (void)__clx_ctx;\n"
     << VariablyModifiedInside;
  for (size_t I = 0; I < R.Reductions.size(); ++I)
    OS << "      __clx_r" << I << "_t " << R.Reductions[I].Name
       << " = ::clustrix::rt::partial<__clx_r" << I << "_t>(__clx_ctx, " << I << ");\n"
       << "      const ::clustrix::rt::StoreBack<__clx_r" << I << "_t> __clx_back" << I
       << "{::clustrix::rt::partial<__clx_r" << I << "_t>(__clx_ctx, " << I << "), "
       << R.Reductions[I].Name << "};\n";
  for (size_t I = 0; I < R.Appends.size(); ++I)
    OS << "      __clx_a" << I << "_t &" << R.Appends[I].Name
       << " = ::clustrix::rt::appendBuffer<__clx_a" << I << "_t>(__clx_ctx, " << I << ");\n";
  // Privates: the chunk's own, and the chunk that runs the last iteration leaves its value in
  // the variable, as the serial loop does.
  for (size_t I = 0; I < R.Privates.size(); ++I)
    OS << "      __clx_p" << I << "_t " << R.Privates[I].Name << ";\n";
  unsigned Open = emitIterationVariables(OS);
  auto [BodyBegin, BodyEnd] = statementOffsets(innermostBody(Loop, unsigned(N)),
                                               FR.sourceManager(), FR.langOpts());
  OS << FR.lineDirective(BodyBegin) << FR.cleanText(BodyBegin, BodyEnd) << "\n";
  for (unsigned I = Open; I-- > 0;)
    OS << (I ? "        }\n" : "      }\n");
  hostgen::emitPrivatesHandBack(OS, R, "      ", "__clx_trip.Count", "__clx_pv");
  OS << "    };\n";
}

/// The loop over the chunk's iterations, and the user's variables of each iteration. The
/// iteration space's values are copied on entry: constants stay constants, the others become
/// values in registers.
unsigned HostCodeGen::emitIterationVariables(llvm::raw_ostream &OS) {
  const CanonicalLoop &L0 = R.Nest[0];
  if (!L0.RangeFor)
    for (size_t L = 0; L < N; ++L) {
      std::string I = std::to_string(L);
      OS << "      const __clx_iv" << I << " __clx_cinit" << I << " = __clx_init" << I << ";\n"
         << "      const auto __clx_cmag" << I << " = __clx_mag" << I << ";\n"
         << "      const bool __clx_cup" << I << " = __clx_up" << I << ";\n";
    }
  std::string ForLine = FR.lineDirective(LoopBegin);
  ForLine.resize(ForLine.find_last_not_of(' ') + 1); // the directive, not the column
  if (N == 1) {
    if (L0.RangeFor) {
      OS << ForLine << "      for (std::uint64_t __clx_k0 = __clx_lo; __clx_k0 < __clx_hi; "
                       "++__clx_k0) {\n"
         << "        " << L0.ElemDeclText << " = __clx_range[__clx_k0];\n";
      return 1;
    }
    // The induction variable steps by the loop's own step, in its own type, so that the
    // optimizer knows (as for the loop as written) that it does not wrap: every value it takes,
    // up to the one after the chunk's last iteration, is one the serial loop takes.
    OS << "      const auto __clx_cstep0 = __clx_stepv0;\n"
       << "      __clx_iv0 __clx_i0 = " << inductionValue(0, "__clx_lo", "__clx_c") << ";\n"
       << ForLine << "      for (std::uint64_t __clx_k0 = __clx_lo; __clx_k0 < __clx_hi; "
       << "++__clx_k0, __clx_i0 " << (L0.StepNegated ? "-=" : "+=") << " __clx_cstep0) {\n"
       << "        __clx_iv0 " << L0.VarName << " = __clx_i0;\n";
    return 1;
  }
  // A collapsed nest: the multi-index of Lo; then, row by row of the innermost level, the
  // outer variables once and the innermost one stepping by its own step as the loop as written
  // does (the optimizer then sees consecutive elements, as in the nest as written), and the
  // multi-index moved past the row. A `continue` of the body continues the row.
  std::string Last = std::to_string(N - 1);
  OS << "      const auto __clx_cstep" << Last << " = __clx_stepv" << Last << ";\n";
  hostgen::emitCollapsedRows(
      OS, N, "      ",
      [](size_t L) { return "__clx_trip" + std::to_string(L) + ".Count"; },
      RuntimeDialect::cxx());
  for (size_t L = 0; L + 1 < N; ++L)
    OS << "        const __clx_iv" << L << " __clx_o" << L << " = "
       << inductionValue(L, "__clx_idx[" + std::to_string(L) + "]", "__clx_c") << ";\n";
  OS << "        __clx_iv" << Last << " __clx_i" << Last << " = "
     << inductionValue(N - 1, "__clx_idx[" + Last + "]", "__clx_c") << ";\n";
  hostgen::emitRowAdvance(OS, N, "        ", RuntimeDialect::cxx());
  OS << ForLine << "        for (std::uint64_t __clx_r = 0; __clx_r < __clx_run; ++__clx_r, __clx_i"
     << Last << " " << (R.Nest[N - 1].StepNegated ? "-=" : "+=") << " __clx_cstep" << Last
     << ") {\n";
  for (size_t L = 0; L + 1 < N; ++L)
    OS << "          __clx_iv" << L << " " << R.Nest[L].VarName << " = __clx_o" << L << ";\n";
  OS << "          __clx_iv" << Last << " " << R.Nest[N - 1].VarName << " = __clx_i" << Last
     << ";\n";
  return 2;
}

/// The reduction and append slots.
void HostCodeGen::emitSlots(llvm::raw_ostream &OS) {
  if (hostgen::hasMathErrors(K))
    OS << "    unsigned long long __clx_mlast = 0;\n";
  if (!R.Reductions.empty() || hostgen::hasMathErrors(K)) {
    OS << "    ::clustrix::rt::ReductionSlot __clx_reds[] = {";
    for (size_t I = 0; I < R.Reductions.size(); ++I) {
      std::optional<ReduceOp> Op = reduceOpForSpelling(R.Reductions[I].Op);
      assert(Op && "the analysis names operators by their spelling");
      OS << (I ? ", " : "") << "::clustrix::rt::reductionSlot(" << R.Reductions[I].Name
         << ", ::clustrix::rt::ReduceOp::" << runtimeName(Op.value_or(ReduceOp::BitXor)) << ")";
    }
    if (hostgen::hasMathErrors(K))
      OS << (R.Reductions.empty() ? "" : ", ")
         << "::clustrix::rt::reductionSlot(__clx_mlast, ::clustrix::rt::ReduceOp::Max)";
    OS << "};\n";
  }
  if (!R.Appends.empty()) {
    OS << "    ::clustrix::rt::AppendSlot __clx_apps[] = {";
    for (size_t I = 0; I < R.Appends.size(); ++I)
      OS << (I ? ", " : "") << "::clustrix::rt::appendSlot(" << R.Appends[I].Name << ")";
    OS << "};\n";
  }
}

/// The addresses of the kernel's scalar arguments, and LoopArgs, field by field (a field the
/// loop does not use stays zero).
void HostCodeGen::emitArgs(llvm::raw_ostream &OS) {
  hostgen::emitKernelScalars(OS, K, [](const std::string &E) { return "&" + E; });
  OS << "    ::clustrix::rt::LoopArgs __clx_args{};\n"
     << "    __clx_args.TripCount = __clx_trip.Count;\n"
     << "    __clx_args.Host = &::clustrix::rt::chunkThunk<decltype(__clx_chunk)>;\n"
     << "    __clx_args.HostEnv = &__clx_chunk;\n";
  hostgen::emitCommonArgs(OS, R, K,
                          "    __clx_args.Boxes = &::clustrix::rt::programBoxes;\n"
                          "    __clx_args.WriteBoxes = &::clustrix::rt::programWriteBoxes;\n"
                          "    __clx_args.BoxEnv = &__clx_boxenv;\n",
                          R.Appends.empty()
                              ? ""
                              : "    __clx_args.Appends = __clx_apps;\n"
                                "    __clx_args.NumAppends = " +
                                    std::to_string(R.Appends.size()) + ";\n");
}

/// The loop's own reduction and append variables, and the call that skips the runtime: when
/// the runtime already decided that a call with this trip count runs serially (keepSerial), the
/// chunk function runs all of it in place, in order, on those variables (the loop's own
/// operations), and nothing else of the block is evaluated. Otherwise (an `else` that
/// emitSerialFallback closes) the slots, boxes and arguments are built for runLoop.
void HostCodeGen::emitSerialFastPath(llvm::raw_ostream &OS) {
  size_t NumOwn = R.Reductions.size() + R.Appends.size();
  if (NumOwn) {
    OS << "    void *__clx_own[] = {";
    size_t I = 0;
    for (const Reduction &X : R.Reductions)
      OS << (I++ ? ", " : "") << "::clustrix::rt::ownAddress(" << X.Name << ")";
    for (const Append &X : R.Appends)
      OS << (I++ ? ", " : "") << "::clustrix::rt::ownAddress(" << X.Name << ")";
    OS << "};\n";
  }
  if (GuardedHeader)
    return; // every call goes through runLoop, which checks the guards first
  OS << "    if (::clustrix::rt::keepSerial(__clx_info, __clx_trip.Count)) {\n      "
     << runInPlace() << "\n    } else {\n";
}

/// `runInPlace(...)` of the whole loop on its own variables.
std::string HostCodeGen::runInPlace() const {
  bool Own = !R.Reductions.empty() || !R.Appends.empty();
  return "::clustrix::rt::runInPlace(__clx_chunk, __clx_trip.Count, " +
         std::string(Own ? "__clx_own" : "nullptr") + ", " + std::to_string(R.Reductions.size()) +
         ");";
}

/// runLoop; where the runtime returns Serial without running the loop, the chunk function runs
/// it in place as in emitSerialFastPath. An induction variable declared before the loop then
/// ends with the value the serial loop leaves. With a guarded header, AsWritten runs the loop as
/// written, which leaves its induction variables as it goes.
void HostCodeGen::emitSerialFallback(llvm::raw_ostream &OS) {
  std::string Finals;
  for (size_t L = 0; L < N; ++L) {
    const CanonicalLoop &CL = R.Nest[L];
    if (CL.DeclaredInLoop || CL.RangeFor)
      continue;
    Finals += std::string(L == 0 ? "    " : "    if (__clx_trip.Count > 0) ") + CL.VarName +
              " = " + inductionValue(L, "__clx_trip" + std::to_string(L) + ".Count") + ";\n";
  }
  if (!GuardedHeader) {
    OS << "    if (::clustrix::rt::runLoop(__clx_info, __clx_args) != "
          "::clustrix::rt::RunStatus::Done)\n      "
       << runInPlace() << "\n    }\n"
       << Finals;
    return;
  }
  OS << "    const ::clustrix::rt::RunStatus __clx_st = ::clustrix::rt::runLoop(__clx_info, "
        "__clx_args);\n"
     << "    if (__clx_st == ::clustrix::rt::RunStatus::AsWritten) {\n"
     << "      __clx_as_written();\n"
     << "    } else {\n"
     << "    if (__clx_st != ::clustrix::rt::RunStatus::Done)\n      " << runInPlace() << "\n"
     << Finals << "    }\n";
}

/// The loop exactly as written, as a lambda: out of line and, under Clang, not optimized, so
/// that the copy costs little to compile; optimized as the loop itself when the header is
/// guarded, since it then runs whenever the loop's writes reach the guard.
std::string HostCodeGen::asWritten() const {
  return "[&" + Captures + "]() " +
         (GuardedHeader ? "CLUSTRIX_RT_AS_WRITTEN_GUARDED" : "CLUSTRIX_RT_AS_WRITTEN") + " {" +
         (VariablyModifiedInside.empty() ? "" : "\n" + VariablyModifiedInside) +
         FR.lineDirective(LoopBegin) + FR.cleanText(LoopBegin, LoopEnd) + "\n    }";
}

/// A trip count that cannot be represented (a zero step, a wrap-around, a `!=` never met): the
/// loop exactly as written, out of line and cheap to compile, as nothing here is fast.
void HostCodeGen::emitAsWritten(llvm::raw_ostream &OS) {
  OS << "  } else {\n    ::clustrix::rt::noteAsWritten(__clx_info);\n";
  if (GuardedHeader)
    OS << "    __clx_as_written();\n  }";
  else
    OS << "    " << asWritten() << "();\n  }";
}
