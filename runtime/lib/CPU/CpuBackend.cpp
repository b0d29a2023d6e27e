//===- CPU/CpuBackend.cpp - Running chunks on CPU worker threads ----------===//
#include "CPU/CpuBackend.h"

#include <fstream>
#include <sched.h>
#include <thread>

namespace clustrix {

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

namespace rt {
namespace {

/// A chunk on a worker: nothing to copy, the host chunk function runs the whole range at once
/// and folds into the chunk's partials itself.
class CpuLoop final : public PreparedLoop {
public:
  explicit CpuLoop(const LoopArgs &Args) : Args(Args) {}

  bool split(uint64_t Lo, uint64_t Hi, std::vector<Chunk> &Pieces, bool &Overlap,
             std::string &) override {
    Pieces.assign(1, Chunk{Lo, Hi});
    Overlap = false;
    return true;
  }
  bool copyIn(size_t, std::string &) override { return true; }
  bool run(size_t, const ChunkJob &Job, std::string &) override {
    ChunkContext Ctx;
    Ctx.Partials = Job.Partials;
    Ctx.AppendBuffers = Job.AppendBuffers;
    Ctx.Lo = Job.Lo;
    Ctx.Hi = Job.Hi;
    Ctx.Device = Job.Device;
    Args.Host(Args.HostEnv, Job.Lo, Job.Hi, Ctx);
    return true;
  }
  bool copyOut(size_t, std::string &) override { return true; }
  void combine(size_t, const ChunkJob &) override {}
  void release(size_t) override {}

private:
  const LoopArgs &Args;
};

/// The CPU as lanes: one per worker thread, `cpu:N` or one per hardware thread.
class CpuBackend final : public Backend {
public:
  const char *name() const override { return "cpu"; }
  bool isHost() const override { return true; }
  bool requested(const DeviceSpec &Spec) const override { return Spec.Auto || Spec.Cpu; }

  void discover(DeviceReport &R, bool) const override { R.Devices.push_back(localCpuDevice()); }

  void addLanes(const DeviceSpec &Spec, const DeviceReport &R, LaneSet &Out) const override {
    // Asked for, or the fallback when no other backend contributed a lane.
    if (!Spec.Cpu && !Out.Lanes.empty())
      return;
    unsigned Workers = Spec.Cpu ? Spec.CpuWorkers : 0;
    if (Workers == 0) {
      for (const DeviceInfo &D : R.Devices)
        if (D.Kind == DeviceKind::CPU)
          Workers = static_cast<unsigned>(D.Threads);
      if (Workers == 0)
        Workers = 1;
    }
    for (unsigned I = 0; I < Workers; ++I) {
      Lane L;
      L.Owner = this;
      L.Ordinal = static_cast<int>(I);
      L.Name = "cpu" + std::to_string(I);
      L.Weight = 1.0;
      Out.Lanes.push_back(L);
    }
  }

  bool canRun(const LoopInfo &, const LoopArgs &, std::string &) const override { return true; }

  std::unique_ptr<PreparedLoop> prepare(const Lane &, const LoopInfo &, const LoopArgs &Args,
                                        const RunOptions &, std::string &) const override {
    return std::make_unique<CpuLoop>(Args);
  }

  bool lost(const Lane &) const override { return false; }
};

} // namespace

const Backend &cpuBackend() {
  static const CpuBackend B;
  return B;
}

} // namespace rt
} // namespace clustrix
