//===- cudaemu/Nvrtc.cpp - The emulated NVRTC -----------------------------===//
//
// The NVRTC entry points the runtime resolves (runtime/lib/CUDA/Nvrtc.cpp). Compiling a program
// runs the host's C++ compiler on KernelPrelude.h + KernelAbi.h + the kernel text + one entry
// per `extern "C" __global__` kernel, into a shared object; the "cubin" is that object behind an
// ImageHeader, which the emulated cuModuleLoadData loads. Identical compilations in one process
// are done once (devices compiling the same kernel at the same time wait for the first).
//
//===----------------------------------------------------------------------===//
#include "Device.h"
#include "Support/Spawn.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <future>
#include <map>
#include <regex>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>


using namespace clustrix::cudaemu;

#define EMU_API extern "C" __attribute__((visibility("default")))

#ifndef CLUSTRIX_CUDAEMU_DEFAULT_CXX
#define CLUSTRIX_CUDAEMU_DEFAULT_CXX "clang++-19"
#endif

namespace {

/// KernelPrelude.h with KernelAbi.h inserted (generated at build time).
const char Prelude[] =
#include "KernelPrelude.inc"
    ;

/// Changes whenever the prelude or the compilation changes: it is NVRTC's minor version, so the
/// runtime's kernel cache never serves a module built the old way.
constexpr int PreludeRevision = 1;

enum : int {
  NVRTC_SUCCESS = 0,
  NVRTC_ERROR_OUT_OF_MEMORY = 1,
  NVRTC_ERROR_PROGRAM_CREATION_FAILURE = 2,
  NVRTC_ERROR_INVALID_INPUT = 3,
  NVRTC_ERROR_INVALID_PROGRAM = 4,
  NVRTC_ERROR_INVALID_OPTION = 5,
  NVRTC_ERROR_COMPILATION = 6,
  NVRTC_ERROR_INTERNAL_ERROR = 11,
};

/// One nvrtcProgram.
struct Program {
  std::string Source, Name;
  std::vector<std::pair<std::string, std::string>> Headers; ///< include name, text
  std::string Log;
  std::vector<char> Image;
  bool Compiled = false;
};

/// What one compilation gave.
struct Built {
  bool Ok = false;
  std::string Log;
  std::vector<char> Image;
};

uint64_t fnv1a(const std::string &S, uint64_t H = 1469598103934665603ull) {
  for (unsigned char C : S) {
    H ^= C;
    H *= 1099511628211ull;
  }
  return H;
}

std::string compilerPath() {
  Emulator *E = Emulator::get();
  if (E && !E->Config.Cxx.empty())
    return E->Config.Cxx;
  if (const char *X = std::getenv("CLUSTRIX_EMU_CXX"); X && *X)
    return X;
  struct stat St;
  if (::stat(CLUSTRIX_CUDAEMU_DEFAULT_CXX, &St) == 0)
    return CLUSTRIX_CUDAEMU_DEFAULT_CXX;
  return "clang++-19";
}

bool writeFile(const std::string &Path, const std::string &Text) {
  std::ofstream Out(Path, std::ios::binary);
  Out << Text;
  return static_cast<bool>(Out);
}

void removeTree(const std::string &Dir, const std::vector<std::string> &Files) {
  for (const std::string &F : Files)
    ::unlink((Dir + "/" + F).c_str());
  ::rmdir(Dir.c_str());
}

/// Compiles one program text into a module image.
Built compile(const std::string &Text, const std::vector<std::pair<std::string, std::string>> &Headers,
              const std::vector<std::string> &Flags) {
  Built B;
  const char *Tmp = std::getenv("TMPDIR");
  std::string Dir = std::string(Tmp && *Tmp ? Tmp : "/tmp") + "/clustrix-nvrtc-XXXXXX";
  if (!::mkdtemp(&Dir[0])) {
    B.Log = "clustrix-cudaemu: cannot create a temporary directory in " +
            std::string(Tmp && *Tmp ? Tmp : "/tmp");
    return B;
  }
  std::vector<std::string> Files = {"kernel.cpp", "kernel.so", "compile.log"};
  std::vector<std::string> Argv = {compilerPath()};
  for (const std::string &F : Flags)
    Argv.push_back(F);
  Argv.push_back("-I" + Dir);
  for (const auto &[Name, Body] : Headers) {
    if (Name.find('/') != std::string::npos || Name.empty())
      continue; // nested include names are not emulated
    writeFile(Dir + "/" + Name, Body);
    Files.push_back(Name);
  }
  Argv.insert(Argv.end(), {"-o", Dir + "/kernel.so", Dir + "/kernel.cpp"});
  if (!writeFile(Dir + "/kernel.cpp", Text)) {
    B.Log = "clustrix-cudaemu: cannot write " + Dir + "/kernel.cpp";
    removeTree(Dir, Files);
    return B;
  }
  int Status = clustrix::support::spawnLogged(Argv, Dir + "/compile.log");
  B.Log = clustrix::support::readFile(Dir + "/compile.log");
  if (Status != 0) {
    if (Status < 0)
      B.Log += "clustrix-cudaemu: cannot run " + Argv[0] + " (set CLUSTRIX_EMU_CXX)\n";
    removeTree(Dir, Files);
    return B;
  }
  std::string So = clustrix::support::readFile(Dir + "/kernel.so");
  removeTree(Dir, Files);
  ImageHeader H;
  std::memcpy(H.Magic, ImageMagic, sizeof(H.Magic));
  H.Abi = CLUSTRIX_EMU_ABI;
  H.Reserved = 0;
  H.Size = So.size();
  B.Image.resize(sizeof(H) + So.size());
  std::memcpy(B.Image.data(), &H, sizeof(H));
  std::memcpy(B.Image.data() + sizeof(H), So.data(), So.size());
  B.Ok = !So.empty();
  return B;
}

/// Compilations of this process by key, so that the same kernel is compiled once.
std::mutex BuildsM;
std::map<uint64_t, std::shared_future<Built>> Builds;

/// Maps NVRTC options to the host compiler's; false with Log for an option NVRTC would refuse.
bool translateOptions(int N, const char *const *Options, std::vector<std::string> &Flags,
                      std::string &Log) {
  std::string Std = "-std=c++17", Contract = "-ffp-contract=fast"; // NVRTC's default: --fmad=true
  std::vector<std::string> Extra;
  for (int I = 0; I < N; ++I) {
    std::string O = Options[I] ? Options[I] : "";
    auto Value = [&](const char *Prefix) -> const char * {
      size_t L = std::strlen(Prefix);
      return O.compare(0, L, Prefix) == 0 ? O.c_str() + L : nullptr;
    };
    if (const char *V = Value("--fmad="); V || (V = Value("-fmad="))) {
      if (std::strcmp(V, "false") == 0)
        Contract = "-ffp-contract=off";
      else if (std::strcmp(V, "true") == 0)
        Contract = "-ffp-contract=fast";
      else {
        Log = "nvrtc: error: invalid value for --fmad: " + std::string(V) + "\n";
        return false;
      }
    } else if (const char *S = Value("--std="); S || (S = Value("-std="))) {
      Std = std::string("-std=") + S;
    } else if (Value("--gpu-architecture=") || Value("-arch=") || O == "-default-device" ||
               O == "--device-as-default-execution-space" || O == "-lineinfo" ||
               O == "--generate-line-info" || O == "-G" || O == "--device-debug" || O == "-w" ||
               O == "--disable-warnings" || Value("-dopt") || Value("--dopt") ||
               O == "--extra-device-vectorization") {
      // Code generation for a GPU: nothing to emulate.
    } else if (const char *D = Value("--define-macro="); D || (D = Value("-D"))) {
      Extra.push_back(std::string("-D") + D);
    } else if (const char *P = Value("--include-path="); P || (P = Value("-I"))) {
      Extra.push_back(std::string("-I") + P);
    } else {
      Log = "nvrtc: error: unrecognized option " + O + " (clustrix-cudaemu)\n";
      return false;
    }
  }
  Flags = {Std, "-O1", "-fPIC", "-shared", "-fvisibility=hidden", Contract, "-w", "-x", "c++"};
  Flags.insert(Flags.begin() + 1, Extra.begin(), Extra.end());
  return true;
}

/// The program's text: prelude, the source at its own line numbers, one entry per kernel.
std::string programText(const Program &P) {
  static const std::regex Kernel(R"re(extern\s+"C"\s+__global__\s+void\s+([A-Za-z_]\w*)\s*\()re");
  std::string Text = Prelude;
  Text += "\n#line 1 \"" + P.Name + "\"\n" + P.Source + "\n";
  for (std::sregex_iterator It(P.Source.begin(), P.Source.end(), Kernel), End; It != End; ++It)
    Text += "__CLX_EMU_KERNEL(" + (*It)[1].str() + ")\n";
  return Text;
}

} // namespace

using nvrtcProgram = Program *;

EMU_API int nvrtcVersion(int *Major, int *Minor) {
  if (!Major || !Minor)
    return NVRTC_ERROR_INVALID_INPUT;
  // Not a real NVRTC version: 99 keeps emulated modules apart from real cubins in the runtime's
  // kernel cache, whose key holds this version.
  *Major = 99;
  *Minor = PreludeRevision;
  return NVRTC_SUCCESS;
}

EMU_API int nvrtcCreateProgram(nvrtcProgram *Prog, const char *Src, const char *Name,
                               int NumHeaders, const char *const *Headers,
                               const char *const *IncludeNames) {
  if (!Prog || !Src || NumHeaders < 0 || (NumHeaders > 0 && (!Headers || !IncludeNames)))
    return NVRTC_ERROR_INVALID_INPUT;
  auto *P = new Program();
  P->Source = Src;
  P->Name = Name && *Name ? Name : "default_program";
  for (int I = 0; I < NumHeaders; ++I)
    P->Headers.emplace_back(IncludeNames[I] ? IncludeNames[I] : "", Headers[I] ? Headers[I] : "");
  *Prog = P;
  return NVRTC_SUCCESS;
}

EMU_API int nvrtcDestroyProgram(nvrtcProgram *Prog) {
  if (!Prog || !*Prog)
    return NVRTC_ERROR_INVALID_PROGRAM;
  delete *Prog;
  *Prog = nullptr;
  return NVRTC_SUCCESS;
}

EMU_API int nvrtcCompileProgram(nvrtcProgram P, int NumOptions, const char *const *Options) {
  if (!P)
    return NVRTC_ERROR_INVALID_PROGRAM;
  if (NumOptions < 0 || (NumOptions > 0 && !Options))
    return NVRTC_ERROR_INVALID_INPUT;
  std::vector<std::string> Flags;
  if (!translateOptions(NumOptions, Options, Flags, P->Log))
    return NVRTC_ERROR_INVALID_OPTION;
  std::string Text = programText(*P);
  uint64_t Key = fnv1a(Text, fnv1a(compilerPath()));
  for (const std::string &F : Flags)
    Key = fnv1a(F, Key);
  for (const auto &[Name, Body] : P->Headers)
    Key = fnv1a(Body, fnv1a(Name, Key));
  std::shared_future<Built> Result;
  std::promise<Built> Mine;
  bool Compile = false;
  {
    std::lock_guard<std::mutex> G(BuildsM);
    auto It = Builds.find(Key);
    if (It == Builds.end()) {
      Result = Mine.get_future().share();
      Builds.emplace(Key, Result);
      Compile = true;
    } else {
      Result = It->second;
    }
  }
  if (Compile)
    Mine.set_value(compile(Text, P->Headers, Flags));
  const Built &B = Result.get();
  P->Log = B.Log;
  P->Compiled = B.Ok;
  P->Image = B.Ok ? B.Image : std::vector<char>();
  if (!B.Ok) {
    std::lock_guard<std::mutex> G(BuildsM);
    Builds.erase(Key); // a later attempt (another compiler, say) may succeed
  }
  return B.Ok ? NVRTC_SUCCESS : NVRTC_ERROR_COMPILATION;
}

EMU_API int nvrtcGetProgramLogSize(nvrtcProgram P, size_t *Size) {
  if (!P || !Size)
    return NVRTC_ERROR_INVALID_INPUT;
  *Size = P->Log.size() + 1;
  return NVRTC_SUCCESS;
}

EMU_API int nvrtcGetProgramLog(nvrtcProgram P, char *Log) {
  if (!P || !Log)
    return NVRTC_ERROR_INVALID_INPUT;
  std::memcpy(Log, P->Log.c_str(), P->Log.size() + 1);
  return NVRTC_SUCCESS;
}

EMU_API int nvrtcGetCUBINSize(nvrtcProgram P, size_t *Size) {
  if (!P || !Size)
    return NVRTC_ERROR_INVALID_INPUT;
  if (!P->Compiled)
    return NVRTC_ERROR_INVALID_PROGRAM;
  *Size = P->Image.size();
  return NVRTC_SUCCESS;
}

EMU_API int nvrtcGetCUBIN(nvrtcProgram P, char *Cubin) {
  if (!P || !Cubin)
    return NVRTC_ERROR_INVALID_INPUT;
  if (!P->Compiled)
    return NVRTC_ERROR_INVALID_PROGRAM;
  std::memcpy(Cubin, P->Image.data(), P->Image.size());
  return NVRTC_SUCCESS;
}

EMU_API const char *nvrtcGetErrorString(int Result) {
  switch (Result) {
  case NVRTC_SUCCESS: return "NVRTC_SUCCESS";
  case NVRTC_ERROR_OUT_OF_MEMORY: return "NVRTC_ERROR_OUT_OF_MEMORY";
  case NVRTC_ERROR_PROGRAM_CREATION_FAILURE: return "NVRTC_ERROR_PROGRAM_CREATION_FAILURE";
  case NVRTC_ERROR_INVALID_INPUT: return "NVRTC_ERROR_INVALID_INPUT";
  case NVRTC_ERROR_INVALID_PROGRAM: return "NVRTC_ERROR_INVALID_PROGRAM";
  case NVRTC_ERROR_INVALID_OPTION: return "NVRTC_ERROR_INVALID_OPTION";
  case NVRTC_ERROR_COMPILATION: return "NVRTC_ERROR_COMPILATION";
  case NVRTC_ERROR_INTERNAL_ERROR: return "NVRTC_ERROR_INTERNAL_ERROR";
  default: return "NVRTC_ERROR unknown";
  }
}
