//===- Support/Config.cpp - Configuration file, environment, configure() -----===//
//
// One table of keys serves the YAML file, the CLUSTRIX_<KEY> environment variables and
// configure(Key, Value), so the three spell values identically and report errors alike.
//
//===----------------------------------------------------------------------===//
// GCC 12 reports false -Wdangling-pointer warnings inside yaml-cpp 0.7's node code once it is
// inlined here; the location-based pragma must precede every include that code reaches.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
#pragma GCC diagnostic ignored "-Wdangling-pointer"
#endif

#include "clustrix/Config.h"

#include "Support/ConfigState.h"
#include "Support/DeviceSet.h"
#include "Support/Log.h"
#include "Support/Trace.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <map>
#include <cerrno>
#include <mutex>
#include <set>
#include <sstream>
#include <sys/stat.h>
#include <vector>

namespace clustrix {

static std::string formatWhere(const std::string &File, int Line, int Column) {
  std::string W = File;
  if (Line > 0) {
    W += ":" + std::to_string(Line);
    if (Column > 0)
      W += ":" + std::to_string(Column);
  }
  return W;
}

ConfigError::ConfigError(std::string F, int L, int C, const std::string &Message)
    : std::runtime_error(formatWhere(F, L, C) + ": " + Message), File(std::move(F)), Line(L),
      Column(C) {}

static bool fileExists(const std::string &P) {
  struct stat St;
  return ::stat(P.c_str(), &St) == 0 && S_ISREG(St.st_mode);
}

std::string findConfigFile() {
  if (const char *E = std::getenv("CLUSTRIX_CONFIG"); E && *E) {
    if (!fileExists(E))
      throw ConfigError(E, 0, 0, "CLUSTRIX_CONFIG names a file that does not exist");
    return E;
  }
  if (fileExists("clustrix.yml"))
    return "clustrix.yml";
  std::string Dir;
  if (const char *X = std::getenv("XDG_CONFIG_HOME"); X && *X)
    Dir = X;
  else if (const char *H = std::getenv("HOME"); H && *H)
    Dir = std::string(H) + "/.config";
  if (!Dir.empty() && fileExists(Dir + "/clustrix/clustrix.yml"))
    return Dir + "/clustrix/clustrix.yml";
  return "";
}

const char *logLevelName(LogLevel L) {
  switch (L) {
  case LogLevel::Off: return "off";
  case LogLevel::Error: return "error";
  case LogLevel::Warn: return "warn";
  case LogLevel::Info: return "info";
  case LogLevel::Debug: return "debug";
  }
  return "?";
}

const char *scheduleName(rt::Schedule S) {
  switch (S) {
  case rt::Schedule::Default: return "default";
  case rt::Schedule::Block: return "block";
  case rt::Schedule::Cyclic: return "cyclic";
  case rt::Schedule::Dynamic: return "dynamic";
  }
  return "?";
}

std::string suggestSpelling(const std::string &Word, const std::vector<std::string> &Candidates) {
  // Levenshtein distance, one row at a time.
  auto Distance = [](const std::string &A, const std::string &B) {
    std::vector<size_t> Row(B.size() + 1);
    for (size_t J = 0; J <= B.size(); ++J)
      Row[J] = J;
    for (size_t I = 1; I <= A.size(); ++I) {
      size_t Diagonal = Row[0];
      Row[0] = I;
      for (size_t J = 1; J <= B.size(); ++J) {
        size_t Up = Row[J];
        Row[J] = std::min({Row[J] + 1, Row[J - 1] + 1, Diagonal + (A[I - 1] != B[J - 1])});
        Diagonal = Up;
      }
    }
    return Row[B.size()];
  };
  size_t Best = ~size_t(0);
  std::string BestName;
  for (const std::string &C : Candidates) {
    size_t D = Distance(Word, C);
    if (D <= 3 && D < Best && D <= std::max<size_t>(1, C.size() / 3)) {
      Best = D;
      BestName = C;
    }
  }
  return BestName;
}

//===----------------------------------------------------------------------===//
// Value parsers. Each throws ValueError with a message; the caller adds where.
//===----------------------------------------------------------------------===//

namespace {

/// A bad value, before it is placed in a file, a variable or a configure() call.
struct ValueError {
  std::string Message;
};

uint64_t parseUnsigned(const std::string &S, uint64_t Min, uint64_t Max, bool AllowSuffix) {
  std::string T = S;
  uint64_t Mul = 1;
  if (AllowSuffix && !T.empty()) {
    static const std::pair<const char *, uint64_t> Suffixes[] = {
        {"KiB", 1ull << 10}, {"MiB", 1ull << 20}, {"GiB", 1ull << 30}, {"K", 1ull << 10},
        {"M", 1ull << 20},   {"G", 1ull << 30}};
    for (auto &[Suf, M] : Suffixes) {
      size_t L = std::char_traits<char>::length(Suf);
      if (T.size() > L && T.compare(T.size() - L, L, Suf) == 0) {
        T.resize(T.size() - L);
        Mul = M;
        break;
      }
    }
  }
  if (!T.empty() && T[0] == '-' && T.size() > 1 &&
      std::all_of(T.begin() + 1, T.end(), [](unsigned char C) { return std::isdigit(C); }))
    throw ValueError{"value " + S + " is out of range: it must not be negative"};
  if (T.empty() || T.size() > 19 ||
      !std::all_of(T.begin(), T.end(), [](unsigned char C) { return std::isdigit(C); }))
    throw ValueError{std::string("expected an unsigned integer") +
                     (AllowSuffix ? " (optionally with K, M or G)" : "") + ", not '" + S + "'"};
  uint64_t V = std::stoull(T);
  if (Mul > 1 && V > Max / Mul)
    throw ValueError{"value " + S + " is out of range (at most " + std::to_string(Max) + ")"};
  V *= Mul;
  if (V < Min || V > Max)
    throw ValueError{"value " + S + " is out of range (" + std::to_string(Min) + " to " +
                     std::to_string(Max) + ")"};
  return V;
}

bool parseBool(const std::string &S) {
  std::string L = S;
  std::transform(L.begin(), L.end(), L.begin(), [](unsigned char C) { return std::tolower(C); });
  if (L == "true" || L == "yes" || L == "on" || L == "1")
    return true;
  if (L == "false" || L == "no" || L == "off" || L == "0")
    return false;
  throw ValueError{"expected a boolean (true or false), not '" + S + "'"};
}

using Setter = void (*)(RuntimeConfig &, const std::string &);

/// One configuration key: its YAML name, its environment variable and how to set it.
struct KeySpec {
  const char *Name;
  const char *EnvVar;
  Setter Set;
};

const KeySpec Keys[] = {
    {"auto_gpu_parallel", "CLUSTRIX_AUTO_GPU_PARALLEL",
     [](RuntimeConfig &C, const std::string &V) { C.AutoGpuParallel = parseBool(V); }},
    {"max_gpu_parallel_jobs", "CLUSTRIX_MAX_GPU_PARALLEL_JOBS",
     [](RuntimeConfig &C, const std::string &V) {
       C.MaxGpuParallelJobs = static_cast<uint32_t>(parseUnsigned(V, 0, 4096, false));
     }},
    {"min_iters_per_device", "CLUSTRIX_MIN_ITERS_PER_DEVICE",
     [](RuntimeConfig &C, const std::string &V) {
       C.MinItersPerDevice = parseUnsigned(V, 1, 1ull << 40, false);
     }},
    {"adaptive", "CLUSTRIX_ADAPTIVE",
     [](RuntimeConfig &C, const std::string &V) { C.Adaptive = parseBool(V); }},
    {"serial_threshold", "CLUSTRIX_SERIAL_THRESHOLD",
     [](RuntimeConfig &C, const std::string &V) {
       C.SerialThreshold = parseUnsigned(V, 0, 1ull << 62, false);
     }},
    {"default_schedule", "CLUSTRIX_SCHEDULE",
     [](RuntimeConfig &C, const std::string &V) {
       if (V == "block")
         C.DefaultSchedule = rt::Schedule::Block;
       else if (V == "cyclic")
         C.DefaultSchedule = rt::Schedule::Cyclic;
       else if (V == "dynamic")
         C.DefaultSchedule = rt::Schedule::Dynamic;
       else
         throw ValueError{"unknown schedule '" + V + "' (expected block, cyclic or dynamic)"};
     }},
    {"chunk_size", "CLUSTRIX_CHUNK_SIZE",
     [](RuntimeConfig &C, const std::string &V) {
       C.ChunkSize = parseUnsigned(V, 0, 1ull << 62, false);
     }},
    {"devices", "CLUSTRIX_DEVICES",
     [](RuntimeConfig &C, const std::string &V) {
       rt::DeviceSpec Spec;
       std::string Err;
       if (!rt::parseDeviceSpec(V, Spec, Err))
         throw ValueError{Err};
       C.Devices = V;
     }},
    {"kernel_cache", "CLUSTRIX_KERNEL_CACHE",
     [](RuntimeConfig &C, const std::string &V) {
       if (V.empty())
         throw ValueError{"kernel_cache must be a directory path"};
       C.KernelCache = V;
     }},
    {"log_level", "CLUSTRIX_LOG",
     [](RuntimeConfig &C, const std::string &V) {
       for (LogLevel L : {LogLevel::Off, LogLevel::Error, LogLevel::Warn, LogLevel::Info,
                          LogLevel::Debug})
         if (V == logLevelName(L)) {
           C.Log = L;
           return;
         }
       throw ValueError{"unknown log level '" + V + "' (expected error, warn, info, debug or off)"};
     }},
    {"pinned_staging_bytes", "CLUSTRIX_PINNED_STAGING_BYTES",
     [](RuntimeConfig &C, const std::string &V) {
       C.PinnedStagingBytes = parseUnsigned(V, 0, 64ull << 30, true);
     }},
    {"pack_threads", "CLUSTRIX_PACK_THREADS",
     [](RuntimeConfig &C, const std::string &V) {
       C.PackThreads = static_cast<uint32_t>(parseUnsigned(V, 0, 64, false));
     }},
    {"pack_streaming", "CLUSTRIX_PACK_STREAMING",
     [](RuntimeConfig &C, const std::string &V) { C.PackStreaming = parseBool(V); }},
    {"host_register", "CLUSTRIX_HOST_REGISTER",
     [](RuntimeConfig &C, const std::string &V) { C.HostRegister = parseBool(V); }},
    {"pageable_access", "CLUSTRIX_PAGEABLE_ACCESS",
     [](RuntimeConfig &C, const std::string &V) { C.PageableAccess = parseBool(V); }},
    {"cuda_memory_limit", "CLUSTRIX_CUDA_MEMORY_LIMIT",
     [](RuntimeConfig &C, const std::string &V) {
       C.CudaMemoryLimit = parseUnsigned(V, 0, 1ull << 50, true);
     }},
    {"residency", "CLUSTRIX_RESIDENCY",
     [](RuntimeConfig &C, const std::string &V) { C.Residency = parseBool(V); }},
    {"residency_check", "CLUSTRIX_RESIDENCY_CHECK",
     [](RuntimeConfig &C, const std::string &V) { C.ResidencyCheck = parseBool(V); }},
    {"trace", "CLUSTRIX_TRACE",
     [](RuntimeConfig &C, const std::string &V) {
       if (V.empty())
         throw ValueError{"trace must be a file path"};
       C.Trace = V;
     }},
    {"worker_spin_us", "CLUSTRIX_WORKER_SPIN_US",
     [](RuntimeConfig &C, const std::string &V) {
       C.WorkerSpinMicroseconds = parseUnsigned(V, 0, 1000000, false);
     }},
};

const KeySpec *findKey(const std::string &Name) {
  for (const KeySpec &K : Keys)
    if (Name == K.Name)
      return &K;
  return nullptr;
}

std::string knownKeys() {
  std::string S;
  for (const KeySpec &K : Keys)
    S += std::string(S.empty() ? "" : ", ") + K.Name;
  return S + ", hosts";
}

/// "unknown key 'X'", a did-you-mean when a known key is close, and the known keys.
std::string unknownKeyMessage(const std::string &Name) {
  std::vector<std::string> Names;
  for (const KeySpec &K : Keys)
    Names.push_back(K.Name);
  Names.push_back("hosts");
  std::string Near = suggestSpelling(Name, Names);
  return "unknown key '" + Name + "'" +
         (Near.empty() ? std::string() : "; did you mean '" + Near + "'?") +
         " (known keys: " + knownKeys() + ")";
}

/// A YAML mark as 1-based line and column; yaml-cpp's are 0-based, -1 when unknown.
std::pair<int, int> where(const YAML::Mark &M) {
  if (M.line < 0)
    return {0, 0};
  return {M.line + 1, M.column + 1};
}

/// yaml-cpp places an error found at the end of the input after the last newline, on a line the
/// file does not have; it is reported at the end of the file's last line instead.
std::pair<int, int> clampToText(const std::string &Text, std::pair<int, int> At) {
  int Lines = static_cast<int>(std::count(Text.begin(), Text.end(), '\n'));
  if (!Text.empty() && Text.back() != '\n')
    ++Lines;
  size_t End = Text.find_last_not_of('\n');
  if (At.first <= Lines || End == std::string::npos)
    return At;
  size_t Begin = Text.rfind('\n', End);
  Begin = Begin == std::string::npos ? 0 : Begin + 1;
  int Line = static_cast<int>(std::count(Text.begin(), Text.begin() + Begin, '\n')) + 1;
  return {Line, static_cast<int>(End - Begin) + 2};
}

} // namespace

RuntimeConfig parseConfig(const std::string &Text, const std::string &FileName) {
  RuntimeConfig C;
  YAML::Node Root;
  try {
    Root = YAML::Load(Text);
  } catch (const YAML::ParserException &E) {
    auto [L, Col] = clampToText(Text, where(E.mark));
    throw ConfigError(FileName, L, Col, "syntax error: " + E.msg);
  }
  if (!Root || Root.IsNull())
    return C; // an empty file: all defaults
  if (!Root.IsMap()) {
    auto [L, Col] = where(Root.Mark());
    throw ConfigError(FileName, L, Col, "expected a mapping of keys to values at the top level");
  }
  std::set<std::string> Seen;
  for (auto It = Root.begin(); It != Root.end(); ++It) {
    // Copies: It-> is a proxy that lives only to the end of the statement, and nodes are handles.
    const YAML::Node KeyNode = It->first;
    const YAML::Node Value = It->second;
    auto [KL, KC] = where(KeyNode.Mark());
    if (!KeyNode.IsScalar())
      throw ConfigError(FileName, KL, KC, "expected a key name");
    std::string Name = KeyNode.Scalar();
    if (!Seen.insert(Name).second)
      throw ConfigError(FileName, KL, KC, "key '" + Name + "' appears twice");
    if (Name == "hosts")
      continue; // validated by the remote-hosts module, which parses this node itself
    const KeySpec *K = findKey(Name);
    if (!K)
      throw ConfigError(FileName, KL, KC, unknownKeyMessage(Name));
    auto [VL, VC] = where(Value.Mark());
    if (VL == 0 || Value.IsNull()) { // a missing value: point at its key
      VL = KL;
      VC = KC;
    }
    std::string Scalar;
    if (Value.IsScalar()) {
      Scalar = Value.Scalar();
    } else if (Name == std::string("devices") && Value.IsSequence()) {
      // `devices: [cuda:0, cpu:2]` is the list form of `devices: cuda:0,cpu:2`.
      for (const YAML::Node &Item : Value) {
        if (!Item.IsScalar()) {
          auto [IL, IC] = where(Item.Mark());
          throw ConfigError(FileName, IL, IC, "wrong type for 'devices': expected a device name");
        }
        Scalar += (Scalar.empty() ? "" : ",") + Item.Scalar();
      }
    } else {
      const char *What = Value.IsNull() ? "nothing" : Value.IsSequence() ? "a sequence" : "a mapping";
      throw ConfigError(FileName, VL, VC,
                        "wrong type for '" + Name + "': expected a single value, found " + What);
    }
    try {
      K->Set(C, Scalar);
    } catch (const ValueError &E) {
      throw ConfigError(FileName, VL, VC, "bad value for '" + Name + "': " + E.Message);
    }
  }
  return C;
}

RuntimeConfig loadConfigFile(const std::string &Path) {
  std::ifstream In(Path);
  if (!In)
    throw ConfigError(Path, 0, 0, "cannot read the file");
  std::ostringstream SS;
  SS << In.rdbuf();
  return parseConfig(SS.str(), Path);
}

/// Applies the environment variables to C. A bad variable throws, or with Errors given is
/// recorded there and skipped so that the others still apply.
static void applyEnvironmentTo(RuntimeConfig &C, std::vector<std::string> *Errors) {
  for (const KeySpec &K : Keys) {
    const char *V = std::getenv(K.EnvVar);
    if (!V && std::string(K.Name) == "log_level")
      V = std::getenv("CLUSTRIX_LOG_LEVEL");
    if (!V)
      continue;
    try {
      K.Set(C, V);
    } catch (const ValueError &E) {
      ConfigError Err(K.EnvVar, 0, 0, "bad value for '" + std::string(K.Name) + "': " + E.Message);
      if (!Errors)
        throw Err;
      Errors->push_back(std::string(Err.what()) + " (the variable is ignored)");
    }
  }
}

void applyEnvironment(RuntimeConfig &C) { applyEnvironmentTo(C, nullptr); }

//===----------------------------------------------------------------------===//
// The process-wide snapshot.
//===----------------------------------------------------------------------===//

namespace {

/// configure() state and the published snapshot.
struct ConfigState {
  std::mutex M;
  bool HaveBase = false;        // configure(RuntimeConfig) was called
  RuntimeConfig Base;
  std::vector<std::pair<const KeySpec *, std::string>> Overrides;
  std::atomic<const RuntimeConfig *> Snapshot{nullptr};
  std::vector<const RuntimeConfig *> Retired; // kept alive: readers may hold references
};

ConfigState &state() {
  static ConfigState *S = new ConfigState();
  return *S;
}

/// Builds and publishes a snapshot; S.M must be held. Errors are printed after publication so
/// that the log level they are printed under is the one just loaded.
const RuntimeConfig *rebuild(ConfigState &S) {
  std::vector<std::string> Errors;
  RuntimeConfig C;
  if (S.HaveBase) {
    C = S.Base;
  } else {
    try {
      std::string File = findConfigFile();
      if (!File.empty())
        C = loadConfigFile(File);
    } catch (const ConfigError &E) {
      Errors.push_back(std::string(E.what()) + " (the configuration file is ignored)");
    }
    applyEnvironmentTo(C, &Errors);
  }
  for (auto &[K, V] : S.Overrides)
    K->Set(C, V); // validated by configure()
  auto *N = new RuntimeConfig(C);
  if (const RuntimeConfig *Old = S.Snapshot.exchange(N, std::memory_order_acq_rel))
    S.Retired.push_back(Old);
  __atomic_store_n(&rt::ActiveSettings, static_cast<const void *>(N), __ATOMIC_RELEASE);
  for (const std::string &E : Errors)
    rt::logOnce("config:" + E, LogLevel::Error, E);
  // The first snapshot that names a trace file starts it (after publication: its error is
  // logged under these settings).
  rt::trace::configure(N->Trace);
  return N;
}

} // namespace

namespace rt {
const void *ActiveSettings = nullptr;

const RuntimeConfig &activeConfig() {
  ConfigState &S = state();
  if (const RuntimeConfig *C = S.Snapshot.load(std::memory_order_acquire))
    return *C;
  // The first use reads the environment and looks for configuration files: a file that is not
  // there sets errno, and the caller (runLoop before anything else, generated code between the
  // user's statements) must see its own errno (design rule 8).
  struct KeepErrno {
    int Saved = errno;
    ~KeepErrno() { errno = Saved; }
  } Keep;
  std::lock_guard<std::mutex> G(S.M);
  if (const RuntimeConfig *C = S.Snapshot.load(std::memory_order_acquire))
    return *C;
  return *rebuild(S);
}
} // namespace rt

void configure(const std::string &Key, const std::string &Value) {
  const KeySpec *K = findKey(Key);
  if (!K)
    throw ConfigError("configure()", 0, 0, unknownKeyMessage(Key));
  RuntimeConfig Probe;
  try {
    K->Set(Probe, Value);
  } catch (const ValueError &E) {
    throw ConfigError("configure()", 0, 0, "bad value for '" + Key + "': " + E.Message);
  }
  ConfigState &S = state();
  std::lock_guard<std::mutex> G(S.M);
  S.Overrides.emplace_back(K, Value);
  rebuild(S);
}

void configure(const RuntimeConfig &C) {
  ConfigState &S = state();
  std::lock_guard<std::mutex> G(S.M);
  S.HaveBase = true;
  S.Base = C;
  S.Overrides.clear();
  rebuild(S);
}

void resetConfiguration() {
  ConfigState &S = state();
  std::lock_guard<std::mutex> G(S.M);
  S.HaveBase = false;
  S.Overrides.clear();
  if (const RuntimeConfig *Old = S.Snapshot.exchange(nullptr, std::memory_order_acq_rel))
    S.Retired.push_back(Old);
  __atomic_store_n(&rt::ActiveSettings, static_cast<const void *>(nullptr), __ATOMIC_RELEASE);
}

RuntimeConfig currentConfig() { return rt::activeConfig(); }

} // namespace clustrix
