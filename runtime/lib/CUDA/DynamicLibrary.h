//===- CUDA/DynamicLibrary.h - Loading optional libraries -------*- C++ -*-===//
//
// The CUDA driver and NVRTC are optional at run time: both are opened with dlopen and their
// entry points resolved one by one, the first missing one named in the error.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_RT_CUDA_DYNAMICLIBRARY_H
#define CLUSTRIX_RT_CUDA_DYNAMICLIBRARY_H

#include <dlfcn.h>
#include <string>

namespace clustrix {
namespace rt {
namespace cuda {

/// Opens Path for good (it is never closed: its pointers may be held anywhere); null with Error
/// set when it cannot be loaded.
inline void *openLibrary(const std::string &Path, std::string &Error) {
  void *Lib = ::dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!Lib) {
    const char *E = ::dlerror();
    Error = "cannot load " + Path + (E ? std::string(": ") + E : std::string());
  }
  return Lib;
}

/// Resolves Symbol into Fn; records the first missing symbol of Path in Error.
template <class F>
void resolveSymbol(void *Lib, F &Fn, const char *Symbol, const std::string &Path,
                   std::string &Error) {
  Fn = reinterpret_cast<F>(::dlsym(Lib, Symbol));
  if (!Fn && Error.empty())
    Error = std::string("entry point ") + Symbol + " is missing from " + Path;
}

} // namespace cuda
} // namespace rt
} // namespace clustrix

#endif
