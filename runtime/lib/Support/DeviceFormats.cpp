//===- Support/DeviceFormats.cpp - Device reports as text -----------------===//
//
// The formats of clustrix/Devices.h: pure functions of a DeviceReport, shared by local discovery
// and by the remote-hosts module, which formats what it learned over SSH.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Devices.h"

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
  for (const std::string &N : R.Notes)
    OS << "note: " << N << "\n";
  return OS.str();
}

static std::string jsonString(const std::string &S) {
  std::string O = "\"";
  for (unsigned char C : S) {
    switch (C) {
    case '"': O += "\\\""; break;
    case '\\': O += "\\\\"; break;
    case '\n': O += "\\n"; break;
    case '\t': O += "\\t"; break;
    case '\r': O += "\\r"; break;
    default:
      if (C < 0x20) {
        char B[8];
        std::snprintf(B, sizeof(B), "\\u%04x", C);
        O += B;
      } else {
        O += static_cast<char>(C);
      }
    }
  }
  return O + "\"";
}

std::string formatDeviceJson(const DeviceReport &R) {
  std::ostringstream OS;
  OS << "{\"host\": " << jsonString(R.Host.empty() ? "localhost" : R.Host)
     << ", \"cuda_available\": " << (R.CudaAvailable ? "true" : "false")
     << ", \"gpu_count\": " << R.gpuCount() << ", \"driver_version\": " << R.DriverVersion
     << ", \"cuda_status\": " << jsonString(R.CudaStatus) << ", \"devices\": [";
  bool First = true;
  for (const DeviceInfo &D : R.Devices) {
    OS << (First ? "" : ", ") << "{\"kind\": \""
       << (D.Kind == DeviceKind::CUDA ? "cuda" : "cpu") << "\", \"name\": " << jsonString(D.Name);
    if (D.Kind == DeviceKind::CUDA)
      OS << ", \"index\": " << D.Index << ", \"total_memory\": " << D.TotalMemory
         << ", \"free_memory\": " << D.FreeMemory << ", \"compute_capability\": \""
         << D.ComputeMajor << "." << D.ComputeMinor << "\", \"multiprocessors\": "
         << D.Multiprocessors << ", \"clock_khz\": " << D.ClockKHz
         << ", \"memory_clock_khz\": " << D.MemoryClockKHz;
    else
      OS << ", \"threads\": " << D.Threads;
    OS << "}";
    First = false;
  }
  OS << "], \"notes\": [";
  for (size_t I = 0; I < R.Notes.size(); ++I)
    OS << (I ? ", " : "") << jsonString(R.Notes[I]);
  OS << "]}";
  return OS.str();
}

std::string formatDeviceJson(const std::vector<DeviceReport> &Rs) {
  std::string S = "[";
  for (size_t I = 0; I < Rs.size(); ++I)
    S += (I ? ", " : "") + formatDeviceJson(Rs[I]);
  return S + "]";
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
    if (S.empty() || *End != '\0' || L < 0 || L > 1000000)
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
  if (GpuCount < 0)
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
