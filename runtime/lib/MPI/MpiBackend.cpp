//===- MPI/MpiBackend.cpp - The devices of other MPI ranks ----------------===//
//
// Rank 0's side: the roles (chosen before main runs), the device exchange and bandwidth
// measurement, the cost rule that decides whether a loop may use remote lanes, and a remote
// lane's chunk as a pipeline of one piece: copyIn sends the request with the read boxes, run
// waits for the answer, copyOut writes the write boxes into the program's arrays, combine folds
// the partials. A rank that stays silent longer than CLUSTRIX_MPI_TIMEOUT is lost: its chunk
// fails here and runs again on another lane, and later loops skip it.
//
//===----------------------------------------------------------------------===//
#include "MPI/MpiBackend.h"

#include "MPI/World.h"
#include "Plan/Reduce.h"
#include "Plan/Regions.h"
#include "Support/Log.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace clustrix {
namespace rt {
namespace mpi {

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

int launcherWorldSize() {
  for (const char *V : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "SLURM_NTASKS"})
    if (const char *S = std::getenv(V); S && *S) {
      int N = std::atoi(S);
      // SLURM_NTASKS is set in a batch script too, where no task was launched by srun.
      if (std::strcmp(V, "SLURM_NTASKS") == 0 && !std::getenv("SLURM_PROCID"))
        continue;
      if (std::strcmp(V, "SLURM_NTASKS") == 0 && !std::getenv("PMIX_RANK") &&
          !std::getenv("PMI_RANK") && !std::getenv("OMPI_COMM_WORLD_RANK"))
        continue; // srun without an MPI wire-up: each task is its own program
      return N > 0 ? N : 1;
    }
  return 1;
}

World &World::get() {
  static World W;
  return W;
}

std::chrono::nanoseconds World::timeout() const {
  double S = 10.0;
  if (const char *T = std::getenv("CLUSTRIX_MPI_TIMEOUT"); T && *T) {
    char *End = nullptr;
    double V = std::strtod(T, &End);
    if (End && *End == '\0' && V > 0 && V < 86400)
      S = V;
    else
      logOnce("mpi-timeout", LogLevel::Warn,
              std::string("CLUSTRIX_MPI_TIMEOUT: '") + T +
                  "' is not a number of seconds (0 to 86400); using 10");
  }
  return std::chrono::nanoseconds(static_cast<int64_t>(S * 1e9));
}

namespace {

void pause(bool Busy) { std::this_thread::sleep_for(std::chrono::microseconds(Busy ? 50 : 500)); }

std::string seconds(std::chrono::nanoseconds D) {
  char B[32];
  std::snprintf(B, sizeof(B), "%g s", D.count() / 1e9);
  return B;
}

} // namespace

bool World::send(int R, int T, std::shared_ptr<std::vector<char>> Bytes, std::string &Err) {
  RankState &S = Ranks[R];
  Request Q = nullptr;
  {
    std::lock_guard<std::mutex> G(Lock);
    if (Bytes->size() > static_cast<size_t>(INT32_MAX)) {
      Err = "a message of " + std::to_string(Bytes->size()) + " bytes is over MPI's 2 GiB count";
      return false;
    }
    int E = A->Isend(Bytes->data(), static_cast<int>(Bytes->size()), A->Byte, R, T, C, &Q);
    if (E != Success) {
      Err = "MPI_Isend to rank " + std::to_string(R) + ": " + A->errorText(E);
      return false;
    }
  }
  const int64_t Start = nowNs(), Limit = timeout().count();
  for (;;) {
    {
      std::lock_guard<std::mutex> G(Lock);
      int Done = 0;
      Status St;
      int E = A->Test(&Q, &Done, &St);
      if (E != Success) {
        Err = "MPI_Test of a send to rank " + std::to_string(R) + ": " + A->errorText(E);
        Abandoned.push_back(Bytes);
        return false;
      }
      if (Done)
        return true;
    }
    int64_t Heard = std::max(Start, S.LastHeardNs.load());
    if (S.Dead || nowNs() - Heard > Limit) {
      S.Dead = true;
      Err = "rank " + std::to_string(R) + " took nothing for " + seconds(timeout()) +
            " (CLUSTRIX_MPI_TIMEOUT) and is taken as lost";
      std::lock_guard<std::mutex> G(Lock);
      A->Request_free(&Q);
      Abandoned.push_back(Bytes); // MPI may still read it
      return false;
    }
    pause(false);
  }
}

bool World::receive(int R, int T, std::vector<char> &Out, std::string &Err) {
  RankState &S = Ranks[R];
  const int64_t Start = nowNs(), Limit = timeout().count();
  for (;;) {
    bool Got = false;
    {
      std::lock_guard<std::mutex> G(Lock);
      // Heartbeats first: they only say the rank is alive.
      for (;;) {
        int Flag = 0;
        Status St;
        if (A->Iprobe(R, TagBeat, C, &Flag, &St) != Success || !Flag)
          break;
        char Beat[8];
        A->Recv(Beat, sizeof(Beat), A->Byte, R, TagBeat, C, &St);
        S.LastHeardNs = nowNs();
      }
      int Flag = 0;
      Status St;
      int E = A->Iprobe(R, T, C, &Flag, &St);
      if (E != Success) {
        Err = "MPI_Iprobe for rank " + std::to_string(R) + ": " + A->errorText(E);
        return false;
      }
      if (Flag) {
        int N = 0;
        A->Get_count(&St, A->Byte, &N);
        Out.resize(static_cast<size_t>(N));
        E = A->Recv(Out.data(), N, A->Byte, R, T, C, &St);
        if (E != Success) {
          Err = "MPI_Recv from rank " + std::to_string(R) + ": " + A->errorText(E);
          return false;
        }
        S.LastHeardNs = nowNs();
        Got = true;
      }
    }
    if (Got)
      return true;
    int64_t Heard = std::max(Start, S.LastHeardNs.load());
    if (S.Dead || nowNs() - Heard > Limit) {
      S.Dead = true;
      Err = "rank " + std::to_string(R) + " sent nothing for " + seconds(timeout()) +
            " (CLUSTRIX_MPI_TIMEOUT) and is taken as lost";
      return false;
    }
    pause(true);
  }
}

void World::query() {
  std::lock_guard<std::mutex> G(QueryLock);
  if (Queried)
    return;
  Queried = true;
  for (int R = 1; R < Size; ++R) {
    RankState &S = Ranks[R];
    std::string Err;
    auto Ask = std::make_shared<std::vector<char>>();
    Writer W;
    W.put<uint32_t>(CmdDevices);
    *Ask = W.Bytes;
    std::vector<char> Answer;
    if (!send(R, TagCommand, Ask, Err) || !receive(R, TagDevices, Answer, Err)) {
      logLine(LogLevel::Warn, "rank " + std::to_string(R) + " does not answer: " + Err);
      S.Dead = true;
      continue;
    }
    Reader In(Answer.data(), Answer.size());
    S.Host = In.getString();
    S.Probe = In.getString();
    uint32_t N = In.get<uint32_t>();
    for (uint32_t I = 0; I < N && In.ok(); ++I) {
      RemoteLane L;
      L.Rank = R;
      L.Slot = static_cast<int>(I);
      L.Name = "rank" + std::to_string(R) + ":" + In.getString();
      L.Weight = In.get<double>();
      S.Lanes.push_back(L);
    }
    if (!In.ok()) {
      logLine(LogLevel::Warn, "rank " + std::to_string(R) + " sent a malformed device list");
      S.Lanes.clear();
      S.Dead = true;
      continue;
    }
    // Bandwidth: the best of three 4 MiB messages, each answered by a few bytes.
    const size_t Bytes = 4u << 20;
    double Best = 0;
    for (int K = 0; K < 3 && !S.Dead; ++K) {
      auto Ping = std::make_shared<std::vector<char>>(Bytes + 4, 0);
      uint32_t Cmd = CmdPing;
      std::memcpy(Ping->data(), &Cmd, 4);
      int64_t T0 = nowNs();
      std::vector<char> Pong;
      if (!send(R, TagCommand, Ping, Err) || !receive(R, TagPong, Pong, Err))
        break;
      double Secs = (nowNs() - T0) / 1e9;
      if (Secs > 0)
        Best = std::max(Best, Bytes / Secs);
    }
    S.Bandwidth = Best;
    if (logEnabled(LogLevel::Debug)) {
      char B[64];
      std::snprintf(B, sizeof(B), "%.2f GB/s", Best / 1e9);
      logLine(LogLevel::Debug, "rank " + std::to_string(R) + " (" + S.Host + "): " +
                                   std::to_string(S.Lanes.size()) + " device(s), " + B +
                                   " measured from rank 0");
    }
  }
}

namespace {

/// Rank 0's answer to atexit: every live rank leaves its service loop, then MPI ends: with
/// MPI_Finalize when every rank answered, without it when one is lost (MPI_Finalize waits for
/// every rank, a dead one too).
void stopRanks() {
  World &W = World::get();
  if (!W.Active)
    return;
  auto Command = [&](int R, uint32_t Cmd, int Extra) {
    auto Msg = std::make_shared<std::vector<char>>(Extra < 0 ? 4 : 5);
    std::memcpy(Msg->data(), &Cmd, 4);
    if (Extra >= 0)
      (*Msg)[4] = static_cast<char>(Extra);
    std::string Err;
    return W.send(R, TagCommand, Msg, Err);
  };
  for (int R = 1; R < W.Size; ++R)
    if (!W.Ranks[R].Dead && Command(R, CmdStop, -1)) {
      std::vector<char> Bye;
      std::string Err;
      W.receive(R, TagBye, Bye, Err); // marks the rank lost when it does not answer
    }
  bool All = true;
  for (int R = 1; R < W.Size; ++R)
    All &= !W.Ranks[R].Dead;
  for (int R = 1; R < W.Size; ++R)
    if (!W.Ranks[R].Dead)
      Command(R, CmdFinish, All ? 1 : 0);
  if (All)
    W.A->Finalize();
  W.Active = false;
}

/// Chooses the roles before main: under a launcher with more than one rank, MPI is initialized,
/// and every rank but 0 serves chunks until rank 0 ends.
__attribute__((constructor)) void startRoles() {
  const char *Off = std::getenv("CLUSTRIX_MPI");
  if (Off && (std::strcmp(Off, "off") == 0 || std::strcmp(Off, "0") == 0))
    return;
  int Size = launcherWorldSize();
  if (Size <= 1)
    return;
  World &W = World::get();
  Api &A = Api::get();
  if (!A.Loaded) {
    W.StartError = A.Error;
    std::fprintf(stderr,
                 "clustrix: warning: started by an MPI launcher (%d ranks), but MPI cannot be "
                 "loaded: %s; every rank runs the program by itself\n",
                 Size, A.Error.c_str());
    return;
  }
  int Provided = 0;
  int E = A.Init_thread(nullptr, nullptr, ThreadMultiple, &Provided);
  if (E != Success || Provided < ThreadSerialized) {
    W.StartError = E != Success ? "MPI_Init_thread: " + A.errorText(E)
                                : "MPI gives no MPI_THREAD_SERIALIZED";
    std::fprintf(stderr, "clustrix: warning: %s; every rank runs the program by itself\n",
                 W.StartError.c_str());
    return;
  }
  A.Comm_set_errhandler(A.World, A.ErrorsReturn);
  W.A = &A;
  A.Comm_dup(A.World, &W.C);
  A.Comm_set_errhandler(W.C, A.ErrorsReturn);
  A.Comm_rank(W.C, &W.Rank);
  A.Comm_size(W.C, &W.Size);
  W.Ranks.reset(new RankState[W.Size]);
  W.Active = W.Size > 1;
  if (W.Rank != 0)
    serve(W);
  std::atexit(stopRanks);
}

/// A remote lane's chunk: one piece, sent whole.
class MpiLoop final : public PreparedLoop {
public:
  MpiLoop(const RemoteLane &L, const LoopInfo &Info, const LoopArgs &Args)
      : L(L), Info(Info), Args(Args) {}

  bool split(uint64_t Lo, uint64_t Hi, std::vector<Chunk> &Pieces, bool &Overlap,
             std::string &) override {
    this->Lo = Lo;
    this->Hi = Hi;
    Pieces.assign(1, Chunk{Lo, Hi});
    Overlap = false;
    return true;
  }

  bool copyIn(size_t, std::string &Err) override {
    Boxes.resize(Info.NumRegions);
    if (Info.NumRegions)
      Args.Boxes(Args.BoxEnv, Lo, Hi, Boxes.data());
    Writer W;
    W.put<uint32_t>(CmdChunk);
    W.put<uint32_t>(static_cast<uint32_t>(L.Slot));
    W.putString(Info.File ? Info.File : "");
    W.put<uint32_t>(Info.Line);
    W.putString(Info.KernelName);
    W.putString(Info.KernelSource);
    W.put<uint64_t>(Info.KernelHash);
    W.put<uint32_t>(Info.NumParams);
    std::vector<uint32_t> ScalarSize(Args.NumScalars, 0);
    for (uint32_t I = 0; I < Info.NumParams; ++I) {
      const KernelParam &P = Info.Params[I];
      W.put<uint8_t>(static_cast<uint8_t>(P.Kind));
      W.put<uint32_t>(P.Index);
      W.put<uint32_t>(P.Size);
      if (P.Kind == KernelParamKind::Scalar && P.Index < Args.NumScalars)
        ScalarSize[P.Index] = P.Size;
    }
    W.put<uint32_t>(Args.NumScalars);
    for (uint32_t S = 0; S < Args.NumScalars; ++S) {
      W.put<uint32_t>(ScalarSize[S]);
      std::memcpy(W.reserve(ScalarSize[S]), Args.Scalars[S], ScalarSize[S]);
    }
    W.put<uint32_t>(Args.NumReductions);
    for (uint32_t R = 0; R < Args.NumReductions; ++R) {
      W.put<uint8_t>(static_cast<uint8_t>(Args.Reductions[R].Kind));
      W.put<uint8_t>(static_cast<uint8_t>(Args.Reductions[R].Op));
    }
    W.put<uint32_t>(Info.NumRegions);
    for (uint32_t R = 0; R < Info.NumRegions; ++R) {
      const RegionInfo &RI = Info.Regions[R];
      const Box &B = Boxes[R];
      W.putString(RI.Name ? RI.Name : "");
      W.put<uint8_t>(RI.Access);
      W.put<uint8_t>(RI.Rank);
      W.put<uint8_t>(RI.FullWrite);
      W.put<uint64_t>(B.ElemSize);
      for (int D = 0; D < 3; ++D) {
        W.put<int64_t>(B.Extent[D]);
        W.put<int64_t>(B.Lo[D]);
        W.put<int64_t>(B.Hi[D]);
      }
      bool Empty = boxEmpty(B, RI.Rank);
      bool Send = !Empty && ((RI.Access & AccessRead) ||
                             ((RI.Access & AccessWrite) && !RI.FullWrite));
      W.put<uint8_t>(Send ? 1 : 0);
      if (Send) {
        BoxCopy C = describeBoxCopy(B, RI.Rank);
        packBox(C, B.Base, W.reserve(C.WidthBytes * C.Height * C.Depth));
      }
    }
    W.put<uint64_t>(Lo);
    W.put<uint64_t>(Hi);
    auto Msg = std::make_shared<std::vector<char>>(std::move(W.Bytes));
    World &Wd = World::get();
    return Wd.send(L.Rank, TagCommand, Msg, Err);
  }

  bool run(size_t, const ChunkJob &, std::string &Err) override {
    World &W = World::get();
    if (!W.receive(L.Rank, TagChunkBase + L.Slot, Answer, Err))
      return false;
    In = std::make_unique<Reader>(Answer.data(), Answer.size());
    uint8_t Ok = In->get<uint8_t>();
    std::string Why = In->getString();
    if (!In->ok() || !Ok) {
      Err = "rank " + std::to_string(L.Rank) + ": " +
            (In->ok() ? Why : std::string("a malformed answer"));
      return false;
    }
    return true;
  }

  bool copyOut(size_t, std::string &Err) override {
    // Check the whole answer before the first byte reaches the program's arrays.
    Reader Check = *In;
    std::vector<std::pair<const char *, size_t>> Data(Info.NumRegions, {nullptr, 0});
    for (uint32_t R = 0; R < Info.NumRegions; ++R) {
      if (!(Info.Regions[R].Access & AccessWrite))
        continue;
      size_t N = Check.bytes();
      const char *P = Check.take(N);
      BoxCopy C = describeBoxCopy(Boxes[R], Info.Regions[R].Rank);
      size_t Want = boxEmpty(Boxes[R], Info.Regions[R].Rank) ? 0
                                                             : C.WidthBytes * C.Height * C.Depth;
      if (!Check.ok() || N != Want) {
        Err = "rank " + std::to_string(L.Rank) + ": the answer's write box of " +
              (Info.Regions[R].Name ? Info.Regions[R].Name : "?") + " has the wrong size";
        return false;
      }
      Data[R] = {P, N};
    }
    for (uint32_t R = 0; R < Args.NumReductions; ++R)
      Check.get<PartialCell>();
    if (!Check.ok() || !Check.atEnd()) {
      Err = "rank " + std::to_string(L.Rank) + ": a malformed answer";
      return false;
    }
    for (uint32_t R = 0; R < Info.NumRegions; ++R)
      if (Data[R].second)
        unpackBox(describeBoxCopy(Boxes[R], Info.Regions[R].Rank), Data[R].first,
                  Boxes[R].Base);
    *In = Check;
    return true;
  }

  void combine(size_t, const ChunkJob &Job) override {
    // copyOut checked the answer's layout: the partials are its last bytes.
    size_t At = Answer.size() - Args.NumReductions * sizeof(PartialCell);
    for (uint32_t I = 0; I < Args.NumReductions; ++I) {
      PartialCell Cell;
      std::memcpy(&Cell, Answer.data() + At + I * sizeof(PartialCell), sizeof(Cell));
      rt::combine(Args.Reductions[I].Kind, Args.Reductions[I].Op, Job.Partials[I], &Cell);
    }
  }

  void release(size_t) override {}

private:
  const RemoteLane &L;
  const LoopInfo &Info;
  const LoopArgs &Args;
  uint64_t Lo = 0, Hi = 0;
  std::vector<Box> Boxes;
  std::vector<char> Answer;
  std::unique_ptr<Reader> In;
};

/// Operations per second one lane is taken to compute: the unit of the compiler's work estimate.
constexpr double OpsPerSecond = 1e9;

class MpiBackend final : public Backend {
public:
  const char *name() const override { return "mpi"; }
  bool isHost() const override { return false; }
  bool requested(const DeviceSpec &) const override {
    World &W = World::get();
    return W.Active && W.Rank == 0;
  }
  void discover(DeviceReport &, bool) const override {}

  void addLanes(const DeviceSpec &, const DeviceReport &, LaneSet &Out) const override {
    World &W = World::get();
    if (!W.Active || W.Rank != 0)
      return;
    W.query();
    for (int R = 1; R < W.Size; ++R)
      for (const RemoteLane &RL : W.Ranks[R].Lanes) {
        Lane L;
        L.Owner = this;
        L.Ordinal = R * SlotsPerRank + RL.Slot;
        L.Name = RL.Name;
        L.Weight = RL.Weight;
        Out.Lanes.push_back(L);
      }
  }

  bool canRun(const LoopInfo &Info, const LoopArgs &Args, std::string &Why) const override {
    std::string Where = loopLocation(Info);
    auto Local = [&](const std::string &Reason) {
      Why = "remote ranks cannot run it: " + Reason;
      logOnce("mpi-local:" + Where + ":" + Reason, LogLevel::Info,
              Where + ": stays on rank 0's devices: " + Reason);
      return false;
    };
    if (!Info.KernelName || !Info.KernelSource)
      return Local("the loop has no GPU form (kernel text), which remote ranks run");
    if (Args.NumAppends)
      return Local("the loop appends in order, which only rank 0 does");
    if (Info.NumRegions && !Args.Boxes)
      return Local("the loop gives no boxes of what it reads and writes");
    for (uint32_t I = 0; I < Info.NumParams; ++I)
      if (Info.Params[I].Kind == KernelParamKind::Scalar &&
          (Info.Params[I].Index >= Args.NumScalars || !Args.Scalars))
        return Local("a kernel parameter has no value");
    // Cost: the bytes one iteration moves over the network against the work it saves.
    uint64_t Trip = Args.TripCount;
    if (Trip == 0)
      return true;
    double Bytes = 0;
    if (Info.NumRegions) {
      std::vector<Box> Whole(Info.NumRegions);
      Args.Boxes(Args.BoxEnv, 0, Trip, Whole.data());
      for (uint32_t R = 0; R < Info.NumRegions; ++R) {
        const RegionInfo &RI = Info.Regions[R];
        if (boxEmpty(Whole[R], RI.Rank))
          continue;
        double N = static_cast<double>(boxElements(Whole[R], RI.Rank)) * Whole[R].ElemSize;
        bool In = (RI.Access & AccessRead) || ((RI.Access & AccessWrite) && !RI.FullWrite);
        Bytes += (In ? N : 0) + ((RI.Access & AccessWrite) ? N : 0);
      }
    }
    double PerIter = Bytes / static_cast<double>(Trip);
    double Bandwidth = bandwidth();
    double NetNs = Bandwidth > 0 ? PerIter / Bandwidth * 1e9 : INFINITY;
    double WorkNs = Info.WorkPerIter / OpsPerSecond * 1e9;
    char B[256];
    std::snprintf(B, sizeof(B),
                  "sending a remote iteration's %.1f bytes at %.3g GB/s takes %.3g ns, "
                  "computing it takes %.3g ns (%.0f operations)",
                  PerIter, Bandwidth / 1e9, NetNs, WorkNs, Info.WorkPerIter);
    if (NetNs > WorkNs)
      return Local(B);
    logOnce("mpi-remote:" + Where, LogLevel::Debug, Where + ": remote ranks pay: " + B);
    return true;
  }

  std::unique_ptr<PreparedLoop> prepare(const Lane &L, const LoopInfo &Info, const LoopArgs &Args,
                                        const RunOptions &, std::string &) const override {
    return std::make_unique<MpiLoop>(remote(L), Info, Args);
  }

  bool lost(const Lane &L) const override { return World::get().Ranks[remote(L).Rank].Dead; }

private:
  /// The slowest measured bandwidth of a live rank, or CLUSTRIX_MPI_BANDWIDTH (bytes per second).
  static double bandwidth() {
    if (const char *B = std::getenv("CLUSTRIX_MPI_BANDWIDTH"); B && *B) {
      char *End = nullptr;
      double V = std::strtod(B, &End);
      if (End && *End == '\0' && V > 0)
        return V;
      logOnce("mpi-bandwidth", LogLevel::Warn,
              std::string("CLUSTRIX_MPI_BANDWIDTH: '") + B +
                  "' is not a positive number of bytes per second; using the measured one");
    }
    World &W = World::get();
    double Min = 0;
    for (int R = 1; R < W.Size; ++R)
      if (!W.Ranks[R].Dead && W.Ranks[R].Bandwidth > 0)
        Min = Min == 0 ? W.Ranks[R].Bandwidth : std::min(Min, W.Ranks[R].Bandwidth);
    return Min;
  }

  /// A lane's ordinal is its rank and its slot there; ranks' lane lists never change after the
  /// device exchange.
  static constexpr int SlotsPerRank = 1 << 16;
  static const RemoteLane &remote(const Lane &L) {
    return World::get().Ranks[L.Ordinal / SlotsPerRank].Lanes[L.Ordinal % SlotsPerRank];
  }
};

} // namespace
} // namespace mpi

} // namespace rt

std::vector<DeviceReport> discoverMpiDevices(std::string &Why) {
  rt::mpi::World &W = rt::mpi::World::get();
  std::vector<DeviceReport> Out;
  if (!W.Active) {
    Why = !W.StartError.empty() ? W.StartError
          : rt::mpi::launcherWorldSize() > 1
              ? std::string("MPI is switched off (CLUSTRIX_MPI=off)")
              : std::string("not started by an MPI launcher with several ranks (mpirun -np N, "
                            "srun -n N)");
    return Out;
  }
  W.query();
  char Host[256] = {0};
  int Len = 0;
  W.A->Get_processor_name(Host, &Len);
  DeviceReport Own = discoverLocalDevices();
  Own.Host = "rank0 (" + std::string(Host, static_cast<size_t>(std::max(Len, 0))) + ")";
  Out.push_back(Own);
  for (int R = 1; R < W.Size; ++R) {
    const rt::mpi::RankState &S = W.Ranks[R];
    DeviceReport D;
    if (S.Dead || !parseProbeLines(S.Probe, D))
      D.Notes.push_back("rank " + std::to_string(R) + " did not answer");
    D.Host = "rank" + std::to_string(R) + " (" + S.Host + ")";
    for (const rt::mpi::RemoteLane &L : S.Lanes)
      D.Notes.push_back("serves " + L.Name);
    Out.push_back(D);
  }
  return Out;
}

namespace rt {

const Backend &mpiBackend() {
  static const mpi::MpiBackend B;
  return B;
}

} // namespace rt
} // namespace clustrix
