//===- CUDA/Nvrtc.cpp - NVRTC through dlopen ------------------------------===//
#include "CUDA/Nvrtc.h"

#include "CUDA/DynamicLibrary.h"

#include <cstdlib>

namespace clustrix {
namespace rt {
namespace cuda {

NvrtcApi NvrtcApi::load(const std::string &Path) {
  NvrtcApi Api;
  Api.Path = Path;
  void *Lib = openLibrary(Path, Api.Error);
  if (!Lib)
    return Api;
  resolveSymbol(Lib, Api.nvrtcVersion, "nvrtcVersion", Path, Api.Error);
  resolveSymbol(Lib, Api.nvrtcCreateProgram, "nvrtcCreateProgram", Path, Api.Error);
  resolveSymbol(Lib, Api.nvrtcDestroyProgram, "nvrtcDestroyProgram", Path, Api.Error);
  resolveSymbol(Lib, Api.nvrtcCompileProgram, "nvrtcCompileProgram", Path, Api.Error);
  resolveSymbol(Lib, Api.nvrtcGetProgramLogSize, "nvrtcGetProgramLogSize", Path, Api.Error);
  resolveSymbol(Lib, Api.nvrtcGetProgramLog, "nvrtcGetProgramLog", Path, Api.Error);
  resolveSymbol(Lib, Api.nvrtcGetCUBINSize, "nvrtcGetCUBINSize", Path, Api.Error);
  resolveSymbol(Lib, Api.nvrtcGetCUBIN, "nvrtcGetCUBIN", Path, Api.Error);
  resolveSymbol(Lib, Api.nvrtcGetErrorString, "nvrtcGetErrorString", Path, Api.Error);
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
  const char *Opts[] = {ArchOpt.c_str(), "--std=c++17", "-default-device", "--fmad=false"};
  R = Api.nvrtcCompileProgram(Prog, sizeof(Opts) / sizeof(Opts[0]), Opts);
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
