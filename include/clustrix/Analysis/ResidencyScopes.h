//===- ResidencyScopes.h - Where data may stay on the devices ---*- C++ -*-===//
//
// Part of the Clustrix project.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Residency scopes (docs/data-movement.md#residency): the statements around accepted loops in
/// which no host code touches memory the loops may keep on devices, so that what a loop writes
/// on a GPU can stay there for the next loop. Two shapes are proved:
///  - a serial loop (a time step) whose body holds accepted loops and otherwise only host code
///    on private scalars (counters, flags, pointer swaps), with a header of the same kind; the
///    outermost such loop is the scope;
///  - consecutive accepted loops in one block, with only such statements (no declarations)
///    between them.
/// Host code on private scalars means: literals, arithmetic, comparisons, assignments and
/// increments of local scalar or pointer variables whose address never escapes in the function
/// (no `&`, no reference binding, no capture by reference), `if`, `break`, `continue` and a
/// `return` of such a value. A call, a dereference, a subscript or a member access ends the
/// proof. Everything else keeps today's behaviour: results copied back at each loop's end.
///
/// One more kind of statement of the scope's own block (not in a loop header or a branch): one
/// that reads single elements `p[e]` of scalar type, where `p` is such a pointer variable and
/// `e` such a value, and that has no side effect but an assignment of its result to a private
/// scalar or to one such element (`double r = p[0];`, `s += p[i];`, `if (p[k] < tol) break;`,
/// `return p[0];`, `p[0] = p[1] + s;`). Just before the statement, the runtime brings exactly
/// the elements read back to the host (clustrix::rt::hostReads; the devices keep their
/// copies), and the element written (clustrix::rt::hostWrites; the devices' copies of it are
/// dropped). A read under `&&`, `||` or `?:`, an element spelled through a macro, or one naming
/// a variable the statement declares ends the proof.
///
/// In C, where no destructor ends a scope however its block is left, a scope holds no `return`,
/// `goto` or label, and no `break` or `continue` between two loops of a block.
///
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_ANALYSIS_RESIDENCYSCOPES_H
#define CLUSTRIX_ANALYSIS_RESIDENCYSCOPES_H

#include "llvm/ADT/ArrayRef.h"

#include <vector>

namespace clang {
class ArraySubscriptExpr;
class ASTContext;
class FunctionDecl;
class Stmt;
} // namespace clang

namespace clustrix {

/// A residency scope: the statements [First, Last] of one block (First == Last for a time-step
/// loop), to be wrapped in a block that opens the scope.
struct ResidencyScope {
  const clang::Stmt *First = nullptr;
  const clang::Stmt *Last = nullptr;
  /// A statement of the scope that reads or writes single elements, each to be synchronized
  /// just before it.
  struct HostAccess {
    const clang::Stmt *Before = nullptr;
    std::vector<const clang::ArraySubscriptExpr *> Reads, Writes;
  };
  std::vector<HostAccess> Accesses;
};

/// The scopes around Accepted (the accepted loops, in source order, each with the function
/// that holds it), outermost only, in source order.
std::vector<ResidencyScope>
findResidencyScopes(clang::ASTContext &Ctx,
                    llvm::ArrayRef<std::pair<const clang::Stmt *, const clang::FunctionDecl *>>
                        Accepted);

} // namespace clustrix

#endif
