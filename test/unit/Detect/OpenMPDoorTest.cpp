//===- OpenMPDoorTest.cpp - OpenMP directives to annotations ---------------===//
#include "clustrix/Detect/OpenMPDoor.h"

#include "gtest/gtest.h"

#include <random>

using namespace clustrix;

namespace {

size_t lines(llvm::StringRef S) { return S.count('\n'); }

TEST(OpenMPDoorTest, ParallelForBecomesAnAnnotationOnTheSameLine) {
  std::string In = "void f(int n, double *a, double *b) {\n"
                   "  double s = 0;\n"
                   "#pragma omp parallel for reduction(+:s) schedule(dynamic, 4) private(t)\n"
                   "  for (int i = 0; i < n; i++) { a[i] = b[i]; s += a[i]; }\n"
                   "}\n";
  OmpConversion C = convertOpenMPLoops(In);
  ASSERT_EQ(C.Loops.size(), 1u);
  const OmpLoop &L = C.Loops[0];
  EXPECT_TRUE(L.Taken) << L.WhyNot;
  EXPECT_EQ(L.Line, 3u);
  EXPECT_EQ(L.Attribute, "[[cluster::gpu_parallel(schedule(dynamic, 4), reduce(+: s))]]");
  EXPECT_EQ(L.Private, std::vector<std::string>{"t"});
  EXPECT_EQ(L.Reduction, std::vector<std::string>{"s"});
  EXPECT_EQ(lines(C.Text), lines(In));
  EXPECT_NE(C.Text.find("\n[[cluster::gpu_parallel(schedule(dynamic, 4), reduce(+: s))]]\n  for"),
            std::string::npos)
      << C.Text;
}

TEST(OpenMPDoorTest, ContinuationLinesKeepTheirNewlines) {
  std::string In = "void f(int n, int *a) {\n"
                   "  #pragma omp parallel for \\\n"
                   "      collapse(2)\n"
                   "  for (int i = 0; i < n; i++)\n"
                   "    for (int j = 0; j < n; j++) a[i * n + j] = 0;\n"
                   "  a[0] = 1;\n"
                   "}\n";
  OmpConversion C = convertOpenMPLoops(In);
  ASSERT_EQ(C.Loops.size(), 1u);
  EXPECT_TRUE(C.Loops[0].Taken) << C.Loops[0].WhyNot;
  EXPECT_EQ(C.Loops[0].Collapse, 2u);
  EXPECT_EQ(lines(C.Text), lines(In));
  EXPECT_EQ(lines(llvm::StringRef(C.Text).take_front(C.Text.find("a[0] = 1;"))), 5u);
  // The loop ends at its statement's ';'.
  EXPECT_EQ(In.substr(C.Loops[0].LoopEnd - 1, 1), ";");
}

TEST(OpenMPDoorTest, ARegionWithOneLoopIsTakenWithItsClauses) {
  std::string In = "void f(int n, int *a) {\n"
                   "  int t;\n"
                   "#pragma omp parallel private(t)\n"
                   "  {\n"
                   "#pragma omp for nowait\n"
                   "    for (int i = 0; i < n; i++) { t = i; a[i] = t; }\n"
                   "  }\n"
                   "}\n";
  OmpConversion C = convertOpenMPLoops(In);
  ASSERT_EQ(C.Loops.size(), 1u);
  const OmpLoop &L = C.Loops[0];
  EXPECT_TRUE(L.Taken) << L.WhyNot;
  EXPECT_EQ(L.Directive, "parallel + for");
  EXPECT_EQ(L.Line, 5u);
  EXPECT_EQ(L.Private, std::vector<std::string>{"t"});
  EXPECT_EQ(C.Text.find("#pragma"), std::string::npos) << C.Text;
  EXPECT_EQ(lines(C.Text), lines(In));
}

TEST(OpenMPDoorTest, ARegionOfLoopsEndedByBarriersIsASequenceOfLoops) {
  std::string In = "void f(int n, int *a, int *b, int s) {\n"
                   "#pragma omp parallel shared(a) reduction(+: s)\n"
                   "  {\n"
                   "#pragma omp for\n"
                   "    for (int i = 0; i < n; i++) a[i] = i;\n"
                   "#pragma omp for nowait\n"
                   "    for (int i = 0; i < n; i++) b[i] = a[i];\n"
                   "#pragma omp barrier\n"
                   "#pragma omp for schedule(dynamic)\n"
                   "    for (int i = 0; i < n; i++) s += b[i];\n"
                   "  }\n"
                   "}\n";
  OmpConversion C = convertOpenMPLoops(In);
  ASSERT_EQ(C.Loops.size(), 3u);
  for (const OmpLoop &L : C.Loops) {
    EXPECT_TRUE(L.Taken) << L.WhyNot;
    EXPECT_EQ(L.Reduction, std::vector<std::string>{"s"});
    EXPECT_EQ(L.Shared, std::vector<std::string>{"a"});
  }
  EXPECT_EQ(C.Loops[2].Attribute, "[[cluster::gpu_parallel(schedule(dynamic), reduce(+: s))]]");
  EXPECT_EQ(C.Text.find("#pragma"), std::string::npos) << C.Text;
  EXPECT_EQ(lines(C.Text), lines(In));
  // A `nowait` loop without a barrier after it may overlap the next: not a sequence.
  std::string Overlap = In;
  Overlap.replace(Overlap.find("#pragma omp barrier"), 19, "                   ");
  OmpConversion O = convertOpenMPLoops(Overlap);
  EXPECT_FALSE(O.Changed);
  for (const OmpLoop &L : O.Loops)
    EXPECT_FALSE(L.Taken);
  // One loop the door does not take leaves the whole region as written.
  std::string Ordered = In;
  Ordered.replace(Ordered.find("#pragma omp for nowait"), 22, "#pragma omp for ordered");
  OmpConversion R = convertOpenMPLoops(Ordered);
  EXPECT_FALSE(R.Changed);
  ASSERT_EQ(R.Loops.size(), 3u);
  EXPECT_EQ(R.Loops[0].WhyNot, "another loop of its 'parallel' region is not taken");
  EXPECT_EQ(R.Loops[1].WhyNot, "the front door does not take clause 'ordered'");
}

TEST(OpenMPDoorTest, ARegionWithMoreThanTheLoopIsLeftAsWritten) {
  std::string In = "void f(int n, int *a) {\n"
                   "#pragma omp parallel\n"
                   "  {\n"
                   "#pragma omp for\n"
                   "    for (int i = 0; i < n; i++) a[i] = i;\n"
                   "#pragma omp single\n"
                   "    a[0] = 1;\n"
                   "  }\n"
                   "}\n";
  OmpConversion C = convertOpenMPLoops(In);
  ASSERT_EQ(C.Loops.size(), 1u);
  EXPECT_FALSE(C.Loops[0].Taken);
  EXPECT_EQ(C.Loops[0].Line, 4u);
  EXPECT_NE(C.Loops[0].WhyNot.find("holds more than worksharing loops"), std::string::npos);
  EXPECT_EQ(C.Text, In);
  EXPECT_FALSE(C.Changed);
}

TEST(OpenMPDoorTest, LoopsHoldingOtherDirectivesOrUnknownClausesAreNotTaken) {
  std::string In = "void f(int n, int *a, int *s) {\n"
                   "#pragma omp parallel for\n"
                   "  for (int i = 0; i < n; i++) {\n"
                   "#pragma omp critical\n"
                   "    *s += a[i];\n"
                   "  }\n"
                   "#pragma omp parallel for ordered\n"
                   "  for (int i = 0; i < n; i++) a[i] = i;\n"
                   "#pragma omp parallel for reduction(&&: ok)\n"
                   "  for (int i = 0; i < n; i++) a[i] = i;\n"
                   "#pragma omp parallel for reduction(+: a[0:n])\n"
                   "  for (int i = 0; i < n; i++) a[0] += i;\n"
                   "#pragma omp parallel for\n"
                   "  while (n) n--;\n"
                   "}\n";
  OmpConversion C = convertOpenMPLoops(In);
  ASSERT_EQ(C.Loops.size(), 5u);
  for (const OmpLoop &L : C.Loops)
    EXPECT_FALSE(L.Taken) << L.Line;
  EXPECT_EQ(C.Loops[0].WhyNot,
            "the loop holds '#pragma omp critical', which the front door does not take");
  EXPECT_EQ(C.Loops[1].WhyNot, "the front door does not take clause 'ordered'");
  EXPECT_EQ(C.Loops[2].WhyNot, "the front door does not take the reduction operator '&&'");
  EXPECT_EQ(C.Loops[3].WhyNot, "the front door takes reductions over variables, not 'a[0:n]'");
  EXPECT_EQ(C.Loops[4].WhyNot, "the directive is not followed by a 'for' loop");
  EXPECT_EQ(C.Text, In);
}

TEST(OpenMPDoorTest, CarriageReturnLineEndsAreWhitespace) {
  std::string In = "void f(int n, double *a) {\r\n"
                   "  #pragma omp parallel for \\\r\n"
                   "      private(t)\r\n"
                   "  for (int i = 0; i < n; i++) a[i] = 0;\r\n"
                   "}\r\n";
  OmpConversion C = convertOpenMPLoops(In);
  ASSERT_EQ(C.Loops.size(), 1u);
  EXPECT_TRUE(C.Loops[0].Taken) << C.Loops[0].WhyNot;
  EXPECT_EQ(C.Loops[0].Private, std::vector<std::string>{"t"});
  EXPECT_EQ(lines(C.Text), lines(In));
}

TEST(OpenMPDoorTest, AnEndifMayStandBetweenTheDirectiveAndItsLoop) {
  std::string In = "void f(int n, double *a) {\n"
                   "#ifdef OPEN\n"
                   "  #pragma omp parallel for\n"
                   "#endif\n"
                   "  for (int i = 0; i < n; i++) a[i] = 0;\n"
                   "}\n";
  OmpConversion C = convertOpenMPLoops(In);
  ASSERT_EQ(C.Loops.size(), 1u);
  EXPECT_TRUE(C.Loops[0].Taken) << C.Loops[0].WhyNot;
  EXPECT_NE(C.Text.find("#ifdef OPEN\n  [[cluster::gpu_parallel]]\n#endif\n"), std::string::npos)
      << C.Text;
}

TEST(OpenMPDoorTest, ThreadPrivateVariablesAreListed) {
  OmpConversion C = convertOpenMPLoops("int x, y;\n#pragma omp threadprivate(x, y)\n");
  EXPECT_EQ(C.ThreadPrivate, (std::vector<std::string>{"x", "y"}));
  EXPECT_TRUE(C.Loops.empty());
}

TEST(OpenMPDoorTest, CommentsStringsAndOtherPragmasAreNotDirectives) {
  std::string In = "const char *s = \"#pragma omp parallel for\";\n"
                   "/*\n#pragma omp parallel for\n*/\n"
                   "#pragma once\n"
                   "#pragma omp declare simd\n"
                   "int g(int);\n"
                   "void f(int n, int *a) {\n"
                   "  #  pragma   omp   parallel   for   simd\n"
                   "  for (int i = 0; i < n; i++) if (a[i]) a[i] = 0; else a[i] = 1;\n"
                   "}\n";
  OmpConversion C = convertOpenMPLoops(In);
  ASSERT_EQ(C.Loops.size(), 1u);
  EXPECT_TRUE(C.Loops[0].Taken) << C.Loops[0].WhyNot;
  EXPECT_EQ(C.Loops[0].Directive, "parallel for simd");
  EXPECT_EQ(C.Loops[0].Line, 9u);
  EXPECT_EQ(C.Loops[0].Column, 3u);
  llvm::StringRef Loop = llvm::StringRef(In).slice(C.Loops[0].LoopBegin, C.Loops[0].LoopEnd);
  EXPECT_TRUE(Loop.starts_with("for (int i")) << Loop.str();
  EXPECT_TRUE(Loop.ends_with("else a[i] = 1;")) << Loop.str();
}

TEST(OpenMPDoorTest, ScheduleAndReductionOperatorsMapToClauses) {
  std::string Why;
  EXPECT_EQ(annotationClauses({{"schedule", "static", true}}, Why), "");
  EXPECT_EQ(annotationClauses({{"schedule", "static, 8", true}}, Why), "schedule(cyclic, 8)");
  EXPECT_EQ(annotationClauses({{"schedule", "nonmonotonic: guided", true}}, Why),
            "schedule(dynamic)");
  EXPECT_EQ(annotationClauses({{"schedule", "dynamic, CHUNK", true}}, Why), "schedule(dynamic)");
  EXPECT_EQ(annotationClauses({{"reduction", "-: d", true}, {"reduction", "max: m, k", true}}, Why),
            "reduce(+: d), reduce(max: m, k)");
  EXPECT_TRUE(Why.empty());
  // A region's reduction and its loop's, on one variable.
  EXPECT_EQ(annotationClauses({{"reduction", "+: s", true}, {"reduction", "+: s, t", true}}, Why),
            "reduce(+: s), reduce(+: t)");
  EXPECT_TRUE(Why.empty());
  EXPECT_EQ(annotationClauses({{"reduction", "+: s", true}, {"reduction", "max: s", true}}, Why),
            "");
  EXPECT_EQ(Why, "'s' is reduced with both '+' and 'max'");
  Why.clear();
  EXPECT_EQ(annotationClauses({{"collapse", "N", true}}, Why), "");
  EXPECT_EQ(Why, "the front door takes 'collapse' with an integer from 1 to 3, not 'N'");
  Why.clear();
  EXPECT_EQ(annotationClauses({{"reduction", "inscan, +: x", true}}, Why), "");
  EXPECT_EQ(Why, "the front door does not take the reduction modifier 'inscan'");
}

TEST(OpenMPDoorTest, UnbalancedTextIsNotTakenAndNothingCrashes) {
  for (llvm::StringRef In :
       {"#pragma omp parallel for\n", "#pragma omp parallel for\nfor (;;",
        "#pragma omp parallel for reduction(+:s\nfor(;;);",
        "#pragma omp parallel\n{\n#pragma omp for\nfor (i=0;i<n;i++) { a[i] = 0;\n",
        "#pragma omp parallel for\nfor (i = 0; i < n; i++) a[i] = ')';\n", "#", "#pragma omp",
        "\"unterminated\n#pragma omp parallel for\nfor(;;);", "R\"x(abc"}) {
    OmpConversion C = convertOpenMPLoops(In);
    for (const OmpLoop &L : C.Loops) {
      if (!L.Taken) {
        EXPECT_FALSE(L.WhyNot.empty()) << In.str();
      }
    }
    EXPECT_EQ(lines(C.Text), lines(In));
  }
}

TEST(OpenMPDoorTest, RandomTextNeverBreaksTheConversion) {
  // Pieces of C, OpenMP directives and broken text, in random order: the conversion ends, keeps
  // every line, gives every loop it leaves a reason, and delimits every loop it takes inside
  // the text.
  const char *Pieces[] = {"#pragma omp parallel for\n",
                          "#pragma omp parallel\n",
                          "#pragma omp for reduction(+: s)\n",
                          "#pragma omp critical\n",
                          "#pragma omp parallel for collapse(2) private(j)\n",
                          "# pragma omp parallel for \\\n schedule(dynamic, 4)\n",
                          "#endif\n",
                          "for (i = 0; i < n; i++)",
                          "for (;;)",
                          "{",
                          "}",
                          "(",
                          ")",
                          "[",
                          "]",
                          ";",
                          "a[i] = b[i];",
                          "if (x) ",
                          "else ",
                          "do ",
                          "while (k) ",
                          "\"",
                          "'",
                          "\"}{\"",
                          "'{'",
                          "/* { */",
                          "// }\n",
                          "/*",
                          "R\"x(})x\"",
                          "\\\n",
                          "\r\n",
                          "\n",
                          " ",
                          "s += a[i];",
                          "#include \"x.h\"\n",
                          "#",
                          "omp",
                          "#pragma omp threadprivate(t)\n",
                          "#pragma omp parallel for reduction(\n"};
  std::mt19937 Rng(20261127);
  std::uniform_int_distribution<size_t> Pick(0, std::size(Pieces) - 1), Len(1, 40);
  for (int Round = 0; Round < 3000; ++Round) {
    std::string In;
    for (size_t K = Len(Rng); K > 0; --K)
      In += Pieces[Pick(Rng)];
    OmpConversion C = convertOpenMPLoops(In);
    ASSERT_EQ(lines(C.Text), lines(In)) << In;
    for (const OmpLoop &L : C.Loops) {
      if (!L.Taken) {
        EXPECT_FALSE(L.WhyNot.empty()) << In;
        continue;
      }
      EXPECT_LT(L.LoopBegin, L.LoopEnd) << In;
      EXPECT_LE(L.LoopEnd, In.size()) << In;
      EXPECT_EQ(llvm::StringRef(In).substr(L.LoopBegin, 3), "for") << In;
    }
  }
}

} // namespace
