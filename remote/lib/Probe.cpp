//===- remote/Probe.cpp - What GPUs a remote host has ---------------------===//
//
// The probe script, its strict parser and the CUDA_VISIBLE_DEVICES rules.
//
//===----------------------------------------------------------------------===//
#include "clustrix/remote/Probe.h"

#include "clustrix/remote/Error.h"
#include "clustrix/remote/Shell.h"
#include "clustrix/remote/Text.h"

#include <cctype>
#include <cstdlib>
#include <set>
#include <sstream>

namespace clustrix {
namespace remote {

namespace {

const char *const ReadyMarker = "CLUSTRIX-READY";
const char *const CpusMarker = "CLUSTRIX-CPUS ";
const char *const CvdMarker = "CLUSTRIX-CVD ";
const char *const ExitMarker = "CLUSTRIX-PROBE-EXIT ";

/// nvidia-smi's exit status when the driver works but finds no GPU.
const int NvidiaSmiNoDevices = 6;
/// The shell's exit status for "command not found".
const int CommandNotFound = 127;

std::string trim(const std::string &S) {
  size_t B = S.find_first_not_of(" \t\r");
  if (B == std::string::npos)
    return "";
  size_t E = S.find_last_not_of(" \t\r");
  return S.substr(B, E - B + 1);
}

bool startsWith(const std::string &S, const char *Prefix) {
  return S.compare(0, std::char_traits<char>::length(Prefix), Prefix) == 0;
}

/// A whole non-negative decimal number, or -1.
int64_t parseCount(const std::string &S) {
  if (S.empty() || S.size() > 15)
    return -1;
  for (char C : S)
    if (!std::isdigit(static_cast<unsigned char>(C)))
      return -1;
  return std::strtoll(S.c_str(), nullptr, 10);
}

std::vector<std::string> splitLines(const std::string &Text) {
  std::vector<std::string> Lines;
  std::string Line;
  std::istringstream In(Text);
  while (std::getline(In, Line))
    Lines.push_back(Line);
  return Lines;
}

} // namespace

bool RemoteGpu::isFree() const {
  return MemoryUsedMiB >= 0 && MemoryTotalMiB > 0 && MemoryUsedMiB * 20 <= MemoryTotalMiB;
}

std::string firstLine(const std::string &Text) {
  for (const std::string &L : splitLines(Text)) {
    std::string T = trim(L);
    if (!T.empty())
      return truncateUtf8(printable(T), 200);
  }
  return "";
}

std::vector<RemoteGpu> parseGpuCsv(const std::string &Text, const std::string &Host) {
  std::vector<RemoteGpu> Gpus;
  std::set<int> Indices;
  std::set<std::string> Uuids;
  int LineNo = 0;
  for (const std::string &Raw : splitLines(Text)) {
    ++LineNo;
    std::string Line = trim(Raw);
    if (Line.empty())
      continue;
    auto Garbled = [&](const std::string &Why) {
      std::string Shown = truncateUtf8(printable(Line), 120);
      return RemoteError(RemoteErrorKind::ProbeGarbled, Host,
                         "probe output line " + std::to_string(LineNo) + " " + Why + ": '" +
                             Shown + "'");
    };
    std::vector<std::string> Fields;
    std::string Field;
    std::istringstream In(Line);
    while (std::getline(In, Field, ','))
      Fields.push_back(trim(Field));
    if (Line.back() == ',')
      Fields.push_back("");
    if (Fields.size() != 6)
      throw Garbled("has " + std::to_string(Fields.size()) +
                    (Fields.size() == 1 ? " field" : " fields") + ", expected 6 (index, name, memory.total, memory.used, compute_cap, "
                    "uuid)");
    RemoteGpu G;
    int64_t Index = parseCount(Fields[0]);
    if (Index < 0 || Index > 4096)
      throw Garbled("has no GPU index");
    G.Index = static_cast<int>(Index);
    if (!Indices.insert(G.Index).second)
      throw Garbled("repeats GPU index " + Fields[0]);
    G.Name = printable(Fields[1]);
    if (G.Name.empty())
      throw Garbled("has no GPU name");
    G.MemoryTotalMiB = parseCount(Fields[2]);
    if (G.MemoryTotalMiB < 0)
      throw Garbled("has no memory total in MiB");
    if (Fields[3] == "[N/A]" || Fields[3] == "N/A") {
      G.MemoryUsedMiB = -1;
    } else {
      G.MemoryUsedMiB = parseCount(Fields[3]);
      if (G.MemoryUsedMiB < 0)
        throw Garbled("has no memory used in MiB");
    }
    const std::string &Cap = Fields[4];
    size_t Dot = Cap.find('.');
    int64_t Major = Dot == std::string::npos ? -1 : parseCount(Cap.substr(0, Dot));
    int64_t Minor = Dot == std::string::npos ? -1 : parseCount(Cap.substr(Dot + 1));
    if (Major < 1 || Major > 99 || Minor < 0 || Minor > 99)
      throw Garbled("has no compute capability (like 9.0)");
    G.ComputeMajor = static_cast<int>(Major);
    G.ComputeMinor = static_cast<int>(Minor);
    G.Uuid = printable(Fields[5]);
    if (!startsWith(G.Uuid, "GPU-") || G.Uuid.size() < 8)
      throw Garbled("has no GPU UUID (GPU-…)");
    if (!Uuids.insert(G.Uuid).second)
      throw Garbled("repeats GPU UUID " + G.Uuid);
    Gpus.push_back(G);
  }
  return Gpus;
}

Visibility applyVisibleDevices(const std::vector<RemoteGpu> &Gpus,
                               const std::optional<std::string> &Value) {
  Visibility V;
  if (!Value) {
    for (size_t I = 0; I < Gpus.size(); ++I)
      V.Visible.push_back(static_cast<int>(I));
    return V;
  }
  V.Restricted = true;
  V.Value = *Value;
  std::istringstream In(*Value);
  std::string Entry;
  std::set<int> Taken;
  while (std::getline(In, Entry, ',')) {
    Entry = trim(Entry);
    auto Stop = [&](const std::string &Why) {
      V.Warnings.push_back("CUDA_VISIBLE_DEVICES entry '" + printable(Entry) + "' " + Why +
                           "; CUDA ignores it and every entry after it");
    };
    int Found = -1;
    if (startsWith(Entry, "MIG-")) {
      Stop("is a MIG instance, which Clustrix does not resolve");
      break;
    }
    if (startsWith(Entry, "GPU-")) {
      for (size_t I = 0; I < Gpus.size(); ++I) {
        if (startsWith(Gpus[I].Uuid, Entry.c_str())) {
          if (Found >= 0) {
            Found = -2; // Ambiguous prefix.
            break;
          }
          Found = static_cast<int>(I);
        }
      }
      if (Found == -2) {
        Stop("matches more than one GPU's UUID");
        break;
      }
    } else {
      int64_t Index = parseCount(Entry);
      for (size_t I = 0; Index >= 0 && I < Gpus.size(); ++I)
        if (Gpus[I].Index == Index)
          Found = static_cast<int>(I);
    }
    if (Found < 0) {
      Stop("names no GPU of this host");
      break;
    }
    if (!Taken.insert(Found).second) {
      Stop("names a GPU listed already");
      break;
    }
    V.Visible.push_back(Found);
  }
  return V;
}

RemoteCommand probeCommand(const HostConfig &Host) {
  ShellPrelude Prelude{Host.WorkDir, Host.Env, Host.Setup};
  std::string Body =
      "{ printf '" + std::string(CpusMarker) +
      "%s\\n' \"$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 0)\"; "
      "if [ \"${CUDA_VISIBLE_DEVICES+set}\" = set ]; then printf '" +
      CvdMarker + "set %s\\n' \"$CUDA_VISIBLE_DEVICES\"; else printf '" + CvdMarker +
      "unset\\n'; fi; { " + Host.Probe + "\n}; printf '\\n" + ExitMarker + "%d\\n' \"$?\"; }";
  return preludedCommand(Prelude, ReadyMarker, Body);
}

ProbeReport parseProbeOutput(const HostConfig &Host, const std::string &Stdout,
                             const std::string &Stderr, int ExitStatus) {
  ProbeReport R;
  R.Host = Host.Name;
  std::vector<std::string> Lines = splitLines(Stdout);
  size_t I = 0;
  // Setup output (module load chatter) may come before the marker; skip it.
  while (I < Lines.size() && trim(Lines[I]) != ReadyMarker)
    ++I;
  if (I == Lines.size()) {
    std::string Why = firstLine(Stderr);
    throw RemoteError(RemoteErrorKind::SetupFailed, Host.Name,
                      "the working directory or a setup command failed (exit status " +
                          std::to_string(ExitStatus) + ")" + (Why.empty() ? "" : ": " + Why));
  }
  ++I;
  auto Malformed = [&](const std::string &What) {
    return RemoteError(RemoteErrorKind::ProbeGarbled, Host.Name,
                       "the probe script's " + What +
                           " line is missing; is the login shell a POSIX shell?");
  };
  if (I >= Lines.size() || !startsWith(Lines[I], CpusMarker))
    throw Malformed("CPU count");
  int64_t Cpus = parseCount(trim(Lines[I].substr(std::char_traits<char>::length(CpusMarker))));
  if (Cpus < 0)
    throw Malformed("CPU count");
  R.Cpus = static_cast<int>(Cpus);
  ++I;
  if (I >= Lines.size() || !startsWith(Lines[I], CvdMarker))
    throw Malformed("CUDA_VISIBLE_DEVICES");
  std::string Cvd = Lines[I].substr(std::char_traits<char>::length(CvdMarker));
  std::optional<std::string> Visible;
  if (startsWith(Cvd, "set "))
    Visible = Cvd.substr(4);
  else if (Cvd != "unset")
    throw Malformed("CUDA_VISIBLE_DEVICES");
  ++I;
  std::string ProbeOut;
  int ProbeExit = -1;
  for (; I < Lines.size(); ++I) {
    if (startsWith(Lines[I], ExitMarker)) {
      int64_t E = parseCount(trim(Lines[I].substr(std::char_traits<char>::length(ExitMarker))));
      ProbeExit = static_cast<int>(E);
      break;
    }
    ProbeOut += Lines[I] + "\n";
  }
  if (ProbeExit < 0)
    throw Malformed("exit status");

  std::string ProbeName = firstLine(Host.Probe);
  ProbeName = ProbeName.substr(0, ProbeName.find(' '));
  if (ProbeExit == CommandNotFound) {
    R.ProbeMissing = true;
    R.Notes.push_back("'" + ProbeName + "' is not installed on the host: reporting no GPUs");
  } else if (ProbeExit == NvidiaSmiNoDevices && Host.Probe == DefaultProbeCommand) {
    R.Notes.push_back("nvidia-smi found no GPU on the host");
  } else if (ProbeExit != 0) {
    std::string Why = firstLine(Stderr);
    if (Why.empty())
      Why = firstLine(ProbeOut);
    throw RemoteError(RemoteErrorKind::ProbeFailed, Host.Name,
                      "the probe '" + ProbeName + "' failed with exit status " +
                          std::to_string(ProbeExit) + (Why.empty() ? "" : ": " + Why));
  } else {
    R.Gpus = parseGpuCsv(ProbeOut, Host.Name);
  }
  R.Visible = applyVisibleDevices(R.Gpus, Visible);
  for (const std::string &W : R.Visible.Warnings)
    R.Notes.push_back(W);
  if (R.Visible.Visible.size() != R.Gpus.size()) {
    // Say where the value comes from: a stray export in a login script is the classic culprit.
    const std::string *Configured = Host.configuredVisibleDevices();
    std::string Source = Configured && *Configured == R.Visible.Value
                             ? "the host's env configuration"
                             : "the host's login environment or setup commands";
    R.Notes.push_back("CUDA_VISIBLE_DEVICES='" + printable(R.Visible.Value) + "' (from " + Source +
                      ") leaves " + std::to_string(R.Visible.Visible.size()) + " of the host's " +
                      std::to_string(R.Gpus.size()) + " GPUs visible");
  }
  return R;
}

} // namespace remote
} // namespace clustrix
