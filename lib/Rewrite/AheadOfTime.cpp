//===- AheadOfTime.cpp - Kernels nvcc compiles -----------------------------===//
#include "clustrix/Rewrite/AheadOfTime.h"
#include "clustrix/Support/Text.h"

#include <cctype>
#include <optional>
#include <set>
#include <vector>

using namespace clustrix;

namespace {

/// A getter of the cudaKernel_t handle of Kernel, named Getter, and its registration under Name
/// and the kernel text's Hash, as a static named Registered.
std::string getter(const std::string &Getter, const std::string &Kernel, const std::string &Name,
                   const std::string &Hash, const std::string &Registered) {
  return "static void *" + Getter + "() {\n  cudaKernel_t K = nullptr;\n"
         "  return cudaGetKernel(&K, (const void *)&" + Kernel +
         ") == cudaSuccess ? (void *)K : nullptr;\n}\n"
         "static const bool " + Registered + " = (::clustrix::rt::registerKernelGetter(" +
         cStringLiteral(Name) + ", " + Hash + "ull, &" + Getter + "), true);\n";
}

bool identChar(char C) { return std::isalnum(static_cast<unsigned char>(C)) || C == '_'; }

/// The identifier that starts at At, or "".
std::string identAt(const std::string &Text, size_t At) {
  if (At >= Text.size() || !identChar(Text[At]) || std::isdigit(static_cast<unsigned char>(Text[At])))
    return "";
  size_t End = At;
  while (End < Text.size() && identChar(Text[End]))
    ++End;
  return Text.substr(At, End - At);
}

/// The offsets just past each `::` of Text that starts a name at the global namespace
/// (`::geo::Vec`, a member type's `::__clx_m4Mesh4Node::Node`, a user's `::f()`), other than a
/// qualifier's later part (`geo::Vec`, `T<int>::x`) and a `using ::f;` of the standard
/// library's.
std::vector<size_t> rootNames(const std::string &Text) {
  std::vector<size_t> Out;
  for (size_t At = Text.find("::"); At != std::string::npos; At = Text.find("::", At + 2)) {
    if (identAt(Text, At + 2).empty())
      continue;
    if (At > 0 && (identChar(Text[At - 1]) || Text[At - 1] == '>' || Text[At - 1] == ')'))
      continue;
    if (At >= 6 && Text.compare(At - 6, 6, "using ") == 0)
      continue;
    Out.push_back(At + 2);
  }
  return Out;
}

/// The names Text declares at its top level as namespaces, classes, unions, enums, typedefs
/// or aliases (`namespace geo {`, `struct __clx_m4Mesh4Node {`, `typedef double real;`,
/// `using real = double;`), an unnamed namespace's members counting as the top level's.
/// Comments and literals are skipped; braces give the level.
std::set<std::string> topLevelTypes(const std::string &Text) {
  std::set<std::string> Out;
  int Depth = 0;
  size_t StmtStart = 0; // where the current top-level declaration began
  // Per open brace, whether it opens an unnamed namespace, whose members are the enclosing
  // namespace's names too (`namespace { struct Cell {...}; }` declares `::Cell`).
  std::vector<bool> Unnamed;
  bool NextUnnamed = false;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '/' && I + 1 < Text.size() && Text[I + 1] == '/') {
      I = Text.find('\n', I);
      if (I == std::string::npos)
        break;
      continue;
    }
    if (C == '/' && I + 1 < Text.size() && Text[I + 1] == '*') {
      I = Text.find("*/", I + 2);
      if (I == std::string::npos)
        break;
      ++I;
      continue;
    }
    if (C == '"' || C == '\'') {
      for (++I; I < Text.size() && Text[I] != C; ++I)
        if (Text[I] == '\\')
          ++I;
      continue;
    }
    if (C == '{') {
      Unnamed.push_back(NextUnnamed);
      if (NextUnnamed)
        StmtStart = I + 1;
      else
        ++Depth;
      NextUnnamed = false;
      continue;
    }
    if (C == '}') {
      bool WasUnnamed = !Unnamed.empty() && Unnamed.back();
      if (!Unnamed.empty())
        Unnamed.pop_back();
      if (!WasUnnamed)
        --Depth;
      if (Depth == 0)
        StmtStart = I + 1;
      continue;
    }
    if (Depth != 0)
      continue;
    if (C == ';') {
      // `typedef ... name;` and `using name = ...;` at the top.
      std::string Decl = Text.substr(StmtStart, I - StmtStart);
      size_t First = Decl.find_first_not_of(" \t\n");
      if (First != std::string::npos && identAt(Decl, First) == "typedef") {
        size_t End = Decl.find_last_not_of(" \t\n");
        size_t Begin = End;
        while (Begin > 0 && identChar(Decl[Begin - 1]))
          --Begin;
        if (End != std::string::npos && identChar(Decl[End]))
          Out.insert(Decl.substr(Begin, End + 1 - Begin));
      } else if (First != std::string::npos && identAt(Decl, First) == "using") {
        size_t N = Decl.find_first_not_of(" \t\n", First + 5);
        if (N != std::string::npos && Decl.find('=', N) != std::string::npos)
          Out.insert(identAt(Decl, N));
      }
      StmtStart = I + 1;
      continue;
    }
    if (!identChar(C) || (I > 0 && identChar(Text[I - 1])))
      continue;
    std::string Word = identAt(Text, I);
    if (Word == "namespace" || Word == "struct" || Word == "class" || Word == "union" ||
        Word == "enum") {
      size_t N = Text.find_first_not_of(" \t\n", I + Word.size());
      std::string Name = N == std::string::npos ? "" : identAt(Text, N);
      if (Word == "enum" && (Name == "class" || Name == "struct")) {
        N = Text.find_first_not_of(" \t\n", N + Name.size());
        Name = N == std::string::npos ? "" : identAt(Text, N);
      }
      if (!Name.empty())
        Out.insert(Name);
      else if (Word == "namespace" && N != std::string::npos && Text[N] == '{')
        NextUnnamed = true;
    }
    I += Word.size() - 1;
  }
  Out.erase("");
  return Out;
}

/// Text for the namespace Space of the ahead-of-time block: each name from the global
/// namespace that the text declares itself (its copies of the program's namespaces and types)
/// now starts at Space, where the block puts those copies (`::geo::Vec` becomes
/// `::__clx_aot_3::geo::Vec`); names of the CUDA and C libraries keep theirs. Nullopt when a
/// root name is neither declared at the text's top level as a type or namespace nor absent
/// from the text otherwise (a function of the text called as `::f()`): the kernel is then left
/// to NVRTC, which compiles the text at the global namespace.
std::optional<std::string> inSpace(const std::string &Text, const std::string &Space) {
  std::vector<size_t> Roots = rootNames(Text);
  if (Roots.empty())
    return Text;
  std::set<std::string> Types = topLevelTypes(Text);
  std::string Out;
  size_t From = 0;
  for (size_t At : Roots) {
    std::string Name = identAt(Text, At);
    if (!Types.count(Name)) {
      // Declared by the text in some other way (a function, a variable)?
      for (size_t P = Text.find(Name); P != std::string::npos; P = Text.find(Name, P + 1)) {
        bool Whole = (P == 0 || !identChar(Text[P - 1])) &&
                     (P + Name.size() >= Text.size() || !identChar(Text[P + Name.size()]));
        bool Rooted = P >= 2 && Text.compare(P - 2, 2, "::") == 0;
        if (Whole && !Rooted)
          return std::nullopt;
      }
      continue;
    }
    Out += Text.substr(From, At - From) + Space + "::";
    From = At;
  }
  return Out + Text.substr(From);
}

} // namespace

std::string
clustrix::aheadOfTimeBlock(const std::vector<std::pair<std::string, std::string>> &Kernels,
                           bool Shared) {
  if (Kernels.empty())
    return "";
  // The kernel text carries copies of the user's types and functions: each kernel has a
  // namespace of its own. The runtime then needs no NVRTC for it.
  std::string Out = "\n#if defined(__CUDACC__) && !defined(CLUSTRIX_NO_AOT)\n";
  for (size_t I = 0; I < Kernels.size(); ++I) {
    const auto &[Name, Text] = Kernels[I];
    std::string Space = "__clx_aot_" + (Shared ? Name : std::to_string(I));
    std::optional<std::string> Spaced = inSpace(Text, Space);
    if (!Spaced)
      continue;
    // The hash is the NVRTC text's: the runtime compares it with the descriptor's.
    std::string Hash = std::to_string(fnv1a64(Text));
    std::string Source = *Spaced, Linkage = "extern \"C\" __global__";
    if (Shared) {
      Linkage = "static __global__";
      std::string From = "extern \"C\" __global__ void " + Name + "(";
      if (size_t At = Source.find(From); At != std::string::npos)
        Source.replace(At, From.size(), "static __global__ void " + Name + "(");
    }
    Out += "namespace " + Space + " {\n" + Source +
           getter("__clx_get", Name, Name, Hash, "__clx_registered") +
           // Compiled with the same flags as the kernel: the runtime runs it once to learn
           // whether nvcc fused a*b+c (its default, --fmad=true), which would make the
           // kernel's results differ from the host's, and then uses NVRTC instead.
           Linkage + " void " + Name +
           "_fmad_probe(const double *In, double *Out) { Out[0] = In[0] * In[1] + In[2]; }\n" +
           getter("__clx_probe", Name + "_fmad_probe", Name + "_fmad_probe", Hash,
                  "__clx_probed") +
           "} // namespace " + Space + "\n";
  }
  return Out + "#endif\n";
}
