//===- AheadOfTime.cpp - Kernels nvcc compiles -----------------------------===//
#include "clustrix/Rewrite/AheadOfTime.h"
#include "clustrix/Support/Text.h"

#include <cctype>

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

/// Whether Text names something from the global namespace down (`::geo::Vec`, a member type's
/// `::__clx_m4Mesh4Node::Node`, a user's `::f()`), other than a `using ::f;` of the standard
/// library's: inside the namespace the block gives each kernel, such a name reaches the
/// program's own declarations, not the kernel's copies, and nvcc rejects the file. Those
/// kernels are left to NVRTC, which compiles the text at the global namespace.
bool namesFromTheRoot(const std::string &Text) {
  auto Ident = [](char C) { return std::isalnum(static_cast<unsigned char>(C)) || C == '_'; };
  for (size_t At = Text.find("::"); At != std::string::npos; At = Text.find("::", At + 2)) {
    if (At + 2 >= Text.size() || !(Ident(Text[At + 2]) && !std::isdigit(Text[At + 2])))
      continue;
    if (At > 0 && (Ident(Text[At - 1]) || Text[At - 1] == '>' || Text[At - 1] == ')'))
      continue; // a qualifier's second part: `geo::Vec`, `T<int>::x`
    if (At >= 6 && Text.compare(At - 6, 6, "using ") == 0)
      continue; // `namespace std { using ::sqrt; }`
    return true;
  }
  return false;
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
    if (namesFromTheRoot(Text))
      continue;
    // The hash is the NVRTC text's: the runtime compares it with the descriptor's.
    std::string Hash = std::to_string(fnv1a64(Text));
    std::string Source = Text, Linkage = "extern \"C\" __global__";
    if (Shared) {
      Linkage = "static __global__";
      std::string From = "extern \"C\" __global__ void " + Name + "(";
      if (size_t At = Source.find(From); At != std::string::npos)
        Source.replace(At, From.size(), "static __global__ void " + Name + "(");
    }
    std::string Space = "__clx_aot_" + (Shared ? Name : std::to_string(I));
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
