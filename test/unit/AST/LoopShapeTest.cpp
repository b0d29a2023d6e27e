//===- LoopShapeTest.cpp - Innermost bodies and trailing semicolons --------===//
#include "clustrix/AST/LoopNest.h"
#include "clustrix/AST/StatementEnd.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace clustrix;

namespace {

/// The outermost loops of a translation unit, in source order.
class OuterLoops : public RecursiveASTVisitor<OuterLoops> {
public:
  bool TraverseForStmt(ForStmt *S) {
    Loops.push_back(S);
    return true;
  }
  bool TraverseCXXForRangeStmt(CXXForRangeStmt *S) {
    Loops.push_back(S);
    return true;
  }
  std::vector<const Stmt *> Loops;
};

struct Parsed {
  std::unique_ptr<ASTUnit> AST;
  std::vector<const Stmt *> Loops;
  /// The text of [Begin, End) of the main file.
  std::string text(std::pair<unsigned, unsigned> R) const {
    const SourceManager &SM = AST->getSourceManager();
    return SM.getBufferData(SM.getMainFileID()).substr(R.first, R.second - R.first).str();
  }
  std::string text(const Stmt *S) const {
    return text(statementOffsets(S, AST->getSourceManager(), AST->getLangOpts()));
  }
};

Parsed parse(llvm::StringRef Code) {
  Parsed P;
  P.AST = tooling::buildASTFromCodeWithArgs(Code, {"-std=c++17"});
  OuterLoops V;
  V.TraverseDecl(P.AST->getASTContext().getTranslationUnitDecl());
  P.Loops = V.Loops;
  return P;
}

TEST(LoopShapeTest, InnermostBodyOfACollapsedNest) {
  Parsed P = parse("void f(int *a) {\n"
                   "  for (int i = 0; i < 4; ++i) { { for (int j = 0; j < 4; ++j) a[i*4+j] = 0; } }\n"
                   "}\n");
  ASSERT_EQ(P.Loops.size(), 1u);
  EXPECT_EQ(P.text(innermostBody(P.Loops[0], 2)), "a[i*4+j] = 0;");
  EXPECT_EQ(P.text(innermostBody(P.Loops[0], 1)),
            "{ { for (int j = 0; j < 4; ++j) a[i*4+j] = 0; } }");
}

TEST(LoopShapeTest, UnwrapStopsAtACompoundOfSeveralStatements) {
  Parsed P = parse("void f(int *a) { for (int i = 0; i < 4; ++i) { a[i] = 0; a[i] += 1; } }\n");
  ASSERT_EQ(P.Loops.size(), 1u);
  const Stmt *Body = loopBody(P.Loops[0]);
  EXPECT_EQ(unwrapSoleStatement(Body), Body);
  EXPECT_EQ(loopBody(Body), nullptr);
}

TEST(LoopShapeTest, RangeForBody) {
  Parsed P = parse("void f(int (&a)[4]) { for (int &x : a) x = 1; }\n");
  ASSERT_EQ(P.Loops.size(), 1u);
  EXPECT_EQ(P.text(innermostBody(P.Loops[0], 1)), "x = 1;");
}

TEST(LoopShapeTest, TheSemicolonOfALoopWhoseBodyIsAnExpression) {
  Parsed P = parse("void f(int *a) {\n  for (int i = 0; i < 4; ++i)\n    a[i] = 0;\n  return;\n}\n");
  ASSERT_EQ(P.Loops.size(), 1u);
  const SourceManager &SM = P.AST->getSourceManager();
  SourceLocation Semi = trailingSemicolon(P.Loops[0], SM, P.AST->getLangOpts());
  ASSERT_TRUE(Semi.isValid());
  EXPECT_EQ(SM.getSpellingLineNumber(Semi), 3u);
  EXPECT_EQ(P.text(P.Loops[0]), "for (int i = 0; i < 4; ++i)\n    a[i] = 0;");
}

TEST(LoopShapeTest, ABracedBodyHasNoTrailingSemicolon) {
  Parsed P = parse("void f(int *a) { for (int i = 0; i < 4; ++i) { a[i] = 0; }; }\n");
  ASSERT_EQ(P.Loops.size(), 1u);
  EXPECT_FALSE(
      trailingSemicolon(P.Loops[0], P.AST->getSourceManager(), P.AST->getLangOpts()).isValid());
  EXPECT_EQ(P.text(P.Loops[0]), "for (int i = 0; i < 4; ++i) { a[i] = 0; }");
}

} // namespace
