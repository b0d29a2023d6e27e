//===- Data/Residency.cpp - The device data table -------------------------===//
//
// See Residency.h. Validity is kept in host addresses: a device's copy of a range lives in a
// mirror, a device buffer that keeps the host's layout for a range of addresses, so that one
// region's boxes of every loop and chunk are at fixed places in it and kernels index it with
// global indices as they index the host array.
//
//===----------------------------------------------------------------------===//
#include "Data/Residency.h"

#include "Plan/Regions.h"
#include "Support/ConfigState.h"
#include "Support/Log.h"
#include "Support/Trace.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <thread>

namespace clustrix {
namespace rt {

uint64_t ResidentHeld = 0;

namespace data {

// --- IntervalSet ---------------------------------------------------------------------------------

bool IntervalSet::add(uintptr_t B, uintptr_t E) {
  if (B >= E)
    return false;
  auto It = Map.upper_bound(B);
  if (It != Map.begin()) {
    auto Prev = std::prev(It);
    if (Prev->second >= E)
      return false; // in the set already (a resident loop's every call after the first)
    if (Prev->second >= B) { // touches or overlaps the one before
      B = Prev->first;
      E = std::max(E, Prev->second);
      It = Map.erase(Prev);
    }
  }
  while (It != Map.end() && It->first <= E) {
    E = std::max(E, It->second);
    It = Map.erase(It);
  }
  Map.emplace(B, E);
  return true;
}

bool IntervalSet::remove(uintptr_t B, uintptr_t E) {
  if (B >= E)
    return false;
  bool Changed = false;
  auto It = Map.upper_bound(B);
  if (It != Map.begin())
    --It;
  while (It != Map.end() && It->first < E) {
    uintptr_t IB = It->first, IE = It->second;
    if (IE <= B) {
      ++It;
      continue;
    }
    Changed = true;
    It = Map.erase(It);
    if (IB < B)
      Map.emplace(IB, B);
    if (IE > E) {
      Map.emplace(E, IE);
      break;
    }
  }
  return Changed;
}

bool IntervalSet::covers(uintptr_t B, uintptr_t E) const {
  if (B >= E)
    return true;
  auto It = Map.upper_bound(B);
  if (It == Map.begin())
    return false;
  --It;
  return It->first <= B && E <= It->second;
}

void IntervalSet::missing(uintptr_t B, uintptr_t E,
                          std::vector<std::pair<uintptr_t, uintptr_t>> &Out) const {
  uintptr_t At = B;
  auto It = Map.upper_bound(B);
  if (It != Map.begin())
    --It;
  for (; It != Map.end() && It->first < E && At < E; ++It) {
    if (It->second <= At)
      continue;
    if (It->first > At)
      Out.emplace_back(At, It->first);
    At = std::max(At, It->second);
  }
  if (At < E)
    Out.emplace_back(At, E);
}

// --- Table ---------------------------------------------------------------------------------------

namespace {

/// The rows of a box as address ranges, rows that touch merged.
void rowsOf(const Box &B, unsigned Rank, std::vector<std::pair<uintptr_t, uintptr_t>> &Out) {
  Out.clear();
  if (boxEmpty(B, Rank))
    return;
  BoxCopy C = describeBoxCopy(B, Rank);
  uintptr_t Base = reinterpret_cast<uintptr_t>(B.Base) + C.OffsetBytes;
  for (size_t Z = 0; Z < C.Depth; ++Z)
    for (size_t Y = 0; Y < C.Height; ++Y) {
      uintptr_t R = Base + (Z * C.SlabRows + Y) * C.Pitch;
      if (!Out.empty() && Out.back().second == R)
        Out.back().second = R + C.WidthBytes;
      else
        Out.emplace_back(R, R + C.WidthBytes);
    }
}

/// How many pieces from Pieces[I] on one strided copy can move: pieces of one width, equally
/// spaced, each of which Fits(I, K) accepts; 1 when the piece goes alone.
template <typename FitsFn>
size_t stridedRun(const std::vector<std::pair<uintptr_t, uintptr_t>> &Pieces, size_t I,
                  FitsFn Fits) {
  auto Width = [&](size_t K) { return Pieces[K].second - Pieces[K].first; };
  size_t J = I + 1;
  if (J >= Pieces.size() || !Fits(I, I) || !Fits(I, J) || Width(J) != Width(I))
    return 1;
  uintptr_t Pitch = Pieces[J].first - Pieces[I].first;
  while (J + 1 < Pieces.size() && Width(J + 1) == Width(I) &&
         Pieces[J + 1].first - Pieces[J].first == Pitch && Fits(I, J + 1))
    ++J;
  return J - I + 1;
}

/// A copy's trace event on the track of device On (callers test trace::on()): Dir is H2D, D2H,
/// D2D or peer.
void copySpan(std::optional<trace::Span> &Sp, DeviceMemory &On, const char *Dir, uint64_t Bytes,
              const std::string &From, const std::string &To, const std::string &Arrays) {
  Sp.emplace(trace::deviceTrack(On.name()), std::string("copy ") + Dir, "copy");
  Sp->args().add("dir", Dir).add("bytes", Bytes).add("from", From).add("to", To).add("array",
                                                                                    Arrays);
}

} // namespace

bool DeviceMemory::toDevice2D(uint64_t Dst, const void *Src, size_t Width, size_t Rows,
                              size_t Pitch, std::string &Err, trace::Span *) {
  // One trace event for all the rows: the rows' copies are not marked one by one.
  for (size_t R = 0; R < Rows; ++R)
    if (!toDevice(Dst + R * Pitch, static_cast<const char *>(Src) + R * Pitch, Width, Err,
                  nullptr))
      return false;
  return true;
}

bool DeviceMemory::toHost2D(void *Dst, uint64_t Src, size_t Width, size_t Rows, size_t Pitch,
                            std::string &Err) {
  for (size_t R = 0; R < Rows; ++R)
    if (!toHost(static_cast<char *>(Dst) + R * Pitch, Src + R * Pitch, Width, Err))
      return false;
  return true;
}

Table &Table::get() {
  static Table *T = new Table(); // never destroyed: scopes may close during exit
  return *T;
}

Table::PerDevice &Table::of(DeviceMemory &D) { return Devices[&D]; }

void Table::nameRange(uintptr_t B, uintptr_t E, const char *Name) {
  auto [It, New] = Names.try_emplace(B);
  // The same region called again names the same range: its string is not built again.
  if (!New && It->second.first == E && It->second.second == Name)
    return;
  It->second = {E, Name};
}

uint64_t Table::deviceAddress(const PerDevice &P, uintptr_t Host) {
  auto It = P.Mirrors.upper_bound(Host);
  --It; // callers hold a mirror that covers Host
  return It->second.Dev + (Host - It->first);
}

bool Table::mirrorFor(DeviceMemory &D, PerDevice &P, uintptr_t B, uintptr_t E, Mirror *&Out,
                      uintptr_t &MirrorBegin, bool &Made, std::string &Err) {
  Made = false;
  auto It = P.Mirrors.upper_bound(B);
  if (It != P.Mirrors.begin()) {
    auto Prev = std::prev(It);
    if (Prev->first <= B && E <= Prev->second.HostEnd) {
      Out = &Prev->second;
      MirrorBegin = Prev->first;
      return true;
    }
  }
  // A new mirror over the range and every mirror it overlaps, their contents moved into it.
  Made = true;
  uintptr_t NB = B, NE = E;
  std::vector<std::map<uintptr_t, Mirror>::iterator> Old;
  for (auto I = P.Mirrors.begin(); I != P.Mirrors.end(); ++I)
    if (I->first < E && B < I->second.HostEnd) {
      NB = std::min(NB, I->first);
      NE = std::max(NE, I->second.HostEnd);
      Old.push_back(I);
    }
  Mirror N;
  N.HostEnd = NE;
  if (!D.allocate(NE - NB, N.Dev, Err))
    return false;
  for (auto I : Old) {
    size_t Bytes = I->second.HostEnd - I->first;
    std::optional<trace::Span> Sp;
    if (trace::on())
      copySpan(Sp, D, "D2D", Bytes, D.name(), D.name(), namesIn(I->first, I->second.HostEnd));
    if (!D.within(N.Dev + (I->first - NB), I->second.Dev, Bytes, Err, Sp ? &*Sp : nullptr)) {
      D.free(N.Dev, NE - NB);
      return false;
    }
  }
  for (auto I : Old) {
    D.free(I->second.Dev, I->second.HostEnd - I->first);
    P.Mirrors.erase(I);
  }
  auto Ins = P.Mirrors.emplace(NB, N).first;
  Out = &Ins->second;
  MirrorBegin = NB;
  return true;
}

bool Table::markStale(uintptr_t B, uintptr_t E, DeviceMemory *Owner) {
  // Stale already, with Owner holding the current copy: nothing changes.
  auto It = StaleMap.upper_bound(B);
  if (It != StaleMap.begin() && std::prev(It)->second.End >= E &&
      std::prev(It)->second.Owner == Owner)
    return false;
  clearStale(B, E);
  StaleMap.emplace(B, Stale{E, Owner});
  return true;
}

void Table::clearStale(uintptr_t B, uintptr_t E) {
  auto It = StaleMap.upper_bound(B);
  if (It != StaleMap.begin())
    --It;
  while (It != StaleMap.end() && It->first < E) {
    uintptr_t SB = It->first;
    Stale S = It->second;
    if (S.End <= B) {
      ++It;
      continue;
    }
    It = StaleMap.erase(It);
    if (SB < B)
      StaleMap.emplace(SB, Stale{B, S.Owner});
    if (S.End > E) {
      StaleMap.emplace(E, Stale{S.End, S.Owner});
      break;
    }
  }
}

/// Brings [B, E) (within a mirror of D) up to date on D: the parts another device wrote from
/// that device, the rest from the host.
bool Table::fill(DeviceMemory &D, PerDevice &P, uintptr_t B, uintptr_t E, std::string &Err) {
  uintptr_t At = B;
  auto It = StaleMap.upper_bound(B);
  if (It != StaleMap.begin())
    --It;
  auto FromHost = [&](uintptr_t X, uintptr_t Y) {
    if (X >= Y)
      return true;
    T.ToDevice += Y - X;
    std::optional<trace::Span> Sp;
    if (trace::on())
      copySpan(Sp, D, "H2D", Y - X, "host", D.name(), namesIn(X, Y));
    return D.toDevice(deviceAddress(P, X), reinterpret_cast<const void *>(X), Y - X, Err,
                      Sp ? &*Sp : nullptr);
  };
  std::vector<std::pair<uintptr_t, uintptr_t>> NowOnHost;
  for (; It != StaleMap.end() && It->first < E; ++It) {
    uintptr_t SB = std::max(It->first, At), SE = std::min(It->second.End, E);
    if (SE <= SB)
      continue;
    if (!FromHost(At, SB))
      return false;
    DeviceMemory &O = *It->second.Owner;
    PerDevice &OP = of(O);
    if (&O == &D) {
      // Stale on the host and current here already: nothing to move.
    } else if (D.canPeer(O)) {
      T.Peer += SE - SB;
      std::optional<trace::Span> Sp;
      if (trace::on())
        copySpan(Sp, D, "peer", SE - SB, O.name(), D.name(), namesIn(SB, SE));
      if (!D.fromPeer(O, deviceAddress(P, SB), deviceAddress(OP, SB), SE - SB, Err,
                      Sp ? &*Sp : nullptr))
        return false;
    } else {
      // Through the host, which is then current too: the copy back writes the host's bytes,
      // which no device's queued copy may still be about to read.
      if (!settleHostReads(Err))
        return false;
      T.ToHost += SE - SB;
      std::optional<trace::Span> Sp;
      if (trace::on())
        copySpan(Sp, O, "D2H", SE - SB, O.name(), "host", namesIn(SB, SE));
      if (!O.toHost(reinterpret_cast<void *>(SB), deviceAddress(OP, SB), SE - SB, Err))
        return false;
      NowOnHost.emplace_back(SB, SE);
      if (!FromHost(SB, SE))
        return false;
    }
    At = SE;
  }
  if (!FromHost(At, E))
    return false;
  for (auto [X, Y] : NowOnHost)
    clearStale(X, Y);
  P.Valid.add(B, E);
  return true;
}

/// Brings Rows pieces of Width bytes, Pitch apart from B on, which no device holds a newer copy
/// of, from the host to D in one strided copy.
bool Table::fillStrided(DeviceMemory &D, PerDevice &P, uintptr_t B, size_t Width, size_t Rows,
                        size_t Pitch, std::string &Err) {
  T.ToDevice += Width * Rows;
  {
    std::optional<trace::Span> Sp;
    if (trace::on()) {
      copySpan(Sp, D, "H2D", Width * Rows, "host", D.name(),
               namesIn(B, B + (Rows - 1) * Pitch + Width));
      Sp->args().add("rows", static_cast<uint64_t>(Rows));
    }
    if (!D.toDevice2D(deviceAddress(P, B), reinterpret_cast<const void *>(B), Width, Rows, Pitch,
                      Err, Sp ? &*Sp : nullptr))
      return false;
  }
  for (size_t R = 0; R < Rows; ++R)
    P.Valid.add(B + R * Pitch, B + R * Pitch + Width);
  return true;
}

bool Table::acquire(DeviceMemory &D, const Box &B, unsigned Rank, bool Contents, const char *Name,
                    uint64_t &DevElem0, std::string &Err, bool *Changed) {
  ByteRange H = boxHull(B, Rank);
  std::lock_guard<std::mutex> G(M);
  if (Changed)
    *Changed = false;
  if (H.empty()) {
    DevElem0 = 0;
    return true;
  }
  // Counted once, whatever the call does past its finding everything in place (a failed copy
  // included: what it did before failing stays done).
  bool Counted = false;
  auto Change = [&] {
    if (Counted)
      return;
    Counted = true;
    Generation.fetch_add(1, std::memory_order_acq_rel);
    if (Changed)
      *Changed = true;
  };
  std::optional<trace::Span> Sp;
  if (trace::on()) {
    Sp.emplace(trace::deviceTrack(D.name()), std::string("acquire ") + (Name ? Name : "?"),
               "residency");
    Sp->args()
        .add("array", Name ? Name : "?")
        .add("bytes", static_cast<uint64_t>(H.End - H.Begin))
        .add("contents", Contents ? 1 : 0)
        .add("device", D.name());
  }
  PerDevice &P = of(D);
  __atomic_store_n(&ResidentHeld, uint64_t(1), __ATOMIC_RELAXED);
  Mirror *Mi = nullptr;
  uintptr_t MB = 0;
  bool Made = false;
  bool Ok = mirrorFor(D, P, H.Begin, H.End, Mi, MB, Made, Err);
  if (Made)
    Change(); // a mirror is made (and others may be moved into it)
  if (!Ok)
    return false;
  DevElem0 = Mi->Dev + (reinterpret_cast<uintptr_t>(B.Base) - MB);
  if (Name)
    nameRange(H.Begin, H.End, Name);
  if (!Contents)
    return true;
  if (P.Valid.covers(H.Begin, H.End)) {
    T.Skipped += H.End - H.Begin;
    return true;
  }
  Change(); // something is copied in
  std::vector<std::pair<uintptr_t, uintptr_t>> Rows, Missing;
  rowsOf(B, Rank, Rows);
  for (auto [RB, RE] : Rows)
    P.Valid.missing(RB, RE, Missing);
  // Consecutive missing pieces with nothing stale between them are one copy from the host
  // (the device's copy of the bytes between equals the host's, or is not valid yet).
  auto NoStale = [&](uintptr_t X, uintptr_t Y) {
    auto S = StaleMap.upper_bound(X);
    if (S != StaleMap.begin() && std::prev(S)->second.End > X)
      return false;
    return S == StaleMap.end() || S->first >= Y;
  };
  std::vector<std::pair<uintptr_t, uintptr_t>> Pieces;
  std::vector<bool> HostOnly;
  for (size_t I = 0; I < Missing.size();) {
    uintptr_t SB = Missing[I].first, SE = Missing[I].second;
    size_t J = I + 1;
    bool Clean = NoStale(SB, SE);
    if (Clean)
      while (J < Missing.size() && NoStale(SE, Missing[J].second)) {
        SE = Missing[J].second;
        ++J;
      }
    Pieces.emplace_back(SB, SE);
    HostOnly.push_back(Clean);
    I = J;
  }
  // Pieces that only the host holds, of one width and equally spaced, are one strided copy:
  // the edge columns of a grid whose inner part the device holds already, between stale rows.
  for (size_t I = 0; I < Pieces.size();) {
    size_t N = stridedRun(Pieces, I, [&](size_t, size_t K) { return bool(HostOnly[K]); });
    bool Ok = N > 1 ? fillStrided(D, P, Pieces[I].first, Pieces[I].second - Pieces[I].first, N,
                                  Pieces[I + 1].first - Pieces[I].first, Err)
                    : fill(D, P, Pieces[I].first, Pieces[I].second, Err);
    if (!Ok)
      return false;
    I += N;
  }
  return true;
}

void Table::wrote(DeviceMemory &D, const Box &B, unsigned Rank, const char *Name,
                  bool *Changed) {
  ByteRange H = boxHull(B, Rank);
  if (Changed)
    *Changed = false;
  if (H.empty())
    return;
  std::lock_guard<std::mutex> G(M);
  bool Any = false;
  PerDevice &P = of(D);
  if (Name)
    nameRange(H.Begin, H.End, Name);
  std::vector<std::pair<uintptr_t, uintptr_t>> &Rows = WroteRows; // M held
  Rows.clear();
  if (P.Valid.covers(H.Begin, H.End))
    Rows.emplace_back(H.Begin, H.End); // the bytes between rows are current here too
  else
    rowsOf(B, Rank, Rows);
  // The checking mode (residency_check) poisons the host's copy of what becomes stale: every
  // byte 0xFF, a NaN as float or double, so that host code reading it without a
  // synchronization computes a wrong result. The table never reads a stale host byte again
  // (the device's copy comes back over it), so nothing else changes.
  // Poisoning writes the host's bytes: first every queued copy from them must have read them
  // (memory the program page-locked). Where that wait fails, nothing is poisoned.
  bool Poison = activeConfig().ResidencyCheck;
  if (Poison) {
    std::string Ignored;
    Poison = settleHostReads(Ignored);
  }
  for (auto [RB, RE] : Rows) {
    Any |= P.Valid.add(RB, RE);
    for (auto &[Other, OP] : Devices)
      if (Other != &D)
        Any |= OP.Valid.remove(RB, RE);
    Any |= markStale(RB, RE, &D);
    if (Poison)
      std::memset(reinterpret_cast<void *>(RB), 0xFF, RE - RB);
  }
  if (Any) {
    Generation.fetch_add(1, std::memory_order_acq_rel);
    if (Changed)
      *Changed = true;
  }
}

bool Table::settleHostReads(std::string &Err) {
  for (auto &[D, P] : Devices)
    if (!D->settleHostReads(Err)) {
      Err = "could not wait for " + D->name() + "'s copies from the host's memory: " + Err;
      return false;
    }
  return true;
}

bool Table::syncToHost(uintptr_t B, uintptr_t E, std::string &Err, bool Drop) {
  std::lock_guard<std::mutex> G(M);
  Generation.fetch_add(1, std::memory_order_acq_rel);
  // The host writes [B, E) next (Drop), or copies come back into it: no device may still be
  // about to read the host's bytes there.
  if (!settleHostReads(Err))
    return false;
  auto It = StaleMap.upper_bound(B);
  if (It != StaleMap.begin())
    --It;
  std::vector<std::pair<uintptr_t, uintptr_t>> Back;
  for (; It != StaleMap.end() && It->first < E; ++It) {
    uintptr_t SB = std::max(It->first, B), SE = std::min(It->second.End, E);
    if (SE <= SB)
      continue;
    DeviceMemory &O = *It->second.Owner;
    std::string Why;
    bool Ok = !O.lost();
    if (Ok) {
      T.ToHost += SE - SB;
      std::optional<trace::Span> Sp;
      if (trace::on())
        copySpan(Sp, O, "D2H", SE - SB, O.name(), "host", namesIn(SB, SE));
      Ok = O.toHost(reinterpret_cast<void *>(SB), deviceAddress(of(O), SB), SE - SB, Why);
    }
    if (!Ok) {
      Err = "the only current copy of " + namesIn(SB, SE) + " (" + O.name() +
            (Why.empty() ? "" : ": " + Why) + ") was on a device that failed";
      return false;
    }
    Back.emplace_back(SB, SE);
  }
  for (auto [X, Y] : Back)
    clearStale(X, Y);
  if (Drop)
    for (auto &[D, P] : Devices)
      P.Valid.remove(B, E);
  return true;
}

std::string Table::namesIn(uintptr_t B, uintptr_t E) const { return namesIn({{B, E}}); }

std::string Table::namesIn(const std::vector<std::pair<uintptr_t, uintptr_t>> &Ranges) const {
  std::string Out;
  for (const auto &[NB, V] : Names)
    if (std::any_of(Ranges.begin(), Ranges.end(),
                    [&](const auto &R) { return NB < R.second && R.first < V.first; }) &&
        Out.find("'" + V.second + "'") == std::string::npos)
      Out += (Out.empty() ? "'" : ", '") + V.second + "'";
  return Out.empty() ? "an array" : Out;
}

bool Table::releaseAll(std::string &Err, Traffic &Moved) {
  std::lock_guard<std::mutex> G(M);
  Generation.fetch_add(1, std::memory_order_acq_rel);
  // Copies come back next, and the host may write anything after: the devices' queued copies
  // from the host's memory must have read it.
  if (!settleHostReads(Err))
    return false;
  struct LostCopy {
    DeviceMemory *Device;
    std::vector<std::pair<uintptr_t, uintptr_t>> Ranges;
    std::string Why;
  };
  std::vector<LostCopy> Lost;
  // Each device's stale ranges in address order: the rows of one width, equally spaced, that
  // one mirror holds come back in one strided copy (a grid's rows without their edge columns,
  // a column), whatever other devices hold between them.
  // (Devices in the order of their first stale range, so that messages do not depend on
  // where the allocator put them.)
  std::vector<std::pair<DeviceMemory *, std::vector<std::pair<uintptr_t, uintptr_t>>>> ByOwner;
  for (const auto &[SB, S] : StaleMap) {
    auto It = std::find_if(ByOwner.begin(), ByOwner.end(),
                           [&](const auto &X) { return X.first == S.Owner; });
    if (It == ByOwner.end())
      It = ByOwner.insert(ByOwner.end(), {S.Owner, {}});
    It->second.emplace_back(SB, S.End);
  }
  for (auto &[Owner, Ranges] : ByOwner) {
    DeviceMemory &O = *Owner;
    PerDevice &OP = of(O);
    for (size_t I = 0; I < Ranges.size();) {
      // One mirror must hold them all: a strided copy's source is one device allocation. Rows
      // of two arrays whose mirrors happen to lie as far apart on the device as the arrays on
      // the host (temporaries of one size, allocated one after the other) are two copies.
      size_t N = O.lost() ? 1 : stridedRun(Ranges, I, [&](size_t First, size_t K) {
        auto Holder = std::prev(OP.Mirrors.upper_bound(Ranges[First].first));
        return Ranges[K].second <= Holder->second.HostEnd;
      });
      uintptr_t SB = Ranges[I].first, SE = Ranges[I + N - 1].second;
      size_t Width = Ranges[I].second - SB;
      std::string E;
      bool Ok = !O.lost();
      if (Ok) {
        T.ToHost += Width * N;
        std::optional<trace::Span> Sp;
        if (trace::on()) {
          copySpan(Sp, O, "D2H", Width * N, O.name(), "host", namesIn(SB, SE));
          if (N > 1)
            Sp->args().add("rows", static_cast<uint64_t>(N));
        }
        Ok = N > 1 ? O.toHost2D(reinterpret_cast<void *>(SB), deviceAddress(OP, SB), Width, N,
                                Ranges[I + 1].first - SB, E)
                   : O.toHost(reinterpret_cast<void *>(SB), deviceAddress(OP, SB), Width, E);
      }
      if (!Ok) {
        // One entry per device: the arrays, and the first reason given.
        auto It = std::find_if(Lost.begin(), Lost.end(),
                               [&](const LostCopy &L) { return L.Device == &O; });
        if (It == Lost.end())
          It = Lost.insert(Lost.end(), {&O, {}, {}});
        It->Ranges.emplace_back(SB, SE);
        if (It->Why.empty())
          It->Why = E;
      }
      I += N;
    }
  }
  // Named before the names go.
  std::string What;
  for (const LostCopy &L : Lost)
    What += (What.empty() ? "" : "; ") + namesIn(L.Ranges) + " (" + L.Device->name() +
            (L.Why.empty() ? "" : ": " + L.Why) + ")";
  StaleMap.clear();
  for (auto &[D, P] : Devices)
    for (auto &[HB, Mi] : P.Mirrors)
      D->free(Mi.Dev, Mi.HostEnd - HB);
  Devices.clear();
  Names.clear();
  Moved = T;
  T = Traffic();
  __atomic_store_n(&ResidentHeld, uint64_t(0), __ATOMIC_RELAXED);
  if (Lost.empty())
    return true;
  Err = "the only current copy of " + What + " was on a device that failed";
  return false;
}

// --- Scopes --------------------------------------------------------------------------------------

namespace {
std::mutex OwnerM;
bool Owned = false;
thread_local unsigned Depth = 0;
thread_local bool IOwn = false;
} // namespace

bool residentHere() { return IOwn && activeConfig().Residency; }

void releaseBeforeHost(const LoopInfo *Where) {
  // Only the scope's thread: another thread's host code cannot be ordered with the scope's
  // loops (a scope holds no call and no atomic), so it touches none of the scope's memory.
  if (!IOwn || !__atomic_load_n(&ResidentHeld, __ATOMIC_RELAXED))
    return;
  int SavedErrno = errno; // the driver's calls must not change the caller's errno
  std::string Err;
  Traffic Moved;
  std::optional<trace::Span> Sp;
  if (trace::on())
    Sp.emplace(trace::hostTrack(), "residency release", "residency");
  bool Ok = Table::get().releaseAll(Err, Moved);
  if (Sp) {
    Sp->args()
        .add("where", Where ? loopLocation(*Where) : std::string("scope end"))
        .add("to_device", Moved.ToDevice)
        .add("peer", Moved.Peer)
        .add("to_host", Moved.ToHost)
        .add("skipped", Moved.Skipped)
        .add("ok", Ok ? 1 : 0);
    Sp.reset();
  }
  if (logEnabled(LogLevel::Debug))
    logLine(LogLevel::Debug,
            (Where ? loopLocation(*Where) + ": before the host runs it" : std::string("scope end")) +
                ": residency moved " + std::to_string(Moved.ToDevice) + " bytes to devices, " +
                std::to_string(Moved.Peer) + " between devices, " + std::to_string(Moved.ToHost) +
                " to the host; " + std::to_string(Moved.Skipped) +
                " bytes read were on their device already");
  errno = SavedErrno;
  if (!Ok)
    stopForLostData(Where ? loopLocation(*Where) + ": before the loop runs on the host: "
                          : std::string("at the end of a residency scope: "),
                    Err);
}

void stopForLostData(const std::string &When, const std::string &Err) {
  std::fflush(nullptr);
  std::fprintf(stderr,
               "clustrix: error: %s%s; results would be wrong, so the program stops (with "
               "'residency: off' a lost device costs only time: docs/runtime.md#residency)\n",
               When.c_str(), Err.c_str());
  std::fflush(stderr);
  trace::flush(); // _Exit runs no atexit handler: the trace up to here is written now
  std::_Exit(70);
}

} // namespace data

namespace {
/// hostReads and hostWrites: Drop for a write.
void hostTouches(const void *Element, std::size_t Bytes, const char *Where, bool Drop) {
  if (!data::IOwn || !__atomic_load_n(&ResidentHeld, __ATOMIC_RELAXED) || Bytes == 0)
    return;
  int SavedErrno = errno; // the driver's calls must not change the caller's errno
  uintptr_t B = reinterpret_cast<uintptr_t>(Element);
  std::string Err;
  std::optional<trace::Span> Sp;
  if (trace::on()) {
    Sp.emplace(trace::hostTrack(), Drop ? "residency host write" : "residency host read",
               "residency");
    Sp->args().add("bytes", static_cast<uint64_t>(Bytes)).add("where", Where ? Where : "?");
  }
  bool Ok = data::Table::get().syncToHost(B, B + Bytes, Err, Drop);
  Sp.reset();
  errno = SavedErrno;
  if (!Ok)
    data::stopForLostData(std::string(Where ? Where : "?") + ": before the host " +
                              (Drop ? "writes" : "reads") + " an element in a residency scope: ",
                          Err);
}
} // namespace

void hostReads(const void *Element, std::size_t Bytes, const char *Where) {
  hostTouches(Element, Bytes, Where, false);
}

void hostWrites(const void *Element, std::size_t Bytes, const char *Where) {
  hostTouches(Element, Bytes, Where, true);
}

void enterResidency() {
  if (data::Depth++ > 0)
    return;
  std::lock_guard<std::mutex> G(data::OwnerM);
  if (!data::Owned) {
    data::Owned = true;
    data::IOwn = true;
  }
}

void leaveResidency() {
  if (data::Depth == 0 || --data::Depth > 0)
    return;
  if (!data::IOwn)
    return;
  data::releaseBeforeHost(nullptr);
  std::lock_guard<std::mutex> G(data::OwnerM);
  data::Owned = false;
  data::IOwn = false;
}

} // namespace rt
} // namespace clustrix
