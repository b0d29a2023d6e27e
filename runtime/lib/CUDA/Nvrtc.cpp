//===- CUDA/Nvrtc.cpp - NVRTC through dlopen ------------------------------===//
#include "CUDA/Nvrtc.h"

#include <cstdlib>
#include <dlfcn.h>

namespace clustrix {
namespace rt {
namespace cuda {

template <class F> static void resolve(void *Lib, F &Fn, const char *Symbol, NvrtcApi &Api) {
  Fn = reinterpret_cast<F>(::dlsym(Lib, Symbol));
  if (!Fn && Api.Error.empty())
    Api.Error = std::string("entry point ") + Symbol + " is missing from " + Api.Path;
}

NvrtcApi NvrtcApi::load(const std::string &Path) {
  NvrtcApi Api;
  Api.Path = Path;
  void *Lib = ::dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!Lib) {
    const char *E = ::dlerror();
    Api.Error = "cannot load " + Path + (E ? std::string(": ") + E : std::string());
    return Api;
  }
  resolve(Lib, Api.nvrtcVersion, "nvrtcVersion", Api);
  resolve(Lib, Api.nvrtcCreateProgram, "nvrtcCreateProgram", Api);
  resolve(Lib, Api.nvrtcDestroyProgram, "nvrtcDestroyProgram", Api);
  resolve(Lib, Api.nvrtcCompileProgram, "nvrtcCompileProgram", Api);
  resolve(Lib, Api.nvrtcGetProgramLogSize, "nvrtcGetProgramLogSize", Api);
  resolve(Lib, Api.nvrtcGetProgramLog, "nvrtcGetProgramLog", Api);
  resolve(Lib, Api.nvrtcGetCUBINSize, "nvrtcGetCUBINSize", Api);
  resolve(Lib, Api.nvrtcGetCUBIN, "nvrtcGetCUBIN", Api);
  resolve(Lib, Api.nvrtcGetErrorString, "nvrtcGetErrorString", Api);
  Api.Loaded = Api.Error.empty();
  return Api;
}

const NvrtcApi &NvrtcApi::get() {
  static const NvrtcApi *Api = [] {
    if (const char *Env = std::getenv("CLUSTRIX_NVRTC_LIBRARY"); Env && *Env)
      return new NvrtcApi(load(Env));
    NvrtcApi A = load("libnvrtc.so.13");
    if (!A.Loaded)
      A = load("libnvrtc.so.12");
    if (!A.Loaded)
      A = load("/usr/local/cuda/lib64/libnvrtc.so");
    return new NvrtcApi(A);
  }();
  return *Api;
}

int NvrtcApi::version() const {
  int Major = 0, Minor = 0;
  if (!Loaded || nvrtcVersion(&Major, &Minor) != 0)
    return 0;
  return Major * 1000 + Minor * 10;
}

bool compileToCubin(const NvrtcApi &Api, const std::string &Source, const std::string &Name,
                    int Arch, std::vector<char> &Cubin, std::string &Log) {
  if (!Api.Loaded) {
    Log = "NVRTC is not available: " + Api.Error;
    return false;
  }
  NvrtcApi::Program Prog = nullptr;
  int R = Api.nvrtcCreateProgram(&Prog, Source.c_str(), (Name + ".cu").c_str(), 0, nullptr,
                                 nullptr);
  if (R != 0) {
    Log = std::string("nvrtcCreateProgram: ") + Api.nvrtcGetErrorString(R);
    return false;
  }
  std::string ArchOpt = "--gpu-architecture=sm_" + std::to_string(Arch);
  const char *Opts[] = {ArchOpt.c_str(), "--std=c++17", "-default-device"};
  R = Api.nvrtcCompileProgram(Prog, 3, Opts);
  size_t LogSize = 0;
  std::string ProgLog;
  if (Api.nvrtcGetProgramLogSize(Prog, &LogSize) == 0 && LogSize > 1) {
    ProgLog.resize(LogSize);
    if (Api.nvrtcGetProgramLog(Prog, &ProgLog[0]) == 0)
      ProgLog.resize(LogSize - 1);
    else
      ProgLog.clear();
  }
  bool Ok = R == 0;
  if (!Ok) {
    Log = std::string("NVRTC failed to compile ") + Name + " for sm_" + std::to_string(Arch) +
          ": " + Api.nvrtcGetErrorString(R) + (ProgLog.empty() ? "" : "\n" + ProgLog);
  } else {
    size_t Size = 0;
    Ok = Api.nvrtcGetCUBINSize(Prog, &Size) == 0 && Size > 0;
    if (Ok) {
      Cubin.resize(Size);
      Ok = Api.nvrtcGetCUBIN(Prog, Cubin.data()) == 0;
    }
    if (!Ok)
      Log = "NVRTC produced no cubin for " + Name;
    else
      Log = ProgLog;
  }
  Api.nvrtcDestroyProgram(&Prog);
  return Ok;
}

} // namespace cuda
} // namespace rt
} // namespace clustrix
