//===- ClustrixRun.cpp - Run a program on a remote host -------------------===//
//
// clustrix-run --host NAME|auto [options] PROGRAM [ARGS...]: copies PROGRAM to the host (skipped
// when an identical copy is there), runs it in the host's working directory with the host's
// environment and the runtime's CLUSTRIX_* variables, streams its stdout and stderr back, and
// exits with its exit code. docs/hosts.md is the reference.
//
//===----------------------------------------------------------------------===//
#include "CommandLine.h"

#include "clustrix/Config.h"
#include "clustrix/remote/Devices.h"
#include "clustrix/remote/Error.h"
#include "clustrix/remote/Hosts.h"

#include "MpiLaunch.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <string>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace {

using namespace clustrix;
using namespace clustrix::remote;

const char *const Tool = "clustrix-run";

/// Exit statuses of clustrix-run itself (a remote program's own status passes through).
enum : int {
  ExitTimeout = 124,      ///< The program ran past --timeout or run_timeout (as timeout(1)).
  ExitInterrupted = 130,  ///< Ctrl-C.
  ExitRemoteError = 255,  ///< The host could not be reached or the program not started (as ssh).
};

volatile std::sig_atomic_t Interrupts = 0;
/// Set once the program is being started: before that, Ctrl-C ends clustrix-run at once.
std::atomic<bool> Started{false};

void onInterrupt(int) {
  if (!Started.load()) {
    // Connecting, probing (--host auto) and copying may each wait for their timeouts; nothing
    // runs on a host yet that needs stopping (a probe or a copy dies with our connection), so
    // stop now, as a shell would.
    static const char Message[] = "clustrix-run: interrupted before the program started\n";
    ssize_t Ignored = ::write(STDERR_FILENO, Message, sizeof(Message) - 1);
    (void)Ignored;
    ::_exit(ExitInterrupted);
  }
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

} // namespace

int main(int Argc, char **Argv) {
  // Ctrl-C counts from the very start: connecting and probing are interruptible too.
  std::signal(SIGINT, onInterrupt);
  std::signal(SIGPIPE, SIG_IGN);

  CLI::App App{
      "Copies PROGRAM to a host configured in the hosts: section of clustrix.yml, runs it there\n"
      "with ARGS, streams its output back and exits with its exit status."};
  tools::configureApp(
      App, Tool, CLUSTRIX_VERSION, "clustrix-run --host NAME|auto [OPTIONS] [--] PROGRAM [ARGS...]",
      "Exit status: the program's own, 128+N when it died of signal N, 130 after Ctrl-C, 124\n"
      "when it ran past its time limit, 255 when the host could not be reached or the program\n"
      "not started, 2 for usage and configuration errors. See docs/hosts.md.");
  std::string HostName, ConfigPath;
  double Timeout = 0;
  bool Refresh = false, Verbose = false;
  App.add_option("--host", HostName,
                 "the configured host to run on; 'auto' picks the host with the most free GPUs")
      ->type_name("NAME");
  MpiLaunch Mpi;
  std::string HostList;
  App.add_option("--hosts", HostList,
                 "one MPI job over these configured hosts: mpirun starts PROGRAM on each (over "
                 "ssh; the program must be at the same path on every host), rank 0 on the first "
                 "runs it, the others serve its loops (docs/multi-node.md)")
      ->type_name("A,B,...");
  App.add_option("--ranks-per-host", Mpi.RanksPerHost,
                 "with --hosts, ranks started on each host (default 1)")
      ->type_name("N")
      ->check(CLI::Range(1, 4096));
  App.add_flag("--dry-run", Mpi.DryRun,
               "with --hosts, print mpirun's host file and command instead of running");
  App.add_option("--config", ConfigPath, "read hosts from FILE instead of the usual clustrix.yml")
      ->type_name("FILE");
  CLI::Option *TimeoutOpt =
      App.add_option("--timeout", Timeout,
                     "stop the program after SECS seconds; 0: no limit (default: the host's "
                     "run_timeout)")
          ->type_name("SECS")
          ->check(CLI::NonNegativeNumber);
  App.add_flag("--refresh", Refresh,
               "with --host auto, probe hosts again instead of using cached answers");
  App.add_flag("-v,--verbose", Verbose, "say what is being done (connecting, copying) on stderr");
  // Everything from PROGRAM on is the program's: its options are not ours.
  App.prefix_command();
  if (std::optional<int> Exit = tools::parse(App, Tool, Argc, Argv))
    return *Exit;
  std::vector<std::string> Program = App.remaining();
  if (!Program.empty() && Program[0] == "--")
    Program.erase(Program.begin());
  else if (!Program.empty() && Program[0].size() > 1 && Program[0][0] == '-')
    return tools::usageError(Tool, "unknown option '" + Program[0] + "'");
  if (!HostList.empty() && !HostName.empty())
    return tools::usageError(Tool, "--host and --hosts exclude each other");
  if (HostList.empty() && (Mpi.DryRun || Mpi.RanksPerHost != 1))
    return tools::usageError(Tool, "--dry-run and --ranks-per-host go with --hosts");
  if (HostName.empty() && HostList.empty())
    return tools::usageError(Tool, "--host NAME (or --host auto) is required");
  if (Program.empty())
    return tools::usageError(Tool, "no program to run");

  std::vector<HostConfig> Hosts;
  try {
    std::string File = resolveConfigFile(ConfigPath);
    if (File.empty()) {
      std::cerr << Tool << ": error: no clustrix.yml found (give one with --config FILE or "
                           "CLUSTRIX_CONFIG); see docs/hosts.md\n";
      return tools::ExitUsage;
    }
    Hosts = loadHosts(File);
  } catch (const ConfigError &E) {
    std::cerr << Tool << ": error: " << E.what() << "\n";
    return tools::ExitUsage;
  }

  if (!HostList.empty()) {
    std::string Err;
    if (!parseHostList(HostList, Mpi.Hosts, Err))
      return tools::usageError(Tool, Err);
    Mpi.Program = Program;
    return runOverMpi(Hosts, Mpi, environ);
  }
  try {
    const HostConfig *Host = nullptr;
    if (HostName == "auto") {
      if (Hosts.empty())
        return tools::usageError(Tool, "--host auto: the configuration has no hosts");
      ProbeOptions Options;
      Options.UseCache = !Refresh;
      std::vector<HostOutcome> Outcomes = probeHosts(Hosts, Options);
      for (const HostOutcome &O : Outcomes)
        if (O.Error)
          std::cerr << Tool << ": warning: skipping " << O.Error->what() << "\n";
      const HostOutcome *Best = pickAutoHost(Outcomes);
      if (!Best) {
        std::cerr << Tool << ": error: --host auto: no configured host answered\n";
        return ExitRemoteError;
      }
      Host = findHost(Hosts, Best->Host);
      if (Verbose)
        std::cerr << Tool << ": --host auto chose '" << Host->Name << "'\n";
    } else {
      Host = findHost(Hosts, HostName);
      if (!Host) {
        std::string Known;
        for (const HostConfig &H : Hosts)
          Known += (Known.empty() ? "" : ", ") + H.Name;
        return tools::usageError(Tool, "no host named '" + HostName + "' is configured" +
                                           (Known.empty()
                                                ? std::string(" (the hosts: section is empty)")
                                                : " (known: " + Known + ")"));
      }
    }
    RunRequest Request;
    Request.Argv = Program;
    if (TimeoutOpt->count())
      Request.TimeoutSeconds = Timeout;
    Request.PassEnv = clustrixEnvironment(environ);
    Request.Stdout = [](const char *Data, size_t Size) { writeAll(1, Data, Size); };
    Request.Stderr = [](const char *Data, size_t Size) { writeAll(2, Data, Size); };
    Request.ShouldStop = [] { return Interrupts > 0; };
    Request.OnStart = [] { Started = true; };
    if (Verbose)
      Request.Progress = [](const std::string &M) { std::cerr << Tool << ": " << M << "\n"; };
    int Code = runOnHost(*Host, Request);
    // After a Ctrl-C the program's own status still wins: it may catch SIGINT and exit cleanly.
    if (Interrupts > 0)
      std::cerr << Tool << ": interrupted; the program on '" << Host->Name << "' was stopped\n";
    return Code;
  } catch (const RemoteError &E) {
    std::cerr << Tool << ": error: " << E.what() << "\n";
    if (E.kind() == RemoteErrorKind::Interrupted)
      return ExitInterrupted;
    // A timeout once the program runs is its time limit, not an unreachable host.
    if (E.kind() == RemoteErrorKind::Timeout && Started)
      return ExitTimeout;
    return ExitRemoteError;
  }
}
