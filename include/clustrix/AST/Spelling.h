//===- clustrix/AST/Spelling.h - How generated code names things -*- C++ -*-===//
//
// Generated code (alias guards, box frames, kernel arguments, captured addresses) is written at
// the annotated loop, where a name can mean something else than in the body that used it: a
// local hides a global, a namespace's member is out of scope, a private member is not
// accessible. Design rule 7: every name generated code writes is one the rewriter declares, or
// one of these spellings, checked at the loop; where none works the loop is refused.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_AST_SPELLING_H
#define CLUSTRIX_AST_SPELLING_H

#include "clang/AST/Type.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <string>

namespace clang {
class CXXRecordDecl;
class DeclContext;
class FieldDecl;
class FunctionDecl;
class NamedDecl;
class Stmt;
} // namespace clang

namespace clustrix {

/// The name generated code uses for D: its identifier for a variable of a function (a local, a
/// parameter, a static local, a structured binding) and for anything in C; the fully qualified
/// name from the global namespace otherwise (`::cfg::limit`, `::Config::scale`). Empty when D
/// has no name written that way (a member of an unnamed or local class, of a class template's
/// specialization).
std::string spelledName(const clang::NamedDecl *D);

/// Whether Member (a field, a static data member or a nested class) of its class may be named
/// from code in context At, on an object whose class is Naming (null: named by its qualified
/// name). Conservative: public along every step, or At is a member or friend of the class (a
/// derived class's member for a protected member of `this`).
bool isAccessibleFrom(const clang::NamedDecl *Member, const clang::CXXRecordDecl *Naming,
                      const clang::DeclContext *At);

/// The function whose body holds F, climbing out of the lambdas F is the call operator of.
const clang::FunctionDecl *outermostFunction(const clang::FunctionDecl *F);

/// A private (or protected) member that the loop's function may not name is reached through a
/// pointer to member, obtained by an explicit instantiation (whose template arguments are not
/// access checked, [temp.spec]) and kept in a constant of internal linkage declared at namespace
/// scope just before Outer, the function that holds the loop. The constant's name: unique to the
/// member and the function, and naming the member (display names recover it).
std::string privateMemberVariable(const clang::FieldDecl *FD, const clang::FunctionDecl *Outer);
/// The declarations that define privateMemberVariable(FD, Outer), or empty with Why set when
/// they cannot be written before Outer: Outer is not at namespace scope, the member's class or
/// type cannot be named there, or an object of class Naming (null: FD's own) reaches FD's class
/// through a base that is not public.
std::string privateMemberDefinition(const clang::FieldDecl *FD, const clang::CXXRecordDecl *Naming,
                                    const clang::FunctionDecl *Outer, std::string &Why);
/// Why type T cannot be written at namespace scope, or empty: every class it names must have a
/// name there and be accessible from anywhere.
std::string whyTypeNotNameable(clang::QualType T);

/// Name, a region or symbol name of generated code, as users read it: every
/// `(o.*__clx_pm_m_...)` spelled `o.m`.
std::string displayMemberNames(const std::string &Name);

/// The names in scope at one annotated loop: every function-local name visible there (the
/// enclosing functions' parameters, locals of enclosing blocks declared before the loop,
/// init-captures), innermost winning. It says why generated code at the loop cannot name a
/// declaration by spelledName.
class LoopScope {
public:
  /// Enclosing is the function (or lambda call operator) whose body holds Loop.
  LoopScope(const clang::FunctionDecl *Enclosing, const clang::Stmt *Loop);

  /// Why spelledName(D) does not name D at the loop, or empty when it does: a local with the
  /// same name hides it, it has no such spelling, or its class is not accessible there.
  std::string whyNotNameable(const clang::NamedDecl *D) const;

  /// Why member Member, reached through an object of class Naming, is not accessible at the
  /// loop; empty when it is.
  std::string whyNotAccessible(const clang::NamedDecl *Member,
                               const clang::CXXRecordDecl *Naming) const;

  /// How generated code at the loop names D: spelledName(D), or D's plain name where that
  /// finds D too (a global of the global namespace used in a function of the global namespace,
  /// with no local of its name in scope), so that messages keep the names users wrote.
  std::string spellingAt(const clang::NamedDecl *D) const;

  const clang::FunctionDecl *enclosing() const { return Enclosing; }
  const clang::FunctionDecl *outer() const { return Outer; }

private:
  const clang::FunctionDecl *Enclosing;
  /// The function whose body holds the loop and the lambdas around it.
  const clang::FunctionDecl *Outer = nullptr;
  std::map<std::string, const clang::NamedDecl *> Visible;
};

} // namespace clustrix

#endif // CLUSTRIX_AST_SPELLING_H
