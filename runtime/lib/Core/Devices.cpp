//===- Core/Devices.cpp - Device discovery and device-list formats --------===//
#include "clustrix/Devices.h"

#include "CUDA/CudaDriver.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <fstream>
#include <sched.h>
#include <sstream>
#include <thread>

namespace clustrix {

int DeviceReport::gpuCount() const {
  int N = 0;
  for (const DeviceInfo &D : Devices)
    N += D.Kind == DeviceKind::CUDA;
  return N;
}

DeviceInfo localCpuDevice() {
  DeviceInfo D;
  D.Kind = DeviceKind::CPU;
  cpu_set_t Set;
  if (::sched_getaffinity(0, sizeof(Set), &Set) == 0)
    D.Threads = CPU_COUNT(&Set);
  if (D.Threads <= 0)
    D.Threads = static_cast<int>(std::thread::hardware_concurrency());
  if (D.Threads <= 0)
    D.Threads = 1;
  std::ifstream In("/proc/cpuinfo");
  std::string Line;
  while (std::getline(In, Line)) {
    if (Line.rfind("model name", 0) == 0) {
      size_t C = Line.find(':');
      if (C != std::string::npos)
        D.Name = Line.substr(Line.find_first_not_of(" \t", C + 1));
      break;
    }
  }
  if (D.Name.empty())
    D.Name = "CPU";
  return D;
}

/// Number of GPUs NVML sees, which CUDA_VISIBLE_DEVICES does not filter; -1 when unknown.
static int physicalGpuCount() {
  void *Lib = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!Lib)
    return -1;
  using InitFn = int (*)();
  using CountFn = int (*)(unsigned *);
  auto Init = reinterpret_cast<InitFn>(::dlsym(Lib, "nvmlInit_v2"));
  auto Count = reinterpret_cast<CountFn>(::dlsym(Lib, "nvmlDeviceGetCount_v2"));
  auto Shutdown = reinterpret_cast<InitFn>(::dlsym(Lib, "nvmlShutdown"));
  unsigned N = 0;
  int Result = -1;
  if (Init && Count && Init() == 0) {
    if (Count(&N) == 0)
      Result = static_cast<int>(N);
    if (Shutdown)
      Shutdown();
  }
  return Result;
}

DeviceReport discoverLocalDevices(bool QueryFreeMemory) {
  using namespace rt::cuda;
  DeviceReport R;
  const DriverApi &Api = DriverApi::get();
  std::string Err;
  int Count = 0;
  if (!Api.Loaded) {
    R.CudaStatus = "no CUDA driver: " + Api.Error;
  } else if (!CLUSTRIX_CU(Api, Err, cuInit(0))) {
    R.CudaStatus = "the CUDA driver failed to initialize: " + Err;
  } else {
    Api.cuDriverGetVersion(&R.DriverVersion);
    if (!CLUSTRIX_CU(Api, Err, cuDeviceGetCount(&Count)))
      R.CudaStatus = Err;
    else if (Count == 0)
      R.CudaStatus = "the CUDA driver reports no device";
  }
  for (int I = 0; I < Count; ++I) {
    CUdevice Dev;
    if (!CLUSTRIX_CU(Api, Err, cuDeviceGet(&Dev, I)))
      continue;
    DeviceInfo D;
    D.Kind = DeviceKind::CUDA;
    D.Index = I;
    char Name[256] = {0};
    if (Api.cuDeviceGetName(Name, sizeof(Name) - 1, Dev) == CUDA_SUCCESS)
      D.Name = Name;
    size_t Total = 0;
    if (Api.cuDeviceTotalMem(&Total, Dev) == CUDA_SUCCESS)
      D.TotalMemory = Total;
    Api.cuDeviceGetAttribute(&D.ComputeMajor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, Dev);
    Api.cuDeviceGetAttribute(&D.ComputeMinor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, Dev);
    Api.cuDeviceGetAttribute(&D.Multiprocessors, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, Dev);
    Api.cuDeviceGetAttribute(&D.ClockKHz, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, Dev);
    Api.cuDeviceGetAttribute(&D.MemoryClockKHz, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, Dev);
    if (QueryFreeMemory) {
      CUcontext Ctx = nullptr;
      if (Api.cuDevicePrimaryCtxRetain(&Ctx, Dev) == CUDA_SUCCESS) {
        size_t Free = 0, Tot = 0;
        if (Api.cuCtxSetCurrent(Ctx) == CUDA_SUCCESS && Api.cuMemGetInfo(&Free, &Tot) == CUDA_SUCCESS)
          D.FreeMemory = Free;
        Api.cuCtxSetCurrent(nullptr);
        Api.cuDevicePrimaryCtxRelease(Dev);
      }
    }
    R.Devices.push_back(D);
  }
  R.CudaAvailable = !R.Devices.empty();
  if (const char *Vis = std::getenv("CUDA_VISIBLE_DEVICES")) {
    int Physical = Api.Loaded ? physicalGpuCount() : -1;
    std::string V = Vis;
    if (Physical > R.gpuCount())
      R.Notes.push_back("CUDA_VISIBLE_DEVICES=" + V + " hides " +
                        std::to_string(Physical - R.gpuCount()) + " of this machine's " +
                        std::to_string(Physical) + " GPUs");
    else if (Physical < 0)
      R.Notes.push_back("CUDA_VISIBLE_DEVICES=" + V +
                        " is set: only the GPUs it lists are visible (unset it to see all)");
  }
  R.Devices.push_back(localCpuDevice());
  return R;
}

//===----------------------------------------------------------------------===//
// Formats
//===----------------------------------------------------------------------===//

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
