//===- CHostCodeGen.cpp - A loop of a C translation unit -------------------===//
//
// Names: the file-scope `struct __clx_env_<line>_<col>` and `__clx_chunk_<line>_<col>` of a loop
// (the `for` keyword's position: unique in the file); in the environment, `__clx_init<L>`,
// `__clx_mag<L>`, `__clx_up<L>` and `__clx_count<L>` per nest level, `__clx_count`, the
// captures under their own names, `__clx_b_<name>_<K>` for their variable bounds and
// `__clx_pv<I>` for the privates; in the chunk function, `__clx_ref_<name>` for a capture reached
// through a pointer. The block uses the names of HostCodeGen's.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Rewrite/CHostCodeGen.h"
#include "clustrix/AST/LoopNest.h"
#include "clustrix/AST/StatementEnd.h"
#include "clustrix/Rewrite/BoxCodeGen.h"
#include "clustrix/Rewrite/DescriptorGen.h"
#include "clustrix/Rewrite/FileRewriter.h"

#include "HostCodeGenShared.h"

#include "clang/AST/ASTContext.h"

#include <algorithm>
#include <cassert>

using namespace clang;
using namespace clustrix;

namespace {

/// `(T)clustrix_induction(__clx_initL, __clx_magL, __clx_upL, K)`.
std::string inductionValue(const std::string &T, size_t L, const std::string &K) {
  std::string I = std::to_string(L);
  return "(" + T + ")clustrix_induction(__clx_init" + I + ", __clx_mag" + I + ", __clx_up" + I +
         ", " + K + ")";
}

std::string boundName(const CCapture &C, size_t K) {
  return "__clx_b_" + C.Var->getNameAsString() + "_" + std::to_string(K);
}

/// The bounds of a capture's variably modified type, as the chunk function reads them.
std::vector<std::string> envBounds(const CCapture &C) {
  std::vector<std::string> B;
  for (size_t K = 0; K < C.Bounds.size(); ++K)
    B.push_back("__clx_env->" + boundName(C, K));
  return B;
}

} // namespace

CHostCodeGen::CHostCodeGen(const FileRewriter &FR, const FunctionDecl *Enclosing,
                           const Stmt *Loop, const LoopResult &R, const LoopClauses &C,
                           const Kernel &K, unsigned LoopBegin, unsigned LoopEnd)
    : FR(FR), Enclosing(Enclosing), Ctx(Enclosing->getASTContext()), Loop(Loop), R(R), C(C), K(K),
      LoopBegin(LoopBegin), LoopEnd(LoopEnd), N(R.Nest.size()), Caps(Enclosing, Loop, R) {
  // refuseUnlessOutlinable has refused every loop with a problem.
  assert(Caps.problem().empty() && "an accepted C loop can be outlined");
  const SourceManager &SM = FR.sourceManager();
  SourceLocation ForLoc = SM.getComposedLoc(FR.file(), LoopBegin);
  Suffix = std::to_string(SM.getSpellingLineNumber(ForLoc)) + "_" +
           std::to_string(SM.getSpellingColumnNumber(ForLoc));
}

unsigned CHostCodeGen::outlineOffset() const {
  const SourceManager &SM = FR.sourceManager();
  return SM.getFileOffset(SM.getExpansionLoc(Enclosing->getBeginLoc()));
}

std::string CHostCodeGen::outlined() {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << "\n/* clustrix: the body of the loop at line " << Suffix.substr(0, Suffix.find('_'))
     << ", outlined */\n";
  emitEnvironment(OS);
  emitChunkFunction(OS);
  OS << FR.lineDirective(outlineOffset());
  return S;
}

/// The environment: the iteration space, the captures, the privates' addresses.
void CHostCodeGen::emitEnvironment(llvm::raw_ostream &OS) {
  OS << "struct __clx_env_" << Suffix << " {\n";
  for (size_t L = 0; L < N; ++L)
    OS << "  uint64_t __clx_init" << L << ", __clx_mag" << L << ", __clx_count" << L
       << ";\n  _Bool __clx_up" << L << ";\n";
  OS << "  uint64_t __clx_count;\n";
  for (const CCapture &Cap : Caps.captures()) {
    std::string Name = Cap.Var->getNameAsString();
    QualType T = Cap.Var->getType();
    if (Cap.VariablyModified)
      OS << "  void *" << Name << ";\n";
    else if (Cap.K == CCapture::Copy)
      OS << "  " << cDeclaration(T.getUnqualifiedType(), Name, {}, Ctx) << ";\n";
    else
      OS << "  " << cDeclaration(Ctx.getPointerType(T), Name, {}, Ctx) << ";\n";
    for (size_t B = 0; B < Cap.Bounds.size(); ++B)
      OS << "  size_t " << boundName(Cap, B) << ";\n";
  }
  for (size_t I = 0; I < R.Privates.size(); ++I)
    OS << "  "
       << cDeclaration(Ctx.getPointerType(R.Privates[I].Var->getType()),
                       "__clx_pv" + std::to_string(I), {}, Ctx)
       << ";\n";
  OS << "};\n";
}

/// `__clx_chunk_<suffix>(Env, Lo, Hi, Ctx)`: iterations [Lo, Hi) of the body, in order, with the
/// reductions on local copies of the chunk's partials.
void CHostCodeGen::emitChunkFunction(llvm::raw_ostream &OS) {
  OS << "static void __clx_chunk_" << Suffix
     << "(void *__clx_envp, uint64_t __clx_lo, uint64_t __clx_hi,\n"
        "    clustrix_ChunkContext *__clx_ctx) {\n"
     << "  struct __clx_env_" << Suffix << " *const __clx_env = (struct __clx_env_" << Suffix
     << " *)__clx_envp;\n";
  for (size_t L = 0; L < N; ++L)
    OS << "  const uint64_t __clx_init" << L << " = __clx_env->__clx_init" << L
       << ", __clx_mag" << L << " = __clx_env->__clx_mag" << L << ";\n  const _Bool __clx_up"
       << L << " = __clx_env->__clx_up" << L << ";\n";
  for (const CCapture &Cap : Caps.captures()) {
    std::string Name = Cap.Var->getNameAsString();
    QualType T = Cap.Var->getType();
    if (Cap.K == CCapture::Copy)
      OS << "  " << cDeclaration(T, Name, envBounds(Cap), Ctx);
    else
      OS << "  "
         << cDeclaration(Ctx.getPointerType(T).withConst(), "__clx_ref_" + Name, envBounds(Cap),
                         Ctx);
    OS << " = __clx_env->" << Name << ";\n";
  }
  for (size_t I = 0; I < R.Reductions.size(); ++I) {
    QualType T = R.Reductions[I].Var->getType().getUnqualifiedType();
    std::string Ty = cDeclaration(T, "", {}, Ctx);
    OS << "  " << cDeclaration(T, R.Reductions[I].Name, {}, Ctx) << " = *(" << Ty
       << " *)__clx_ctx->Partials[" << I << "];\n";
  }
  // Privates: the chunk's own, and the chunk that runs the last iteration leaves its value in
  // the variable, as the serial loop does.
  for (const Private &P : R.Privates)
    OS << "  " << cDeclaration(P.Var->getType().getUnqualifiedType(), P.Name, {}, Ctx) << ";\n";
  OS << "  (void)__clx_ctx;\n";
  unsigned Open = emitIterationVariables(OS);
  auto [BodyBegin, BodyEnd] = statementOffsets(innermostBody(Loop, unsigned(N)),
                                               FR.sourceManager(), FR.langOpts());
  (void)BodyEnd;
  OS << FR.lineDirective(BodyBegin) << bodyText() << "\n";
  for (unsigned I = Open; I-- > 0;)
    OS << (I ? "    }\n" : "  }\n");
  for (size_t I = 0; I < R.Reductions.size(); ++I) {
    QualType T = R.Reductions[I].Var->getType().getUnqualifiedType();
    OS << "  *(" << cDeclaration(T, "", {}, Ctx) << " *)__clx_ctx->Partials[" << I
       << "] = " << R.Reductions[I].Name << ";\n";
  }
  hostgen::emitPrivatesHandBack(OS, R, "  ", "__clx_env->__clx_count", "__clx_env->__clx_pv");
  OS << "}\n";
}

/// The loop over the chunk's iterations, and the user's induction variables of each.
unsigned CHostCodeGen::emitIterationVariables(llvm::raw_ostream &OS) {
  std::vector<std::string> Types;
  for (const CanonicalLoop &L : R.Nest)
    Types.push_back(cDeclaration(cLoopTypes(L, Ctx).Var, "", {}, Ctx));
  // A constant step of the innermost level: its variable steps by it, in its own type, from
  // the chunk's (or the row's) first value, as the loop as written does, so that the optimizer
  // sees consecutive elements (a triad vectorizes); a value computed per iteration from the
  // run-time step did not.
  std::optional<int64_t> Step = R.Nest[N - 1].StepPoly.isValid()
                                    ? R.Nest[N - 1].StepPoly.asConstant()
                                    : std::nullopt;
  bool Steps = Step && *Step != 0 && cLoopTypes(R.Nest[N - 1], Ctx).Var->isIntegerType();
  if (N == 1) {
    if (Steps) {
      OS << "  " << Types[0] << " __clx_i0 = " << inductionValue(Types[0], 0, "__clx_lo")
         << ";\n"
         << "  for (uint64_t __clx_k0 = __clx_lo; __clx_k0 < __clx_hi; ++__clx_k0, __clx_i0 += ("
         << Types[0] << ")(" << *Step << "LL)) {\n"
         << "    " << Types[0] << " " << R.Nest[0].VarName << " = __clx_i0;\n";
      return 1;
    }
    OS << "  for (uint64_t __clx_k0 = __clx_lo; __clx_k0 < __clx_hi; ++__clx_k0) {\n"
       << "    " << Types[0] << " " << R.Nest[0].VarName << " = "
       << inductionValue(Types[0], 0, "__clx_k0") << ";\n";
    return 1;
  }
  auto Extent = [](size_t L) { return "__clx_env->__clx_count" + std::to_string(L); };
  if (!Steps) {
    hostgen::emitCollapsedLoop(OS, N, "  ", Extent, RuntimeDialect::c());
    for (size_t L = 0; L < N; ++L)
      OS << "    " << Types[L] << " " << R.Nest[L].VarName << " = "
         << inductionValue(Types[L], L, "__clx_idx[" + std::to_string(L) + "]") << ";\n";
    return 1;
  }
  // Row by row of the innermost level: the outer variables once per row, the innermost one
  // stepping (hostgen::emitCollapsedRows). A `continue` of the body continues the row.
  std::string Last = std::to_string(N - 1);
  hostgen::emitCollapsedRows(OS, N, "  ", Extent, RuntimeDialect::c());
  for (size_t L = 0; L + 1 < N; ++L)
    OS << "    const " << Types[L] << " __clx_o" << L << " = "
       << inductionValue(Types[L], L, "__clx_idx[" + std::to_string(L) + "]") << ";\n";
  OS << "    " << Types[N - 1] << " __clx_i" << Last << " = "
     << inductionValue(Types[N - 1], N - 1, "__clx_idx[" + Last + "]") << ";\n";
  hostgen::emitRowAdvance(OS, N, "    ", RuntimeDialect::c());
  OS << "    for (uint64_t __clx_r = 0; __clx_r < __clx_run; ++__clx_r, __clx_i" << Last
     << " += (" << Types[N - 1] << ")(" << *Step << "LL)) {\n";
  for (size_t L = 0; L + 1 < N; ++L)
    OS << "      " << Types[L] << " " << R.Nest[L].VarName << " = __clx_o" << L << ";\n";
  OS << "      " << Types[N - 1] << " " << R.Nest[N - 1].VarName << " = __clx_i" << Last
     << ";\n";
  return 2;
}

/// The body's text, every reference to a capture reached through a pointer rewritten.
std::string CHostCodeGen::bodyText() const {
  auto [BodyBegin, BodyEnd] = statementOffsets(innermostBody(Loop, unsigned(N)),
                                               FR.sourceManager(), FR.langOpts());
  std::vector<std::pair<unsigned, const CCapture *>> Refs;
  for (const CCapture &Cap : Caps.captures())
    if (Cap.K == CCapture::Pointer)
      for (unsigned Off : Cap.RefOffsets)
        Refs.push_back({Off, &Cap});
  std::sort(Refs.begin(), Refs.end(),
            [](const auto &A, const auto &B) { return A.first < B.first; });
  std::string S;
  unsigned Pos = BodyBegin;
  for (const auto &[Off, Cap] : Refs) {
    if (Off < Pos || Off >= BodyEnd)
      continue;
    std::string Name = Cap->Var->getNameAsString();
    S += FR.cleanText(Pos, Off) + "(*__clx_ref_" + Name + ")";
    Pos = Off + unsigned(Name.size());
  }
  return S + FR.cleanText(Pos, BodyEnd);
}

std::string CHostCodeGen::block() {
  std::string S;
  llvm::raw_string_ostream OS(S);
  hostgen::emitBlockHead(
      OS, FR, LoopBegin, R, C, K, [&] { emitIterationSpace(OS); }, RuntimeDialect::c());
  fillEnvironment(OS);
  if (!R.Regions.empty())
    OS << boxProgramCode(R, RuntimeDialect::c());
  emitArgs(OS);
  emitSerialFallback(OS);
  // A trip count that cannot be represented (a zero step, a wrap-around, a `!=` never met): the
  // loop exactly as written.
  OS << "  } else {\n    clustrix_note_as_written(&__clx_info);" << FR.lineDirective(LoopBegin)
     << FR.cleanText(LoopBegin, LoopEnd)
     << "\n  }\n}" << FR.lineDirective(LoopEnd);
  return S;
}

/// The trip count of every level and of the whole nest, evaluated once, as the serial loop
/// evaluates its bounds.
void CHostCodeGen::emitIterationSpace(llvm::raw_ostream &OS) {
  for (size_t L = 0; L < N; ++L) {
    const CanonicalLoop &CL = R.Nest[L];
    CLoopTypes T = cLoopTypes(CL, Ctx);
    std::string I = std::to_string(L);
    std::string Var = cDeclaration(T.Var, "", {}, Ctx), Cmp = cDeclaration(T.Cmp, "", {}, Ctx);
    std::string Unsigned = cDeclaration(Ctx.getCorrespondingUnsignedType(T.Var), "", {}, Ctx);
    std::string StepV = "__clx_stepv" + I;
    OS << "  const " << Var << " __clx_init" << I << " = (" << Var << ")(" << CL.InitText
       << ");\n"
       << "  const " << Cmp << " __clx_bound" << I << " = (" << Cmp << ")(" << CL.BoundText
       << ");\n"
       << "  const " << cDeclaration(T.Step, StepV, {}, Ctx) << " = (" << CL.StepText << ");\n";
    // Runtime.h's stepUp and stepMagnitude: a signed step may count down.
    bool Signed = T.Step->isSignedIntegerType();
    std::string Up = Signed ? "(" + StepV + " >= 0)" : "1";
    OS << "  const _Bool __clx_up" << I << " = " << (CL.StepNegated ? "!" : "") << Up << ";\n"
       << "  const uint64_t __clx_mag" << I << " = ";
    if (Signed)
      OS << StepV << " < 0 ? (" << Unsigned << ")(0 - (" << Unsigned << ")" << StepV << ") : ("
         << Unsigned << ")" << StepV << ";\n";
    else
      OS << "(" << Unsigned << ")" << StepV << ";\n";
    OS << "  const clustrix_Trip __clx_trip" << I << " = clustrix_trip_count(clustrix_ScalarKind_"
       << cScalarKind(T.Var, Ctx) << ", clustrix_ScalarKind_" << cScalarKind(T.Cmp, Ctx)
       << ", (uint64_t)__clx_init" << I << ", (uint64_t)__clx_bound" << I << ", clustrix_Cmp_"
       << runtimeName(CL.Cmp) << ", __clx_mag" << I << ", __clx_up" << I << ");\n";
  }
  hostgen::emitNestTrip(OS, N, RuntimeDialect::c());
}

/// The environment of this execution of the loop.
void CHostCodeGen::fillEnvironment(llvm::raw_ostream &OS) {
  OS << "    struct __clx_env_" << Suffix << " __clx_env;\n";
  for (size_t L = 0; L < N; ++L)
    OS << "    __clx_env.__clx_init" << L << " = (uint64_t)__clx_init" << L << ";\n"
       << "    __clx_env.__clx_mag" << L << " = __clx_mag" << L << ";\n"
       << "    __clx_env.__clx_up" << L << " = __clx_up" << L << ";\n"
       << "    __clx_env.__clx_count" << L << " = __clx_trip" << L << ".Count;\n";
  OS << "    __clx_env.__clx_count = __clx_trip.Count;\n";
  for (const CCapture &Cap : Caps.captures()) {
    std::string Name = Cap.Var->getNameAsString();
    std::string Value = Cap.K == CCapture::Copy ? Name : "&" + Name;
    if (Cap.VariablyModified)
      Value = "(void *)" + Value;
    OS << "    __clx_env." << Name << " = " << Value << ";\n";
    for (size_t B = 0; B < Cap.Bounds.size(); ++B)
      OS << "    __clx_env." << boundName(Cap, B) << " = " << Cap.Bounds[B] << ";\n";
  }
  for (size_t I = 0; I < R.Privates.size(); ++I)
    OS << "    __clx_env.__clx_pv" << I << " = &" << R.Privates[I].Name << ";\n";
}

/// The reduction slots, the addresses of the kernel's scalar arguments, and LoopArgs, field by
/// field (a field the loop does not use stays zero).
void CHostCodeGen::emitArgs(llvm::raw_ostream &OS) {
  bool MathErrors = hostgen::hasMathErrors(K);
  if (MathErrors)
    OS << "    unsigned long long __clx_mlast = 0;\n";
  if (!R.Reductions.empty() || MathErrors) {
    OS << "    clustrix_ReductionSlot __clx_reds[] = {";
    for (size_t I = 0; I < R.Reductions.size(); ++I) {
      const Reduction &X = R.Reductions[I];
      std::optional<ReduceOp> Op = reduceOpForSpelling(X.Op);
      assert(Op && "the analysis names operators by their spelling");
      OS << (I ? ", " : "") << "{clustrix_ScalarKind_" << cScalarKind(X.Var->getType(), Ctx)
         << ", clustrix_ReduceOp_" << runtimeName(Op.value_or(ReduceOp::BitXor)) << ", &"
         << X.Name << "}";
    }
    if (MathErrors)
      OS << (R.Reductions.empty() ? "" : ", ")
         << "{clustrix_ScalarKind_U64, clustrix_ReduceOp_Max, &__clx_mlast}";
    OS << "};\n";
  }
  // A variable copied into the environment is taken from there: it may be `register`.
  hostgen::emitKernelScalars(OS, K, [&](const std::string &E) {
    bool InEnv =
        std::any_of(Caps.captures().begin(), Caps.captures().end(), [&](const CCapture &Cap) {
          return Cap.K == CCapture::Copy && !Cap.VariablyModified && Cap.Var->getName() == E;
        });
    return (InEnv ? "&__clx_env." : "&") + E;
  });
  OS << "    clustrix_LoopArgs __clx_args = {0};\n"
     << "    __clx_args.TripCount = __clx_trip.Count;\n"
     << "    __clx_args.Host = &__clx_chunk_" << Suffix << ";\n"
     << "    __clx_args.HostEnv = &__clx_env;\n";
  hostgen::emitCommonArgs(OS, R, K, "    __clx_args.Boxes = &__clx_boxenv;\n", "");
}

/// clustrix_run_loop; where the runtime keeps the loop serial, the chunk function runs all of it
/// in place, in order, on the loop's own reduction variables. An induction variable declared
/// before the loop ends with the value the serial loop leaves.
void CHostCodeGen::emitSerialFallback(llvm::raw_ostream &OS) {
  OS << "    if (!clustrix_run_loop(&__clx_info, &__clx_args)) {\n";
  if (!R.Reductions.empty()) {
    OS << "      void *__clx_own[] = {";
    for (size_t I = 0; I < R.Reductions.size(); ++I)
      OS << (I ? ", " : "") << "&" << R.Reductions[I].Name;
    OS << "};\n";
  }
  OS << "      clustrix_ChunkContext __clx_ictx = {" << (R.Reductions.empty() ? "0" : "__clx_own")
     << ", 0, __clx_trip.Count, -1};\n"
     << "      __clx_chunk_" << Suffix << "(&__clx_env, 0, __clx_trip.Count, &__clx_ictx);\n"
     << "    }\n";
  hostgen::emitFinalInductions(OS, R, [&](size_t L, const std::string &K) {
    return inductionValue(cDeclaration(cLoopTypes(R.Nest[L], Ctx).Var, "", {}, Ctx), L, K);
  });
}
