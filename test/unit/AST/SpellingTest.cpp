//===- SpellingTest.cpp - How generated code names things ------------------===//
#include "clustrix/AST/Spelling.h"

#include "gtest/gtest.h"

using namespace clustrix;

namespace {

TEST(SpellingTest, DisplayShowsMembersAsWritten) {
  EXPECT_EQ(displayMemberNames("(d.*__clx_pm_m_p_120_900)"), "d.m_p");
  EXPECT_EQ(displayMemberNames("(p->*__clx_pm_x_1_2)"), "p->x");
  EXPECT_EQ(displayMemberNames("(this->*__clx_pm_v_7_8)"), "this->v");
  EXPECT_EQ(displayMemberNames("'(dom.*__clx_pm_m_e_3_4)' is written through a subscript"),
            "'dom.m_e' is written through a subscript");
  // Nested: a member of a member, each reached through its pointer to member.
  EXPECT_EQ(displayMemberNames("((o.*__clx_pm_in_1_2).*__clx_pm_v_3_4)"), "o.in.v");
}

TEST(SpellingTest, DisplayLeavesOtherNamesAlone) {
  for (const char *N : {"a", "this->data", "s.v", "::cfg::out", "(p)", ""})
    EXPECT_EQ(displayMemberNames(N), N);
}

} // namespace
