//===- MPI/World.h - The ranks of an MPI job, as the runtime sees them -*- C++ -*-===//
//
// Rank 0 runs the program; every other rank serves chunks (Service.cpp) and never runs main.
// This header is what rank 0's backend (MpiBackend.cpp) and the service share: the roles, the
// message tags and commands, and the requests a rank 0 lane sends.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_RT_MPI_WORLD_H
#define CLUSTRIX_RT_MPI_WORLD_H

#include "MPI/MpiApi.h"
#include "MPI/Wire.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace clustrix {
namespace rt {
namespace mpi {

/// Message tags on the runtime's own communicator (a duplicate of MPI_COMM_WORLD).
enum Tag : int {
  TagCommand = 1,   ///< rank 0 -> rank: a Command, then its payload
  TagDevices = 2,   ///< rank -> rank 0: the answer to CmdDevices
  TagPong = 3,      ///< rank -> rank 0: the answer to CmdPing
  TagBeat = 4,      ///< rank -> rank 0: alive, while it works on a chunk
  TagBye = 5,       ///< rank -> rank 0: the answer to CmdStop
  TagChunkBase = 16 ///< rank -> rank 0: the answer to a chunk, TagChunkBase + the lane's slot
};

/// Commands. At its end rank 0 sends CmdStop to every live rank and waits for each TagBye, then
/// CmdFinish with one byte: 1 when every rank answered, so that all of them call MPI_Finalize
/// (collective: it would wait forever for a dead rank), 0 when one is lost, so that none does.
enum Command : uint32_t { CmdDevices = 1, CmdPing = 2, CmdChunk = 3, CmdStop = 4, CmdFinish = 5 };

/// One device a remote rank serves, as rank 0 sees it.
struct RemoteLane {
  int Rank = 0;
  int Slot = 0;        ///< Its position in the rank's own list.
  std::string Name;    ///< "rank1:cpu0"
  double Weight = 1.0;
};

/// What rank 0 knows of another rank.
struct RankState {
  std::atomic<bool> Dead{false};
  std::atomic<int64_t> LastHeardNs{0}; ///< steady clock, when the rank last sent anything
  double Bandwidth = 0;                ///< bytes per second, measured
  std::string Host;
  std::string Probe;                   ///< its devices, in clustrix-devices --probe form
  std::vector<RemoteLane> Lanes;
};

/// The MPI job. Every MPI call of rank 0 goes through Lock, so the lanes of several worker
/// threads never call MPI at the same time.
struct World {
  Api *A = nullptr;
  Comm C = nullptr;
  int Rank = 0, Size = 1;
  bool Active = false;       ///< MPI is initialized and this job has more than one rank
  std::mutex Lock;
  std::unique_ptr<RankState[]> Ranks; ///< [Size]
  bool Queried = false;      ///< devices and bandwidths were asked for
  std::mutex QueryLock;
  std::vector<std::shared_ptr<std::vector<char>>> Abandoned; ///< buffers of sends to dead ranks
  std::string StartError;    ///< why MPI could not be used, when a launcher started the process

  static World &get();
  /// Rank 0: asks every rank for its devices and measures the bandwidth to it, once.
  void query();
  /// Rank 0: sends Bytes to rank R with tag T and waits until MPI has taken them, at most
  /// Timeout past the rank's last sign of life. False, with Err, when the rank is lost.
  bool send(int R, int T, std::shared_ptr<std::vector<char>> Bytes, std::string &Err);
  /// Rank 0: waits for a message from rank R with tag T (its heartbeats keep it alive).
  bool receive(int R, int T, std::vector<char> &Out, std::string &Err);
  /// How long a rank may stay silent before it is taken as lost (CLUSTRIX_MPI_TIMEOUT).
  std::chrono::nanoseconds timeout() const;
};

/// The number of ranks the launcher started, from its environment (1 when not under one).
int launcherWorldSize();

/// Runs the chunk service of a rank other than 0 until rank 0 says stop; never returns.
[[noreturn]] void serve(World &W);

/// Nanoseconds of the steady clock.
int64_t nowNs();

} // namespace mpi
} // namespace rt
} // namespace clustrix

#endif
