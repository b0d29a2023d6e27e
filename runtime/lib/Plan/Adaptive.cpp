//===- Plan/Adaptive.cpp - Measuring serial against wide ------------------===//
#include "Plan/Adaptive.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace clustrix {
namespace rt {

namespace {

RunMode other(RunMode M) { return M == RunMode::Serial ? RunMode::Wide : RunMode::Serial; }

/// The median of N samples; 0 when there are none.
double median(double *S, unsigned N) {
  if (N == 0)
    return 0;
  std::sort(S, S + N);
  return N % 2 ? S[N / 2] : 0.5 * (S[N / 2 - 1] + S[N / 2]);
}

std::string formatNs(double Ns) {
  char Buf[32];
  if (Ns < 10e3)
    std::snprintf(Buf, sizeof(Buf), "%.2f us", Ns / 1e3);
  else if (Ns < 1e6)
    std::snprintf(Buf, sizeof(Buf), "%.1f us", Ns / 1e3);
  else
    std::snprintf(Buf, sizeof(Buf), "%.3f ms", Ns / 1e6);
  return Buf;
}

} // namespace

RunMode AdaptiveChoice::next(RunMode Static) const {
  if (!Measuring)
    return settled() ? Chosen : Static;
  return (Pos / BlockCalls) % 2 == 0 ? Lead : other(Lead);
}

void AdaptiveChoice::startRound(RunMode Static) {
  Measuring = true;
  Lead = settled() ? Chosen : Static;
  Pos = 0;
  NumSerial = NumWide = 0;
  Trusted = true;
}

void AdaptiveChoice::record(RunMode M, double Ns, double ShareNs) {
  if (!Measuring)
    return;
  // A call that could not run in the planned mode (the pool was busy, a check failed) is not
  // a sample of either.
  RunMode Planned = (Pos / BlockCalls) % 2 == 0 ? Lead : other(Lead);
  if (M == Planned && (recordsNext() || Ns >= LongCallNs)) {
    if (M == RunMode::Serial && NumSerial < MaxSamples)
      Serial[NumSerial++] = Ns;
    else if (M == RunMode::Wide && NumWide < MaxSamples) {
      Wide[NumWide++] = Ns;
      Trusted &= ShareNs >= MinTrustedShareNs && Ns <= TrustedSpread * ShareNs;
    }
  }
  ++Pos;
  if (Pos == BlockCalls) {
    // The first block, of the leading mode: the shortcuts.
    if (Lead == RunMode::Serial && NumSerial > 0 &&
        std::all_of(Serial, Serial + NumSerial, [](double T) { return T < MinWideNs; })) {
      SerialMedian = median(Serial, NumSerial);
      WideMedian = 0;
      finish(RunMode::Serial, Basis::Tiny);
      return;
    }
    if (Lead == RunMode::Wide && NumWide > 0 && Trusted) {
      WideMedian = median(Wide, NumWide);
      SerialMedian = 0;
      finish(RunMode::Wide, Basis::Long);
      return;
    }
  }
  if (NumSerial > 0 && NumWide > 0) {
    // A decisive gap: the slower mode's fastest sample is far above the faster's slowest.
    double MinS = *std::min_element(Serial, Serial + NumSerial);
    double MaxS = *std::max_element(Serial, Serial + NumSerial);
    double MinW = *std::min_element(Wide, Wide + NumWide);
    double MaxW = *std::max_element(Wide, Wide + NumWide);
    bool WideFar = MaxW <= DecisiveRatio * MinS, SerialFar = MaxS <= DecisiveRatio * MinW;
    if (WideFar || SerialFar) {
      SerialMedian = median(Serial, NumSerial);
      WideMedian = median(Wide, NumWide);
      finish(WideFar ? RunMode::Wide : RunMode::Serial, Basis::Measured);
      return;
    }
  }
  if (Pos < BlockCalls * RoundBlocks)
    return;
  SerialMedian = median(Serial, NumSerial);
  WideMedian = median(Wide, NumWide);
  RunMode Faster;
  if (NumSerial == 0 || NumWide == 0)
    Faster = NumWide == 0 ? RunMode::Serial : RunMode::Wide;
  else
    Faster = WideMedian < WideGain * SerialMedian ? RunMode::Wide : RunMode::Serial;
  finish(Faster, Basis::Measured);
}

void AdaptiveChoice::finish(RunMode M, Basis B) {
  Measuring = false;
  ++Rounds;
  bool Confirmed = settled() && M == Chosen;
  Interval = Confirmed ? std::min(Interval * 2, MaxInterval) : FirstInterval;
  Chosen = M;
  Choice = B;
  uint64_t N = Interval;
  if (Confirmed && B == Basis::Measured && SerialMedian > 0 && WideMedian > 0) {
    // The next round runs about half its calls in the slower mode: keep that near 1% of the
    // time until then. Only once a second round agrees: one round can fall in a few
    // milliseconds when the machine was not itself (a worker that shared the caller's CPU
    // until the scheduler parted them made every wide call of a round slower than serial),
    // and its verdict, spaced by the gap it saw, would hold for thousands of calls.
    double Best = std::min(SerialMedian, WideMedian);
    double Loss = std::fabs(SerialMedian - WideMedian) / Best;
    double Calls = 100.0 * RoundBlocks / 2 * BlockCalls * Loss;
    if (Calls > static_cast<double>(N))
      N = Calls >= static_cast<double>(MaxInterval) ? MaxInterval : static_cast<uint64_t>(Calls);
  }
  Countdown = N;
}

std::string AdaptiveChoice::describe(unsigned Devices) const {
  std::string On = "on " + std::to_string(Devices) + " devices";
  switch (Choice) {
  case Basis::None:
    return "";
  case Basis::Tiny:
    return "measured " + formatNs(SerialMedian) + " serial, under the " + formatNs(MinWideNs) +
           " that any launch costs";
  case Basis::Long:
    return "measured " + formatNs(WideMedian) + " " + On + ", long enough that a launch costs "
           "little";
  case Basis::Measured:
    break;
  }
  std::string S = formatNs(SerialMedian) + " serial", W = formatNs(WideMedian) + " " + On;
  if (Chosen == RunMode::Serial && WideMedian < SerialMedian)
    return "measured " + S + ", " + W + ", less than " +
           std::to_string(static_cast<int>(std::lround(100 * (1 - WideGain)))) +
           " % faster";
  return "measured " + (Chosen == RunMode::Serial ? S + ", " + W : W + ", " + S);
}

} // namespace rt
} // namespace clustrix
