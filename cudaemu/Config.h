//===- cudaemu/Config.h - The emulator's settings ---------------*- C++ -*-===//
//
// The emulated machine is described by environment variables, read once at cuInit:
//   CLUSTRIX_EMU_GPUS=N            devices (default 1)
//   CLUSTRIX_EMU_GPU_MEMORY=S[,S]  memory per device, one size or one per device (default 1G)
//   CLUSTRIX_EMU_GPU_SMS=N[,N]     multiprocessors per device (default: one per 256 MiB)
//   CLUSTRIX_EMU_FAULT=RULE[,RULE] faults inside the devices (docs/cuda-emulator.md)
//   CLUSTRIX_EMU_CXX=PATH          the compiler of the emulated NVRTC
//   CLUSTRIX_EMU_PAGEABLE_ACCESS=A[,A] off, hmm or ats per device: kernels may use host memory
//   CLUSTRIX_EMU_HOST_MEMORY=pageable|locked   locked: all host memory acts as page-locked
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_CUDAEMU_CONFIG_H
#define CLUSTRIX_CUDAEMU_CONFIG_H

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace clustrix {
namespace cudaemu {

/// What an injected fault does.
enum class FaultKind {
  Lost,       ///< lost@N: at its Nth launch the device is lost for good.
  Launch,     ///< launch@N: the Nth launch fails without running.
  Oom,        ///< oom@N: the Nth allocation reports out of memory.
  SkipCopyIn, ///< skip-copy-in@N: the Nth host-to-device copy reports success, copies nothing.
  Register,   ///< register@N: the Nth cuMemHostRegister fails (the range is registered already).
  Partial,    ///< partial@N: the Nth launch runs its first half of blocks, then the device is lost.
};

/// Whether a device's kernels may use the host's pageable memory (cuda.h's
/// CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS and ..._USES_HOST_PAGE_TABLES).
enum class PageableAccess {
  Off, ///< off: only device memory (a discrete GPU without HMM).
  Hmm, ///< hmm: the driver migrates pages on faults (Linux HMM).
  Ats, ///< ats: through the host's page tables (Grace Hopper's address translation).
};

/// One CLUSTRIX_EMU_FAULT rule: DEVICE:KIND[@N][+peer].
struct FaultRule {
  int Device = -1; ///< Device ordinal; -1 for `*`.
  FaultKind Kind = FaultKind::Lost;
  uint64_t Nth = 1; ///< Which occurrence on the device, counted from 1.
  /// +peer (lost and partial only): the failing launch, once its turn on the stream comes,
  /// waits until another device has queued a copy that reads from this one and this device
  /// was then told to wait for an event of another device (as a runtime orders the source's
  /// later work after the copy), or 10 s went by. A test then sees the device fail after the
  /// runtime queued all of that, however the host's threads are scheduled.
  bool AfterPeerRead = false;
};

/// The emulated machine.
struct EmuConfig {
  unsigned Gpus = 1;
  std::vector<uint64_t> Memory; ///< Bytes, one per device.
  std::vector<int> Sms;         ///< Multiprocessors, one per device.
  std::vector<PageableAccess> Pageable; ///< One per device.
  std::vector<FaultRule> Faults;
  std::string Cxx;              ///< Compiler for kernels; empty: the one built in.
  /// Microseconds an asynchronous copy (one from or to pinned host memory) waits on its
  /// stream before it moves its bytes, as a link would: a host that reuses a buffer before
  /// the copy that reads it ended then sees the wrong bytes arrive.
  uint64_t CopyLatencyUs = 0;
  /// CLUSTRIX_EMU_HOST_MEMORY=locked: all host memory behaves as page-locked (copies from and
  /// to it are asynchronous, and cuPointerGetAttribute calls it host memory), as in a program
  /// that locks every array it has: a runtime that lets the host write memory a queued copy
  /// has not read yet shows it.
  bool AllHostLocked = false;
};

/// Default memory of a device.
constexpr uint64_t DefaultMemory = uint64_t(1) << 30;

/// Parses "4096", "64K", "1.5G", "512MiB" (binary units) into Bytes.
bool parseSize(const std::string &Text, uint64_t &Bytes);

/// Parses the CLUSTRIX_EMU_FAULT value.
bool parseFaults(const std::string &Text, std::vector<FaultRule> &Out, std::string &Err);

/// Reads the settings through Get (a variable's value, or null when unset); false with Err
/// naming the variable when a value is malformed.
bool readConfig(const std::function<const char *(const char *)> &Get, EmuConfig &Out,
                std::string &Err);

/// Name of a fault kind as CLUSTRIX_EMU_FAULT spells it.
const char *faultName(FaultKind K);

} // namespace cudaemu
} // namespace clustrix

#endif
