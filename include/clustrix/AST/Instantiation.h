//===- clustrix/AST/Instantiation.h - Loops in templates --------*- C++ -*-===//
//
// A loop in a template is analysed once per instantiation that the translation unit uses
// (docs/attribute.md#templates). The rewritten template chooses among its instantiations at
// compile time, with `if constexpr` on the template's own parameters: each instantiation that
// was proved safe gets its own block (its descriptor, its GPU kernel with concrete types), and
// every other one keeps the loop as written. This file binds each template parameter in scope at
// the loop to the argument of one instantiation, and spells both the test that picks it and the
// declarations that give a kernel the same names.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_AST_INSTANTIATION_H
#define CLUSTRIX_AST_INSTANTIATION_H

#include "clang/AST/Type.h"
#include "clang/Basic/SourceLocation.h"

#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace clustrix {

/// One template parameter in scope at the loop, bound to one instantiation's argument.
struct TemplateBinding {
  std::string Name;        ///< As the template's definition spells it (`T`, `N`).
  bool IsType = false;     ///< A type parameter; otherwise an integral non-type parameter.
  clang::QualType Type;    ///< The argument (type parameters), or the parameter's type.
  std::string HostValue;   ///< The argument spelled for host code at the loop.
  std::string DeviceDecl;  ///< How a kernel declares the name (`typedef float T;`).
};

/// Which instantiation of its template a loop's copy belongs to.
struct InstantiationKey {
  /// Why the instantiation cannot be told apart in the template's text (then it runs as
  /// written); empty when it can.
  std::string Reason;
  /// Every parameter in scope, outermost template first.
  std::vector<TemplateBinding> Bindings;
  /// `::std::is_same<T, float>::value && N == 4`: true in this instantiation only.
  std::string Condition;
  /// As diagnostics name it: `Stream<float>::copy`, `triad<double>`.
  std::string DisplayName;
  /// Where the instantiation was requested, for the note that says so.
  clang::SourceLocation RequestedAt;
};

/// Whether F, or a function or class it is nested in, is a template that is not instantiated:
/// the code of a template definition, whose loops run only through its instantiations.
bool isTemplatePattern(const clang::FunctionDecl *F);

/// Whether F's body was produced by instantiating a template (F, or a function or class it is
/// nested in, is an instantiation).
bool isInstantiated(const clang::FunctionDecl *F);

/// Binds the template parameters that are in scope in Pattern (the function in a template
/// definition that holds a loop) to their arguments in Inst (the same function in one
/// instantiation).
InstantiationKey describeInstantiation(const clang::FunctionDecl *Pattern,
                                       const clang::FunctionDecl *Inst, clang::ASTContext &Ctx);

} // namespace clustrix

#endif // CLUSTRIX_AST_INSTANTIATION_H
