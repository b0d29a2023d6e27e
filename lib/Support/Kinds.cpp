//===- Kinds.cpp - Schedules and reduction operators ------------------------===//
//
// Every function here is a walk over one table of clustrix/Descriptor.def.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Support/Kinds.h"

#include "llvm/ADT/StringSwitch.h"

using namespace clustrix;

llvm::StringRef clustrix::spelling(ScheduleKind K) {
  switch (K) {
#define CLUSTRIX_SCHEDULE(Name, Value, Spelling)                                                  \
  case ScheduleKind::Name:                                                                         \
    return Spelling;
#include "clustrix/Descriptor.def"
  }
  return "default";
}

llvm::StringRef clustrix::runtimeName(ScheduleKind K) {
  switch (K) {
#define CLUSTRIX_SCHEDULE(Name, Value, Spelling)                                                  \
  case ScheduleKind::Name:                                                                         \
    return #Name;
#include "clustrix/Descriptor.def"
  }
  return "Default";
}

std::optional<ScheduleKind> clustrix::scheduleForClause(llvm::StringRef Word) {
  std::optional<ScheduleKind> K = llvm::StringSwitch<std::optional<ScheduleKind>>(Word)
#define CLUSTRIX_SCHEDULE(Name, Value, Spelling) .Case(Spelling, ScheduleKind::Name)
#include "clustrix/Descriptor.def"
                                      .Default(std::nullopt);
  if (K == ScheduleKind::Default)
    return std::nullopt;
  return K;
}

llvm::ArrayRef<llvm::StringRef> clustrix::scheduleClauseWords() {
  static const llvm::StringRef Words[] = {
#define CLUSTRIX_SCHEDULE(Name, Value, Spelling) Spelling,
#include "clustrix/Descriptor.def"
  };
  // Words[0] is "default", which no clause spells.
  return llvm::ArrayRef(Words).drop_front();
}

std::string clustrix::scheduleClauseWordList() {
  llvm::ArrayRef<llvm::StringRef> Words = scheduleClauseWords();
  std::string S;
  for (size_t I = 0; I < Words.size(); ++I)
    S += std::string(I == 0 ? "" : I + 1 == Words.size() ? " or " : ", ") + "'" + Words[I].str() +
         "'";
  return S;
}

llvm::StringRef clustrix::spelling(ReduceOp Op) {
  switch (Op) {
#define CLUSTRIX_REDUCE_OP(Name, Spelling)                                                         \
  case ReduceOp::Name:                                                                             \
    return Spelling;
#include "clustrix/Descriptor.def"
  }
  return "+";
}

llvm::StringRef clustrix::runtimeName(ReduceOp Op) {
  switch (Op) {
#define CLUSTRIX_REDUCE_OP(Name, Spelling)                                                         \
  case ReduceOp::Name:                                                                             \
    return #Name;
#include "clustrix/Descriptor.def"
  }
  return "Add";
}

std::optional<ReduceOp> clustrix::reduceOpForSpelling(llvm::StringRef Spelling) {
  return llvm::StringSwitch<std::optional<ReduceOp>>(Spelling)
#define CLUSTRIX_REDUCE_OP(Name, Spelling) .Case(Spelling, ReduceOp::Name)
#include "clustrix/Descriptor.def"
      .Default(std::nullopt);
}

std::string clustrix::reduceOpSpellings() {
  std::string S;
#define CLUSTRIX_REDUCE_OP(Name, Spelling) S += std::string(S.empty() ? "" : " ") + Spelling;
#include "clustrix/Descriptor.def"
  return S;
}
