//===- Support/Trace.h - A timeline of what the runtime did ------*- C++ -*-===//
//
// CLUSTRIX_TRACE=trace.json (the `trace` setting) records every loop call, every chunk on its
// device, every copy, launch and synchronization and the residency table's traffic as Chrome
// trace events ("ph":"X", microseconds), which Perfetto and chrome://tracing open. Each device
// is one track (one tid of one pid, named by "M" events); each thread that calls loops has a
// host track. Events are buffered and written once, at exit (or before the runtime's own fatal
// exits, flush()). Where the NVTX v3 header was found at configure time and Nsight's injection
// library is there at run time (NVTX_INJECTION64_PATH), the same ranges are pushed and popped
// for Nsight Systems.
//
// Off, every hook costs one load and one predictable branch (on()); nothing is allocated or
// locked. On, recording takes a lock per event: chunks run on worker threads.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_RT_SUPPORT_TRACE_H
#define CLUSTRIX_RT_SUPPORT_TRACE_H

#include <atomic>
#include <cstdint>
#include <string>

namespace clustrix {
namespace rt {
namespace trace {

/// Nonzero while some sink (the JSON file, NVTX) is active. Read through on().
extern std::atomic<unsigned> Sinks;

/// Whether the hooks record: the only test a hook makes when tracing is off.
inline bool on() { return __builtin_expect(Sinks.load(std::memory_order_relaxed) != 0, 0); }

/// Starts recording to Path (from the settings), once per process: the first non-empty path
/// wins. An unwritable path is an error naming it; nothing is recorded to a file then. Also
/// turns the NVTX sink on when Nsight's injection library is announced. Called whenever a
/// settings snapshot is published.
void configure(const std::string &Path);

/// Writes the file now (once; later events are dropped): at exit, and before the runtime ends
/// the program itself (the residency lost-device exit).
void flush();

/// Runs Hook once, just before flush() writes the file (each hook registered once): a backend
/// records there the events it can time only late, such as copies still queued on a device.
void beforeFlush(void (*Hook)());

/// Nanoseconds on the trace's clock (steady_clock).
uint64_t nowNs();

/// The track (Chrome tid) of a device, by its lane name ("cuda0", "cpu1"), named on first use.
int deviceTrack(const std::string &Name);
/// The calling thread's host track ("host", "host 2", ...).
int hostTrack();

/// The loop call the calling thread works for (0: none), added to every event it records as
/// args.call, so that a reader nests chunks and copies in their call across tracks.
uint64_t currentCall();
/// A new loop call's number (from 1).
uint64_t newCall();

/// Sets currentCall() for the thread while it lives: a loop call on its thread, a lane's work
/// on a worker.
class CallScope {
public:
  explicit CallScope(uint64_t Call);
  ~CallScope();
  CallScope(const CallScope &) = delete;
  CallScope &operator=(const CallScope &) = delete;

private:
  uint64_t Saved;
};

/// The "args" object of an event, built as JSON text.
class Args {
public:
  Args &add(const char *Key, uint64_t V);
  Args &add(const char *Key, int64_t V);
  Args &add(const char *Key, int V) { return add(Key, static_cast<int64_t>(V)); }
  Args &add(const char *Key, unsigned V) { return add(Key, static_cast<uint64_t>(V)); }
  Args &add(const char *Key, const std::string &V);
  Args &add(const char *Key, const char *V) { return add(Key, std::string(V ? V : "")); }
  const std::string &text() const { return Text; }

private:
  std::string Text; // "\"k\":v,..." without the braces
};

/// Records a complete event on Track from StartNs to EndNs (nowNs() values).
void complete(int Track, const std::string &Name, const char *Category, uint64_t StartNs,
              uint64_t EndNs, const Args &A);

/// A complete event from construction to destruction, also an NVTX range; inert when tracing
/// was off at construction. Build one only under on(): its name is a string.
class Span {
public:
  Span(int Track, std::string Name, const char *Category);
  ~Span();
  Span(const Span &) = delete;
  Span &operator=(const Span &) = delete;
  Args &args() { return A; }
  /// Renames the event before it is recorded (what a loop call turned out to be).
  void rename(std::string N) { Name = std::move(N); }
  const std::string &name() const { return Name; }

private:
  int Track;
  std::string Name;
  const char *Category;
  uint64_t Start;
  Args A;
  bool Nvtx;
};

} // namespace trace
} // namespace rt
} // namespace clustrix

#endif
