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

std::string lineOf(const std::string &Text, size_t N) {
  size_t Begin = 0;
  for (size_t I = 0; I < N && Begin != std::string::npos; ++I) {
    Begin = Text.find('\n', Begin);
    if (Begin != std::string::npos)
      ++Begin;
  }
  if (Begin == std::string::npos || Begin >= Text.size())
    return "";
  return Text.substr(Begin, Text.find('\n', Begin) - Begin);
}

} // namespace

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
  // Where the program goes, and the hash of the copy already there (if any).
  std::string WorkDir = shellPath(Host.WorkDir);
  CapturedCommand Check = Session.capture(
      guardedCommand("mkdir -p -- " + WorkDir + " && cd -- " + WorkDir + " && pwd -P && { " +
                     "sha256sum -- " + shellQuote(Name) + " 2>/dev/null || true; }"),
      Host.CommandTimeout);
  std::string AbsDir = lineOf(Check.Stdout, 0);
  if (Check.Exit.Status != 0 || AbsDir.empty() || AbsDir[0] != '/')
    throw RemoteError(RemoteErrorKind::SetupFailed, Host.Name,
                      "cannot create or enter the working directory '" + Host.WorkDir +
                          "': " + firstLine(Check.Stderr));
  std::string RemoteHash = lineOf(Check.Stdout, 1).substr(0, 64);
  if (RemoteHash == Hash) {
    Progress("an identical " + Name + " is already in " + AbsDir + "; not copying");
  } else {
    std::string Temp = "." + Name + ".upload-" + randomHex();
    Progress("copying " + Local + " to " + AbsDir + "/" + Name);
    try {
      Session.upload(Local, AbsDir + "/" + Temp, 0700);
    } catch (const RemoteError &) {
      // Best effort: do not leave half a program behind (the connection may be gone already).
      try {
        Session.capture("rm -f -- " + shellQuote(AbsDir + "/" + Temp), Host.CommandTimeout);
      } catch (const RemoteError &) {
      }
      throw;
    }
    // Rename into place (a running copy keeps its old inode) and check what arrived.
    CapturedCommand Place = Session.capture(
        guardedCommand("cd -- " + shellQuote(AbsDir) + " && chmod 755 -- " + shellQuote(Temp) +
                       " && mv -f -- " + shellQuote(Temp) + " " + shellQuote(Name) +
                       " && { sha256sum -- " + shellQuote(Name) + " || true; }"),
        Host.CommandTimeout);
    if (Place.Exit.Status != 0)
      throw RemoteError(RemoteErrorKind::CommandFailed, Host.Name,
                        "cannot put the copied program in place: " + firstLine(Place.Stderr));
    std::string Arrived = Place.Stdout.substr(0, 64);
    if (Arrived.size() == 64 && Arrived != Hash)
      throw RemoteError(RemoteErrorKind::CommandFailed, Host.Name,
                        "the copy of " + Name + " on the host differs from the local file");
  }

  ShellPrelude Prelude{AbsDir, Request.PassEnv, Host.Setup};
  Prelude.Env.insert(Prelude.Env.end(), Host.Env.begin(), Host.Env.end());
  std::vector<std::string> Argv = Request.Argv;
  Argv[0] = "./" + Name;
  std::string Marker = "CLUSTRIX-RUN-" + randomHex();
  MarkerFilter Stdout(Marker, Request.Stdout);
  CommandIO IO;
  IO.Stdout = [&](const char *Data, size_t Size) { Stdout.write(Data, Size); };
  IO.Stderr = Request.Stderr;
  IO.ShouldStop = Request.ShouldStop;
  if (Request.ShouldStop && Request.ShouldStop())
    throw RemoteError(RemoteErrorKind::Interrupted, Host.Name, "interrupted before the program started");
  Progress("running " + Name + " in " + AbsDir);
  CommandExit Exit = Session.run(guardedCommand(preludeCommand(Prelude, Marker) +
                                                execCommand(Argv)),
                                 IO,
                                 Request.TimeoutSeconds > 0 ? Request.TimeoutSeconds
                                                            : Host.RunTimeout);
  Stdout.flush();
  if (!Stdout.seen() && !Exit.Interrupted)
    throw RemoteError(RemoteErrorKind::SetupFailed, Host.Name,
                      "an env or setup command failed before the program started (exit status " +
                          std::to_string(Exit.code()) + ")");
  return Exit.code();
}

} // namespace remote
} // namespace clustrix
