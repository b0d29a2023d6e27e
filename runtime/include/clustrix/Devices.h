//===- clustrix/Devices.h - What devices the runtime sees -------*- C++ -*-===//
//
// Device descriptions, local discovery, and the formatters clustrix-devices prints. The
// formatters take plain DeviceReport values and do no discovery, so the remote-hosts module
// formats what it learned over SSH with the same code (and parseProbeLines reads the probe form
// back).
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_DEVICES_H
#define CLUSTRIX_DEVICES_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clustrix {

/// The kinds of device the runtime drives.
enum class DeviceKind : uint8_t { CPU, CUDA };

/// One device: a CUDA GPU, or the CPU as a device class (all its hardware threads).
struct DeviceInfo {
  DeviceKind Kind = DeviceKind::CPU;
  int Index = 0;                  ///< CUDA ordinal as the process sees it; 0 for the CPU.
  std::string Name;               ///< "NVIDIA H100 80GB HBM3", or the CPU model.
  uint64_t TotalMemory = 0;       ///< Bytes.
  uint64_t FreeMemory = 0;        ///< Bytes; 0 when unknown.
  int ComputeMajor = 0, ComputeMinor = 0; ///< CUDA compute capability.
  int Multiprocessors = 0;        ///< CUDA SM count.
  int ClockKHz = 0;               ///< Core clock.
  int MemoryClockKHz = 0;
  int Threads = 0;                ///< Hardware threads, for the CPU.
  /// CUDA: kernels may use the host's pageable memory (the driver migrates pages, Linux HMM).
  bool PageableMemoryAccess = false;
  /// CUDA: and they reach it through the host's page tables (address translation services).
  bool HostPageTables = false;
};

/// Everything known about the devices of one host.
struct DeviceReport {
  std::string Host;               ///< Empty for the local machine.
  std::vector<DeviceInfo> Devices; ///< CUDA devices first, then the CPU.
  bool CudaAvailable = false;     ///< A CUDA driver answered with at least one device.
  int DriverVersion = 0;          ///< CUDA driver version (e.g. 13000), 0 when unknown.
  std::string CudaStatus;         ///< Why there is no CUDA device, when there is none.
  std::vector<std::string> Notes; ///< Warnings for the user, e.g. CUDA_VISIBLE_DEVICES hiding GPUs.
  /// GPUs the host has, whatever CUDA_VISIBLE_DEVICES says; -1 when unknown.
  int TotalGpus = -1;
  /// CUDA_VISIBLE_DEVICES as the report's processes see it, when it is set.
  std::optional<std::string> CudaVisibleDevices;

  /// Number of CUDA devices in Devices.
  int gpuCount() const;
};

/// Discovers this machine's devices: CUDA through the driver (loaded with dlopen; the library
/// can be named by CLUSTRIX_CUDA_LIBRARY), honouring CUDA_VISIBLE_DEVICES and noting when it
/// hides GPUs, and the CPU. Never throws; a missing or failing driver is described in CudaStatus.
/// QueryFreeMemory opens a context on each GPU to read its free memory (slower).
DeviceReport discoverLocalDevices(bool QueryFreeMemory = true);

/// The devices of every rank of an MPI job, rank 0's first, each report's Host naming the rank
/// and its machine ("rank1 (node7)"). Only rank 0 of a job of several ranks started by an MPI
/// launcher can answer; otherwise the list is empty and Why says why.
std::vector<DeviceReport> discoverMpiDevices(std::string &Why);

/// This machine's CPU as a device: model name and hardware threads usable by this process.
DeviceInfo localCpuDevice();

/// A human-readable table, one device per line, with notes after it.
std::string formatDeviceTable(const DeviceReport &R);
/// A JSON object for one host, on one line (docs/runtime.md lists the fields). Invalid UTF-8 in
/// a name or a message is replaced, so the output is always valid JSON.
std::string formatDeviceJson(const DeviceReport &R);
/// A JSON array of host objects, on one line.
std::string formatDeviceJson(const std::vector<DeviceReport> &Rs);
/// The probe form scripts read: `GPU_COUNT:N` (the visible GPUs), `CUDA_AVAILABLE:True|False`,
/// `CPU_THREADS:N`, `GPU_TOTAL:N` when the total is known, `CUDA_VISIBLE_DEVICES:VALUE` when it
/// is set, then one `GPU_I:name|total_mib|major.minor|sms` line per GPU.
std::string formatProbeLines(const DeviceReport &R);
/// The most GPUs a probe answer may claim (GPU_COUNT, GPU_TOTAL, GPU_<n> lines).
constexpr int MaxProbeGpus = 1024;
/// Reads the probe form back (unknown lines are ignored, so the original Python probe's two lines
/// are enough). Returns false when GPU_COUNT is missing or malformed, or when the answer claims
/// more than MaxProbeGpus GPUs.
bool parseProbeLines(const std::string &Text, DeviceReport &Out);

} // namespace clustrix

#endif
