//===- Exec/Fault.cpp - Fault injection (CLUSTRIX_FAULT) ------------------===//
#include "Exec/Fault.h"

#include "Support/Log.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace clustrix {
namespace rt {

static bool allDigits(const std::string &S) {
  return !S.empty() && S.size() < 10 &&
         std::all_of(S.begin(), S.end(), [](unsigned char C) { return std::isdigit(C); });
}

bool FaultPlan::parse(const std::string &Text, std::string &Error) {
  Rules.clear();
  std::vector<FaultRule> Parsed;
  size_t Pos = 0;
  while (Pos < Text.size()) {
    size_t Comma = Text.find(',', Pos);
    std::string Item = Text.substr(Pos, Comma == std::string::npos ? std::string::npos : Comma - Pos);
    Pos = Comma == std::string::npos ? Text.size() : Comma + 1;
    size_t Colon = Item.find(':');
    if (Colon == std::string::npos) {
      Error = "'" + Item + "' is not DEVICE:CHUNK";
      return false;
    }
    std::string Dev = Item.substr(0, Colon), Ch = Item.substr(Colon + 1);
    FaultRule R;
    if (allDigits(Dev))
      R.Lane = std::stoi(Dev);
    else if (Dev != "*") {
      // A lane name: a backend's name and a number (cpu1, cuda0).
      size_t Letters = 0;
      while (Letters < Dev.size() && std::islower(static_cast<unsigned char>(Dev[Letters])))
        ++Letters;
      bool NameOk = Letters > 0 && allDigits(Dev.substr(Letters));
      if (!NameOk) {
        Error = "'" + Dev + "' is not a device position, a device name (cpu1, cuda0) or *";
        return false;
      }
      R.Name = Dev;
    }
    if (allDigits(Ch))
      R.Chunk = std::stoll(Ch);
    else if (Ch != "*") {
      Error = "'" + Ch + "' is not a chunk index or *";
      return false;
    }
    Parsed.push_back(R);
  }
  Rules = std::move(Parsed);
  return true;
}

bool FaultPlan::shouldFail(unsigned Lane, const std::string &Name, size_t ChunkIndex) const {
  for (const FaultRule &R : Rules) {
    if (R.Lane >= 0 && static_cast<unsigned>(R.Lane) != Lane)
      continue;
    if (!R.Name.empty() && R.Name != Name)
      continue;
    if (R.Chunk >= 0 && static_cast<size_t>(R.Chunk) != ChunkIndex)
      continue;
    return true;
  }
  return false;
}

const FaultPlan &environmentFaults() {
  static const FaultPlan *Plan = [] {
    auto *P = new FaultPlan();
    if (const char *E = std::getenv("CLUSTRIX_FAULT"); E && *E) {
      std::string Err;
      if (!P->parse(E, Err))
        logLine(LogLevel::Error, "CLUSTRIX_FAULT: " + Err + " (no fault is injected)");
    }
    return P;
  }();
  return *Plan;
}

} // namespace rt
} // namespace clustrix
