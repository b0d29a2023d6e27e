//===- clustrix/Support/Kinds.h - Schedules and reduction operators -*- C++ -*-===//
//
// The compiler's view of the kinds that clustrix/Descriptor.def declares once for the compiler and
// the runtime: the schedule kinds and the reduction operators, with the words a clause spells
// them with and the enumerator names generated code writes (`::clustrix::rt::ReduceOp::Add`).
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_SUPPORT_KINDS_H
#define CLUSTRIX_SUPPORT_KINDS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace clustrix {

/// Schedule clause values: the runtime's rt::Schedule.
enum class ScheduleKind {
#define CLUSTRIX_SCHEDULE(Name, Value, Spelling) Name = Value,
#include "clustrix/Descriptor.def"
};

/// Reduction operators: the runtime's rt::ReduceOp.
enum class ReduceOp {
#define CLUSTRIX_REDUCE_OP(Name, Spelling) Name,
#include "clustrix/Descriptor.def"
};

/// The clause's word for a schedule ("cyclic"; "default" for Default).
llvm::StringRef spelling(ScheduleKind K);
/// The rt::Schedule enumerator ("Cyclic").
llvm::StringRef runtimeName(ScheduleKind K);
/// The schedule a `schedule(...)` clause names; Default has no clause and is never returned.
std::optional<ScheduleKind> scheduleForClause(llvm::StringRef Word);
/// The words a `schedule(...)` clause takes ("block", "cyclic", "dynamic").
llvm::ArrayRef<llvm::StringRef> scheduleClauseWords();
/// The same words quoted and listed for a message: "'block', 'cyclic' or 'dynamic'".
std::string scheduleClauseWordList();

/// The clause's spelling of an operator ("+", "min").
llvm::StringRef spelling(ReduceOp Op);
/// The rt::ReduceOp enumerator ("Add").
llvm::StringRef runtimeName(ReduceOp Op);
/// The operator spelled Spelling, if any. This converts the spelling that ReduceClause::Op and
/// Reduction::Op carry.
std::optional<ReduceOp> reduceOpForSpelling(llvm::StringRef Spelling);
/// Every operator's spelling, space-separated, for a message: "+ * min max & | ^".
std::string reduceOpSpellings();

} // namespace clustrix

#endif // CLUSTRIX_SUPPORT_KINDS_H
