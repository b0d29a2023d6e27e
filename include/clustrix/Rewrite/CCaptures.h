//===- clustrix/Rewrite/CCaptures.h - What an outlined C body reaches -*- C++ -*-===//
//
// In a C translation unit the body of an accepted loop moves into a file-scope function (C has
// no lambdas), in the manner of OpenMP's outlining: what the body names of the enclosing
// function reaches it through an environment the loop's block fills. This finds those names
// and how each travels: a scalar the body only reads, and whose address the function never
// takes (nothing can write it while the loop runs), is copied into a variable of the same
// name; anything else (arrays, structs, a scalar written or whose address is taken) is reached
// through a pointer, and the body's references to it are rewritten. Variably modified types (`double
// C[n][m]`) keep their bounds as run-time values.
//
// It also says why a body cannot move: a type, enumerator, function or `extern` declared inside
// the enclosing function is invisible at file scope; a rewritten variable named inside a macro
// cannot be rewritten; an inline function with external linkage cannot call a static function.
// refuseUnlessOutlinable turns that into a refusal before the decision is reported.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_REWRITE_CCAPTURES_H
#define CLUSTRIX_REWRITE_CCAPTURES_H

#include "clustrix/Analysis/LoopModel.h"

#include "clang/AST/Decl.h"
#include "clang/AST/PrettyPrinter.h"

#include <string>
#include <vector>

namespace clustrix {

/// A variable of the enclosing function that the loop's body names.
struct CCapture {
  enum Kind {
    Copy,    ///< A scalar the body only reads, never addressed: a same-named copy.
    Pointer, ///< Reached as `(*__clx_ref_<name>)`; the body's references are rewritten.
  };
  const clang::VarDecl *Var = nullptr;
  Kind K = Copy;
  /// Its type is variably modified: the environment holds a `void *` and each variable bound,
  /// and the chunk function declares the pointer with those bounds.
  bool VariablyModified = false;
  /// Loop-site expressions of the variable bounds of the captured value's type (the variable's
  /// for a copy, a pointer to it otherwise), outermost first.
  std::vector<std::string> Bounds;
  /// Offsets in the main file of the body's references (for Pointer: the ones to rewrite).
  std::vector<unsigned> RefOffsets;
};

/// The captures of one accepted loop of a C translation unit, or why its body cannot become a
/// file-scope function.
class CCaptures {
public:
  CCaptures(const clang::FunctionDecl *Enclosing, const clang::Stmt *Loop, const LoopResult &R);

  /// Why the body cannot be outlined; empty when it can.
  const std::string &problem() const { return Problem; }
  /// Where the problem is, and the note there.
  clang::SourceLocation problemLoc() const { return ProblemLoc; }
  const std::string &problemNote() const { return ProblemNote; }
  /// The captures, in the order of their declarations.
  const std::vector<CCapture> &captures() const { return Captures; }

private:
  friend class CCaptureScan;
  std::string Problem, ProblemNote;
  clang::SourceLocation ProblemLoc;
  std::vector<CCapture> Captures;
};

/// An accepted loop of a C translation unit whose body cannot be outlined is refused instead
/// (RejectKind::Context), before the decision is reported.
void refuseUnlessOutlinable(const clang::FunctionDecl *Enclosing, const clang::Stmt *Loop,
                            LoopResult &R);

/// `T Name` as a C declaration (Name may be empty: a type name). The variable bounds of T's
/// variable array types, outermost first, are written as Bounds[0], Bounds[1], ...
std::string cDeclaration(clang::QualType T, const std::string &Name,
                         const std::vector<std::string> &Bounds, const clang::ASTContext &Ctx);

/// The loop-site expressions of the variable bounds of T, the type of the expression E,
/// outermost first (`sizeof(*E) / sizeof((*E)[0])` for a pointer to `double[n][m]`).
std::vector<std::string> variableBounds(clang::QualType T, const std::string &E,
                                        const clang::ASTContext &Ctx);

/// Whether T is a chain of pointers and arrays over a type that is not variably modified: the
/// variably modified types cDeclaration can write.
bool isPointerArrayChain(clang::QualType T, const clang::ASTContext &Ctx);

/// The types of one level of a canonical nest in a C translation unit: the induction variable's
/// (canonical, so that a file-scope function can name it), the comparison's, and the step
/// expression's as written.
struct CLoopTypes {
  clang::QualType Var, Cmp, Step;
};
CLoopTypes cLoopTypes(const CanonicalLoop &L, const clang::ASTContext &Ctx);

/// The enumerator name of Runtime.h's ScalarKind ("I32", "F64") of T: an integer type of 8 to
/// 64 bits, float or double; empty for any other type.
std::string cScalarKind(clang::QualType T, const clang::ASTContext &Ctx);

/// The C printing policy of generated declarations.
clang::PrintingPolicy cPolicy(const clang::ASTContext &Ctx);

} // namespace clustrix

#endif // CLUSTRIX_REWRITE_CCAPTURES_H
