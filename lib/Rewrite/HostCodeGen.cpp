//===- HostCodeGen.cpp - The block that replaces a loop --------------------===//
//
// Names in the block: __clx_trip<L> and __clx_init<L>/__clx_mag<L>/__clx_up<L> per nest level,
// __clx_info (the descriptor), __clx_chunk (the host chunk function), __clx_args (LoopArgs).
//
//===----------------------------------------------------------------------===//
#include "clustrix/Rewrite/HostCodeGen.h"
#include "clustrix/AST/LoopNest.h"
#include "clustrix/AST/StatementEnd.h"
#include "clustrix/Rewrite/BoxCodeGen.h"
#include "clustrix/Rewrite/DescriptorGen.h"
#include "clustrix/Rewrite/FileRewriter.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/StmtCXX.h"

#include <algorithm>
#include <cassert>

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

/// `::clustrix::rt::inductionValue<__clx_ivL>(__clx_initL, __clx_magL, __clx_upL, K)`.
std::string inductionValue(size_t L, const std::string &K) {
  std::string I = std::to_string(L);
  return "::clustrix::rt::inductionValue<__clx_iv" + I + ">(__clx_init" + I + ", __clx_mag" + I +
         ", __clx_up" + I + ", " + K + ")";
}

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
}

std::string HostCodeGen::generate() {
  const SourceManager &SM = FR.sourceManager();
  SourceLocation ForLoc = SM.getComposedLoc(FR.mainFile(), LoopBegin);
  unsigned Line = SM.getSpellingLineNumber(ForLoc), Col = SM.getSpellingColumnNumber(ForLoc);
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << "{ /* clustrix: loop at line " << Line << " runs through libclustrix_rt */\n";
  emitIterationSpace(OS);
  // What the compiler proved.
  emitDescriptor(OS, {R, C, K, FR.presumedName(), Line, Col});
  OS << "  if (__clx_trip.Ok) {\n";
  for (size_t I = 0; I < R.Reductions.size(); ++I)
    OS << "    using __clx_r" << I << "_t = std::remove_reference_t<decltype("
       << R.Reductions[I].Name << ")>;\n";
  for (size_t I = 0; I < R.Appends.size(); ++I)
    OS << "    using __clx_a" << I << "_t = std::remove_reference_t<decltype("
       << R.Appends[I].Name << ")>;\n";
  for (size_t I = 0; I < R.Privates.size(); ++I)
    OS << "    using __clx_p" << I << "_t = std::remove_reference_t<decltype("
       << R.Privates[I].Name << ")>;\n    __clx_p" << I << "_t *const __clx_pv" << I
       << " = static_cast<__clx_p" << I << "_t *>(::clustrix::rt::ownAddress("
       << R.Privates[I].Name << "));\n";
  emitChunkFunction(OS);
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
/// and append variables bound to the chunk's partials and buffers.
void HostCodeGen::emitChunkFunction(llvm::raw_ostream &OS) {
  OS << "    auto __clx_chunk = [&" << Captures
     << "](std::uint64_t __clx_lo, std::uint64_t __clx_hi, "
        "::clustrix::rt::ChunkContext &__clx_ctx) {\n      (void)__clx_ctx;\n";
  for (size_t I = 0; I < R.Reductions.size(); ++I)
    OS << "      __clx_r" << I << "_t &" << R.Reductions[I].Name
       << " = ::clustrix::rt::partial<__clx_r" << I << "_t>(__clx_ctx, " << I << ");\n";
  for (size_t I = 0; I < R.Appends.size(); ++I)
    OS << "      __clx_a" << I << "_t &" << R.Appends[I].Name
       << " = ::clustrix::rt::appendBuffer<__clx_a" << I << "_t>(__clx_ctx, " << I << ");\n";
  // Privates: the chunk's own, and the chunk that runs the last iteration leaves its value in
  // the variable, as the serial loop does.
  for (size_t I = 0; I < R.Privates.size(); ++I)
    OS << "      __clx_p" << I << "_t " << R.Privates[I].Name << ";\n";
  emitIterationVariables(OS);
  auto [BodyBegin, BodyEnd] = statementOffsets(innermostBody(Loop, unsigned(N)),
                                               FR.sourceManager(), FR.langOpts());
  OS << FR.lineDirective(BodyBegin) << FR.cleanText(BodyBegin, BodyEnd) << "\n      }\n";
  if (!R.Privates.empty()) {
    OS << "      if (__clx_lo < __clx_hi && __clx_hi == __clx_trip.Count) {\n";
    for (size_t I = 0; I < R.Privates.size(); ++I)
      OS << "        *__clx_pv" << I << " = " << R.Privates[I].Name << ";\n";
    OS << "      }\n";
  }
  OS << "    };\n";
}

/// The loop over the chunk's iterations, and the user's variables of each iteration.
void HostCodeGen::emitIterationVariables(llvm::raw_ostream &OS) {
  const CanonicalLoop &L0 = R.Nest[0];
  if (N == 1) {
    OS << "      for (std::uint64_t __clx_k0 = __clx_lo; __clx_k0 < __clx_hi; ++__clx_k0) {\n";
    if (L0.RangeFor)
      OS << "        " << L0.ElemDeclText << " = __clx_range[__clx_k0];\n";
    else
      OS << "        __clx_iv0 " << L0.VarName << " = " << inductionValue(0, "__clx_k0")
         << ";\n";
    return;
  }
  // A collapsed nest: the multi-index of Lo, then advanced with each iteration.
  OS << "      const std::uint64_t __clx_ext[" << N << "] = {";
  for (size_t L = 0; L < N; ++L)
    OS << (L ? ", " : "") << "__clx_trip" << L << ".Count";
  OS << "};\n      std::uint64_t __clx_idx[" << N << "];\n"
     << "      std::uint64_t __clx_rest = __clx_lo;\n"
     // An empty range (an inner level that runs no iteration) has no multi-index.
     << "      for (unsigned __clx_d = " << N << "; __clx_lo < __clx_hi && __clx_d-- > 0;) {\n"
     << "        __clx_idx[__clx_d] = __clx_rest % __clx_ext[__clx_d];\n"
     << "        __clx_rest /= __clx_ext[__clx_d];\n      }\n"
     << "      for (std::uint64_t __clx_k = __clx_lo; __clx_k < __clx_hi; ++__clx_k, "
        "::clustrix::rt::advanceIndex(__clx_idx, __clx_ext, "
     << N << ")) {\n";
  for (size_t L = 0; L < N; ++L)
    OS << "        __clx_iv" << L << " " << R.Nest[L].VarName << " = "
       << inductionValue(L, "__clx_idx[" + std::to_string(L) + "]") << ";\n";
}

/// The reduction and append slots.
void HostCodeGen::emitSlots(llvm::raw_ostream &OS) {
  if (!R.Reductions.empty()) {
    OS << "    ::clustrix::rt::ReductionSlot __clx_reds[] = {";
    for (size_t I = 0; I < R.Reductions.size(); ++I) {
      std::optional<ReduceOp> Op = reduceOpForSpelling(R.Reductions[I].Op);
      assert(Op && "the analysis names operators by their spelling");
      OS << (I ? ", " : "") << "::clustrix::rt::reductionSlot(" << R.Reductions[I].Name
         << ", ::clustrix::rt::ReduceOp::" << runtimeName(Op.value_or(ReduceOp::BitXor)) << ")";
    }
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
  if (K.Ok && K.NumScalars) {
    OS << "    const void *const __clx_scalars[] = {";
    bool First = true;
    for (const KernelArg &A : K.Args)
      if (A.K == KernelArg::Scalar) {
        OS << (First ? "" : ", ") << "&" << A.Expr;
        First = false;
      }
    OS << "};\n";
  }
  OS << "    ::clustrix::rt::LoopArgs __clx_args{};\n"
     << "    __clx_args.TripCount = __clx_trip.Count;\n"
     << "    __clx_args.Host = &::clustrix::rt::chunkThunk<decltype(__clx_chunk)>;\n"
     << "    __clx_args.HostEnv = &__clx_chunk;\n";
  if (N > 1) {
    OS << "    __clx_args.BoxAlign = 1";
    for (size_t L = 1; L < N; ++L)
      OS << " * __clx_trip" << L << ".Count";
    OS << ";\n";
  }
  if (!R.Regions.empty())
    OS << "    __clx_args.Boxes = &::clustrix::rt::programBoxes;\n"
       << "    __clx_args.BoxEnv = &__clx_boxenv;\n";
  if (!R.Reductions.empty())
    OS << "    __clx_args.Reductions = __clx_reds;\n    __clx_args.NumReductions = "
       << R.Reductions.size() << ";\n";
  if (!R.Appends.empty())
    OS << "    __clx_args.Appends = __clx_apps;\n    __clx_args.NumAppends = " << R.Appends.size()
       << ";\n";
  if (K.Ok && K.NumScalars)
    OS << "    __clx_args.Scalars = __clx_scalars;\n    __clx_args.NumScalars = " << K.NumScalars
       << ";\n";
}

/// runLoop; where the runtime keeps the loop serial, the chunk function runs all of it in place,
/// in order, on the loop's own reduction and append variables: the loop's own operations. An
/// induction variable declared before the loop ends with the value the serial loop leaves.
void HostCodeGen::emitSerialFallback(llvm::raw_ostream &OS) {
  OS << "    if (::clustrix::rt::runLoop(__clx_info, __clx_args) != "
        "::clustrix::rt::RunStatus::Done) {\n";
  size_t NumOwn = R.Reductions.size() + R.Appends.size();
  if (NumOwn) {
    OS << "      void *__clx_own[] = {";
    size_t I = 0;
    for (const Reduction &X : R.Reductions)
      OS << (I++ ? ", " : "") << "::clustrix::rt::ownAddress(" << X.Name << ")";
    for (const Append &X : R.Appends)
      OS << (I++ ? ", " : "") << "::clustrix::rt::ownAddress(" << X.Name << ")";
    OS << "};\n";
  }
  OS << "      ::clustrix::rt::runInPlace(__clx_chunk, __clx_trip.Count, "
     << (NumOwn ? "__clx_own" : "nullptr") << ", " << R.Reductions.size() << ");\n    }\n";
  for (size_t L = 0; L < N; ++L) {
    const CanonicalLoop &CL = R.Nest[L];
    if (CL.DeclaredInLoop || CL.RangeFor)
      continue;
    OS << (L == 0 ? "    " : "    if (__clx_trip.Count > 0) ") << CL.VarName << " = "
       << inductionValue(L, "__clx_trip" + std::to_string(L) + ".Count") << ";\n";
  }
}

/// A trip count that cannot be represented (a zero step, a wrap-around, a `!=` never met): the
/// loop exactly as written, out of line and cheap to compile, as nothing here is fast.
void HostCodeGen::emitAsWritten(llvm::raw_ostream &OS) {
  OS << "  } else {\n    ::clustrix::rt::noteAsWritten(__clx_info);\n    [&" << Captures
     << "]() CLUSTRIX_RT_AS_WRITTEN {"
     << FR.lineDirective(LoopBegin) << FR.cleanText(LoopBegin, LoopEnd) << "\n    }();\n  }";
}
