//===- ReduceTest.cpp - Tests of reduction identities and combining -------===//
#include "Plan/Reduce.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

using namespace clustrix::rt;

namespace {

template <class T> T identity(ReduceOp Op) {
  PartialCell C;
  setIdentity(scalarKindOf<T>(), Op, &C);
  T V;
  std::memcpy(&V, &C, sizeof(T));
  return V;
}

template <class T> T fold(ReduceOp Op, T A, T B) {
  combine(scalarKindOf<T>(), Op, &A, &B);
  return A;
}

TEST(ReduceTest, IdentitiesAreNeutral) {
  EXPECT_EQ(identity<int>(ReduceOp::Add), 0);
  EXPECT_EQ(identity<int>(ReduceOp::Mul), 1);
  EXPECT_EQ(identity<int>(ReduceOp::Min), std::numeric_limits<int>::max());
  EXPECT_EQ(identity<int8_t>(ReduceOp::Max), std::numeric_limits<int8_t>::min());
  EXPECT_EQ(identity<uint16_t>(ReduceOp::BitAnd), 0xffff);
  EXPECT_EQ(identity<uint64_t>(ReduceOp::BitXor), 0u);
  EXPECT_TRUE(std::isinf(identity<double>(ReduceOp::Min)));
  EXPECT_LT(identity<float>(ReduceOp::Max), -1e38f);
  for (ReduceOp Op : {ReduceOp::Add, ReduceOp::Mul, ReduceOp::Min, ReduceOp::Max,
                      ReduceOp::BitAnd, ReduceOp::BitOr, ReduceOp::BitXor})
    for (int V : {-7, 0, 5, 1 << 20})
      EXPECT_EQ(fold<int>(Op, identity<int>(Op), V), V);
}

TEST(ReduceTest, CombineUsesTheTypesArithmetic) {
  EXPECT_EQ(fold<uint8_t>(ReduceOp::Add, 200, 100), 44);    // wraps like the serial loop
  EXPECT_EQ(fold<uint16_t>(ReduceOp::Mul, 300, 300), 24464); // no int promotion overflow
  EXPECT_EQ(fold<int>(ReduceOp::Min, 3, -4), -4);
  EXPECT_EQ(fold<int64_t>(ReduceOp::Max, 3, -4), 3);
  EXPECT_EQ(fold<uint32_t>(ReduceOp::BitOr, 0x10, 0x01), 0x11u);
  EXPECT_DOUBLE_EQ(fold<double>(ReduceOp::Mul, 1.5, 4.0), 6.0);
  EXPECT_FLOAT_EQ(fold<float>(ReduceOp::Add, 1.25f, 2.0f), 3.25f);
}

TEST(ReduceTest, BitwiseOperatorsNeedIntegers) {
  EXPECT_FALSE(reductionValid(ScalarKind::F32, ReduceOp::BitAnd));
  EXPECT_FALSE(reductionValid(ScalarKind::F64, ReduceOp::BitXor));
  EXPECT_TRUE(reductionValid(ScalarKind::F64, ReduceOp::Max));
  EXPECT_TRUE(reductionValid(ScalarKind::U8, ReduceOp::BitXor));
  EXPECT_EQ(scalarSize(ScalarKind::I16), 2u);
  EXPECT_EQ(scalarSize(ScalarKind::F64), 8u);
}

} // namespace
