//===- StmtCoverageTest.cpp - Every Clang statement class is covered ------===//
//
// The body walk is closed-world (lib/Analysis/StmtCoverage.def): each concrete statement and
// expression class of the Clang the project is built against must be either modelled or refused
// with a named kind. A class that appears in a new Clang fails here until it is classified.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Analysis/StmtCoverage.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace clustrix;
using clang::Stmt;

namespace {

struct ClassEntry {
  Stmt::StmtClass Class;
  const char *Name;
};

/// Every concrete class of clang/AST/StmtNodes.inc.
std::vector<ClassEntry> allClasses() {
  return {
#define STMT(Type, Base) {Stmt::Type##Class, #Type},
#define ABSTRACT_STMT(Type)
#include "clang/AST/StmtNodes.inc"
  };
}

TEST(StmtCoverageTest, EveryClassIsModelledOrRefused) {
  std::vector<std::string> Unlisted;
  for (const ClassEntry &C : allClasses())
    if (stmtCoverage(C.Class).How == StmtCoverage::Unlisted)
      Unlisted.push_back(C.Name);
  EXPECT_TRUE(Unlisted.empty()) << "not in lib/Analysis/StmtCoverage.def: " << [&] {
    std::string S;
    for (const std::string &N : Unlisted)
      S += N + " ";
    return S;
  }();
  EXPECT_GT(allClasses().size(), 200u); // the enumeration itself is not empty
}

TEST(StmtCoverageTest, RefusalsNameWhatTheyRefuse) {
  for (const ClassEntry &C : allClasses()) {
    StmtCoverage Cov = stmtCoverage(C.Class);
    if (Cov.How == StmtCoverage::Refused) {
      ASSERT_NE(Cov.What, nullptr) << C.Name;
      EXPECT_NE(std::string(Cov.What), "") << C.Name;
    }
  }
}

TEST(StmtCoverageTest, KnownClassesHaveTheirDisposition) {
  EXPECT_EQ(stmtCoverage(Stmt::CompoundStmtClass).How, StmtCoverage::Modelled);
  EXPECT_EQ(stmtCoverage(Stmt::CXXDefaultArgExprClass).How, StmtCoverage::Modelled);
  EXPECT_EQ(stmtCoverage(Stmt::CXXDefaultInitExprClass).How, StmtCoverage::Modelled);
  EXPECT_EQ(stmtCoverage(Stmt::LambdaExprClass).How, StmtCoverage::Modelled);
  EXPECT_EQ(stmtCoverage(Stmt::CXXThrowExprClass).How, StmtCoverage::Refused);
  EXPECT_EQ(stmtCoverage(Stmt::CXXThrowExprClass).Kind, RejectKind::Exceptions);
  EXPECT_EQ(stmtCoverage(Stmt::CXXTryStmtClass).Kind, RejectKind::Exceptions);
  EXPECT_EQ(stmtCoverage(Stmt::SourceLocExprClass).Kind, RejectKind::Context);
  EXPECT_EQ(stmtCoverage(Stmt::GCCAsmStmtClass).Kind, RejectKind::UnsupportedConstruct);
  EXPECT_EQ(stmtCoverage(Stmt::OMPParallelDirectiveClass).How, StmtCoverage::Refused);
}

TEST(StmtCoverageTest, RejectKindsHaveNamesAndSummaries) {
#define CLUSTRIX_REJECT_KIND(Enumerator, Name, Summary)                                           \
  EXPECT_STREQ(rejectKindName(RejectKind::Enumerator), Name);                                    \
  EXPECT_STRNE(rejectKindSummary(RejectKind::Enumerator), "");
#include "clustrix/Analysis/RejectKinds.def"
}

} // namespace
