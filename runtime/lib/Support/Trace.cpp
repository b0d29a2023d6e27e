//===- Support/Trace.cpp - A timeline of what the runtime did -------------===//
#include "Support/Trace.h"

#include "Support/Log.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>
#include <unistd.h>
#include <vector>

#if CLUSTRIX_HAVE_NVTX
#include <nvtx3/nvToolsExt.h>
#endif

namespace clustrix {
namespace rt {
namespace trace {

namespace {

constexpr unsigned JsonSink = 1;
#if CLUSTRIX_HAVE_NVTX
constexpr unsigned NvtxSink = 2;
#endif

struct Event {
  int Track;
  std::string Name;
  const char *Category;
  uint64_t Start, End;
  std::string Args;
};

/// Everything recorded, and the file it goes to. Never destroyed: atexit handlers of other
/// libraries, and threads, may still record while the program ends.
struct State {
  std::mutex M;
  bool Started = false;  // configure() chose a path (or failed to)
  bool Written = false;  // flush() ran: later events are dropped
  std::string Path;
  FILE *File = nullptr;
  uint64_t Epoch = 0;    // nowNs() at start: ts 0
  std::vector<Event> Events;
  std::map<std::string, int> Devices; // lane name -> tid
  std::vector<std::pair<int, std::string>> Names; // tid -> track name, in creation order
  int HostThreads = 0;
  std::vector<void (*)()> Hooks; // beforeFlush, in registration order
  bool HooksRan = false;         // a flush() took them to run
  bool HooksDone = false;        // and they have returned (HooksDoneCv)
  std::thread::id HooksThread;   // the thread running them
  std::condition_variable HooksDoneCv;
};

State &state() {
  static State *S = new State();
  return *S;
}

std::atomic<uint64_t> Calls{0};
thread_local uint64_t Current = 0;
thread_local int HostTid = 0;

/// Host tracks are tids 1..999, devices from 1000 on, so that hosts sort first.
constexpr int FirstDeviceTid = 1000;

void escape(std::string &Out, const std::string &S) {
  for (char C : S) {
    switch (C) {
    case '"': Out += "\\\""; break;
    case '\\': Out += "\\\\"; break;
    case '\n': Out += "\\n"; break;
    case '\t': Out += "\\t"; break;
    default:
      if (static_cast<unsigned char>(C) < 0x20) {
        char Buf[8];
        std::snprintf(Buf, sizeof(Buf), "\\u%04x", static_cast<unsigned>(C));
        Out += Buf;
      } else {
        Out += C;
      }
    }
  }
}

/// Microseconds since the epoch with nanosecond digits, as Chrome's ts and dur take them.
void micros(std::string &Out, uint64_t Ns) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%llu.%03llu", static_cast<unsigned long long>(Ns / 1000),
                static_cast<unsigned long long>(Ns % 1000));
  Out += Buf;
}

/// Writes the file (S.M held): flush() after its hooks.
void flushLocked(State &S) {
  if (!S.File || S.Written)
    return;
  S.Written = true;
  Sinks.fetch_and(~JsonSink, std::memory_order_relaxed);
  int SavedErrno = errno;
  std::string Out = "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
  const std::string Pid = std::to_string(static_cast<long>(::getpid()));
  Out += "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + Pid +
         ",\"tid\":0,\"args\":{\"name\":\"clustrix\"}}";
  for (const auto &[Tid, Name] : S.Names) {
    std::string T = std::to_string(Tid);
    Out += ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + Pid + ",\"tid\":" + T +
           ",\"args\":{\"name\":\"";
    escape(Out, Name);
    Out += "\"}},\n{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":" + Pid +
           ",\"tid\":" + T + ",\"args\":{\"sort_index\":" + T + "}}";
  }
  for (const Event &E : S.Events) {
    Out += ",\n{\"ph\":\"X\",\"pid\":" + Pid + ",\"tid\":" + std::to_string(E.Track) +
           ",\"cat\":\"" + E.Category + "\",\"name\":\"";
    escape(Out, E.Name);
    Out += "\",\"ts\":";
    micros(Out, E.Start - S.Epoch);
    Out += ",\"dur\":";
    micros(Out, E.End - E.Start);
    Out += ",\"args\":{" + E.Args + "}}";
  }
  Out += "\n]}\n";
  std::rewind(S.File);
  bool Ok = ::ftruncate(::fileno(S.File), 0) == 0 &&
            std::fwrite(Out.data(), 1, Out.size(), S.File) == Out.size();
  Ok = std::fclose(S.File) == 0 && Ok;
  S.File = nullptr;
  std::vector<Event>().swap(S.Events);
  if (!Ok)
    logLine(LogLevel::Error, "trace: cannot write '" + S.Path + "' (" + std::strerror(errno) +
                                 "); the trace is incomplete");
  errno = SavedErrno;
}

void atExit() { flush(); }

} // namespace

std::atomic<unsigned> Sinks{0};

uint64_t nowNs() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

void configure(const std::string &Path) {
  State &S = state();
  std::lock_guard<std::mutex> G(S.M);
  if (S.Started)
    return; // one trace per process; a later setting does not move it
#if CLUSTRIX_HAVE_NVTX
  if (const char *Inject = std::getenv("NVTX_INJECTION64_PATH"); Inject && *Inject)
    Sinks.fetch_or(NvtxSink, std::memory_order_relaxed);
#endif
  if (Path.empty())
    return;
  S.Started = true;
  S.Path = Path;
  int SavedErrno = errno; // the runtime never changes the caller's errno
  S.File = std::fopen(Path.c_str(), "w");
  if (!S.File) {
    std::string Why = std::strerror(errno);
    errno = SavedErrno;
    logLine(LogLevel::Error, "trace: cannot write '" + Path + "' (" + Why +
                                 "); the program runs without a trace");
    return;
  }
  // A valid, empty document until the events are written at exit.
  std::fputs("{\"traceEvents\":[]}\n", S.File);
  std::fflush(S.File);
  errno = SavedErrno;
  S.Epoch = nowNs();
  std::atexit(atExit);
  Sinks.fetch_or(JsonSink, std::memory_order_release);
}

void beforeFlush(void (*Hook)()) {
  State &S = state();
  std::lock_guard<std::mutex> G(S.M);
  if (std::find(S.Hooks.begin(), S.Hooks.end(), Hook) == S.Hooks.end())
    S.Hooks.push_back(Hook);
}

void flush() {
  State &S = state();
  // The hooks record events, so they run before the lock is taken, and once. A flush on
  // another thread meanwhile (the runtime's own exit beside an atexit) waits for them, so
  // that the file is written with what they record.
  std::vector<void (*)()> Hooks;
  {
    std::unique_lock<std::mutex> G(S.M);
    if (!S.File || S.Written)
      return;
    if (S.HooksRan) {
      // A hook that ends the program flushes on its own thread: no waiting for itself.
      if (S.HooksThread != std::this_thread::get_id())
        S.HooksDoneCv.wait(G, [&] { return S.HooksDone; });
      return flushLocked(S);
    }
    S.HooksRan = true;
    S.HooksThread = std::this_thread::get_id();
    Hooks = S.Hooks;
  }
  for (void (*Hook)() : Hooks)
    Hook();
  std::lock_guard<std::mutex> G(S.M);
  S.HooksDone = true;
  S.HooksDoneCv.notify_all();
  flushLocked(S);
}


int deviceTrack(const std::string &Name) {
  State &S = state();
  std::lock_guard<std::mutex> G(S.M);
  auto It = S.Devices.find(Name);
  if (It != S.Devices.end())
    return It->second;
  int Tid = FirstDeviceTid + static_cast<int>(S.Devices.size());
  S.Devices.emplace(Name, Tid);
  S.Names.emplace_back(Tid, Name);
  return Tid;
}

int hostTrack() {
  if (HostTid)
    return HostTid;
  State &S = state();
  std::lock_guard<std::mutex> G(S.M);
  HostTid = ++S.HostThreads;
  S.Names.emplace_back(HostTid, HostTid == 1 ? std::string("host")
                                             : "host " + std::to_string(HostTid));
  return HostTid;
}

uint64_t currentCall() { return Current; }
uint64_t newCall() { return Calls.fetch_add(1, std::memory_order_relaxed) + 1; }

CallScope::CallScope(uint64_t Call) : Saved(Current) { Current = Call; }
CallScope::~CallScope() { Current = Saved; }

Args &Args::add(const char *Key, uint64_t V) {
  Text += (Text.empty() ? "\"" : ",\"") + std::string(Key) + "\":" + std::to_string(V);
  return *this;
}

Args &Args::add(const char *Key, int64_t V) {
  Text += (Text.empty() ? "\"" : ",\"") + std::string(Key) + "\":" + std::to_string(V);
  return *this;
}

Args &Args::add(const char *Key, const std::string &V) {
  Text += (Text.empty() ? "\"" : ",\"") + std::string(Key) + "\":\"";
  escape(Text, V);
  Text += '"';
  return *this;
}

void complete(int Track, const std::string &Name, const char *Category, uint64_t StartNs,
              uint64_t EndNs, const Args &A) {
  if (!(Sinks.load(std::memory_order_acquire) & JsonSink))
    return;
  std::string Text = A.text();
  if (Current)
    Text += (Text.empty() ? "\"call\":" : ",\"call\":") + std::to_string(Current);
  State &S = state();
  std::lock_guard<std::mutex> G(S.M);
  if (S.Written)
    return;
  S.Events.push_back({Track, Name, Category, StartNs, EndNs, std::move(Text)});
}

Span::Span(int Track, std::string Name, const char *Category)
    : Track(Track), Name(std::move(Name)), Category(Category), Start(0), Nvtx(false) {
  unsigned K = Sinks.load(std::memory_order_relaxed);
  if (!K) {
    this->Track = -1;
    return;
  }
#if CLUSTRIX_HAVE_NVTX
  if (K & NvtxSink) {
    nvtxRangePushA(this->Name.c_str());
    Nvtx = true;
  }
#endif
  Start = nowNs();
}

Span::~Span() {
  if (Track < 0)
    return;
  uint64_t End = nowNs();
#if CLUSTRIX_HAVE_NVTX
  if (Nvtx)
    nvtxRangePop();
#endif
  complete(Track, Name, Category, Start, End, A);
}

} // namespace trace
} // namespace rt
} // namespace clustrix
