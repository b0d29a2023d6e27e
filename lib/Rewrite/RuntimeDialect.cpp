//===- RuntimeDialect.cpp - C++ or C generated code ------------------------===//
//
// The spellings of clustrix/Runtime.h and of clustrix/runtime_c.h side by side.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Rewrite/RuntimeDialect.h"

#include "clang/Basic/LangOptions.h"

using namespace clustrix;

RuntimeDialect RuntimeDialect::of(const clang::LangOptions &LO) {
  return LO.CPlusPlus ? cxx() : c();
}

std::string RuntimeDialect::record(llvm::StringRef Name) const {
  return (C ? "clustrix_" : "::clustrix::rt::") + Name.str();
}

std::string RuntimeDialect::enumerator(llvm::StringRef Kind, llvm::StringRef Name) const {
  return C ? "clustrix_" + Kind.str() + "_" + Name.str()
           : "::clustrix::rt::" + Kind.str() + "::" + Name.str();
}

std::string RuntimeDialect::fixedInt(llvm::StringRef Name) const {
  return (C ? "" : "std::") + Name.str();
}

std::string RuntimeDialect::castTo(llvm::StringRef FixedName, llvm::StringRef E) const {
  if (C)
    return "((" + FixedName.str() + ")(" + E.str() + "))";
  return "static_cast<" + fixedInt(FixedName) + ">(" + E.str() + ")";
}

std::string RuntimeDialect::helper(llvm::StringRef CamelName) const {
  if (!C)
    return "::clustrix::rt::" + CamelName.str();
  std::string S = "clustrix_";
  for (char Ch : CamelName) {
    if (Ch >= 'A' && Ch <= 'Z') {
      S += '_';
      Ch = char(Ch - 'A' + 'a');
    }
    S += Ch;
  }
  return S;
}
