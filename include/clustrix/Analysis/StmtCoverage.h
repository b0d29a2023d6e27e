//===- clustrix/Analysis/StmtCoverage.h - The closed world of the walk -*- C++ -*-===//
//
// How the body walk treats each Clang statement class (lib/Analysis/StmtCoverage.def): modelled
// exactly, or refused with a named kind. Exposed for the unit test that checks every class of
// the Clang the project is built against.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_ANALYSIS_STMTCOVERAGE_H
#define CLUSTRIX_ANALYSIS_STMTCOVERAGE_H

#include "clustrix/Analysis/LoopModel.h"

#include "clang/AST/Stmt.h"

#include <optional>

namespace clustrix {

/// What the walk does with a statement class.
struct StmtCoverage {
  enum Disposition { Modelled, Refused, Unlisted } How = Unlisted;
  RejectKind Kind = RejectKind::UnsupportedConstruct; ///< For Refused.
  const char *What = nullptr;                         ///< For Refused: what the refusal names.
};

/// The table entry of class C.
StmtCoverage stmtCoverage(clang::Stmt::StmtClass C);

} // namespace clustrix

#endif // CLUSTRIX_ANALYSIS_STMTCOVERAGE_H
