//===- Plan/Adaptive.h - Measuring serial against wide ------------*- C++ -*-===//
//
// The adaptive half of the decision whether a loop goes wide. The static test (Planner.h,
// decide) gives the start; then the calls of the loop are timed, serial and wide in turn, and
// the faster mode is kept until the next measurement. Pure: it is told what each call took and
// says what the next call runs, so the unit tests drive it with made-up times.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_RT_PLAN_ADAPTIVE_H
#define CLUSTRIX_RT_PLAN_ADAPTIVE_H

#include <cstdint>
#include <string>

namespace clustrix {
namespace rt {

/// How a call runs: on the calling thread alone, or split over the loop's devices.
enum class RunMode : uint8_t { Serial, Wide };

/// The trip-count class of a loop call: trip counts within a factor of two share a class (the
/// number of bits of the count), and a loop keeps one AdaptiveChoice per class.
inline unsigned tripClass(uint64_t TripCount) {
  unsigned Bits = 0;
  for (; TripCount; TripCount >>= 1)
    ++Bits;
  return Bits;
}
constexpr unsigned NumTripClasses = 65;

/// The measured choice between serial and wide for one trip-count class of one loop.
///
/// A measurement is a round of blocks of BlockCalls calls, the modes alternating from block to
/// block and the static decision leading; the first call of a block only warms the caches for
/// its mode and is not counted. After RoundBlocks blocks the mode with the lower median time is
/// kept. Two shortcuts end a round early: a loop whose serial calls take under MinWideNs (no
/// launch on any device is that cheap) stays serial without a wide call; and a loop whose wide
/// calls give the calling thread's own share MinTrustedShareNs or more of work and take at most
/// TrustedSpread times that share (the other lanes ran alongside, so the loop scales and a
/// launch is a few percent of the call) stays wide without a serial call. A wide call that is
/// long only because its lanes waited for a busy machine is thus never trusted: it is measured
/// against serial. A round also ends as soon as both modes have a sample and one mode's every
/// sample is at most DecisiveRatio times the other's every sample: a gap that wide is no noise,
/// and every further call of the slower mode would cost what a long loop can least afford (a
/// resampling loop of 37 ms wide, 74 ms serial, measured serially three times in nine calls).
/// Calls of at least LongCallNs count even as the first of their block: the caches the other
/// mode left are a small part of such a call. The choice is measured again after a number of calls that
/// keeps the cost of measuring (the calls run in the slower mode) near 1% of the loop's time,
/// doubling each time a round confirms the choice (a round whose two modes were far apart
/// spaces the next by that gap only once a second round agrees). Wide wins a round only when
/// its median is below WideGain times the serial median: it occupies every lane's core for
/// the gain, and two medians a few percent apart are this machine's noise, which would flip
/// the choice from round to round.
class AdaptiveChoice {
public:
  static constexpr unsigned BlockCalls = 3;
  static constexpr unsigned RoundBlocks = 4;
  static constexpr double MinWideNs = 1000;
  static constexpr double MinTrustedShareNs = 100000;
  static constexpr double TrustedSpread = 1.5;
  static constexpr double WideGain = 0.95;
  static constexpr double DecisiveRatio = 0.6;
  static constexpr double LongCallNs = 2e6;
  static constexpr uint64_t FirstInterval = 256;
  static constexpr uint64_t MaxInterval = uint64_t(1) << 20;

  /// Why the current choice was made.
  enum class Basis : uint8_t {
    None,      ///< Not measured yet: the static decision applies.
    Measured,  ///< Both modes measured.
    Tiny,      ///< Serial calls are shorter than any launch.
    Long,      ///< Wide calls are long enough to trust.
  };

  /// Whether a round is under way (every call is timed), as opposed to a settled choice.
  bool measuring() const { return Measuring; }
  /// Whether a choice was ever made for this class.
  bool settled() const { return Choice != Basis::None; }
  /// The mode the next call runs. Static is the static decision, which leads a first round.
  RunMode next(RunMode Static) const;
  /// Whether the next call's time is recorded whatever it takes (not the first call of a
  /// block; a first call is recorded when it takes LongCallNs or more).
  bool recordsNext() const { return Measuring && Pos % BlockCalls != 0; }

  /// Starts a round (at the first call of the class, or when countdown() ran out). Static is
  /// the static decision, which leads the first round; later rounds start with the choice.
  void startRound(RunMode Static);
  /// Reports one call of the round: the mode it ran and its time in nanoseconds; for a wide
  /// call, ShareNs is the time the calling thread spent on its own chunks.
  void record(RunMode M, double Ns, double ShareNs = 0);

  /// The settled mode (valid once settled()).
  RunMode choice() const { return Chosen; }
  Basis basis() const { return Choice; }
  /// Calls left before the next round; the caller counts settled calls down with it.
  uint64_t countdown() const { return Countdown; }
  void setCountdown(uint64_t N) { Countdown = N; }
  /// The medians of the last round (0 for a mode not measured).
  double serialNs() const { return SerialMedian; }
  double wideNs() const { return WideMedian; }
  /// Rounds completed.
  unsigned rounds() const { return Rounds; }

  /// The `serial:` reason or the `parallel` suffix that the info log gives for a settled
  /// choice, e.g. "measured 4.1 us serial, 6.3 us on 2 devices".
  std::string describe(unsigned Devices) const;

private:
  void finish(RunMode M, Basis B);

  bool Measuring = false;
  RunMode Lead = RunMode::Serial;
  RunMode Chosen = RunMode::Serial;
  Basis Choice = Basis::None;
  unsigned Pos = 0; ///< Calls of the round so far.
  unsigned NumSerial = 0, NumWide = 0;
  /// Samples of each mode: its blocks' calls after the first, and first calls of LongCallNs.
  static constexpr unsigned MaxSamples = RoundBlocks / 2 * BlockCalls;
  double Serial[MaxSamples] = {}, Wide[MaxSamples] = {};
  bool Trusted = true; ///< Every wide sample of the round so far was trusted.
  double SerialMedian = 0, WideMedian = 0;
  uint64_t Countdown = 0;
  uint64_t Interval = FirstInterval;
  unsigned Rounds = 0;
};

} // namespace rt
} // namespace clustrix

#endif
