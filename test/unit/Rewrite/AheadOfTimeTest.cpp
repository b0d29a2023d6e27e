//===- AheadOfTimeTest.cpp - The kernels' block for nvcc ------------------===//
#include "clustrix/Rewrite/AheadOfTime.h"

#include "gtest/gtest.h"

using namespace clustrix;

namespace {

bool has(const std::string &Text, const std::string &Part) {
  return Text.find(Part) != std::string::npos;
}

TEST(AheadOfTime, PlainKernelInItsNamespace) {
  std::string Block = aheadOfTimeBlock(
      {{"k0", "extern \"C\" __global__ void k0(double *a) { a[0] = ::sqrt(a[0]); }\n"}});
  EXPECT_TRUE(has(Block, "namespace __clx_aot_0 {"));
  // A library's name keeps the global namespace.
  EXPECT_TRUE(has(Block, "a[0] = ::sqrt(a[0]);"));
}

// The text's copies of the program's namespaces and member types are named from the global
// namespace in the NVRTC text; in the block they live in the kernel's namespace, and so must
// the names.
TEST(AheadOfTime, RootNamesOfTheTextsOwnTypesMoveToTheKernelsNamespace) {
  std::string Text = "namespace geo { struct Vec { double x; }; }\n"
                     "struct __clx_m4Mesh4Node { struct Node { int k; }; };\n"
                     "typedef double real;\n"
                     "using count = int;\n"
                     "enum class Mode { A, B };\n"
                     "extern \"C\" __global__ void k1(::geo::Vec *v, "
                     "::__clx_m4Mesh4Node::Node *n, ::real r, ::count c, ::Mode m) {\n"
                     "  v[0].x = ::fabs(r) + n[0].k + c + (m == ::Mode::A);\n"
                     "}\n";
  std::string Block = aheadOfTimeBlock({{"k0", "x"}, {"k1", Text}});
  EXPECT_TRUE(has(Block, "void k1(::__clx_aot_1::geo::Vec *v, "
                         "::__clx_aot_1::__clx_m4Mesh4Node::Node *n, ::__clx_aot_1::real r, "
                         "::__clx_aot_1::count c, ::__clx_aot_1::Mode m)"));
  EXPECT_TRUE(has(Block, "::fabs(r)"));
  EXPECT_TRUE(has(Block, "(m == ::__clx_aot_1::Mode::A)"));
  // The hash registered is the NVRTC text's, unchanged.
  EXPECT_FALSE(has(Text, "__clx_aot_"));
}

// The members of an unnamed namespace at the top are the top level's names (a type of an
// unnamed namespace, and the struct of a member type of a class there).
TEST(AheadOfTime, UnnamedNamespacesAreTheTopLevel) {
  std::string Text = "namespace { struct Cell { double v; }; }\n"
                     "namespace { struct __clx_m4Grid4Cell { struct Cell; }; }\n"
                     "namespace { struct __clx_m4Grid4Cell::Cell { double v; }; }\n"
                     "namespace sim { namespace { struct Hidden {}; } }\n"
                     "extern \"C\" __global__ void k(::Cell *c, ::__clx_m4Grid4Cell::Cell *d) {}\n";
  std::string Block = aheadOfTimeBlock({{"k", Text}});
  EXPECT_TRUE(has(Block, "void k(::__clx_aot_0::Cell *c, ::__clx_aot_0::__clx_m4Grid4Cell::Cell *d)"));
  // An unnamed namespace inside a named one is that one's.
  std::string Nested = "namespace sim { namespace { struct Hidden {}; } }\n"
                       "extern \"C\" __global__ void k(::Hidden *h) {}\n";
  EXPECT_FALSE(has(aheadOfTimeBlock({{"k", Nested}}), "namespace __clx_aot_0"));
}

// A name declared inside a namespace, or only in a comment, is not a top-level type or
// namespace of the text: the block cannot tell what `::Inner` means there, and leaves the
// kernel to NVRTC.
TEST(AheadOfTime, OnlyTopLevelDeclarationsCount) {
  for (const char *Decl : {"namespace geo { struct Inner {}; }\n", "// struct Inner {};\n"}) {
    std::string Text = std::string(Decl) + "extern \"C\" __global__ void k(::Inner *p) {}\n";
    EXPECT_FALSE(has(aheadOfTimeBlock({{"k", Text}}), "namespace __clx_aot_0")) << Decl;
  }
}

// A function of the text called from the root: not a type or namespace the block can follow,
// so the kernel is left to NVRTC.
TEST(AheadOfTime, RootCallOfTheTextsFunctionLeavesTheKernelToNVRTC) {
  std::string Text = "__device__ double f(double x) { return x; }\n"
                     "extern \"C\" __global__ void k(double *a) { a[0] = ::f(a[0]); }\n";
  std::string Block = aheadOfTimeBlock({{"k", Text}});
  EXPECT_FALSE(has(Block, "namespace __clx_aot_0"));
  EXPECT_TRUE(has(Block, "#if defined(__CUDACC__)"));
}

TEST(AheadOfTime, SharedFilesNameTheNamespaceAfterTheKernel) {
  std::string Text = "namespace geo { struct Vec { double x; }; }\n"
                     "extern \"C\" __global__ void kern(::geo::Vec *v) {}\n";
  std::string Block = aheadOfTimeBlock({{"kern", Text}}, /*Shared=*/true);
  EXPECT_TRUE(has(Block, "static __global__ void kern(::__clx_aot_kern::geo::Vec *v)"));
}

} // namespace
