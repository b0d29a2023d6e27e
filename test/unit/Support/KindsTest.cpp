//===- KindsTest.cpp - Schedules and reduction operators -------------------===//
#include "clustrix/Support/Kinds.h"

#include "gtest/gtest.h"

using namespace clustrix;

namespace {

TEST(KindsTest, SchedulesRoundTripThroughTheirClauseWords) {
  for (ScheduleKind K : {ScheduleKind::Block, ScheduleKind::Cyclic, ScheduleKind::Dynamic})
    EXPECT_EQ(scheduleForClause(spelling(K)), K) << spelling(K).str();
  EXPECT_EQ(runtimeName(ScheduleKind::Cyclic), "Cyclic");
  EXPECT_EQ(spelling(ScheduleKind::Default), "default");
}

TEST(KindsTest, DefaultHasNoClause) {
  EXPECT_FALSE(scheduleForClause("default"));
  EXPECT_FALSE(scheduleForClause("Block"));
  EXPECT_EQ(scheduleClauseWords().size(), 3u);
  EXPECT_EQ(scheduleClauseWordList(), "'block', 'cyclic' or 'dynamic'");
}

TEST(KindsTest, ReduceOperatorsRoundTripThroughTheirSpellings) {
  for (ReduceOp Op : {ReduceOp::Add, ReduceOp::Mul, ReduceOp::Min, ReduceOp::Max,
                      ReduceOp::BitAnd, ReduceOp::BitOr, ReduceOp::BitXor})
    EXPECT_EQ(reduceOpForSpelling(spelling(Op)), Op) << spelling(Op).str();
  EXPECT_EQ(reduceOpForSpelling("min"), ReduceOp::Min);
  EXPECT_EQ(runtimeName(ReduceOp::BitXor), "BitXor");
  EXPECT_FALSE(reduceOpForSpelling("&&"));
  EXPECT_FALSE(reduceOpForSpelling("-"));
}

TEST(KindsTest, OperatorListForMessages) {
  EXPECT_EQ(reduceOpSpellings(), "+ * min max & | ^");
}

// The values generated code relies on (rt::Schedule is written by value in no place, but the
// runtime reads LoopInfo::Sched as the same numbers).
TEST(KindsTest, ScheduleValuesAreTheRuntimes) {
  EXPECT_EQ(int(ScheduleKind::Default), 0);
  EXPECT_EQ(int(ScheduleKind::Block), 1);
  EXPECT_EQ(int(ScheduleKind::Cyclic), 2);
  EXPECT_EQ(int(ScheduleKind::Dynamic), 3);
}

} // namespace
