//===- ClustrixCxx.cpp - clustrix++, the compiler wrapper ------------------===//
//
// `clustrix++ -O2 app.cpp -o app` runs clang++-19 with the Clustrix plugin, the runtime's
// include path and, when linking, the runtime library. Paths are found relative to this
// program, so the build tree (build/bin, build/lib) and an installed prefix (bin, lib, include)
// both work. A `.c` input is compiled as C (`-x c`), the generated code then being C against
// clustrix/runtime_c.h; the link still goes through clang++, as the runtime is C++ inside.
//
//===----------------------------------------------------------------------===//
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace {

/// Whether A names a C source file (what clang++ would otherwise compile as C++).
bool isCSource(const std::string &A) {
  return A.size() > 2 && A[0] != '-' && A.compare(A.size() - 2, 2, ".c") == 0;
}

bool endsWith(const std::string &A, const char *Suffix) {
  size_t N = strlen(Suffix);
  return A.size() > N && A.compare(A.size() - N, N, Suffix) == 0;
}

/// A source file the compile translates (as opposed to an object, an archive, a script).
bool isSource(const std::string &A) {
  for (const char *S : {".c", ".cc", ".cpp", ".cxx", ".c++", ".C", ".cp", ".i", ".ii", ".cu"})
    if (endsWith(A, S))
      return true;
  return false;
}

/// Options whose value is the next argument (so that it is not taken for an input).
bool takesSeparateValue(const std::string &A) {
  for (const char *O : {"-o", "-I", "-L", "-isystem", "-iquote", "-idirafter", "-include",
                        "-imacros", "-D", "-U", "-x", "-MF", "-MT", "-MQ", "-Xlinker", "-Xclang",
                        "-target", "-arch", "-l", "-u", "-T"})
    if (A == O)
      return true;
  return false;
}

bool exists(const std::string &P) {
  struct stat St;
  return stat(P.c_str(), &St) == 0;
}

std::string selfDir() {
  std::vector<char> Buf(4096);
  ssize_t N = readlink("/proc/self/exe", Buf.data(), Buf.size() - 1);
  if (N <= 0)
    return ".";
  std::string P(Buf.data(), size_t(N));
  return P.substr(0, P.find_last_of('/'));
}

void usage() {
  std::cout << "usage: clustrix++ [clustrix options] [compiler arguments...]\n\n"
               "Compiles and links C++ (and C: .c files) with loops annotated\n"
               "[[cluster::gpu_parallel]] running through the Clustrix runtime: clang++-19 with\n"
               "the Clustrix plugin, the runtime's headers and, when linking, libclustrix_rt.\n\n"
               "Clustrix options:\n"
               "  --clustrix-report=FILE     write the JSON report of every loop decision\n"
               "  --clustrix-remarks=on|off  remarks for accepted loops (default on)\n"
               "  --clustrix-refusals=warning|error|remark|ignore\n"
               "                             how refused loops are reported (default warning)\n"
               "  --clustrix-max-level=N     refuse loops above complexity level N (1-5)\n"
               "  --clustrix-emit-rewritten=FILE  keep the rewritten source\n"
               "  --clustrix-project-root=DIR  rewrite no file outside DIR (default: every file\n"
               "                             that is not a system header)\n"
               "  --clustrix-openmp=on|trust|check|off  the OpenMP front door: 'omp parallel for' loops\n"
               "                             as annotated loops (on), or a race check (check)\n"
               "  --clustrix-whole-program=on|off  the source is the whole program (default on when\n"
               "                             one source file is compiled and linked alone)\n"
               "  --clustrix-parse=once|twice  analyse inside the compile's own parse (once, the\n"
               "                             default) or in a parse of its own before it\n"
               "  --show                     print the compiler command instead of running it\n"
               "  --help, --version\n\n"
               "Environment: CLUSTRIX_CXX overrides the compiler (default "
            << CLUSTRIX_DEFAULT_CXX << ").\n";
}

} // namespace

int main(int argc, char **argv) {
  std::string Dir = selfDir();
  std::string Prefix = Dir + "/..";
  std::string Plugin = Prefix + "/lib/clustrix.so";
  std::string LibDir = Prefix + "/lib";
  std::string Include = Prefix + "/include";
  if (!exists(Include + "/clustrix/Runtime.h"))
    Include = CLUSTRIX_SOURCE_RUNTIME_INCLUDE;
  const char *Env = getenv("CLUSTRIX_CXX");
  std::string Cxx = Env && *Env ? Env : CLUSTRIX_DEFAULT_CXX;

  std::vector<std::string> User, PluginArgs;
  bool Show = false, Link = true, HasStd = false, AnyInput = false, AnyC = false,
       HasLanguage = false, InC = false, WholeProgramSet = false, Shared = false;
  // One source file compiled and linked into a program with no other object of the user's:
  // that unit is the whole program (PipelineOptions::WholeProgram).
  unsigned Sources = 0, OtherInputs = 0;
  for (int I = 1; I < argc; ++I) {
    std::string A = argv[I];
    if (A == "--help" || A == "-help") {
      usage();
      return 0;
    }
    if (A == "--version") {
      std::cout << "clustrix++ (Clustrix " << CLUSTRIX_VERSION << ") using " << Cxx << "\n";
      return 0;
    }
    if (A == "--show" || A == "-show") {
      Show = true;
      continue;
    }
    if (A.rfind("--clustrix-", 0) == 0) {
      std::string Opt = A.substr(11);
      if (Opt.find('=') == std::string::npos) {
        std::cerr << "clustrix++: option '" << A << "' needs a value (" << A << "=VALUE)\n";
        return 2;
      }
      PluginArgs.push_back("-fplugin-arg-clustrix-" + Opt);
      WholeProgramSet |= Opt.rfind("whole-program=", 0) == 0;
      continue;
    }
    if (A == "-shared" || A == "-r")
      Shared = true;
    bool IsValue = I > 1 && takesSeparateValue(argv[I - 1]);
    if (A == "-c" || A == "-S" || A == "-E" || A == "-fsyntax-only" || A == "-M" || A == "-MM")
      Link = false;
    if (A.rfind("-std=", 0) == 0)
      HasStd = true;
    if (A == "-x" || (A.rfind("-x", 0) == 0 && A.size() > 2)) {
      HasLanguage = true;
      AnyC |= A == "-xc" || (A == "-x" && I + 1 < argc && std::string(argv[I + 1]) == "c");
    }
    if (!A.empty() && A[0] != '-') {
      AnyInput = true;
      if (!IsValue)
        ++(isSource(A) ? Sources : OtherInputs);
    }
    // clang++ compiles a .c file as C++: say it is C, unless the user chose the language.
    bool Input = !A.empty() && A[0] != '-' && (User.empty() || User.back() != "-o");
    if (!HasLanguage && Input && isCSource(A)) {
      if (!InC)
        User.insert(User.end(), {"-x", "c"});
      AnyC = InC = true;
    } else if (InC && Input) {
      User.insert(User.end(), {"-x", "none"});
      InC = false;
    }
    User.push_back(A);
  }
  if (!exists(Plugin)) {
    std::cerr << "clustrix++: the plugin is not at '" << Plugin << "'\n";
    return 2;
  }
  std::vector<std::string> Cmd = {Cxx};
  // The default standard is C++'s; with a C input, each language keeps clang's default.
  if (!HasStd && !AnyC)
    Cmd.push_back("-std=c++17");
  Cmd.push_back("-fplugin=" + Plugin);
  Cmd.insert(Cmd.end(), PluginArgs.begin(), PluginArgs.end());
  if (Link && !Shared && Sources == 1 && OtherInputs == 0 && !WholeProgramSet)
    Cmd.push_back("-fplugin-arg-clustrix-whole-program=on");
  Cmd.push_back("-isystem");
  Cmd.push_back(Include);
  Cmd.insert(Cmd.end(), User.begin(), User.end());
  if (Link && AnyInput) {
    Cmd.push_back("-L" + LibDir);
    Cmd.push_back("-Wl,-rpath," + LibDir);
    Cmd.push_back("-lclustrix_rt");
    Cmd.push_back("-pthread");
    Cmd.push_back("-ldl");
    if (*CLUSTRIX_SANITIZE) {
      Cmd.push_back(std::string("-fsanitize=") + CLUSTRIX_SANITIZE);
      // The runtime is C++: a C program's link needs the sanitizers' C++ part and libstdc++.
      Cmd.push_back("-fsanitize-link-c++-runtime");
      Cmd.push_back("-lstdc++");
    }
  }
  if (Show) {
    for (size_t I = 0; I < Cmd.size(); ++I)
      std::cout << (I ? " " : "") << Cmd[I];
    std::cout << "\n";
    return 0;
  }
  std::vector<char *> Args;
  for (std::string &S : Cmd)
    Args.push_back(S.data());
  Args.push_back(nullptr);
  execvp(Args[0], Args.data());
  std::cerr << "clustrix++: cannot run '" << Cxx << "': " << strerror(errno) << "\n";
  return 127;
}
