//===- AnalysisUtil.cpp - Helpers shared by the analysis phases ------------===//
#include "AnalysisUtil.h"

#include "clustrix/AST/Spelling.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSet.h"

#include <cstdio>
#include <set>

using namespace clang;

namespace clustrix {

const char *rejectKindName(RejectKind K) {
  switch (K) {
#define CLUSTRIX_REJECT_KIND(Enumerator, Name, Summary)                                           \
  case RejectKind::Enumerator:                                                                   \
    return Name;
#include "clustrix/Analysis/RejectKinds.def"
  }
  return "unknown";
}

const char *rejectKindSummary(RejectKind K) {
  switch (K) {
#define CLUSTRIX_REJECT_KIND(Enumerator, Name, Summary)                                           \
  case RejectKind::Enumerator:                                                                   \
    return Summary;
#include "clustrix/Analysis/RejectKinds.def"
  }
  return "";
}

const void *normalizedVarKey(unsigned Level) {
  static const char Keys[3] = {};
  return &Keys[Level];
}

bool fitsBoxProgram(const Polynomial &P) {
  for (const auto &[M, C] : P.terms())
    if (M.size() > MaxBoxFactors)
      return false;
  return true;
}

unsigned complexityLevel(unsigned Score) {
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

namespace analysis {

RejectReason *RejectLog::add(RejectKind K, std::string Message, SourceLocation Loc,
                             std::string Note, std::string Suggestion) {
  // Messages name members as users wrote them, not as generated code reaches them.
  Message = displayMemberNames(Message);
  Note = displayMemberNames(Note);
  for (const RejectReason &Old : Reasons)
    if (Old.Kind == K && Old.Message == Message)
      return nullptr;
  Reasons.push_back({K, std::move(Message), Loc, std::move(Note), std::move(Suggestion), {}});
  return &Reasons.back();
}

std::string pointerKey(const void *D) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%p", D);
  return Buf;
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

const void *internKey(const std::string &Key) {
  static std::set<std::string> *Keys = new std::set<std::string>();
  return &*Keys->insert(Key).first;
}

std::string displayName(const VarDecl *VD) {
  if (const auto *DD = dyn_cast<DecompositionDecl>(VD)) {
    std::string S = "[";
    for (const BindingDecl *B : DD->bindings())
      S += (S.size() > 1 ? ", " : "") + B->getNameAsString();
    return S + "]";
  }
  return VD->getNameAsString();
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

static const CXXRecordDecl *stdRecord(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  const auto *RD = T->getAsCXXRecordDecl();
  return RD && RD->isInStdNamespace() && RD->getIdentifier() ? RD : nullptr;
}

bool isStdContainer(QualType T, bool *IsVector) {
  const CXXRecordDecl *RD = stdRecord(T);
  if (!RD)
    return false;
  StringRef N = RD->getName();
  if (IsVector)
    *IsVector = N == "vector";
  return N == "vector" || N == "array" || N == "span";
}

bool isStdView(QualType T) {
  const CXXRecordDecl *RD = stdRecord(T);
  if (!RD)
    return false;
  StringRef N = RD->getName();
  return N == "span" || N == "basic_string_view" || N == "mdspan";
}

bool isBitVector(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  const auto *CTS = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl());
  if (!CTS || !CTS->isInStdNamespace() || CTS->getName() != "vector" ||
      CTS->getTemplateArgs().size() == 0 ||
      CTS->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return false;
  return CTS->getTemplateArgs()[0].getAsType()->isBooleanType();
}

static bool holdsOwnDataImpl(QualType T, const ASTContext &Ctx, unsigned Depth) {
  if (Depth > 16)
    return false;
  T = T.getCanonicalType();
  if (T->isReferenceType() || T->isPointerType() || T->isMemberPointerType())
    return false;
  while (const ArrayType *AT = Ctx.getAsArrayType(T))
    T = AT->getElementType().getCanonicalType();
  if (T->isScalarType())
    return !T->isPointerType() && !T->isMemberPointerType();
  const auto *RD = T->getAsRecordDecl();
  if (!RD || !RD->getDefinition())
    return false;
  if (isStdView(T))
    return false;
  if (const auto *CTS = dyn_cast<ClassTemplateSpecializationDecl>(RD);
      CTS && CTS->isInStdNamespace() && (CTS->getName() == "vector" || CTS->getName() == "array")) {
    if (CTS->getTemplateArgs().size() == 0 ||
        CTS->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
      return false;
    return holdsOwnDataImpl(CTS->getTemplateArgs()[0].getAsType(), Ctx, Depth + 1);
  }
  if (RD->isInStdNamespace())
    return false;
  if (const auto *CRD = dyn_cast<CXXRecordDecl>(RD))
    for (const CXXBaseSpecifier &B : CRD->bases())
      if (!holdsOwnDataImpl(B.getType(), Ctx, Depth + 1))
        return false;
  for (const FieldDecl *F : RD->fields())
    if (!holdsOwnDataImpl(F->getType(), Ctx, Depth + 1))
      return false;
  return true;
}

bool holdsOwnData(QualType T, const ASTContext &Ctx) { return holdsOwnDataImpl(T, Ctx, 0); }

bool isIOOrAllocName(StringRef N) {
  static const llvm::StringSet<> Names = {
      "printf", "fprintf", "sprintf", "snprintf", "puts",   "putchar", "fputs", "fwrite",
      "fread",  "scanf",   "fopen",   "fclose",   "malloc", "calloc",  "realloc", "free",
      "exit",   "abort",   "rand",    "srand",    "time",   "getenv",  "system"};
  return Names.contains(N);
}

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

bool keepsDistinct(QualType From, QualType To, const ASTContext &Ctx) {
  if (!From->isIntegerType() || !To->isIntegerType() || To->isBooleanType())
    return false;
  return Ctx.getIntWidth(To) >= Ctx.getIntWidth(From) || Ctx.getIntWidth(To) >= 64;
}

bool mayPointTo(QualType From, QualType To, const ASTContext &Ctx) {
  From = From.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  To = To.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  auto IsChar = [](QualType T) { return T->isCharType() || T->isStdByteType(); };
  if (IsChar(From) || IsChar(To) || From->isVoidType() || To->isVoidType())
    return true;
  if (From->isIntegerType() && To->isIntegerType())
    return Ctx.getTypeSize(From) == Ctx.getTypeSize(To);
  if (Ctx.hasSameType(From, To))
    return true;
  // A record may contain an object of the other type.
  if (const auto *RD = From->getAsRecordDecl(); RD && RD->getDefinition())
    for (const FieldDecl *F : RD->fields())
      if (mayPointTo(F->getType(), To, Ctx))
        return true;
  if (const auto *RD = To->getAsRecordDecl(); RD && RD->getDefinition())
    for (const FieldDecl *F : RD->fields())
      if (mayPointTo(From, F->getType(), Ctx))
        return true;
  if (const ArrayType *AT = Ctx.getAsArrayType(From))
    return mayPointTo(AT->getElementType(), To, Ctx);
  if (const ArrayType *AT = Ctx.getAsArrayType(To))
    return mayPointTo(From, AT->getElementType(), Ctx);
  return false;
}

} // namespace analysis
} // namespace clustrix
