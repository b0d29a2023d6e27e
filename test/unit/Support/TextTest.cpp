//===- TextTest.cpp - Text of generated code -------------------------------===//
#include "clustrix/Support/Text.h"

#include "gtest/gtest.h"

using namespace clustrix;

namespace {

TEST(TextTest, StringLiteralsEscapeWhatCWouldReadOtherwise) {
  EXPECT_EQ(cStringLiteral("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(cStringLiteral("?\?="), "\"\\?\\?=\"");
  EXPECT_EQ(cStringLiteral("x\ny"), "\"x\\n\"\n\"y\"");
  EXPECT_EQ(cStringLiteral(llvm::StringRef("\x01", 1)), "\"\\001\"");
}

// Kernel names and the runtime's kernel cache keys depend on these values. The offset basis is
// 1469598103934665603, a digit shorter than FNV's published 14695981039346656037.
TEST(TextTest, Fnv1aIsStable) {
  EXPECT_EQ(fnv1a64(""), 1469598103934665603ull);
  EXPECT_EQ(fnv1a64("a"), 4953267810257967366ull);
  EXPECT_NE(fnv1a64("ab"), fnv1a64("ba"));
}

TEST(TextTest, JoinNames) {
  EXPECT_EQ(joinNames({}), "");
  EXPECT_EQ(joinNames({"a", "b"}), "a, b");
}

} // namespace
