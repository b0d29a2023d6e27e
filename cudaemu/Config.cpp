//===- cudaemu/Config.cpp - The emulator's settings -----------------------===//
#include "Config.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

namespace clustrix {
namespace cudaemu {

namespace {

std::vector<std::string> splitList(const std::string &Text) {
  std::vector<std::string> Items;
  size_t Pos = 0;
  for (;;) {
    size_t Comma = Text.find(',', Pos);
    std::string Item = Text.substr(Pos, Comma == std::string::npos ? std::string::npos : Comma - Pos);
    size_t B = Item.find_first_not_of(" \t"), E = Item.find_last_not_of(" \t");
    Items.push_back(B == std::string::npos ? std::string() : Item.substr(B, E - B + 1));
    if (Comma == std::string::npos)
      break;
    Pos = Comma + 1;
  }
  return Items;
}

bool parseCount(const std::string &Text, uint64_t Max, uint64_t &Out) {
  if (Text.empty() || Text.size() > 9)
    return false;
  for (char C : Text)
    if (!std::isdigit(static_cast<unsigned char>(C)))
      return false;
  Out = std::strtoull(Text.c_str(), nullptr, 10);
  return Out <= Max;
}

/// A per-device list: one value for every device, or one per device; the last value repeats.
template <class T, class ParseFn>
bool perDevice(const char *Var, const char *Text, unsigned Gpus, T Default, ParseFn Parse,
               std::vector<T> &Out, std::string &Err) {
  Out.assign(Gpus, Default);
  if (!Text || !*Text)
    return true;
  std::vector<std::string> Items = splitList(Text);
  if (Items.size() > Gpus && Gpus > 0) {
    Err = std::string(Var) + ": " + std::to_string(Items.size()) + " values for " +
          std::to_string(Gpus) + " device(s)";
    return false;
  }
  for (size_t I = 0; I < Items.size(); ++I) {
    T V;
    if (!Parse(Items[I], V)) {
      Err = std::string(Var) + ": '" + Items[I] + "' is not a valid value";
      return false;
    }
    for (size_t D = I; D < Out.size(); ++D)
      Out[D] = V;
  }
  return true;
}

} // namespace

bool parseSize(const std::string &Text, uint64_t &Bytes) {
  if (Text.empty())
    return false;
  char *End = nullptr;
  double V = std::strtod(Text.c_str(), &End);
  if (End == Text.c_str() || !(V >= 0) || !std::isfinite(V))
    return false;
  std::string Unit = End;
  for (char &C : Unit)
    C = static_cast<char>(std::toupper(static_cast<unsigned char>(C)));
  if (Unit.size() > 1 && (Unit.substr(1) == "B" || Unit.substr(1) == "IB"))
    Unit = Unit.substr(0, 1);
  double Scale = 1;
  if (Unit.empty() || Unit == "B")
    Scale = 1;
  else if (Unit == "K")
    Scale = 1024.0;
  else if (Unit == "M")
    Scale = 1024.0 * 1024;
  else if (Unit == "G")
    Scale = 1024.0 * 1024 * 1024;
  else if (Unit == "T")
    Scale = 1024.0 * 1024 * 1024 * 1024;
  else
    return false;
  double B = V * Scale;
  if (B > 64.0 * 1024 * 1024 * 1024 * 1024)
    return false;
  Bytes = static_cast<uint64_t>(B);
  return true;
}

const char *faultName(FaultKind K) {
  switch (K) {
  case FaultKind::Lost: return "lost";
  case FaultKind::Launch: return "launch";
  case FaultKind::Oom: return "oom";
  case FaultKind::SkipCopyIn: return "skip-copy-in";
  case FaultKind::Register: return "register";
  case FaultKind::Partial: return "partial";
  }
  return "?";
}

bool parseFaults(const std::string &Text, std::vector<FaultRule> &Out, std::string &Err) {
  Out.clear();
  if (Text.empty())
    return true;
  for (const std::string &Item : splitList(Text)) {
    size_t Colon = Item.find(':');
    if (Colon == std::string::npos) {
      Err = "'" + Item + "' is not DEVICE:KIND[@N][+peer]";
      return false;
    }
    FaultRule R;
    std::string Dev = Item.substr(0, Colon), What = Item.substr(Colon + 1);
    uint64_t N = 0;
    if (Dev == "*")
      R.Device = -1;
    else if (parseCount(Dev, 1023, N))
      R.Device = static_cast<int>(N);
    else {
      Err = "'" + Dev + "' is not a device ordinal or *";
      return false;
    }
    const std::string Peer = "+peer";
    if (What.size() > Peer.size() && What.compare(What.size() - Peer.size(), Peer.size(), Peer) == 0) {
      R.AfterPeerRead = true;
      What.resize(What.size() - Peer.size());
    }
    size_t At = What.find('@');
    std::string Kind = What.substr(0, At);
    if (At != std::string::npos) {
      if (!parseCount(What.substr(At + 1), 1000000000, N) || N == 0) {
        Err = "'" + What.substr(At + 1) + "' is not an occurrence number (1, 2, ...)";
        return false;
      }
      R.Nth = N;
    }
    bool Known = false;
    for (FaultKind K : {FaultKind::Lost, FaultKind::Launch, FaultKind::Oom, FaultKind::SkipCopyIn,
                        FaultKind::Register, FaultKind::Partial})
      if (Kind == faultName(K)) {
        R.Kind = K;
        Known = true;
      }
    if (!Known) {
      Err = "'" + Kind + "' is not a fault (lost, launch, oom, skip-copy-in, register, partial)";
      return false;
    }
    if (R.AfterPeerRead && R.Kind != FaultKind::Lost && R.Kind != FaultKind::Partial) {
      Err = "'" + Item + "': only lost and partial take +peer";
      return false;
    }
    Out.push_back(R);
  }
  return true;
}

bool readConfig(const std::function<const char *(const char *)> &Get, EmuConfig &Out,
                std::string &Err) {
  EmuConfig C;
  if (const char *G = Get("CLUSTRIX_EMU_GPUS"); G && *G) {
    uint64_t N = 0;
    if (!parseCount(G, 64, N)) {
      Err = std::string("CLUSTRIX_EMU_GPUS: '") + G + "' is not a device count (0 to 64)";
      return false;
    }
    C.Gpus = static_cast<unsigned>(N);
  }
  auto Size = [](const std::string &S, uint64_t &V) {
    return parseSize(S, V) && V >= (uint64_t(1) << 20);
  };
  if (!perDevice<uint64_t>("CLUSTRIX_EMU_GPU_MEMORY", Get("CLUSTRIX_EMU_GPU_MEMORY"), C.Gpus,
                           DefaultMemory, Size, C.Memory, Err))
    return false;
  // By default, one multiprocessor per 256 MiB: larger devices weigh more in block plans.
  std::vector<int> DefaultSms(C.Gpus);
  for (unsigned I = 0; I < C.Gpus; ++I)
    DefaultSms[I] = static_cast<int>(std::min<uint64_t>(132, std::max<uint64_t>(1, C.Memory[I] >> 28)));
  auto Count = [](const std::string &S, int &V) {
    uint64_t N = 0;
    if (!parseCount(S, 1024, N) || N == 0)
      return false;
    V = static_cast<int>(N);
    return true;
  };
  if (!perDevice<int>("CLUSTRIX_EMU_GPU_SMS", Get("CLUSTRIX_EMU_GPU_SMS"), C.Gpus, 0, Count,
                      C.Sms, Err))
    return false;
  for (unsigned I = 0; I < C.Gpus; ++I)
    if (C.Sms[I] == 0)
      C.Sms[I] = DefaultSms[I];
  auto Access = [](const std::string &S, PageableAccess &V) {
    if (S == "off")
      V = PageableAccess::Off;
    else if (S == "hmm")
      V = PageableAccess::Hmm;
    else if (S == "ats")
      V = PageableAccess::Ats;
    else
      return false;
    return true;
  };
  if (!perDevice<PageableAccess>("CLUSTRIX_EMU_PAGEABLE_ACCESS", Get("CLUSTRIX_EMU_PAGEABLE_ACCESS"),
                                 C.Gpus, PageableAccess::Off, Access, C.Pageable, Err)) {
    Err += " (off, hmm or ats)";
    return false;
  }
  if (const char *F = Get("CLUSTRIX_EMU_FAULT"); F && *F) {
    std::string E;
    if (!parseFaults(F, C.Faults, E)) {
      Err = "CLUSTRIX_EMU_FAULT: " + E;
      return false;
    }
  }
  if (const char *X = Get("CLUSTRIX_EMU_CXX"); X && *X)
    C.Cxx = X;
  if (const char *L = Get("CLUSTRIX_EMU_COPY_LATENCY"); L && *L) {
    if (!parseCount(L, 1000000, C.CopyLatencyUs)) {
      Err = std::string("CLUSTRIX_EMU_COPY_LATENCY: '") + L +
            "' is not a count of microseconds (0 to 1000000)";
      return false;
    }
  }
  if (const char *H = Get("CLUSTRIX_EMU_HOST_MEMORY"); H && *H) {
    if (std::string(H) == "locked")
      C.AllHostLocked = true;
    else if (std::string(H) != "pageable") {
      Err = std::string("CLUSTRIX_EMU_HOST_MEMORY: '") + H + "' is not pageable or locked";
      return false;
    }
  }
  Out = std::move(C);
  return true;
}

} // namespace cudaemu
} // namespace clustrix
