//===- AnalysisUtil.h - Helpers shared by the analysis phases ---*- C++ -*-===//
//
// Type predicates, source spelling and the refusal log that every phase of the loop analysis
// uses. Private to lib/Analysis.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_LIB_ANALYSIS_ANALYSISUTIL_H
#define CLUSTRIX_LIB_ANALYSIS_ANALYSISUTIL_H

#include "clustrix/Analysis/LoopModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace clustrix {
namespace analysis {

/// The refusals of one loop. Every phase adds to it the same way; a message given twice for the
/// same kind is kept once.
class RejectLog {
public:
  explicit RejectLog(std::vector<RejectReason> &Reasons) : Reasons(Reasons) {}
  /// Adds a reason; returns it, or null where the same reason was already there.
  RejectReason *add(RejectKind K, std::string Message, clang::SourceLocation Loc = {},
                    std::string Note = "", std::string Suggestion = "");
  bool empty() const { return Reasons.empty(); }
  size_t size() const { return Reasons.size(); }

private:
  std::vector<RejectReason> &Reasons;
};

/// How a variable is named in messages: its name, or `[a, b]` for a structured binding's
/// hidden object.
std::string displayName(const clang::VarDecl *VD);

/// A readable identity for a declaration (its address), for region keys.
std::string pointerKey(const void *D);
/// A stable address standing for a key string: the polynomial variable of a member path such as
/// `in.n` (the same string gives the same address for the life of the process).
const void *internKey(const std::string &Key);

/// Whether S names V anywhere (a DeclRefExpr to V among S and its children).
bool mentions(const clang::Stmt *S, const clang::VarDecl *V);

/// The source text of E (or its pretty-printed form when it has none).
std::string spell(const clang::Expr *E, const clang::ASTContext &Ctx);
/// T as generated code may spell it: fully qualified, canonical.
std::string typeString(clang::QualType T, const clang::ASTContext &Ctx);

/// std::vector, std::array or std::span (IsVector: whether it is a vector).
bool isStdContainer(clang::QualType T, bool *IsVector = nullptr);
/// A standard view (std::span, std::string_view, std::mdspan): its elements are someone else's.
bool isStdView(clang::QualType T);
/// std::vector<bool>, whose elements are bits packed into shared words.
bool isBitVector(clang::QualType T);
/// Whether an object of type T holds all of its data itself: no pointer, reference or view
/// anywhere inside it (arrays and records are looked through; std::vector and std::array own
/// their elements). A private copy of such an object shares nothing with other iterations.
bool holdsOwnData(clang::QualType T, const clang::ASTContext &Ctx);

/// Library functions that do I/O, allocate or touch process state.
bool isIOOrAllocName(llvm::StringRef Name);

/// Whether converting an integer from From to To keeps every value (so orderings and bounds
/// carry over).
bool preservesValue(clang::QualType From, clang::QualType To, const clang::ASTContext &Ctx);
/// Whether converting an integer from From to To keeps distinct values distinct: no truncation.
/// A change of sign at the same width (or into a 64-bit index) only renames values modulo the
/// width, which address arithmetic does as well.
bool keepsDistinct(clang::QualType From, clang::QualType To, const clang::ASTContext &Ctx);

/// Whether a pointer to From may point at an object of type To under C++'s aliasing rules (the
/// same type up to qualifiers and signedness, or a character type on either side).
bool mayPointTo(clang::QualType From, clang::QualType To, const clang::ASTContext &Ctx);

} // namespace analysis
} // namespace clustrix

#endif
