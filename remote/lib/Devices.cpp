//===- remote/Devices.cpp - Probing hosts and running there ---------------===//
//
// Probe with cache, concurrent multi-host probes, the `--host auto` choice, and remote runs.
//
//===----------------------------------------------------------------------===//
#include "clustrix/remote/Devices.h"

#include "clustrix/remote/Cache.h"
#include "clustrix/remote/Session.h"
#include "clustrix/remote/Shell.h"

#include <cerrno>
#include <cstring>
#include <random>
#include <sys/stat.h>
#include <thread>

namespace clustrix {
namespace remote {

ProbeReport probeHost(const HostConfig &Host, const ProbeOptions &Options) {
  ProbeCache Cache(Options.CacheDirectory.empty() ? ProbeCache::defaultDirectory()
                                                  : Options.CacheDirectory);
  double Age = 0;
  if (Options.UseCache) {
    if (std::optional<ProbeOutput> Cached = Cache.lookup(Host, Age)) {
      ProbeReport R = parseProbeOutput(Host, Cached->Stdout, Cached->Stderr, Cached->ExitStatus);
      R.FromCache = true;
      R.AgeSeconds = Age;
      return R;
    }
  }
  SshSession Session(Host);
  CapturedCommand C = Session.capture(probeCommand(Host), Host.CommandTimeout);
  if (C.Exit.Status < 0)
    throw RemoteError(RemoteErrorKind::ProbeFailed, Host.Name,
                      "the probe was killed by signal " + C.Exit.Signal);
  ProbeReport R = parseProbeOutput(Host, C.Stdout, C.Stderr, C.Exit.Status);
  // Only answers that parsed are worth keeping.
  Cache.store(Host, ProbeOutput{C.Stdout, C.Stderr, C.Exit.Status});
  return R;
}

std::vector<HostOutcome> probeHosts(const std::vector<HostConfig> &Hosts,
                                    const ProbeOptions &Options) {
  std::vector<HostOutcome> Outcomes(Hosts.size());
  std::vector<std::thread> Threads;
  for (size_t I = 0; I < Hosts.size(); ++I) {
    Outcomes[I].Host = Hosts[I].Name;
    // Each thread has its own session and writes only its own slot; every step inside is
    // bounded by that host's timeouts, so joining is bounded too.
    Threads.emplace_back([&, I] {
      try {
        Outcomes[I].Report = probeHost(Hosts[I], Options);
      } catch (const RemoteError &E) {
        Outcomes[I].Error = E;
      } catch (const std::exception &E) {
        Outcomes[I].Error = RemoteError(RemoteErrorKind::Protocol, Hosts[I].Name, E.what());
      }
    });
  }
  for (std::thread &T : Threads)
    T.join();
  return Outcomes;
}

const HostOutcome *pickAutoHost(const std::vector<HostOutcome> &Outcomes) {
  const HostOutcome *Best = nullptr;
  size_t BestFree = 0, BestVisible = 0;
  for (const HostOutcome &O : Outcomes) {
    if (!O.Report)
      continue;
    size_t Free = 0;
    for (int I : O.Report->Visible.Visible)
      Free += O.Report->Gpus[static_cast<size_t>(I)].isFree();
    size_t Visible = O.Report->Visible.Visible.size();
    if (!Best || Free > BestFree || (Free == BestFree && Visible > BestVisible)) {
      Best = &O;
      BestFree = Free;
      BestVisible = Visible;
    }
  }
  return Best;
}

std::vector<std::pair<std::string, std::string>> clustrixEnvironment(char **Environ) {
  std::vector<std::pair<std::string, std::string>> Out;
  for (char **E = Environ; E && *E; ++E) {
    std::string Entry = *E;
    size_t Eq = Entry.find('=');
    if (Eq == std::string::npos || Entry.compare(0, 9, "CLUSTRIX_") != 0)
      continue;
    std::string Name = Entry.substr(0, Eq);
    if (Name == "CLUSTRIX_CONFIG" || !isValidEnvName(Name))
      continue;
    Out.emplace_back(Name, Entry.substr(Eq + 1));
  }
  return Out;
}

namespace {

std::string randomHex() {
  std::random_device Rd;
  std::string Out;
  static const char Hex[] = "0123456789abcdef";
  for (int I = 0; I < 16; ++I)
    Out += Hex[Rd() & 15];
  return Out;
}

/// Passes stdout through, except the one marker line that says the prelude succeeded.
class MarkerFilter {
public:
  MarkerFilter(std::string Marker, std::function<void(const char *, size_t)> Sink)
      : Marker(std::move(Marker)), Sink(std::move(Sink)) {}

  void write(const char *Data, size_t Size) {
    if (Seen) {
      emit(Data, Size);
      return;
    }
    Pending.append(Data, Size);
    size_t Newline;
    while (!Seen && (Newline = Pending.find('\n')) != std::string::npos) {
      std::string Line = Pending.substr(0, Newline + 1);
      Pending.erase(0, Newline + 1);
      if (Line == Marker + "\n")
        Seen = true;
      else
        emit(Line.data(), Line.size());
    }
    if (Seen && !Pending.empty()) {
      emit(Pending.data(), Pending.size());
      Pending.clear();
    }
  }
  void flush() {
    emit(Pending.data(), Pending.size());
    Pending.clear();
  }
  bool seen() const { return Seen; }

private:
  void emit(const char *Data, size_t Size) {
    if (Size && Sink)
      Sink(Data, Size);
  }
  std::string Marker, Pending;
  std::function<void(const char *, size_t)> Sink;
  bool Seen = false;
};

} // namespace

std::optional<WorkdirAnswer> parseWorkdirAnswer(const std::string &Stdout,
                                                const std::string &Marker) {
  std::vector<std::string> Lines;
  size_t Begin = 0;
  while (Begin <= Stdout.size()) {
    size_t End = Stdout.find('\n', Begin);
    std::string Line = Stdout.substr(Begin, End == std::string::npos ? End : End - Begin);
    if (!Line.empty() && Line.back() == '\r')
      Line.pop_back();
    Lines.push_back(Line);
    if (End == std::string::npos)
      break;
    Begin = End + 1;
  }
  size_t I = 0;
  while (I < Lines.size() && Lines[I] != Marker)
    ++I;
  if (I + 1 >= Lines.size() || Lines[I + 1].empty() || Lines[I + 1][0] != '/')
    return std::nullopt;
  WorkdirAnswer A;
  A.Directory = Lines[I + 1];
  if (I + 2 < Lines.size()) {
    std::string H = Lines[I + 2].substr(0, 64);
    if (H.size() == 64 && H.find_first_not_of("0123456789abcdef") == std::string::npos)
      A.Hash = H;
  }
  return A;
}

int runOnHost(const HostConfig &Host, const RunRequest &Request) {
  auto Progress = [&](const std::string &Message) {
    if (Request.Progress)
      Request.Progress(Message);
  };
  const std::string &Local = Request.Argv.at(0);
  struct stat St;
  if (::stat(Local.c_str(), &St) != 0)
    throw RemoteError(RemoteErrorKind::CommandFailed, Host.Name,
                      "cannot run '" + Local + "': " + std::strerror(errno));
  if (!S_ISREG(St.st_mode))
    throw RemoteError(RemoteErrorKind::CommandFailed, Host.Name,
                      "cannot run '" + Local + "': not a regular file");
  std::string Hash = sha256File(Local);
  if (Hash.empty())
    throw RemoteError(RemoteErrorKind::CommandFailed, Host.Name,
                      "cannot read '" + Local + "' to copy it");
  std::string Name = Local.substr(Local.rfind('/') + 1);

  SshSession Session(Host);
  Progress("connected to " + Host.Hostname);
  // Where the program goes, and the hash of the copy already there (if any). Login scripts may
  // print before our output, so the answer starts at a marker. The hash is read from standard
  // input: sha256sum escapes a file name with a backslash or a newline in its output.
  std::string WorkDir = shellPath(Host.WorkDir);
  std::string Marker = "CLUSTRIX-WORKDIR-" + randomHex();
  CapturedCommand Check = Session.capture(
      guardedCommand("mkdir -p -- " + WorkDir + " && cd -- " + WorkDir + " && printf '%s\\n' " +
                     shellQuote(Marker) + " && pwd -P && { { sha256sum < " + shellQuote(Name) +
                     "; } 2>/dev/null || true; }"),
      Host.CommandTimeout);
  std::optional<WorkdirAnswer> Answer = parseWorkdirAnswer(Check.Stdout, Marker);
  if (Check.Exit.Status != 0 || !Answer) {
    std::string Why = firstLine(Check.Stderr);
    throw RemoteError(RemoteErrorKind::SetupFailed, Host.Name,
                      "cannot create or enter the working directory '" + Host.WorkDir +
                          "' (exit status " + std::to_string(Check.Exit.code()) + ")" +
                          (Why.empty() ? std::string(", with no error message") : ": " + Why));
  }
  const std::string &AbsDir = Answer->Directory;
  if (Answer->Hash == Hash) {
    Progress("an identical " + Name + " is already in " + AbsDir + "; not copying");
  } else {
    // The program travels on the standard input of `cat`, into a private temporary name; only
    // a copy whose hash matches is made executable and renamed into place (a running copy keeps
    // its old inode). A copy cut short (the connection dropped) fails the check and is removed.
    std::string Temp = ".clustrix-upload-" + randomHex();
    std::string Placed = "CLUSTRIX-PLACED-" + randomHex();
    Progress("copying " + Local + " to " + AbsDir + "/" + Name);
    RemoteCommand Upload;
    Upload.Text = "cd -- " + shellQuote(AbsDir) + " && umask 077 && cat > " + shellQuote(Temp) +
                  " && if printf '%s  %s\\n' " + Hash + " " + shellQuote(Temp) +
                  " | sha256sum -c >/dev/null 2>&1; then chmod 755 -- " + shellQuote(Temp) +
                  " && mv -f -- " + shellQuote(Temp) + " " + shellQuote(Name) +
                  " && printf '%s\\n' " + shellQuote(Placed) + "; else rm -f -- " +
                  shellQuote(Temp) + "; exit 3; fi";
    Upload.InputFile = Local;
    Upload.EndInput = true;
    CapturedCommand Place = Session.capture(Upload, Host.CommandTimeout);
    if (Place.Exit.Status == 3)
      throw RemoteError(RemoteErrorKind::CommandFailed, Host.Name,
                        "the copy of " + Name + " on the host differs from the local file");
    if (Place.Exit.Status != 0 || Place.Stdout.find(Placed + "\n") == std::string::npos) {
      std::string Why = firstLine(Place.Stderr);
      throw RemoteError(RemoteErrorKind::CommandFailed, Host.Name,
                        "cannot copy the program to the host (exit status " +
                            std::to_string(Place.Exit.code()) + ")" +
                            (Why.empty() ? std::string() : ": " + Why));
    }
  }

  ShellPrelude Prelude{AbsDir, Request.PassEnv, Host.Setup};
  Prelude.Env.insert(Prelude.Env.end(), Host.Env.begin(), Host.Env.end());
  std::vector<std::string> Argv = Request.Argv;
  Argv[0] = "./" + Name;
  std::string Ready = "CLUSTRIX-RUN-" + randomHex();
  MarkerFilter Stdout(Ready, Request.Stdout);
  CommandIO IO;
  IO.Stdout = [&](const char *Data, size_t Size) { Stdout.write(Data, Size); };
  IO.Stderr = Request.Stderr;
  IO.ShouldStop = Request.ShouldStop;
  if (Request.ShouldStop && Request.ShouldStop())
    throw RemoteError(RemoteErrorKind::Interrupted, Host.Name,
                      "interrupted before the program started");
  Progress("running " + Name + " in " + AbsDir);
  if (Request.OnStart)
    Request.OnStart();
  CommandExit Exit =
      Session.run(preludedCommand(Prelude, Ready, execCommand(Argv)), IO,
                  Request.TimeoutSeconds ? *Request.TimeoutSeconds : Host.RunTimeout);
  Stdout.flush();
  if (!Stdout.seen() && !Exit.Interrupted)
    throw RemoteError(RemoteErrorKind::SetupFailed, Host.Name,
                      "an env or setup command failed before the program started (exit status " +
                          std::to_string(Exit.code()) + ")");
  return Exit.code();
}

} // namespace remote
} // namespace clustrix
