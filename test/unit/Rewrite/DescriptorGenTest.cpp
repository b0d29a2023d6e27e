//===- DescriptorGenTest.cpp - The loop descriptor's text ------------------===//
#include "clustrix/Rewrite/DescriptorGen.h"

#include "gtest/gtest.h"

#include <type_traits>

using namespace clustrix;

namespace {

TEST(DescriptorGenTest, InitializersFollowTheTablesOrder) {
  namespace F = descriptor::RegionInfoField;
  EXPECT_EQ(descriptor::init(descriptor::RegionInfo{F::Name("\"a\""), F::Access(3), F::Rank(1),
                                                     F::FullWrite(1), F::MayAlias(0)}),
            "{\"a\", 3, 1, 1, 0}");
  namespace T = descriptor::TripField;
  EXPECT_EQ(descriptor::init(descriptor::Trip{T::Count(uint64_t(7)), T::Ok("true")}),
            "{7, true}");
}

TEST(DescriptorGenTest, EnumeratorNamesComeFromTheTable) {
  EXPECT_EQ(runtimeName(LoopCmp::GE), "GE");
  EXPECT_EQ(runtimeName(LoopCmp::NE), "NE");
  EXPECT_EQ(runtimeName(KernelArg::Partial), "Partial");
}

// A record is built from its fields, in order, each named: a field left out does not compile
// (no field type is default-constructible), and fields of one record do not convert to another's.
static_assert(!std::is_default_constructible_v<descriptor::LoopInfoField::AbiVersion>);
static_assert(!std::is_convertible_v<descriptor::LoopInfoField::Line,
                                     descriptor::LoopInfoField::Column>);
static_assert(!std::is_convertible_v<std::string, descriptor::LoopInfoField::File>);
static_assert(!std::is_constructible_v<descriptor::BoxFrameField::Whole, bool>);

} // namespace
