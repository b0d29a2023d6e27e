//===- Support/DeviceFormats.cpp - Device reports as text -----------------===//
//
// The formats of clustrix/Devices.h: pure functions of a DeviceReport, shared by local discovery
// and by the remote-hosts module, which formats what it learned over SSH.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Devices.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace clustrix {

int DeviceReport::gpuCount() const {
  int N = 0;
  for (const DeviceInfo &D : Devices)
    N += D.Kind == DeviceKind::CUDA;
  return N;
}

static std::string gib(uint64_t Bytes) {
  char B[32];
  std::snprintf(B, sizeof(B), "%.1f", static_cast<double>(Bytes) / (1ull << 30));
  return B;
}

static std::string pad(std::string S, size_t W) {
  if (S.size() < W)
    S.append(W - S.size(), ' ');
  return S;
}

static std::string deviceName(const DeviceInfo &D) {
  return D.Kind == DeviceKind::CUDA ? "cuda" + std::to_string(D.Index) : "cpu";
}

std::string formatDeviceTable(const DeviceReport &R) {
  std::ostringstream OS;
  if (!R.Host.empty())
    OS << "host " << R.Host << "\n";
  size_t NameW = 4;
  for (const DeviceInfo &D : R.Devices)
    NameW = std::max(NameW, D.Name.size());
  OS << pad("DEVICE", 8) << pad("NAME", NameW + 2) << pad("MEMORY (GiB free/total)", 25)
     << pad("COMPUTE", 9) << pad("UNITS", 13) << "CLOCK\n";
  for (const DeviceInfo &D : R.Devices) {
    OS << pad(deviceName(D), 8) << pad(D.Name, NameW + 2);
    if (D.Kind == DeviceKind::CUDA) {
      std::string Mem = (D.FreeMemory ? gib(D.FreeMemory) : std::string("?")) + " / " +
                        gib(D.TotalMemory);
      OS << pad(Mem, 25)
         << pad(std::to_string(D.ComputeMajor) + "." + std::to_string(D.ComputeMinor), 9)
         << pad(std::to_string(D.Multiprocessors) + " SMs", 13)
         << (D.ClockKHz ? std::to_string(D.ClockKHz / 1000) + " MHz" : std::string("?"));
    } else {
      OS << pad("-", 25) << pad("-", 9) << pad(std::to_string(D.Threads) + " threads", 13) << "-";
    }
    OS << "\n";
  }
  if (R.CudaAvailable)
    OS << "CUDA: " << R.gpuCount() << " device(s), driver " << R.DriverVersion / 1000 << "."
       << (R.DriverVersion % 1000) / 10 << "\n";
  else
    OS << "CUDA: not available" << (R.CudaStatus.empty() ? "" : " (" + R.CudaStatus + ")")
       << "\n";
  for (const DeviceInfo &D : R.Devices)
    if (D.Kind == DeviceKind::CUDA && D.PageableMemoryAccess)
      OS << deviceName(D) << ": kernels can use the host's pageable memory in place ("
         << (D.HostPageTables ? "through the host's page tables" : "the driver migrates pages")
         << "); the pageable_access setting turns it on\n";
  for (const std::string &N : R.Notes)
    OS << "note: " << N << "\n";
  return OS.str();
}

namespace {

/// One host's object, fields in a fixed order.
nlohmann::ordered_json deviceJson(const DeviceReport &R) {
  nlohmann::ordered_json J;
  J["host"] = R.Host.empty() ? "localhost" : R.Host;
  J["cuda_available"] = R.CudaAvailable;
  J["gpu_count"] = R.gpuCount();
  J["gpus_total"] = R.TotalGpus >= 0 ? nlohmann::ordered_json(R.TotalGpus) : nullptr;
  J["cuda_visible_devices"] =
      R.CudaVisibleDevices ? nlohmann::ordered_json(*R.CudaVisibleDevices) : nullptr;
  J["driver_version"] = R.DriverVersion;
  J["cuda_status"] = R.CudaStatus;
  nlohmann::ordered_json Devices = nlohmann::ordered_json::array();
  for (const DeviceInfo &D : R.Devices) {
    nlohmann::ordered_json O;
    O["kind"] = D.Kind == DeviceKind::CUDA ? "cuda" : "cpu";
    O["name"] = D.Name;
    if (D.Kind == DeviceKind::CUDA) {
      O["index"] = D.Index;
      O["total_memory"] = D.TotalMemory;
      O["free_memory"] = D.FreeMemory;
      O["compute_capability"] =
          std::to_string(D.ComputeMajor) + "." + std::to_string(D.ComputeMinor);
      O["multiprocessors"] = D.Multiprocessors;
      O["clock_khz"] = D.ClockKHz;
      O["memory_clock_khz"] = D.MemoryClockKHz;
      O["pageable_memory_access"] = D.PageableMemoryAccess;
      O["host_page_tables"] = D.HostPageTables;
    } else {
      O["threads"] = D.Threads;
    }
    Devices.push_back(std::move(O));
  }
  J["devices"] = std::move(Devices);
  J["notes"] = R.Notes;
  return J;
}

/// One line of JSON; bytes that are not UTF-8 become U+FFFD instead of an exception.
std::string dump(const nlohmann::ordered_json &J) {
  return J.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

} // namespace

std::string formatDeviceJson(const DeviceReport &R) { return dump(deviceJson(R)); }

std::string formatDeviceJson(const std::vector<DeviceReport> &Rs) {
  nlohmann::ordered_json A = nlohmann::ordered_json::array();
  for (const DeviceReport &R : Rs)
    A.push_back(deviceJson(R));
  return dump(A);
}

std::string formatProbeLines(const DeviceReport &R) {
  std::ostringstream OS;
  OS << "GPU_COUNT:" << R.gpuCount() << "\n"
     << "CUDA_AVAILABLE:" << (R.CudaAvailable ? "True" : "False") << "\n";
  int Threads = 0;
  for (const DeviceInfo &D : R.Devices)
    if (D.Kind == DeviceKind::CPU)
      Threads = D.Threads;
  OS << "CPU_THREADS:" << Threads << "\n";
  if (R.TotalGpus >= 0)
    OS << "GPU_TOTAL:" << R.TotalGpus << "\n";
  if (R.CudaVisibleDevices) {
    std::string V = *R.CudaVisibleDevices;
    for (char &C : V)
      if (C == '\n' || C == '\r')
        C = ' ';
    OS << "CUDA_VISIBLE_DEVICES:" << V << "\n";
  }
  for (const DeviceInfo &D : R.Devices) {
    if (D.Kind != DeviceKind::CUDA)
      continue;
    std::string Name = D.Name;
    for (char &C : Name)
      if (C == '|' || C == '\n')
        C = ' ';
    OS << "GPU_" << D.Index << ":" << Name << "|" << (D.TotalMemory >> 20) << "|"
       << D.ComputeMajor << "." << D.ComputeMinor << "|" << D.Multiprocessors << "\n";
  }
  return OS.str();
}

bool parseProbeLines(const std::string &Text, DeviceReport &Out) {
  DeviceReport R;
  R.Host = Out.Host;
  std::istringstream In(Text);
  std::string Line;
  int GpuCount = -1;
  int Threads = 0;
  std::vector<DeviceInfo> Gpus;
  auto toInt = [](const std::string &S, int &V) {
    char *End = nullptr;
    long L = std::strtol(S.c_str(), &End, 10);
    if (S.empty() || End != S.c_str() + S.size() || L < 0 || L > 1000000) // a NUL ends c_str()
      return false;
    V = static_cast<int>(L);
    return true;
  };
  while (std::getline(In, Line)) {
    if (!Line.empty() && Line.back() == '\r')
      Line.pop_back();
    size_t C = Line.find(':');
    if (C == std::string::npos)
      continue;
    std::string K = Line.substr(0, C), V = Line.substr(C + 1);
    if (K == "GPU_COUNT") {
      if (!toInt(V, GpuCount))
        return false;
    } else if (K == "CUDA_AVAILABLE") {
      R.CudaAvailable = V == "True" || V == "true" || V == "1";
    } else if (K == "CPU_THREADS") {
      toInt(V, Threads);
    } else if (K == "GPU_TOTAL") {
      int Total = 0;
      if (toInt(V, Total))
        R.TotalGpus = Total;
    } else if (K == "CUDA_VISIBLE_DEVICES") {
      R.CudaVisibleDevices = V;
    } else if (K.rfind("GPU_", 0) == 0) {
      DeviceInfo D;
      D.Kind = DeviceKind::CUDA;
      if (!toInt(K.substr(4), D.Index))
        continue;
      std::vector<std::string> F;
      std::istringstream FS(V);
      std::string Part;
      while (std::getline(FS, Part, '|'))
        F.push_back(Part);
      if (!F.empty())
        D.Name = F[0];
      int Mib = 0;
      if (F.size() > 1 && toInt(F[1], Mib))
        D.TotalMemory = static_cast<uint64_t>(Mib) << 20;
      if (F.size() > 2)
        std::sscanf(F[2].c_str(), "%d.%d", &D.ComputeMajor, &D.ComputeMinor);
      if (F.size() > 3)
        toInt(F[3], D.Multiprocessors);
      Gpus.push_back(D);
    }
  }
  // A count is an allocation: a host's answer of a few bytes must not make us list a million
  // GPUs (found by the remote-answer fuzz target). No machine has more than MaxProbeGpus.
  if (GpuCount < 0 || GpuCount > MaxProbeGpus ||
      Gpus.size() > static_cast<size_t>(MaxProbeGpus) || R.TotalGpus > MaxProbeGpus)
    return false;
  // The original probe lists no GPU lines: stand in unnamed devices for the count it gave.
  for (int I = static_cast<int>(Gpus.size()); I < GpuCount; ++I) {
    DeviceInfo D;
    D.Kind = DeviceKind::CUDA;
    D.Index = I;
    D.Name = "GPU " + std::to_string(I);
    Gpus.push_back(D);
  }
  R.Devices = Gpus;
  if (Threads > 0) {
    DeviceInfo Cpu;
    Cpu.Kind = DeviceKind::CPU;
    Cpu.Name = "CPU";
    Cpu.Threads = Threads;
    R.Devices.push_back(Cpu);
  }
  Out = R;
  return true;
}

} // namespace clustrix
