//===- Core/Lanes.cpp - The devices a loop may run on ---------------------===//
#include "Core/Lanes.h"

#include "Core/DeviceSet.h"
#include "Core/Log.h"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>

namespace clustrix {
namespace rt {

double cudaWeight(const DeviceInfo &D) {
  double ClockGHz = D.ClockKHz > 0 ? D.ClockKHz / 1e6 : 1.5;
  int Sms = D.Multiprocessors > 0 ? D.Multiprocessors : 1;
  // A CPU worker at ~3 GHz weighs 1: 16 cores' worth per SM, at the GPU's clock.
  return Sms * 16.0 * ClockGHz / 3.0;
}

static void addCpuLanes(LaneSet &S, unsigned Workers, const DeviceReport &R) {
  if (Workers == 0) {
    for (const DeviceInfo &D : R.Devices)
      if (D.Kind == DeviceKind::CPU)
        Workers = static_cast<unsigned>(D.Threads);
    if (Workers == 0)
      Workers = 1;
  }
  for (unsigned I = 0; I < Workers; ++I) {
    Lane L;
    L.Kind = DeviceKind::CPU;
    L.Ordinal = static_cast<int>(I);
    L.Name = "cpu" + std::to_string(I);
    L.Weight = 1.0;
    S.Lanes.push_back(L);
  }
}

LaneSet buildLanes(const std::string &Devices, const DeviceReport &Report) {
  LaneSet S;
  DeviceSpec Spec;
  std::string Err;
  if (!parseDeviceSpec(Devices, Spec, Err)) {
    S.Warnings.push_back("devices: " + Err + "; using the automatic device set");
    Spec = DeviceSpec();
  }
  bool WantCuda = Spec.Auto || Spec.Cuda;
  if (WantCuda) {
    std::vector<int> Found;
    for (const DeviceInfo &D : Report.Devices) {
      if (D.Kind != DeviceKind::CUDA)
        continue;
      bool Listed = Spec.CudaOrdinals.empty();
      for (int O : Spec.CudaOrdinals)
        Listed |= O == D.Index;
      if (!Listed)
        continue;
      Lane L;
      L.Kind = DeviceKind::CUDA;
      L.Ordinal = D.Index;
      L.Name = "cuda" + std::to_string(D.Index);
      L.Weight = cudaWeight(D);
      L.Info = D;
      S.Lanes.push_back(L);
      Found.push_back(D.Index);
    }
    for (int O : Spec.CudaOrdinals) {
      bool Present = false;
      for (int F : Found)
        Present |= F == O;
      if (!Present)
        S.Warnings.push_back("devices: cuda:" + std::to_string(O) +
                             " does not exist (" + std::to_string(Report.gpuCount()) +
                             " CUDA device(s) visible); it is skipped");
    }
    if (Spec.Cuda && Found.empty() && !Spec.Cpu) {
      S.Warnings.push_back("devices: CUDA was requested but no CUDA device is usable" +
                           (Report.CudaStatus.empty() ? std::string()
                                                      : " (" + Report.CudaStatus + ")") +
                           "; using the CPU");
      Spec.Cpu = true;
    }
  }
  if (Spec.Cpu || (Spec.Auto && S.Lanes.empty()))
    addCpuLanes(S, Spec.CpuWorkers, Report);
  for (const std::string &N : Report.Notes)
    if (WantCuda)
      S.Warnings.push_back(N);
  return S;
}

const LaneSet &lanesFor(const std::string &Devices) {
  static std::mutex M;
  static auto *Cache = new std::map<std::string, std::unique_ptr<LaneSet>>();
  // The last one resolved, for the common case of one setting per process.
  static std::atomic<const std::pair<const std::string, std::unique_ptr<LaneSet>> *> Last{nullptr};
  if (auto *L = Last.load(std::memory_order_acquire); L && L->first == Devices)
    return *L->second;
  std::lock_guard<std::mutex> G(M);
  auto It = Cache->find(Devices);
  if (It == Cache->end()) {
    static DeviceReport *Report = nullptr;
    DeviceSpec Spec;
    std::string Err;
    bool NeedCuda = !parseDeviceSpec(Devices, Spec, Err) || Spec.Auto || Spec.Cuda;
    DeviceReport CpuOnly;
    CpuOnly.Devices.push_back(localCpuDevice());
    if (NeedCuda && !Report)
      Report = new DeviceReport(discoverLocalDevices(false));
    const DeviceReport &R = NeedCuda ? *Report : CpuOnly;
    auto Set = std::make_unique<LaneSet>(buildLanes(Devices, R));
    for (const std::string &W : Set->Warnings)
      logOnce("lanes:" + W, LogLevel::Warn, W);
    It = Cache->emplace(Devices, std::move(Set)).first;
  }
  Last.store(&*It, std::memory_order_release);
  return *It->second;
}

} // namespace rt
} // namespace clustrix
