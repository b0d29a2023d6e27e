//===- UseScan.h - Which variables are rewritten or escape ------*- C++ -*-===//
//
// Two scans that the memory model relies on, both conservative:
//  - collectRewritten: the variables of a body that have any use other than a read of their
//    value (assigned, incremented, address taken, bound to a reference, passed by non-const
//    reference, captured by reference, a method called on them). Only the others are "defined
//    once", so that their definition may stand for them in a subscript or a pointer.
//  - scanEscapes: the variables of the enclosing function whose address escapes where the loop
//    can observe it: address taken, bound to a reference, captured by reference, or passed by
//    reference to a function that may keep the address; before or in the loop, or anywhere when
//    the loop may run again (it sits inside another loop, or the function has a label).
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_LIB_ANALYSIS_USESCAN_H
#define CLUSTRIX_LIB_ANALYSIS_USESCAN_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

#include <map>
#include <set>
#include <vector>

namespace clustrix {
namespace analysis {

/// Adds to Out the variables with a use in S other than a read of their value.
void collectRewritten(const clang::Stmt *S, std::set<const clang::VarDecl *> &Out);

/// Adds to Out every variable S names.
void collectNames(const clang::Stmt *S, std::set<const clang::VarDecl *> &Out);

/// Where the addresses of the enclosing function's variables escape.
struct EscapeInfo {
  /// The escaping uses the loop may observe, per variable, in the order met.
  std::map<const clang::VarDecl *, std::vector<const clang::Expr *>> Escaping;
  /// Every escaping use in the function, before the loop or after it, per variable: for a
  /// static local, whose address one call may leave where the loop of the next call sees it.
  std::map<const clang::VarDecl *, std::vector<const clang::Expr *>> EscapingAnywhere;
  /// The loop may run more than once in one call of the function.
  bool Repeats = false;

  /// The escaping uses of V that matter to the loop (for a static local, all of them).
  const std::vector<const clang::Expr *> &escapesOf(const clang::VarDecl *V) const {
    static const std::vector<const clang::Expr *> None;
    const auto &Map = V->isStaticLocal() ? EscapingAnywhere : Escaping;
    auto It = Map.find(V);
    return It == Map.end() ? None : It->second;
  }
  /// The first of them, or null.
  const clang::Expr *escapeOf(const clang::VarDecl *V) const {
    const auto &Es = escapesOf(V);
    return Es.empty() ? nullptr : Es.front();
  }
};

/// Scans the body of F, which contains Loop.
EscapeInfo scanEscapes(const clang::FunctionDecl *F, const clang::Stmt *Loop,
                       const clang::ASTContext &Ctx);

/// The variable an lvalue expression is part of (through parentheses, member access with `.`,
/// subscripts of arrays and no-op casts), or null.
const clang::VarDecl *rootVariable(const clang::Expr *E);

} // namespace analysis
} // namespace clustrix

#endif
