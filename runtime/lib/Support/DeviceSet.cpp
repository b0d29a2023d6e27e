//===- Support/DeviceSet.cpp - The `devices` setting -------------------------===//
//
// Grammar: items separated by commas; an item is `auto`, `cpu`, `cpu:N`, `cuda` or `cuda:I`,
// and a bare integer after a `cuda:I` item adds another ordinal (so `cuda:0,2` names two GPUs).
//
//===----------------------------------------------------------------------===//
#include "Support/DeviceSet.h"

#include <algorithm>
#include <cctype>

namespace clustrix {
namespace rt {

static bool parseSmallInt(const std::string &S, long &Out) {
  if (S.empty() || S.size() > 6 ||
      !std::all_of(S.begin(), S.end(), [](unsigned char C) { return std::isdigit(C); }))
    return false;
  Out = std::stol(S);
  return true;
}

static std::string trim(const std::string &S) {
  size_t B = S.find_first_not_of(" \t");
  if (B == std::string::npos)
    return "";
  size_t E = S.find_last_not_of(" \t");
  return S.substr(B, E - B + 1);
}

bool parseDeviceSpec(const std::string &Text, DeviceSpec &Out, std::string &Error) {
  DeviceSpec Spec;
  std::string T = trim(Text);
  if (T.empty() || T == "auto") {
    Out = Spec;
    return true;
  }
  Spec.Auto = false;
  bool LastWasCudaList = false;
  size_t Pos = 0;
  while (Pos <= T.size()) {
    size_t Comma = T.find(',', Pos);
    std::string Item = trim(T.substr(Pos, Comma == std::string::npos ? std::string::npos
                                                                       : Comma - Pos));
    Pos = Comma == std::string::npos ? T.size() + 1 : Comma + 1;
    long N = 0;
    if (Item.empty()) {
      Error = "empty item in device set '" + T + "'";
      return false;
    }
    if (parseSmallInt(Item, N)) {
      if (!LastWasCudaList) {
        Error = "device ordinal " + Item + " must follow 'cuda:N' in '" + T + "'";
        return false;
      }
      Spec.CudaOrdinals.push_back(static_cast<int>(N));
      continue;
    }
    std::string Kind = Item, Arg;
    size_t Colon = Item.find(':');
    if (Colon != std::string::npos) {
      Kind = trim(Item.substr(0, Colon));
      Arg = trim(Item.substr(Colon + 1));
    }
    LastWasCudaList = false;
    if (Kind == "cpu") {
      if (Spec.Cpu) {
        Error = "'cpu' appears twice in '" + T + "'";
        return false;
      }
      Spec.Cpu = true;
      if (Colon != std::string::npos) {
        if (!parseSmallInt(Arg, N) || N < 1 || N > 1024) {
          Error = "cpu worker count must be 1 to 1024, not '" + Arg + "'";
          return false;
        }
        Spec.CpuWorkers = static_cast<unsigned>(N);
      }
    } else if (Kind == "cuda" || Kind == "gpu") {
      if (Spec.Cuda) {
        Error = "'cuda' appears twice in '" + T + "'";
        return false;
      }
      Spec.Cuda = true;
      if (Colon != std::string::npos) {
        if (!parseSmallInt(Arg, N)) {
          Error = "cuda device ordinal must be a non-negative integer, not '" + Arg + "'";
          return false;
        }
        Spec.CudaOrdinals.push_back(static_cast<int>(N));
        LastWasCudaList = true;
      }
    } else {
      Error = "unknown device kind '" + Kind + "' (expected cpu, cpu:N, cuda, cuda:I,J or auto)";
      return false;
    }
  }
  std::sort(Spec.CudaOrdinals.begin(), Spec.CudaOrdinals.end());
  if (std::adjacent_find(Spec.CudaOrdinals.begin(), Spec.CudaOrdinals.end()) !=
      Spec.CudaOrdinals.end()) {
    Error = "a cuda device ordinal is repeated in '" + T + "'";
    return false;
  }
  Out = Spec;
  return true;
}

} // namespace rt
} // namespace clustrix
