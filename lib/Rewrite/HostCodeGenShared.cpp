//===- HostCodeGenShared.cpp - What the C++ and C host code share ----------===//
#include "HostCodeGenShared.h"
#include "clustrix/Rewrite/DescriptorGen.h"
#include "clustrix/Rewrite/FileRewriter.h"

using namespace clustrix;

void hostgen::emitBlockHead(llvm::raw_ostream &OS, const FileRewriter &FR, unsigned LoopBegin,
                            const LoopResult &R, const LoopClauses &C, const Kernel &K,
                            llvm::function_ref<void()> Space, const RuntimeDialect &D) {
  const clang::SourceManager &SM = FR.sourceManager();
  clang::SourceLocation ForLoc = SM.getComposedLoc(FR.file(), LoopBegin);
  unsigned Line = SM.getSpellingLineNumber(ForLoc), Col = SM.getSpellingColumnNumber(ForLoc);
  OS << "{ /* clustrix: loop at line " << Line << " runs through libclustrix_rt */\n";
  Space();
  // What the compiler proved.
  emitDescriptor(OS, {R, C, K, FR.presumedName(), Line, Col}, D);
  OS << "  if (__clx_trip.Ok) {\n";
}

void hostgen::emitNestTrip(llvm::raw_ostream &OS, size_t N, const RuntimeDialect &D) {
  OS << "  const " << D.record("Trip") << " __clx_trip = ";
  for (size_t L = 1; L < N; ++L)
    OS << D.helper("tripProduct") << "(";
  OS << "__clx_trip0";
  for (size_t L = 1; L < N; ++L)
    OS << ", __clx_trip" << L << ")";
  OS << ";\n";
}

/// The multi-index of __clx_lo in a nest of N levels (none for an empty range: an inner level
/// that runs no iteration has no multi-index).
static void emitFirstIndex(llvm::raw_ostream &OS, size_t N, const std::string &Indent,
                           llvm::function_ref<std::string(size_t)> Extent,
                           const RuntimeDialect &D) {
  std::string U64 = D.fixedInt("uint64_t");
  OS << Indent << "const " << U64 << " __clx_ext[" << N << "] = {";
  for (size_t L = 0; L < N; ++L)
    OS << (L ? ", " : "") << Extent(L);
  OS << "};\n"
     << Indent << U64 << " __clx_idx[" << N << "];\n"
     << Indent << U64 << " __clx_rest = __clx_lo;\n"
     << Indent << "for (unsigned __clx_d = " << N << "; __clx_lo < __clx_hi && __clx_d-- > 0;) {\n"
     << Indent << "  __clx_idx[__clx_d] = __clx_rest % __clx_ext[__clx_d];\n"
     << Indent << "  __clx_rest /= __clx_ext[__clx_d];\n"
     << Indent << "}\n";
}

void hostgen::emitCollapsedLoop(llvm::raw_ostream &OS, size_t N, const std::string &Indent,
                                llvm::function_ref<std::string(size_t)> Extent,
                                const RuntimeDialect &D) {
  std::string U64 = D.fixedInt("uint64_t");
  emitFirstIndex(OS, N, Indent, Extent, D);
  OS << Indent << "for (" << U64 << " __clx_k = __clx_lo; __clx_k < __clx_hi; ++__clx_k, "
     << D.helper("advanceIndex") << "(__clx_idx, __clx_ext, " << N << ")) {\n";
}

void hostgen::emitCollapsedRows(llvm::raw_ostream &OS, size_t N, const std::string &Indent,
                                llvm::function_ref<std::string(size_t)> Extent,
                                const RuntimeDialect &D) {
  emitFirstIndex(OS, N, Indent, Extent, D);
  OS << Indent << "for (" << D.fixedInt("uint64_t") << " __clx_k = __clx_lo; __clx_k < __clx_hi;) {\n";
}

void hostgen::emitRowAdvance(llvm::raw_ostream &OS, size_t N, const std::string &Indent,
                             const RuntimeDialect &D) {
  std::string Last = std::to_string(N - 1);
  // The row's iterations: to its end, or to the chunk's (at least one: __clx_k < __clx_hi and
  // the index is inside its row). At the chunk's last row the index moves past the nest, which
  // nothing reads.
  OS << Indent << "const " << D.fixedInt("uint64_t") << " __clx_run = __clx_hi - __clx_k < __clx_ext["
     << Last << "] - __clx_idx[" << Last << "] ? __clx_hi - __clx_k : __clx_ext[" << Last
     << "] - __clx_idx[" << Last << "];\n"
     << Indent << "__clx_k += __clx_run;\n"
     << Indent << "__clx_idx[" << Last << "] += __clx_run - 1;\n"
     << Indent << D.helper("advanceIndex") << "(__clx_idx, __clx_ext, " << N << ");\n";
}

void hostgen::emitPrivatesHandBack(llvm::raw_ostream &OS, const LoopResult &R,
                                   const std::string &Indent, const std::string &Count,
                                   const std::string &TargetPrefix) {
  // Only privates the code after the loop may read are handed back (Private::LiveOut).
  bool AnyLiveOut = false;
  for (const Private &P : R.Privates)
    AnyLiveOut |= P.LiveOut;
  if (!AnyLiveOut)
    return;
  OS << Indent << "if (__clx_lo < __clx_hi && __clx_hi == " << Count << ") {\n";
  for (size_t I = 0; I < R.Privates.size(); ++I) {
    const Private &P = R.Privates[I];
    if (!P.LiveOut)
      continue;
    if (P.Var->getType()->isArrayType())
      OS << Indent << "  for (unsigned long __clx_e = 0; __clx_e < sizeof(" << P.Name
         << ") / sizeof(" << P.Name << "[0]); ++__clx_e)\n"
         << Indent << "    (*" << TargetPrefix << I << ")[__clx_e] = " << P.Name
         << "[__clx_e];\n";
    else
      OS << Indent << "  *" << TargetPrefix << I << " = " << P.Name << ";\n";
  }
  OS << Indent << "}\n";
}

void hostgen::emitKernelScalars(llvm::raw_ostream &OS, const Kernel &K,
                                llvm::function_ref<std::string(const std::string &)> Address) {
  if (!K.Ok || !K.NumScalars)
    return;
  for (const std::string &D : K.HostDecls)
    OS << "    " << D << "\n";
  OS << "    const void *const __clx_scalars[] = {";
  bool First = true;
  for (const KernelArg &A : K.Args)
    if (A.K == KernelArg::Scalar) {
      OS << (First ? "" : ", ") << Address(A.Expr);
      First = false;
    }
  OS << "};\n";
}

void hostgen::emitCommonArgs(llvm::raw_ostream &OS, const LoopResult &R, const Kernel &K,
                             const std::string &Boxes, const std::string &Appends) {
  size_t N = R.Nest.size();
  if (N > 1) {
    OS << "    __clx_args.BoxAlign = 1";
    for (size_t L = 1; L < N; ++L)
      OS << " * __clx_trip" << L << ".Count";
    OS << ";\n";
  }
  if (!R.Regions.empty())
    OS << Boxes;
  if (!R.Reductions.empty() || hasMathErrors(K))
    OS << "    __clx_args.Reductions = __clx_reds;\n    __clx_args.NumReductions = "
       << R.Reductions.size() + hasMathErrors(K) << ";\n";
  if (hasMathErrors(K))
    OS << "    __clx_args.MathErrors = 1;\n";
  OS << Appends;
  if (K.Ok && K.NumScalars)
    OS << "    __clx_args.Scalars = __clx_scalars;\n    __clx_args.NumScalars = " << K.NumScalars
       << ";\n";
}

void hostgen::emitFinalInductions(
    llvm::raw_ostream &OS, const LoopResult &R,
    llvm::function_ref<std::string(size_t, const std::string &)> Value) {
  for (size_t L = 0; L < R.Nest.size(); ++L) {
    const CanonicalLoop &CL = R.Nest[L];
    if (CL.DeclaredInLoop || CL.RangeFor)
      continue;
    OS << (L == 0 ? "    " : "    if (__clx_trip.Count > 0) ") << CL.VarName << " = "
       << Value(L, "__clx_trip" + std::to_string(L) + ".Count") << ";\n";
  }
}
