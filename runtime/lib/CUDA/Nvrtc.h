//===- CUDA/Nvrtc.h - NVRTC through dlopen ----------------------*- C++ -*-===//
//
// Compiles the kernel text the compiler generated into a cubin for one GPU architecture. NVRTC
// is loaded at run time: $CLUSTRIX_NVRTC_LIBRARY, else libnvrtc.so.13, libnvrtc.so.12.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_RT_CUDA_NVRTC_H
#define CLUSTRIX_RT_CUDA_NVRTC_H

#include <string>
#include <vector>

namespace clustrix {
namespace rt {
namespace cuda {

/// NVRTC's entry points; Loaded false (with Error) when the library or a symbol is missing.
struct NvrtcApi {
  using Program = struct NvrtcProgram *;
  bool Loaded = false;
  std::string Error;
  std::string Path;

  int (*nvrtcVersion)(int *, int *) = nullptr;
  int (*nvrtcCreateProgram)(Program *, const char *, const char *, int, const char *const *,
                            const char *const *) = nullptr;
  int (*nvrtcDestroyProgram)(Program *) = nullptr;
  int (*nvrtcCompileProgram)(Program, int, const char *const *) = nullptr;
  int (*nvrtcGetProgramLogSize)(Program, size_t *) = nullptr;
  int (*nvrtcGetProgramLog)(Program, char *) = nullptr;
  int (*nvrtcGetCUBINSize)(Program, size_t *) = nullptr;
  int (*nvrtcGetCUBIN)(Program, char *) = nullptr;
  const char *(*nvrtcGetErrorString)(int) = nullptr;

  /// Loads NVRTC from Path; never throws.
  static NvrtcApi load(const std::string &Path);
  /// The process's NVRTC, found in the documented order; loaded once.
  static const NvrtcApi &get();
  /// NVRTC's version as major * 1000 + minor * 10 (e.g. 13000), 0 when unknown.
  int version() const;
};

/// Names the NVRTC options that change the generated code, for the kernel cache's key: kernels are
/// compiled without contracting a*b+c into fused multiply-adds (--fmad=false), so that +, -, *, /
/// and sqrt round as the host's IEEE arithmetic does and a loop's results do not depend on the
/// device it ran on.
constexpr const char *NvrtcCodeOptions = "fmad0";

/// Compiles Source (kernel text; Name is used in messages) for sm_<Arch> (e.g. 90) into Cubin.
/// On failure returns false with NVRTC's error and program log in Log.
bool compileToCubin(const NvrtcApi &Api, const std::string &Source, const std::string &Name,
                    int Arch, std::vector<char> &Cubin, std::string &Log);

} // namespace cuda
} // namespace rt
} // namespace clustrix

#endif
