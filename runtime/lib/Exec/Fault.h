//===- Exec/Fault.h - Fault injection (CLUSTRIX_FAULT) ---------*- C++ -*-===//
//
// CLUSTRIX_FAULT makes chosen chunks fail on chosen devices, so the recovery path (re-run the
// chunk elsewhere, retire the device) can be tested on any machine. Syntax, comma-separated:
//   DEVICE:CHUNK   DEVICE is a position in the loop's device list (0, 1, ...), a device name
//                  (cpu1, cuda0) or *; CHUNK is a chunk index of the plan or *.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_RT_EXEC_FAULT_H
#define CLUSTRIX_RT_EXEC_FAULT_H

#include <cstdint>
#include <string>
#include <vector>

namespace clustrix {
namespace rt {

/// One DEVICE:CHUNK rule.
struct FaultRule {
  int Lane = -1;          ///< Position in the device list; -1 when a name or * is given.
  std::string Name;       ///< Device name; empty when a position or * is given.
  int64_t Chunk = -1;     ///< -1 for any chunk.
};

/// The parsed CLUSTRIX_FAULT value.
class FaultPlan {
public:
  /// Parses Text; on failure returns false with a message and leaves the plan empty.
  bool parse(const std::string &Text, std::string &Error);
  /// Whether chunk ChunkIndex must fail on the device at position Lane named Name.
  bool shouldFail(unsigned Lane, const std::string &Name, size_t ChunkIndex) const;
  bool empty() const { return Rules.empty(); }

private:
  std::vector<FaultRule> Rules;
};

/// The process's fault plan from CLUSTRIX_FAULT, read once (a bad value is reported once and
/// injects nothing).
const FaultPlan &environmentFaults();

} // namespace rt
} // namespace clustrix

#endif
