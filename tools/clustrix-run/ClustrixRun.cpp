//===- ClustrixRun.cpp - Run a program on a remote host -------------------===//
//
// clustrix-run --host NAME|auto [options] PROGRAM [ARGS...]: copies PROGRAM to the host (SFTP,
// skipped when an identical copy is there), runs it in the host's working directory with the
// host's environment and the runtime's CLUSTRIX_* variables, streams its stdout and stderr back,
// and exits with its exit code. docs/hosts.md is the reference.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Config.h"
#include "clustrix/remote/Devices.h"
#include "clustrix/remote/Error.h"
#include "clustrix/remote/Hosts.h"

#include "MpiLaunch.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace {

using namespace clustrix;
using namespace clustrix::remote;

/// Exit statuses of clustrix-run itself (a remote program's own status passes through).
enum : int { ExitUsage = 2, ExitRemoteError = 255, ExitInterrupted = 130 };

volatile std::sig_atomic_t Interrupts = 0;

void onInterrupt(int) {
  // The first Ctrl-C is forwarded to the remote program; a second one gives up at once (our
  // connection closing still makes the host kill the program).
  if (++Interrupts >= 2) {
    std::signal(SIGINT, SIG_DFL);
    std::raise(SIGINT);
  }
}

void writeAll(int Fd, const char *Data, size_t Size) {
  while (Size > 0) {
    ssize_t N = ::write(Fd, Data, Size);
    if (N < 0) {
      if (errno == EINTR)
        continue;
      return; // The reader went away; the remote program will see its output pipe close.
    }
    Data += N;
    Size -= static_cast<size_t>(N);
  }
}

const char *const Usage =
    "usage: clustrix-run --host NAME|auto [options] [--] PROGRAM [ARGS...]\n"
    "       clustrix-run --hosts NAME,NAME... [--ranks-per-host N] [--dry-run] [--] PROGRAM...\n"
    "\n"
    "Copies PROGRAM to a host configured in the hosts: section of clustrix.yml, runs it there\n"
    "with ARGS, streams its output back and exits with its exit status.\n"
    "\n"
    "options:\n"
    "  --host NAME      the configured host to run on; 'auto' picks the host with the most\n"
    "                   free GPUs\n"
    "  --hosts A,B,...  one MPI job over these configured hosts: mpirun starts PROGRAM on each\n"
    "                   (over ssh; the program must be at the same path on every host), rank 0\n"
    "                   on A runs it, the others serve its loops (docs/multi-node.md)\n"
    "  --ranks-per-host N  with --hosts, ranks started on each host (default 1)\n"
    "  --dry-run        with --hosts, print mpirun's host file and command instead of running\n"
    "  --config FILE    read hosts from FILE instead of the usual clustrix.yml\n"
    "  --timeout SECS   stop the program after SECS seconds (default: the host's run_timeout)\n"
    "  --refresh        with --host auto, probe hosts again instead of using cached answers\n"
    "  -v, --verbose    say what is being done (connecting, copying) on stderr\n"
    "  --help           show this help\n"
    "  --version        show the version\n"
    "\n"
    "exit status: the program's own, 128+N when it died of signal N, 130 after Ctrl-C,\n"
    "255 when the host could not be reached or the program not started, 2 for usage errors.\n"
    "See docs/hosts.md.\n";

int usageError(const std::string &Message) {
  std::cerr << "clustrix-run: error: " << Message << "\n" << "Try 'clustrix-run --help'.\n";
  return ExitUsage;
}

} // namespace

int main(int Argc, char **Argv) {
  std::string HostName, ConfigPath;
  double Timeout = 0;
  bool Refresh = false, Verbose = false;
  MpiLaunch Mpi;
  std::string HostList;
  int I = 1;
  for (; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Value = [&](const char *Option) -> std::string {
      if (I + 1 >= Argc)
        throw std::invalid_argument(std::string(Option) + " needs a value");
      return Argv[++I];
    };
    try {
      if (A == "--help" || A == "-h") {
        std::cout << Usage;
        return 0;
      } else if (A == "--version") {
        std::cout << "clustrix-run " << CLUSTRIX_VERSION << "\n";
        return 0;
      } else if (A == "--host") {
        HostName = Value("--host");
      } else if (A.compare(0, 7, "--host=") == 0) {
        HostName = A.substr(7);
      } else if (A == "--hosts") {
        HostList = Value("--hosts");
      } else if (A == "--ranks-per-host") {
        std::string V = Value("--ranks-per-host");
        char *End = nullptr;
        long N = std::strtol(V.c_str(), &End, 10);
        if (V.empty() || *End || N < 1 || N > 4096)
          return usageError("--ranks-per-host needs a count from 1 to 4096, not '" + V + "'");
        Mpi.RanksPerHost = static_cast<int>(N);
      } else if (A == "--dry-run") {
        Mpi.DryRun = true;
      } else if (A == "--config") {
        ConfigPath = Value("--config");
      } else if (A.compare(0, 9, "--config=") == 0) {
        ConfigPath = A.substr(9);
      } else if (A == "--timeout" || A.compare(0, 10, "--timeout=") == 0) {
        std::string V = A == "--timeout" ? Value("--timeout") : A.substr(10);
        char *End = nullptr;
        Timeout = std::strtod(V.c_str(), &End);
        if (V.empty() || *End || !(Timeout > 0))
          return usageError("--timeout needs a number of seconds above zero, not '" + V + "'");
      } else if (A == "--refresh") {
        Refresh = true;
      } else if (A == "-v" || A == "--verbose") {
        Verbose = true;
      } else if (A == "--") {
        ++I;
        break;
      } else if (!A.empty() && A[0] == '-') {
        return usageError("unknown option '" + A + "'");
      } else {
        break;
      }
    } catch (const std::invalid_argument &E) {
      return usageError(E.what());
    }
  }
  if (!HostList.empty() && !HostName.empty())
    return usageError("--host and --hosts exclude each other");
  if (HostList.empty() && (Mpi.DryRun || Mpi.RanksPerHost != 1))
    return usageError("--dry-run and --ranks-per-host go with --hosts");
  if (HostName.empty() && HostList.empty())
    return usageError("--host NAME (or --host auto) is required");
  if (I >= Argc)
    return usageError("no program to run");
  std::vector<std::string> Program(Argv + I, Argv + Argc);

  std::vector<HostConfig> Hosts;
  try {
    std::string File = resolveConfigFile(ConfigPath);
    if (File.empty()) {
      std::cerr << "clustrix-run: error: no clustrix.yml found (give one with --config FILE or "
                   "CLUSTRIX_CONFIG); see docs/hosts.md\n";
      return ExitUsage;
    }
    Hosts = loadHosts(File);
  } catch (const ConfigError &E) {
    std::cerr << "clustrix-run: error: " << E.what() << "\n";
    return ExitUsage;
  }

  if (!HostList.empty()) {
    std::string Err;
    if (!parseHostList(HostList, Mpi.Hosts, Err))
      return usageError(Err);
    Mpi.Program = Program;
    return runOverMpi(Hosts, Mpi, environ);
  }
  std::signal(SIGINT, onInterrupt);
  std::signal(SIGPIPE, SIG_IGN);
  try {
    const HostConfig *Host = nullptr;
    if (HostName == "auto") {
      if (Hosts.empty())
        return usageError("--host auto: the configuration has no hosts");
      ProbeOptions Options;
      Options.UseCache = !Refresh;
      std::vector<HostOutcome> Outcomes = probeHosts(Hosts, Options);
      for (const HostOutcome &O : Outcomes)
        if (O.Error)
          std::cerr << "clustrix-run: warning: skipping " << O.Error->what() << "\n";
      const HostOutcome *Best = pickAutoHost(Outcomes);
      if (!Best) {
        std::cerr << "clustrix-run: error: --host auto: no configured host answered\n";
        return ExitRemoteError;
      }
      Host = findHost(Hosts, Best->Host);
      if (Verbose)
        std::cerr << "clustrix-run: --host auto chose '" << Host->Name << "'\n";
    } else {
      Host = findHost(Hosts, HostName);
      if (!Host) {
        std::string Known;
        for (const HostConfig &H : Hosts)
          Known += (Known.empty() ? "" : ", ") + H.Name;
        return usageError("no host named '" + HostName + "' is configured" +
                          (Known.empty() ? std::string(" (the hosts: section is empty)")
                                         : " (known: " + Known + ")"));
      }
    }
    RunRequest Request;
    Request.Argv = Program;
    Request.TimeoutSeconds = Timeout;
    Request.PassEnv = clustrixEnvironment(environ);
    Request.Stdout = [](const char *Data, size_t Size) { writeAll(1, Data, Size); };
    Request.Stderr = [](const char *Data, size_t Size) { writeAll(2, Data, Size); };
    Request.ShouldStop = [] { return Interrupts > 0; };
    if (Verbose)
      Request.Progress = [](const std::string &M) { std::cerr << "clustrix-run: " << M << "\n"; };
    int Code = runOnHost(*Host, Request);
    // After a Ctrl-C the program's own status still wins: it may catch SIGINT and exit cleanly.
    if (Interrupts > 0)
      std::cerr << "clustrix-run: interrupted; the program on '" << Host->Name
                << "' was stopped\n";
    return Code;
  } catch (const RemoteError &E) {
    std::cerr << "clustrix-run: error: " << E.what() << "\n";
    return E.kind() == RemoteErrorKind::Interrupted ? ExitInterrupted : ExitRemoteError;
  }
}
