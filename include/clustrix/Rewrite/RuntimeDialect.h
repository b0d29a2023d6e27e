//===- clustrix/Rewrite/RuntimeDialect.h - C++ or C generated code -*- C++ -*-===//
//
// Generated code reaches the runtime through clustrix/Runtime.h in a C++ translation unit and
// through clustrix/runtime_c.h in a C one. Both declare the records and kinds of
// clustrix/Descriptor.def, under different names; the descriptor and the box program are the
// same initializers otherwise. A RuntimeDialect spells those names, and the few constructs that
// differ between the two languages, for the generators that serve both (DescriptorGen,
// BoxCodeGen).
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_REWRITE_RUNTIMEDIALECT_H
#define CLUSTRIX_REWRITE_RUNTIMEDIALECT_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace clang {
class LangOptions;
} // namespace clang

namespace clustrix {

/// The language of the generated code, and how it names the runtime's interface.
class RuntimeDialect {
public:
  /// C++ against clustrix/Runtime.h.
  static RuntimeDialect cxx() { return RuntimeDialect(false); }
  /// C against clustrix/runtime_c.h.
  static RuntimeDialect c() { return RuntimeDialect(true); }
  /// The dialect of a translation unit's language.
  static RuntimeDialect of(const clang::LangOptions &LO);

  bool isC() const { return C; }
  /// A record of Descriptor.def: `::clustrix::rt::LoopInfo`, or `clustrix_LoopInfo`.
  std::string record(llvm::StringRef Name) const;
  /// An enumerator of a kind: `::clustrix::rt::Schedule::Block`, or `clustrix_Schedule_Block`.
  std::string enumerator(llvm::StringRef Kind, llvm::StringRef Name) const;
  /// A fixed-width integer type of <cstdint>: `std::int64_t`, or `int64_t`.
  std::string fixedInt(llvm::StringRef Name) const;
  /// E converted to a fixed-width integer type: `static_cast<std::int64_t>(E)`, or
  /// `((int64_t)(E))`.
  std::string castTo(llvm::StringRef FixedName, llvm::StringRef E) const;
  /// A function of Runtime.h that runtime_c.h declares too: `::clustrix::rt::tripProduct`, or
  /// `clustrix_trip_product`.
  std::string helper(llvm::StringRef CamelName) const;
  /// The null pointer: `nullptr`, or `0`.
  std::string null() const { return C ? "0" : "nullptr"; }
  /// A bool field's value: `true`/`false`, or `1`/`0`.
  std::string boolean(bool V) const { return C ? (V ? "1" : "0") : (V ? "true" : "false"); }

private:
  explicit RuntimeDialect(bool C) : C(C) {}
  bool C;
};

} // namespace clustrix

#endif // CLUSTRIX_REWRITE_RUNTIMEDIALECT_H
