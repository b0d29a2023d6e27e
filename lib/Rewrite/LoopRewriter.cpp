//===- LoopRewriter.cpp - Rewrite accepted loops ---------------------------===//
//
// Text generation for accepted loops. Every generated identifier starts with `__clx_` and lives
// in the block that replaces the loop, so loops never clash with each other or with user code.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Rewrite/LoopRewriter.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cassert>
#include <map>

using namespace clang;
using namespace clustrix;

std::string clustrix::cStringLiteral(llvm::StringRef S) {
  std::string Out = "\"";
  for (char C : S) {
    switch (C) {
    case '\\': Out += "\\\\"; break;
    case '"': Out += "\\\""; break;
    case '\n': Out += "\\n\"\n\""; break;
    case '\t': Out += "\\t"; break;
    case '\r': Out += "\\r"; break;
    case '?': Out += "\\?"; break; // no trigraphs
    default:
      if (static_cast<unsigned char>(C) < 0x20) {
        char Buf[8];
        snprintf(Buf, sizeof Buf, "\\%03o", static_cast<unsigned char>(C));
        Out += Buf;
      } else {
        Out += C;
      }
    }
  }
  return Out + "\"";
}

uint64_t clustrix::fnv1a64(llvm::StringRef S) {
  uint64_t H = 1469598103934665603ull;
  for (unsigned char C : S) {
    H ^= C;
    H *= 1099511628211ull;
  }
  return H;
}

FileRewriter::FileRewriter(const SourceManager &SM, const LangOptions &LO,
                           std::string PresumedName)
    : SM(SM), LO(LO), Main(SM.getMainFileID()), PresumedName(std::move(PresumedName)) {
  Original = SM.getBufferData(Main).str();
  Clean = Original;
}

unsigned FileRewriter::offsetOf(SourceLocation L) const {
  return SM.getFileOffset(SM.getExpansionLoc(L));
}

std::pair<unsigned, unsigned> FileRewriter::rangeOf(const Stmt *S) const {
  unsigned B = offsetOf(S->getBeginLoc());
  SourceLocation E = Lexer::getLocForEndOfToken(SM.getExpansionLoc(S->getEndLoc()), 0, SM, LO);
  // A statement's range ends before its `;` (an expression statement, or a loop whose body is
  // one); the text must include it.
  const Stmt *Last = S;
  while (true) {
    if (const auto *F = dyn_cast<ForStmt>(Last))
      Last = F->getBody();
    else if (const auto *RF = dyn_cast<CXXForRangeStmt>(Last))
      Last = RF->getBody();
    else
      break;
  }
  if (!isa<CompoundStmt>(Last)) {
    std::optional<Token> Next = Lexer::findNextToken(SM.getExpansionLoc(S->getEndLoc()), SM, LO);
    if (Next && Next->is(tok::semi))
      E = Next->getEndLoc();
  }
  return {B, SM.getFileOffset(E)};
}

void FileRewriter::blankAttribute(const Annotation &A) {
  CharSourceRange R = SM.getExpansionRange(SourceRange(A.Begin, A.End));
  if (!SM.isWrittenInMainFile(R.getBegin()))
    return;
  unsigned B = SM.getFileOffset(R.getBegin());
  SourceLocation EndLoc =
      R.isTokenRange() ? Lexer::getLocForEndOfToken(R.getEnd(), 0, SM, LO) : R.getEnd();
  unsigned E = SM.getFileOffset(EndLoc);
  if (E <= B || E > Clean.size())
    return;
  // Keep newlines so line numbers stay; blank everything else.
  for (unsigned I = B; I < E; ++I)
    if (Clean[I] != '\n')
      Clean[I] = ' ';
  Changed = true;
}

std::string FileRewriter::cleanText(unsigned Begin, unsigned End) const {
  return Clean.substr(Begin, End - Begin);
}

std::string FileRewriter::lineDirective(unsigned Offset) const {
  SourceLocation L = SM.getComposedLoc(Main, Offset);
  unsigned Line = SM.getSpellingLineNumber(L);
  unsigned Col = SM.getSpellingColumnNumber(L);
  std::string S = "\n#line " + std::to_string(Line) + " " + cStringLiteral(PresumedName) + "\n";
  S.append(Col > 0 ? Col - 1 : 0, ' ');
  return S;
}

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

const char *cmpName(LoopCmp C) {
  switch (C) {
  case LoopCmp::LT: return "LT";
  case LoopCmp::LE: return "LE";
  case LoopCmp::GT: return "GT";
  case LoopCmp::GE: return "GE";
  case LoopCmp::NE: return "NE";
  }
  return "LT";
}

const char *reduceOpName(const std::string &Op) {
  if (Op == "+") return "Add";
  if (Op == "*") return "Mul";
  if (Op == "min") return "Min";
  if (Op == "max") return "Max";
  if (Op == "&") return "BitAnd";
  if (Op == "|") return "BitOr";
  return "BitXor";
}

const char *scheduleName(ScheduleKind S) {
  switch (S) {
  case ScheduleKind::Default: return "Default";
  case ScheduleKind::Block: return "Block";
  case ScheduleKind::Cyclic: return "Cyclic";
  case ScheduleKind::Dynamic: return "Dynamic";
  }
  return "Default";
}

} // namespace

std::string FileRewriter::boxCode(const LoopResult &R) const {
  // Variables: the nest's normalized iterations, the inner loops' variables, then symbols.
  size_t N = R.Nest.size();
  std::map<const void *, unsigned> Index;
  std::vector<std::string> Symbols;
  auto VarIndex = [&](const PolyVar &V) -> unsigned {
    for (unsigned L = 0; L < N; ++L)
      if (V.Key == normalizedVarKey(L))
        return L;
    if (auto It = Index.find(V.Key); It != Index.end())
      return It->second;
    // A symbol, numbered after all inner variables (their count is known up front).
    unsigned I = unsigned(N + R.InnerRanges.size() + Symbols.size());
    Index[V.Key] = I;
    Symbols.push_back(V.Name);
    return I;
  };
  for (size_t I = 0; I < R.InnerRanges.size(); ++I)
    Index[R.InnerRanges[I].first.Key] = unsigned(N + I);

  std::string Terms, Exprs;
  unsigned NumTerms = 0, NumExprs = 0;
  auto AddExpr = [&](const Polynomial &P) {
    unsigned First = NumTerms;
    for (const auto &[M, C] : P.terms()) {
      // The analysis makes subscripts with larger terms non-affine (fitsBoxProgram).
      assert(M.size() <= MaxBoxFactors && "term too large for a box program");
      Terms += (NumTerms ? ", {" : "{") + std::to_string(C) + "ll, " + std::to_string(M.size()) +
               ", {";
      for (size_t F = 0; F < MaxBoxFactors; ++F)
        Terms += (F ? ", " : "") + std::to_string(F < M.size() ? VarIndex(M[F]) : 0);
      Terms += "}}";
      ++NumTerms;
    }
    Exprs += (NumExprs ? ", {" : "{") + std::to_string(First) + ", " +
             std::to_string(NumTerms - First) + "}";
    return NumExprs++;
  };
  std::string Inner;
  for (size_t I = 0; I < R.InnerRanges.size(); ++I) {
    unsigned L = AddExpr(R.InnerRanges[I].second.Lo), H = AddExpr(R.InnerRanges[I].second.Hi);
    Inner += (I ? ", " : "") + std::to_string(L) + ", " + std::to_string(H);
  }
  std::string Accesses, Ranks;
  unsigned NumAccesses = 0;
  for (size_t RI = 0; RI < R.Regions.size(); ++RI) {
    const Region &Reg = R.Regions[RI];
    bool Whole = !Reg.Affine || Reg.Rank > 3;
    unsigned Rank = Whole ? 1 : Reg.Rank;
    Ranks += (RI ? ", " : "") + std::to_string(Rank);
    if (Whole)
      continue;
    for (const std::vector<Polynomial> &Subs : Reg.Subscripts) {
      if (Subs.size() != Rank)
        continue;
      unsigned First = NumExprs;
      for (const Polynomial &P : Subs)
        AddExpr(P);
      Accesses += (NumAccesses ? ", {" : "{") + std::to_string(RI) + ", " +
                  std::to_string(First) + "}";
      ++NumAccesses;
    }
  }

  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << "    static const ::clustrix::rt::BoxTerm __clx_terms[] = {"
     << (NumTerms ? Terms : "{0, 0, {0, 0, 0, 0}}") << "};\n"
     << "    static const ::clustrix::rt::BoxExpr __clx_exprs[] = {"
     << (NumExprs ? Exprs : "{0, 0}") << "};\n";
  if (!R.InnerRanges.empty())
    OS << "    static const std::uint16_t __clx_inner[] = {" << Inner << "};\n";
  OS << "    static const ::clustrix::rt::BoxAccess __clx_accs[] = {"
     << (NumAccesses ? Accesses : "{0, 0}") << "};\n"
     << "    static const std::uint8_t __clx_rank[] = {" << Ranks << "};\n"
     << "    static const ::clustrix::rt::BoxProgram __clx_prog = {" << N << ", "
     << R.InnerRanges.size() << ", " << Symbols.size() << ", __clx_terms, __clx_exprs, "
     << (R.InnerRanges.empty() ? "nullptr" : "__clx_inner") << ", __clx_accs, " << NumAccesses
     << ", __clx_rank, " << R.Regions.size() << "};\n";
  // Symbols, bases and extents are loop-invariant: evaluated once, here.
  if (!Symbols.empty()) {
    OS << "    const std::int64_t __clx_syms[] = {";
    for (size_t I = 0; I < Symbols.size(); ++I)
      OS << (I ? ", " : "") << "static_cast<std::int64_t>(" << Symbols[I] << ")";
    OS << "};\n";
  }
  OS << "    const std::uint64_t __clx_trips[] = {";
  for (size_t L = 0; L < N; ++L)
    OS << (L ? ", " : "") << "__clx_trip" << L << ".Count";
  OS << "};\n    const ::clustrix::rt::BoxFrame __clx_frames[] = {";
  for (size_t RI = 0; RI < R.Regions.size(); ++RI) {
    const Region &Reg = R.Regions[RI];
    // The address of element (0, ..., 0).
    std::string Elem;
    if (Reg.Scalar)
      Elem = "&(" + Reg.Name + ")";
    else if (Reg.IsContainer)
      Elem = "(" + Reg.Name + ").data()";
    else if (!Reg.ConstDims.empty()) {
      Elem = "&(" + Reg.Name + ")";
      for (size_t D = 0; D < Reg.ConstDims.size(); ++D)
        Elem += "[0]";
    } else
      Elem = "(" + Reg.Name + ")";
    bool Whole = !Reg.Affine || Reg.Rank > 3;
    unsigned Rank = Whole ? 1 : Reg.Rank;
    OS << (RI ? ",\n        {" : "\n        {") << "(void *)" << Elem << ", sizeof(*" << Elem
       << "), {";
    for (unsigned D = 0; D < 3; ++D) {
      std::string E = "-1";
      if (D >= Rank)
        E = "1";
      else if (!Reg.ConstDims.empty() && Reg.ConstDims.size() == Rank)
        E = std::to_string(Reg.ConstDims[D]);
      else if (D == 0 && Rank == 1 && !Reg.ExtentText.empty())
        E = "static_cast<std::int64_t>(" + Reg.ExtentText + ")";
      else if (D > 0 && D - 1 < Reg.DimExtents.size())
        E = "static_cast<std::int64_t>(" + Reg.DimExtents[D - 1].str() + ")";
      OS << (D ? ", " : "") << E;
    }
    OS << "}, ";
    // Non-affine reads of a known extent: the whole object.
    if (Whole)
      OS << "true, static_cast<std::int64_t>("
         << (Reg.ExtentText.empty() ? "0" : Reg.ExtentText) << ")}";
    else
      OS << "false, 0}";
  }
  OS << "};\n    ::clustrix::rt::ProgramBoxes __clx_boxenv = {&__clx_prog, __clx_trips, "
     << (Symbols.empty() ? "nullptr" : "__clx_syms") << ", __clx_frames};\n";
  return S;
}

void FileRewriter::rewriteLoop(const Annotation &A, const Stmt *Loop, const LoopResult &R,
                               const LoopClauses &C, const Kernel &K) {
  auto [LoopBegin, LoopEnd] = rangeOf(Loop);
  // An explicit attribute is replaced with its loop; in automatic mode the attribute is on the
  // function and only the loop is replaced.
  unsigned Begin = LoopBegin;
  if (A.NextLoc.isValid() &&
      SM.getFileOffset(SM.getExpansionLoc(A.NextLoc)) == LoopBegin) {
    CharSourceRange AR = SM.getExpansionRange(SourceRange(A.Begin, A.End));
    Begin = SM.getFileOffset(AR.getBegin());
  }
  std::string Text = generate(Loop, R, C, K, LoopBegin, LoopEnd);
  Edits.push_back({Begin, LoopEnd - Begin, std::move(Text)});
  if (K.Ok)
    AheadOfTime.push_back(&K);
  Changed = true;
  NeedsRuntime = true;
}

std::string FileRewriter::generate(const Stmt *Loop, const LoopResult &R, const LoopClauses &C,
                                   const Kernel &K, unsigned LoopBegin, unsigned LoopEnd) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  SourceLocation ForLoc = SM.getComposedLoc(Main, LoopBegin);
  unsigned Line = SM.getSpellingLineNumber(ForLoc), Col = SM.getSpellingColumnNumber(ForLoc);
  size_t N = R.Nest.size();
  const CanonicalLoop &L0 = R.Nest[0];

  OS << "{ /* clustrix: loop at line " << Line << " runs through libclustrix_rt */\n";
  // The iteration space, evaluated once as the serial loop evaluates it.
  if (L0.RangeFor) {
    OS << "  auto &&__clx_range = (" << L0.RangeText << ");\n"
       << "  const ::clustrix::rt::Trip __clx_trip0{static_cast<std::uint64_t>(std::size("
          "__clx_range)), true};\n";
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
         << cmpName(CL.Cmp) << ", __clx_mag" << I << ", __clx_up" << I << ");\n";
    }
  }
  OS << "  const ::clustrix::rt::Trip __clx_trip = ";
  for (size_t L = 1; L < N; ++L)
    OS << "::clustrix::rt::tripProduct(";
  OS << "__clx_trip0";
  for (size_t L = 1; L < N; ++L)
    OS << ", __clx_trip" << L << ")";
  OS << ";\n";
  // What the compiler proved.
  if (!R.Regions.empty()) {
    OS << "  static const ::clustrix::rt::RegionInfo __clx_regions[] = {";
    for (size_t I = 0; I < R.Regions.size(); ++I) {
      const Region &Reg = R.Regions[I];
      unsigned Acc = ((Reg.Access & RegionRead) ? 1 : 0) | ((Reg.Access & RegionWrite) ? 2 : 0);
      OS << (I ? ", " : "") << "{" << cStringLiteral(Reg.Name) << ", " << Acc << ", "
         << std::min<unsigned>(3, Reg.Rank) << ", " << (Reg.FullWrite ? 1 : 0) << ", "
         << (Reg.MayAlias ? 1 : 0) << "}";
    }
    OS << "};\n";
  }
  if (K.Ok) {
    OS << "  static const char __clx_kernel_src[] = " << cStringLiteral(K.Source) << ";\n"
       << "  static const ::clustrix::rt::KernelParam __clx_params[] = {";
    static const char *const Kinds[] = {"Lo", "Hi", "Region", "Scalar", "Partial"};
    for (size_t I = 0; I < K.Args.size(); ++I)
      OS << (I ? ", " : "") << "{::clustrix::rt::KernelParamKind::" << Kinds[K.Args[I].K] << ", "
         << K.Args[I].Index << ", "
         << K.Args[I].Size << "}";
    OS << "};\n";
  }
  bool Disabled = C.Enable && !*C.Enable;
  char Work[32];
  snprintf(Work, sizeof Work, "%.1f", R.WorkPerIter);
  OS << "  static const ::clustrix::rt::LoopInfo __clx_info = {CLUSTRIX_RT_ABI_VERSION, "
     << cStringLiteral(PresumedName) << ", " << Line << ", " << Col
     << ", ::clustrix::rt::Schedule::" << scheduleName(C.Schedule) << ", " << C.ChunkSize << ", "
     << (C.MaxDevices ? *C.MaxDevices : 0) << ", " << (C.MinIters ? *C.MinIters : 0) << ", "
     << R.Level << ", " << R.Score << ", " << Work << ", " << (Disabled ? 1 : 0) << ", "
     << (R.Regions.empty() ? "nullptr" : "__clx_regions") << ", " << R.Regions.size() << ", ";
  if (!K.Ok)
    OS << "nullptr, nullptr, 0, nullptr, 0};\n";
  else
    OS << cStringLiteral(K.Name) << ", __clx_kernel_src, " << fnv1a64(K.Source)
       << "ull, __clx_params, " << K.Args.size() << "};\n";

  OS << "  if (__clx_trip.Ok) {\n";

  for (size_t I = 0; I < R.Reductions.size(); ++I)
    OS << "    using __clx_r" << I << "_t = std::remove_reference_t<decltype("
       << R.Reductions[I].Name << ")>;\n";
  for (size_t I = 0; I < R.Appends.size(); ++I)
    OS << "    using __clx_a" << I << "_t = std::remove_reference_t<decltype("
       << R.Appends[I].Name << ")>;\n";

  std::string Captures;
  std::vector<std::string> Bindings;
  outerBindings(Loop, SM, Loop->getSourceRange(), Bindings);
  for (const std::string &B : Bindings)
    Captures += ", &" + B + " = " + B;

  // The host chunk function.
  OS << "    auto __clx_chunk = [&" << Captures << "](std::uint64_t __clx_lo, std::uint64_t __clx_hi, "
        "::clustrix::rt::ChunkContext &__clx_ctx) {\n      (void)__clx_ctx;\n";
  for (size_t I = 0; I < R.Reductions.size(); ++I)
    OS << "      __clx_r" << I << "_t &" << R.Reductions[I].Name
       << " = ::clustrix::rt::partial<__clx_r" << I << "_t>(__clx_ctx, " << I << ");\n";
  for (size_t I = 0; I < R.Appends.size(); ++I)
    OS << "      __clx_a" << I << "_t &" << R.Appends[I].Name
       << " = ::clustrix::rt::appendBuffer<__clx_a" << I << "_t>(__clx_ctx, " << I << ");\n";

  const Stmt *Body = nullptr;
  if (const auto *RF = dyn_cast<CXXForRangeStmt>(Loop))
    Body = RF->getBody();
  else {
    const Stmt *S = Loop;
    for (size_t L = 0; L < N; ++L) {
      Body = cast<ForStmt>(S)->getBody();
      while (L + 1 < N && isa<CompoundStmt>(Body))
        Body = cast<CompoundStmt>(Body)->body_front();
      S = Body;
    }
  }
  auto [BodyBegin, BodyEnd] = rangeOf(Body);
  std::string BodyText = lineDirective(BodyBegin) + cleanText(BodyBegin, BodyEnd);

  if (N == 1) {
    OS << "      for (std::uint64_t __clx_k0 = __clx_lo; __clx_k0 < __clx_hi; ++__clx_k0) {\n";
    if (L0.RangeFor)
      OS << "        " << L0.ElemDeclText << " = __clx_range[__clx_k0];\n";
    else
      OS << "        __clx_iv0 " << L0.VarName << " = ::clustrix::rt::inductionValue<__clx_iv0>("
            "__clx_init0, __clx_mag0, __clx_up0, __clx_k0);\n";
  } else {
    OS << "      const std::uint64_t __clx_ext[" << N << "] = {";
    for (size_t L = 0; L < N; ++L)
      OS << (L ? ", " : "") << "__clx_trip" << L << ".Count";
    OS << "};\n      std::uint64_t __clx_idx[" << N << "];\n"
       << "      std::uint64_t __clx_rest = __clx_lo;\n"
       << "      for (unsigned __clx_d = " << N << "; __clx_d-- > 0;) {\n"
       << "        __clx_idx[__clx_d] = __clx_rest % __clx_ext[__clx_d];\n"
       << "        __clx_rest /= __clx_ext[__clx_d];\n      }\n"
       << "      for (std::uint64_t __clx_k = __clx_lo; __clx_k < __clx_hi; ++__clx_k, "
          "::clustrix::rt::advanceIndex(__clx_idx, __clx_ext, "
       << N << ")) {\n";
    for (size_t L = 0; L < N; ++L)
      OS << "        __clx_iv" << L << " " << R.Nest[L].VarName
         << " = ::clustrix::rt::inductionValue<__clx_iv" << L << ">(__clx_init" << L
         << ", __clx_mag" << L << ", __clx_up" << L << ", __clx_idx[" << L << "]);\n";
  }
  OS << BodyText << "\n      }\n    };\n";

  // Reductions, appends, boxes.
  if (!R.Reductions.empty()) {
    OS << "    ::clustrix::rt::ReductionSlot __clx_reds[] = {";
    for (size_t I = 0; I < R.Reductions.size(); ++I)
      OS << (I ? ", " : "") << "::clustrix::rt::reductionSlot(" << R.Reductions[I].Name
         << ", ::clustrix::rt::ReduceOp::" << reduceOpName(R.Reductions[I].Op) << ")";
    OS << "};\n";
  }
  if (!R.Appends.empty()) {
    OS << "    ::clustrix::rt::AppendSlot __clx_apps[] = {";
    for (size_t I = 0; I < R.Appends.size(); ++I)
      OS << (I ? ", " : "") << "::clustrix::rt::appendSlot(" << R.Appends[I].Name << ")";
    OS << "};\n";
  }
  if (!R.Regions.empty())
    OS << boxCode(R);
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
  // Where the runtime keeps the loop serial, the chunk function runs all of it in place, in
  // order, on the loop's own reduction and append variables: the loop's own operations.
  OS << "    if (::clustrix::rt::runLoop(__clx_info, __clx_args) != "
        "::clustrix::rt::RunStatus::Done) {\n";
  size_t NumOwn = R.Reductions.size() + R.Appends.size();
  if (NumOwn) {
    OS << "      void *__clx_own[] = {";
    size_t K = 0;
    for (const Reduction &X : R.Reductions)
      OS << (K++ ? ", " : "") << "::clustrix::rt::ownAddress(" << X.Name << ")";
    for (const Append &X : R.Appends)
      OS << (K++ ? ", " : "") << "::clustrix::rt::ownAddress(" << X.Name << ")";
    OS << "};\n";
  }
  OS << "      ::clustrix::rt::runInPlace(__clx_chunk, __clx_trip.Count, "
     << (NumOwn ? "__clx_own" : "nullptr") << ", " << R.Reductions.size() << ");\n    }\n";
  // An induction variable declared before the loop ends with the value the serial loop leaves.
  for (size_t L = 0; L < N; ++L) {
    const CanonicalLoop &CL = R.Nest[L];
    if (CL.DeclaredInLoop || CL.RangeFor)
      continue;
    std::string I = std::to_string(L);
    std::string Assign = CL.VarName + " = ::clustrix::rt::inductionValue<__clx_iv" + I +
                         ">(__clx_init" + I + ", __clx_mag" + I + ", __clx_up" + I +
                         ", __clx_trip" + I + ".Count);\n";
    OS << (L == 0 ? "    " : "    if (__clx_trip.Count > 0) ") << Assign;
  }
  // A trip count that cannot be represented (a zero step, a wrap-around, a `!=` never met):
  // the loop exactly as written, out of line and cheap to compile, as nothing here is fast.
  OS << "  } else {\n    [&" << Captures << "]() CLUSTRIX_RT_AS_WRITTEN {"
     << lineDirective(LoopBegin) << cleanText(LoopBegin, LoopEnd) << "\n    }();\n  }";
  OS << "\n}" << lineDirective(LoopEnd);
  return S;
}

std::string FileRewriter::result() const {
  std::vector<Edit> Sorted = Edits;
  std::sort(Sorted.begin(), Sorted.end(),
            [](const Edit &A, const Edit &B) { return A.Offset < B.Offset; });
  std::string Out;
  if (NeedsRuntime)
    Out += "#include <clustrix/Runtime.h>\n#line 1 " + cStringLiteral(PresumedName) + "\n";
  unsigned Pos = 0;
  for (const Edit &E : Sorted) {
    if (E.Offset < Pos)
      continue; // nested in an earlier replacement
    Out += Clean.substr(Pos, E.Offset - Pos);
    Out += E.Text;
    Pos = E.Offset + E.Length;
  }
  Out += Clean.substr(Pos);
  if (!AheadOfTime.empty()) {
    // Built by nvcc, the file also compiles each kernel ahead of time, in a namespace of its own
    // (the kernel text carries copies of the user's types and functions), and registers a getter
    // for its handle: the runtime then needs no NVRTC for it.
    Out += "\n#if defined(__CUDACC__) && !defined(CLUSTRIX_NO_AOT)\n";
    for (size_t I = 0; I < AheadOfTime.size(); ++I) {
      const Kernel &K = *AheadOfTime[I];
      Out += "namespace __clx_aot_" + std::to_string(I) + " {\n" + K.Source +
             "static void *__clx_get() {\n  cudaKernel_t K = nullptr;\n"
             "  return cudaGetKernel(&K, (const void *)&" + K.Name +
             ") == cudaSuccess ? (void *)K : nullptr;\n}\n"
             "static const bool __clx_registered = (::clustrix::rt::registerKernelGetter(" +
             cStringLiteral(K.Name) + ", " + std::to_string(fnv1a64(K.Source)) +
             "ull, &__clx_get), true);\n" +
             // Compiled with the same flags as the kernel: the runtime runs it once to learn
             // whether nvcc fused a*b+c (its default, --fmad=true), which would make the
             // kernel's results differ from the host's, and then uses NVRTC instead.
             "extern \"C\" __global__ void " + K.Name +
             "_fmad_probe(const double *In, double *Out) { Out[0] = In[0] * In[1] + In[2]; }\n"
             "static void *__clx_probe() {\n  cudaKernel_t K = nullptr;\n"
             "  return cudaGetKernel(&K, (const void *)&" + K.Name +
             "_fmad_probe) == cudaSuccess ? (void *)K : nullptr;\n}\n"
             "static const bool __clx_probed = (::clustrix::rt::registerKernelGetter(" +
             cStringLiteral(K.Name + "_fmad_probe") + ", " + std::to_string(fnv1a64(K.Source)) +
             "ull, &__clx_probe), true);\n} // namespace __clx_aot_" + std::to_string(I) + "\n";
    }
    Out += "#endif\n";
  }
  return Out;
}
