//===- MPI/Service.cpp - What a rank other than 0 does --------------------===//
//
// The rank never runs main. Its one thread makes every MPI call: it answers rank 0's commands,
// hands each chunk to a thread of its own (one per chunk, so the rank's GPUs work together), sends
// a heartbeat every 100 ms while a chunk is in progress, and sends each answer when its chunk is
// done. A chunk is the loop's kernel text with the chunk's read boxes: on a CUDA lane it runs
// through the CUDA backend, like a local chunk; on the CPU lane it is compiled by the host
// compiler (HostKernel.h). The rank's boxes are copies holding each box's hull in the array's
// layout, so the kernel's global indices work on them unchanged.
//
//===----------------------------------------------------------------------===//
#include "MPI/HostKernel.h"
#include "MPI/MpiBackend.h"
#include "MPI/World.h"
#include "Plan/Reduce.h"
#include "Plan/Regions.h"
#include "Support/ConfigState.h"
#include "Support/DeviceSet.h"
#include "Support/Log.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <list>
#include <thread>
#include <unistd.h>

namespace clustrix {
namespace rt {
namespace mpi {

namespace {

/// One device this rank serves: a lane of an accelerator backend, or the CPU (Owner null),
/// where the kernel text runs on Threads threads.
struct LocalLane {
  const Backend *Owner = nullptr;
  Lane L;
  std::string Name;
  double Weight = 1;
  unsigned Threads = 1;
};

std::vector<LocalLane> localLanes(DeviceReport &Report) {
  DeviceSpec Spec;
  std::string Err;
  if (!parseDeviceSpec(activeConfig().Devices, Spec, Err))
    Spec = DeviceSpec();
  const Backend *Self = &mpiBackend();
  LaneSet Set;
  for (const Backend *B : backends())
    if (B != Self && !B->isHost() && B->requested(Spec))
      B->discover(Report, /*QueryFreeMemory=*/false);
  DeviceInfo Cpu = localCpuDevice();
  Report.Devices.push_back(Cpu);
  for (const Backend *B : backends())
    if (B != Self && !B->isHost())
      B->addLanes(Spec, Report, Set);
  std::vector<LocalLane> Out;
  for (const Lane &L : Set.Lanes) {
    if (L.Owner->lost(L))
      continue;
    LocalLane X;
    X.Owner = L.Owner;
    X.L = L;
    X.Name = L.Name;
    X.Weight = L.Weight;
    Out.push_back(X);
  }
  // The CPU when asked for, or when no accelerator answered (as on rank 0).
  if (Spec.Cpu || Out.empty()) {
    LocalLane X;
    X.Name = "cpu0";
    X.Threads = Spec.Cpu && Spec.CpuWorkers ? Spec.CpuWorkers
                                            : static_cast<unsigned>(std::max(1, Cpu.Threads));
    X.Weight = X.Threads;
    Out.push_back(X);
  }
  return Out;
}

/// A chunk as this rank holds it: the loop's descriptor rebuilt from the request, and copies of
/// the chunk's boxes.
struct RemoteChunk {
  uint32_t Slot = 0;
  uint64_t Lo = 0, Hi = 0; ///< the chunk's iterations
  std::string File, KernelName, KernelSource;
  std::vector<std::string> RegionNames;
  std::vector<RegionInfo> Regions;
  std::vector<KernelParam> Params;
  std::vector<std::vector<char>> ScalarBytes;
  std::vector<const void *> Scalars;
  std::vector<ReductionSlot> Reductions;
  std::vector<PartialCell> Partials;
  std::vector<void *> PartialPtrs;
  std::vector<std::vector<char>> Buffers; ///< each box's hull
  std::vector<Box> Boxes;                 ///< with Base rebased onto Buffers
  LoopInfo Info{};
  LoopArgs Args{};
};

/// Every sub-range of the chunk gets the chunk's whole boxes: a safe hull, since each region was
/// copied in whole (FullWrite is cleared, so a device copies a write box in before it runs).
void chunkBoxes(void *Env, uint64_t, uint64_t, Box *Out) {
  auto *C = static_cast<RemoteChunk *>(Env);
  for (size_t R = 0; R < C->Boxes.size(); ++R)
    Out[R] = C->Boxes[R];
}

void noHost(void *, uint64_t, uint64_t, ChunkContext &) {}

bool parseChunk(Reader &In, RemoteChunk &C, uint64_t &Hash, std::string &Err) {
  C.Slot = In.get<uint32_t>();
  C.File = In.getString();
  unsigned Line = In.get<uint32_t>();
  C.KernelName = In.getString();
  C.KernelSource = In.getString();
  Hash = In.get<uint64_t>();
  uint32_t NP = In.get<uint32_t>();
  for (uint32_t I = 0; I < NP && In.ok(); ++I) {
    KernelParam P;
    P.Kind = static_cast<KernelParamKind>(In.get<uint8_t>());
    P.Index = In.get<uint32_t>();
    P.Size = In.get<uint32_t>();
    C.Params.push_back(P);
  }
  uint32_t NS = In.get<uint32_t>();
  for (uint32_t I = 0; I < NS && In.ok(); ++I) {
    In.get<uint32_t>();
    size_t N = In.bytes();
    const char *P = In.take(N);
    C.ScalarBytes.emplace_back(P, P ? P + N : P);
    C.ScalarBytes.back().resize(std::max<size_t>(N, 8));
  }
  for (auto &S : C.ScalarBytes)
    C.Scalars.push_back(S.data());
  uint32_t NR = In.get<uint32_t>();
  for (uint32_t I = 0; I < NR && In.ok(); ++I) {
    ScalarKind K = static_cast<ScalarKind>(In.get<uint8_t>());
    ReduceOp Op = static_cast<ReduceOp>(In.get<uint8_t>());
    if (!reductionValid(K, Op)) {
      Err = "reduction " + std::to_string(I) + " has an operator its type does not support";
      return false;
    }
    C.Reductions.push_back(ReductionSlot{K, Op, nullptr});
  }
  C.Partials.resize(C.Reductions.size());
  for (size_t I = 0; I < C.Reductions.size(); ++I) {
    setIdentity(C.Reductions[I].Kind, C.Reductions[I].Op, &C.Partials[I]);
    C.PartialPtrs.push_back(&C.Partials[I]);
  }
  uint32_t NG = In.get<uint32_t>();
  for (uint32_t R = 0; R < NG && In.ok(); ++R) {
    C.RegionNames.push_back(In.getString());
    RegionInfo RI{};
    RI.Access = In.get<uint8_t>();
    RI.Rank = In.get<uint8_t>();
    RI.FullWrite = 0;
    In.get<uint8_t>();
    RI.MayAlias = 0;
    if (RI.Rank < 1 || RI.Rank > 3) {
      Err = "region " + std::to_string(R) + " has rank " + std::to_string(RI.Rank);
      return false;
    }
    Box B{};
    B.ElemSize = static_cast<size_t>(In.get<uint64_t>());
    for (int D = 0; D < 3; ++D) {
      B.Extent[D] = In.get<int64_t>();
      B.Lo[D] = In.get<int64_t>();
      B.Hi[D] = In.get<int64_t>();
    }
    uint8_t Has = In.get<uint8_t>();
    C.Buffers.emplace_back();
    std::vector<char> &Buf = C.Buffers.back();
    int64_t First = 0, End = 0;
    bool Empty = boxEmpty(B, RI.Rank);
    if (!Empty)
      boxLinearHull(B, RI.Rank, First, End);
    Buf.assign(static_cast<size_t>(End - First) * B.ElemSize + 8, 0);
    B.Base = Buf.data() - First * static_cast<int64_t>(B.ElemSize);
    if (Has) {
      size_t N = In.bytes();
      const char *P = In.take(N);
      BoxCopy BC = describeBoxCopy(B, RI.Rank);
      if (Empty || !P || N != BC.WidthBytes * BC.Height * BC.Depth) {
        Err = "the data of region " + std::to_string(R) + " has the wrong size";
        return false;
      }
      unpackBox(BC, P, B.Base);
    }
    C.Regions.push_back(RI);
    C.Boxes.push_back(B);
  }
  uint64_t Lo = In.get<uint64_t>(), Hi = In.get<uint64_t>();
  if (!In.ok() || !In.atEnd() || Lo > Hi) {
    Err = "a malformed chunk request";
    return false;
  }
  for (size_t R = 0; R < C.Regions.size(); ++R)
    C.Regions[R].Name = C.RegionNames[R].c_str();
  for (const KernelParam &P : C.Params)
    if ((P.Kind == KernelParamKind::Region && P.Index >= C.Regions.size()) ||
        (P.Kind == KernelParamKind::Scalar && P.Index >= C.Scalars.size()) ||
        (P.Kind == KernelParamKind::Partial && P.Index >= C.Reductions.size())) {
      Err = "a kernel parameter names nothing";
      return false;
    }
  LoopInfo &I = C.Info;
  I.AbiVersion = CLUSTRIX_RT_ABI_VERSION;
  I.File = C.File.c_str();
  I.Line = Line;
  I.Regions = C.Regions.data();
  I.NumRegions = static_cast<uint32_t>(C.Regions.size());
  I.KernelName = C.KernelName.c_str();
  I.KernelSource = C.KernelSource.c_str();
  I.KernelHash = Hash;
  I.Params = C.Params.data();
  I.NumParams = static_cast<uint32_t>(C.Params.size());
  LoopArgs &A = C.Args;
  A.TripCount = Hi;
  A.Host = &noHost;
  A.Boxes = &chunkBoxes;
  A.BoxEnv = &C;
  A.Reductions = C.Reductions.data();
  A.NumReductions = static_cast<uint32_t>(C.Reductions.size());
  A.Scalars = C.Scalars.data();
  A.NumScalars = static_cast<uint32_t>(C.Scalars.size());
  A.BoxAlign = 1;
  C.Lo = Lo;
  C.Hi = Hi;
  return true;
}

/// The chunk on the CPU: the kernel text compiled by the host compiler, one block per thread.
bool runOnCpu(RemoteChunk &C, uint64_t Lo, uint64_t Hi, unsigned Threads, std::string &Err) {
  const HostKernel *K = HostKernel::get(C.KernelName, C.KernelSource, C.Info.KernelHash, Err);
  if (!K)
    return false;
  if (K->numParams() != C.Params.size()) {
    Err = "kernel " + C.KernelName + " takes " + std::to_string(K->numParams()) +
          " parameters, its table lists " + std::to_string(C.Params.size());
    return false;
  }
  uint64_t N = Hi - Lo;
  unsigned Grid = static_cast<unsigned>(std::max<uint64_t>(1, std::min<uint64_t>(Threads, N)));
  std::vector<std::vector<PartialCell>> Cells(C.Reductions.size());
  std::vector<uint64_t> Words(C.Params.size());
  std::vector<void *> Ptrs(C.Params.size());
  for (size_t I = 0; I < C.Params.size(); ++I) {
    const KernelParam &P = C.Params[I];
    switch (P.Kind) {
    case KernelParamKind::Lo: Words[I] = Lo; break;
    case KernelParamKind::Hi: Words[I] = Hi; break;
    case KernelParamKind::Region:
      Words[I] = reinterpret_cast<uint64_t>(C.Boxes[P.Index].Base);
      break;
    case KernelParamKind::Partial: {
      // Cells of the reduction's type, packed: the kernel writes part[blockIdx.x].
      const ReductionSlot &S = C.Reductions[P.Index];
      size_t ES = scalarSize(S.Kind);
      std::vector<PartialCell> &Cs = Cells[P.Index];
      Cs.assign((Grid * ES + sizeof(PartialCell) - 1) / sizeof(PartialCell), PartialCell{});
      for (unsigned B = 0; B < Grid; ++B)
        setIdentity(S.Kind, S.Op, reinterpret_cast<char *>(Cs.data()) + B * ES);
      Words[I] = reinterpret_cast<uint64_t>(Cs.data());
      break;
    }
    case KernelParamKind::Scalar: break;
    }
    Ptrs[I] = P.Kind == KernelParamKind::Scalar ? const_cast<void *>(C.Scalars[P.Index])
                                                : static_cast<void *>(&Words[I]);
  }
  K->launch(Grid, Ptrs.data());
  for (size_t R = 0; R < C.Reductions.size(); ++R) {
    if (Cells[R].empty())
      continue; // the kernel takes no cells for it: its partial stays the identity
    size_t ES = scalarSize(C.Reductions[R].Kind);
    const char *Base = reinterpret_cast<const char *>(Cells[R].data());
    for (unsigned B = 0; B < Grid; ++B)
      combine(C.Reductions[R].Kind, C.Reductions[R].Op, &C.Partials[R], Base + B * ES);
  }
  return true;
}

/// The chunk on an accelerator lane, through its backend's pipeline, one piece after another.
bool runOnDevice(RemoteChunk &C, const LocalLane &L, uint64_t Lo, uint64_t Hi, std::string &Err) {
  std::unique_ptr<PreparedLoop> D = L.Owner->prepare(L.L, C.Info, C.Args, RunOptions(), Err);
  if (!D)
    return false;
  std::vector<Chunk> Pieces;
  bool Overlap = false;
  if (!D->split(Lo, Hi, Pieces, Overlap, Err))
    return false;
  ChunkJob Job;
  Job.Partials = C.PartialPtrs.empty() ? nullptr : C.PartialPtrs.data();
  Job.Device = L.L.Ordinal;
  for (size_t P = 0; P < Pieces.size(); ++P) {
    Job.Lo = Pieces[P].Lo;
    Job.Hi = Pieces[P].Hi;
    if (!D->copyIn(P, Err) || !D->run(P, Job, Err) || !D->copyOut(P, Err))
      return false;
    D->combine(P, Job);
    D->release(P);
  }
  return true;
}

/// A chunk in progress on its own thread.
struct Job {
  uint32_t Slot = 0;
  std::vector<char> Request;
  std::vector<char> Answer;
  std::atomic<bool> Done{false};
  std::thread T;
};

void work(Job &J, const std::vector<LocalLane> &Lanes) {
  Reader In(J.Request.data() + 4, J.Request.size() - 4);
  RemoteChunk C;
  uint64_t Hash = 0;
  std::string Err;
  bool Ok = parseChunk(In, C, Hash, Err);
  const uint64_t Lo = C.Lo, Hi = C.Hi;
  if (Ok && C.Slot >= Lanes.size()) {
    Err = "no device " + std::to_string(C.Slot) + " on this rank";
    Ok = false;
  }
  if (Ok) {
    const LocalLane &L = Lanes[C.Slot];
    try {
      Ok = L.Owner ? runOnDevice(C, L, Lo, Hi, Err) : runOnCpu(C, Lo, Hi, L.Threads, Err);
    } catch (const std::exception &E) {
      Ok = false;
      Err = std::string("the chunk threw: ") + E.what();
    }
  }
  Writer W;
  W.put<uint8_t>(Ok ? 1 : 0);
  W.putString(Ok ? std::string() : Err);
  if (Ok) {
    for (size_t R = 0; R < C.Regions.size(); ++R) {
      if (!(C.Regions[R].Access & AccessWrite))
        continue;
      const Box &B = C.Boxes[R];
      if (boxEmpty(B, C.Regions[R].Rank)) {
        W.put<uint64_t>(0);
        continue;
      }
      BoxCopy BC = describeBoxCopy(B, C.Regions[R].Rank);
      packBox(BC, B.Base, W.reserve(BC.WidthBytes * BC.Height * BC.Depth));
    }
    for (const PartialCell &P : C.Partials)
      W.put<PartialCell>(P);
  }
  J.Answer = std::move(W.Bytes);
  J.Done = true;
}

/// CLUSTRIX_MPI_FAULT=RANK:N: this rank is killed when its Nth chunk arrives (tests only).
long faultAt(int Rank) {
  const char *F = std::getenv("CLUSTRIX_MPI_FAULT");
  if (!F || !*F)
    return 0;
  int R = -1;
  long N = 0;
  char Tail = 0;
  if (std::sscanf(F, "%d:%ld%c", &R, &N, &Tail) != 2 || N < 1) {
    std::fprintf(stderr,
                 "clustrix: warning: CLUSTRIX_MPI_FAULT: '%s' is not RANK:N; no fault injected\n",
                 F);
    return 0;
  }
  return R == Rank ? N : 0;
}

} // namespace

[[noreturn]] void serve(World &W) {
  Api &A = *W.A;
  DeviceReport Report;
  std::vector<LocalLane> Lanes = localLanes(Report);
  const long FaultChunk = faultAt(W.Rank);
  long Chunks = 0;
  std::list<Job> Jobs;
  std::list<std::pair<Request, std::shared_ptr<std::vector<char>>>> Sends;
  auto Send = [&](int Tag, std::vector<char> Bytes) {
    auto B = std::make_shared<std::vector<char>>(std::move(Bytes));
    Request Q = nullptr;
    if (A.Isend(B->data(), static_cast<int>(B->size()), A.Byte, 0, Tag, W.C, &Q) == Success)
      Sends.emplace_back(Q, B);
  };
  int64_t LastBeat = 0;
  bool Stop = false, Finalize = true;
  while (!Stop || !Jobs.empty()) {
    bool Busy = false;
    int Flag = 0;
    Status St;
    if (!Stop && A.Iprobe(0, TagCommand, W.C, &Flag, &St) == Success && Flag) {
      Busy = true;
      int N = 0;
      A.Get_count(&St, A.Byte, &N);
      std::vector<char> Msg(static_cast<size_t>(std::max(N, 0)));
      if (A.Recv(Msg.data(), N, A.Byte, 0, TagCommand, W.C, &St) != Success || N < 4)
        continue;
      uint32_t Cmd;
      std::memcpy(&Cmd, Msg.data(), 4);
      if (Cmd == CmdDevices) {
        char Host[256] = {0};
        int Len = 0;
        A.Get_processor_name(Host, &Len);
        Writer Wr;
        Wr.putString(std::string(Host, static_cast<size_t>(std::max(Len, 0))));
        Wr.putString(formatProbeLines(Report));
        Wr.put<uint32_t>(static_cast<uint32_t>(Lanes.size()));
        for (const LocalLane &L : Lanes) {
          Wr.putString(L.Name);
          Wr.put<double>(L.Weight);
        }
        Send(TagDevices, std::move(Wr.Bytes));
      } else if (Cmd == CmdPing) {
        Send(TagPong, std::vector<char>(8, 0));
      } else if (Cmd == CmdChunk && Msg.size() >= 8) {
        if (++Chunks == FaultChunk) {
          std::fprintf(stderr, "clustrix: rank %d killed at its chunk %ld (CLUSTRIX_MPI_FAULT)\n",
                       W.Rank, Chunks);
          std::fflush(stderr);
          std::raise(SIGKILL);
        }
        Jobs.emplace_back();
        Job &J = Jobs.back();
        std::memcpy(&J.Slot, Msg.data() + 4, 4);
        J.Request = std::move(Msg);
        J.T = std::thread(work, std::ref(J), std::cref(Lanes));
      } else if (Cmd == CmdStop) {
        Send(TagBye, std::vector<char>(8, 0));
      } else if (Cmd == CmdFinish && Msg.size() >= 5) {
        Stop = true;
        Finalize = Msg[4] != 0;
      }
    }
    for (auto It = Jobs.begin(); It != Jobs.end();) {
      if (!It->Done) {
        ++It;
        continue;
      }
      It->T.join();
      Send(TagChunkBase + static_cast<int>(It->Slot), std::move(It->Answer));
      It = Jobs.erase(It);
      Busy = true;
    }
    if (!Jobs.empty() && nowNs() - LastBeat > 100000000) {
      Send(TagBeat, std::vector<char>(8, 0));
      LastBeat = nowNs();
    }
    for (auto It = Sends.begin(); It != Sends.end();) {
      int Done = 0;
      if (A.Test(&It->first, &Done, &St) != Success || Done)
        It = Sends.erase(It);
      else
        ++It;
    }
    if (!Busy)
      std::this_thread::sleep_for(std::chrono::microseconds(Jobs.empty() ? 1000 : 200));
  }
  // Rank 0 took every answer it waited for. MPI_Finalize waits for every rank: when one is lost,
  // rank 0 says so, and no rank calls it.
  if (Finalize)
    A.Finalize();
  std::exit(0);
}

} // namespace mpi
} // namespace rt
} // namespace clustrix
