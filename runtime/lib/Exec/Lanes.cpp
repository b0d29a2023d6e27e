//===- Exec/Lanes.cpp - The devices a loop may run on ---------------------===//
#include "Exec/Lanes.h"

#include "Support/DeviceSet.h"
#include "Support/Log.h"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>

namespace clustrix {
namespace rt {

LaneSet buildLanes(const std::string &Devices, const DeviceReport &Report, bool PageableAccess) {
  LaneSet S;
  DeviceSpec Spec;
  std::string Err;
  if (!parseDeviceSpec(Devices, Spec, Err)) {
    S.Warnings.push_back("devices: " + Err + "; using the automatic device set");
    Spec = DeviceSpec();
  }
  Spec.PageableAccess = PageableAccess;
  for (const Backend *B : backends())
    B->addLanes(Spec, Report, S);
  return S;
}

/// The devices of the backends Spec may use, plus the host's (every setting can fall back to
/// it); discovered once per set of backends.
static const DeviceReport &reportFor(const DeviceSpec &Spec) {
  static std::map<std::vector<const Backend *>, std::unique_ptr<DeviceReport>> Reports;
  std::vector<const Backend *> Wanted;
  for (const Backend *B : backends())
    if (B->isHost() || B->requested(Spec))
      Wanted.push_back(B);
  auto &R = Reports[Wanted];
  if (!R) {
    R = std::make_unique<DeviceReport>();
    for (const Backend *B : Wanted)
      B->discover(*R, /*QueryFreeMemory=*/false);
  }
  return *R;
}

const LaneSet &lanesFor(const std::string &Devices, bool PageableAccess) {
  using Key = std::pair<std::string, bool>;
  static std::mutex M;
  static auto *Cache = new std::map<Key, std::unique_ptr<LaneSet>>();
  // The last one resolved, for the common case of one setting per process.
  static std::atomic<const std::pair<const Key, std::unique_ptr<LaneSet>> *> Last{nullptr};
  if (auto *L = Last.load(std::memory_order_acquire);
      L && L->first.second == PageableAccess && L->first.first == Devices)
    return *L->second;
  std::lock_guard<std::mutex> G(M);
  auto It = Cache->find(Key(Devices, PageableAccess));
  if (It == Cache->end()) {
    DeviceSpec Spec;
    std::string Err;
    if (!parseDeviceSpec(Devices, Spec, Err))
      Spec = DeviceSpec();
    auto Set =
        std::make_unique<LaneSet>(buildLanes(Devices, reportFor(Spec), PageableAccess));
    for (const std::string &W : Set->Warnings)
      logOnce("lanes:" + W, LogLevel::Warn, W);
    It = Cache->emplace(Key(Devices, PageableAccess), std::move(Set)).first;
  }
  Last.store(&*It, std::memory_order_release);
  return *It->second;
}

const LaneSet &hostLanes() {
  static const LaneSet *Host = [] {
    auto *S = new LaneSet();
    DeviceReport R;
    for (const Backend *B : backends())
      if (B->isHost())
        B->discover(R, /*QueryFreeMemory=*/false);
    DeviceSpec Auto;
    for (const Backend *B : backends())
      if (B->isHost())
        B->addLanes(Auto, R, *S);
    return S;
  }();
  return *Host;
}

} // namespace rt
} // namespace clustrix
