//===- cudaemu/Device.cpp - The emulated machine --------------------------===//
#include "Device.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/mman.h>
#include <unistd.h>

namespace clustrix {
namespace cudaemu {

namespace {

constexpr uintptr_t Page = 4096;

uintptr_t roundUp(uintptr_t V, uintptr_t To) { return (V + To - 1) / To * To; }

/// Fills fresh memory with the poison pattern, so that reading what was never copied in gives
/// NaNs (floating point) or large negative numbers (integers) instead of plausible zeros.
void poison(void *P, size_t Bytes) {
  const uint32_t Word = 0xFFF4CDCDu;
  auto *W = static_cast<uint32_t *>(P);
  for (size_t I = 0; I < Bytes / 4; ++I)
    W[I] = Word;
}

std::mutex InitM;
Emulator *TheEmulator = nullptr;
CUresult InitResult = CUDA_ERROR_NOT_INITIALIZED;
struct sigaction PreviousSegv;

/// A kernel touching its device's range outside every allocation faults on a page that is not
/// mapped: say so, then let the previous handler (or the default action) take the fault.
void onSegv(int Sig, siginfo_t *Info, void *Ctx) {
  Emulator *E = TheEmulator;
  uintptr_t Addr = reinterpret_cast<uintptr_t>(Info->si_addr);
  if (E)
    if (Device *D = E->deviceOwning(Addr)) {
      char Buf[256];
      int N = std::snprintf(Buf, sizeof(Buf),
                            "clustrix-cudaemu: cuda%d: access to device address 0x%llx, outside "
                            "every allocation (a GPU reports CUDA_ERROR_ILLEGAL_ADDRESS)\n",
                            D->Ordinal, static_cast<unsigned long long>(Addr));
      if (N > 0)
        (void)!::write(2, Buf, static_cast<size_t>(N));
    }
  if (PreviousSegv.sa_flags & SA_SIGINFO) {
    if (PreviousSegv.sa_sigaction) {
      PreviousSegv.sa_sigaction(Sig, Info, Ctx);
      return;
    }
  } else if (PreviousSegv.sa_handler != SIG_DFL && PreviousSegv.sa_handler != SIG_IGN) {
    PreviousSegv.sa_handler(Sig);
    return;
  }
  // Default action: restore it; the faulting instruction runs again and ends the process.
  ::sigaction(SIGSEGV, &PreviousSegv, nullptr);
}

} // namespace

void report(const std::string &Text) {
  std::string Line = "clustrix-cudaemu: " + Text + "\n";
  (void)!::write(2, Line.data(), Line.size());
}

//===----------------------------------------------------------------------===//
// DeviceMemory
//===----------------------------------------------------------------------===//

DeviceMemory::~DeviceMemory() {
  if (Begin)
    ::munmap(reinterpret_cast<void *>(Begin), End - Begin);
}

bool DeviceMemory::reserve(uint64_t Cap, std::string &Err) {
  Capacity = roundUp(Cap, Page);
  // Twice the capacity, so that fragmentation rarely refuses what the capacity allows.
  uint64_t HeapBytes = roundUp(2 * Capacity + (uint64_t(64) << 20), uint64_t(2) << 20);
  for (uint64_t Margin : {uint64_t(1) << 40, uint64_t(64) << 30, uint64_t(4) << 30}) {
    void *P = ::mmap(nullptr, Margin + HeapBytes, PROT_NONE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (P == MAP_FAILED)
      continue;
    Begin = reinterpret_cast<uintptr_t>(P);
    Heap = Begin + Margin;
    End = Heap + HeapBytes;
    Free[Heap] = HeapBytes;
    return true;
  }
  Err = "cannot reserve address space for " + std::to_string(Cap >> 20) + " MiB of device memory";
  return false;
}

CUresult DeviceMemory::alloc(size_t Bytes, uintptr_t &Ptr) {
  size_t Need = roundUp(Bytes, Page);
  std::lock_guard<std::mutex> G(M);
  if (Used + Need > Capacity)
    return CUDA_ERROR_OUT_OF_MEMORY;
  for (auto It = Free.begin(); It != Free.end(); ++It) {
    if (It->second < Need)
      continue;
    Ptr = It->first;
    size_t Rest = It->second - Need;
    Free.erase(It);
    if (Rest)
      Free[Ptr + Need] = Rest;
    if (::mprotect(reinterpret_cast<void *>(Ptr), Need, PROT_READ | PROT_WRITE) != 0) {
      Free[Ptr] = Need; // (coalesced again by the next free)
      return CUDA_ERROR_OUT_OF_MEMORY;
    }
    poison(reinterpret_cast<void *>(Ptr), Need);
    Live[Ptr] = Block{Bytes, Need};
    Used += Need;
    return CUDA_SUCCESS;
  }
  return CUDA_ERROR_OUT_OF_MEMORY; // fragmented
}

CUresult DeviceMemory::free(uintptr_t Ptr) {
  std::lock_guard<std::mutex> G(M);
  auto It = Live.find(Ptr);
  if (It == Live.end())
    return CUDA_ERROR_INVALID_VALUE;
  size_t Bytes = It->second.Pages;
  Live.erase(It);
  Used -= Bytes;
  ::madvise(reinterpret_cast<void *>(Ptr), Bytes, MADV_DONTNEED);
  ::mprotect(reinterpret_cast<void *>(Ptr), Bytes, PROT_NONE);
  auto Next = Free.lower_bound(Ptr);
  if (Next != Free.end() && Ptr + Bytes == Next->first) {
    Bytes += Next->second;
    Free.erase(Next);
  }
  auto Prev = Free.lower_bound(Ptr);
  if (Prev != Free.begin()) {
    --Prev;
    if (Prev->first + Prev->second == Ptr) {
      Prev->second += Bytes;
      return CUDA_SUCCESS;
    }
  }
  Free[Ptr] = Bytes;
  return CUDA_SUCCESS;
}

bool DeviceMemory::holds(uintptr_t P, size_t N) const {
  std::lock_guard<std::mutex> G(M);
  auto It = Live.upper_bound(P);
  if (It == Live.begin())
    return false;
  --It;
  size_t Size = It->second.Asked;
  return P >= It->first && N <= Size && P - It->first <= Size - N;
}

uint64_t DeviceMemory::used() const {
  std::lock_guard<std::mutex> G(M);
  return Used;
}

//===----------------------------------------------------------------------===//
// Stream
//===----------------------------------------------------------------------===//

Stream::Stream(Device &D, bool Blocking) : Dev(D), Blocking(Blocking) {
  Worker = std::thread([this] { work(); });
}

Stream::~Stream() {
  {
    std::lock_guard<std::mutex> G(M);
    Stop = true;
  }
  Wake.notify_one();
  Worker.join();
}

void Stream::enqueue(std::function<void()> Op) {
  {
    std::lock_guard<std::mutex> G(M);
    Queue.push_back(std::move(Op));
  }
  Wake.notify_one();
}

void Stream::synchronize() {
  std::unique_lock<std::mutex> L(M);
  Idle.wait(L, [&] { return Queue.empty() && !Running; });
}

void Stream::work() {
  std::unique_lock<std::mutex> L(M);
  for (;;) {
    Wake.wait(L, [&] { return Stop || !Queue.empty(); });
    if (Queue.empty())
      return; // stopped, and nothing left to run
    std::function<void()> Op = std::move(Queue.front());
    Queue.pop_front();
    Running = true;
    L.unlock();
    Op();
    L.lock();
    Running = false;
    if (Queue.empty())
      Idle.notify_all();
  }
}

//===----------------------------------------------------------------------===//
// Event
//===----------------------------------------------------------------------===//

uint64_t Event::record() {
  std::lock_guard<std::mutex> G(M);
  return ++Recorded;
}

uint64_t Event::last() const {
  std::lock_guard<std::mutex> G(M);
  return Recorded;
}

void Event::done(uint64_t N) {
  {
    std::lock_guard<std::mutex> G(M);
    if (N > Done) {
      Done = N;
      DoneNs = uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                            std::chrono::steady_clock::now().time_since_epoch())
                            .count());
    }
  }
  Reached.notify_all();
}

void Event::waitFor(uint64_t N) {
  std::unique_lock<std::mutex> L(M);
  Reached.wait(L, [&] { return Done >= N; });
}

bool Event::reached(uint64_t &AtNs) const {
  std::lock_guard<std::mutex> G(M);
  AtNs = DoneNs;
  return Recorded != 0 && Done >= Recorded;
}

//===----------------------------------------------------------------------===//
// Device
//===----------------------------------------------------------------------===//

Device::~Device() {
  Streams.clear();
  Modules.clear();
}

const FaultRule *Device::fault(FaultKind K, uint64_t N) const {
  const EmuConfig &C = Emulator::get()->Config;
  for (const FaultRule &R : C.Faults)
    if (R.Kind == K && (R.Device < 0 || R.Device == Ordinal) && R.Nth == N) {
      report(name() + ": injected fault " + faultName(K) + "@" + std::to_string(N) +
             (R.AfterPeerRead ? "+peer" : "") + " (CLUSTRIX_EMU_FAULT)");
      return &R;
    }
  return nullptr;
}

void Device::notePeerRead() {
  std::lock_guard<std::mutex> G(PeerReadM);
  PeerRead = true; // waiters wait for the wait that follows (notePeerWait)
}

void Device::notePeerWait() {
  {
    std::lock_guard<std::mutex> G(PeerReadM);
    if (!PeerRead)
      return;
    PeerReadAwaited = true;
  }
  PeerReadCv.notify_all();
}

void Device::waitPeerRead() {
  std::unique_lock<std::mutex> G(PeerReadM);
  PeerReadCv.wait_for(G, std::chrono::seconds(10), [this] { return PeerReadAwaited; });
}

void Device::lose(int Code) {
  int Expected = 0;
  Sticky.compare_exchange_strong(Expected, Code);
}

Stream *Device::createStream(bool Blocking) {
  std::lock_guard<std::mutex> G(M);
  Streams.push_back(std::make_unique<Stream>(*this, Blocking));
  return Streams.back().get();
}

bool Device::destroyStream(Stream *S) {
  std::unique_ptr<Stream> Gone;
  {
    std::lock_guard<std::mutex> G(M);
    for (auto It = Streams.begin(); It != Streams.end(); ++It)
      if (It->get() == S) {
        Gone = std::move(*It);
        Streams.erase(It);
        break;
      }
  }
  return Gone != nullptr; // destroyed here, after its queue ran
}

void Device::waitStreams(bool OnlyBlocking) {
  std::vector<Stream *> All;
  {
    std::lock_guard<std::mutex> G(M);
    for (auto &S : Streams)
      if (!OnlyBlocking || S->blocking())
        All.push_back(S.get());
  }
  for (Stream *S : All)
    S->synchronize();
}

Module *Device::addModule(std::unique_ptr<Module> Mod) {
  std::lock_guard<std::mutex> G(M);
  Modules.push_back(std::move(Mod));
  return Modules.back().get();
}

bool Device::removeModule(Module *Mod) {
  std::lock_guard<std::mutex> G(M);
  for (auto It = Modules.begin(); It != Modules.end(); ++It)
    if (It->get() == Mod) {
      Modules.erase(It);
      return true;
    }
  return false;
}

//===----------------------------------------------------------------------===//
// Emulator
//===----------------------------------------------------------------------===//

Emulator *Emulator::get() { return TheEmulator; }

namespace {
/// CLUSTRIX_EMU_STATS: at exit, one line per device with its launches and the bytes it moved,
/// so that tests can assert on data movement, not only on results.
/// The names of Device::DriverCalls, in order (Driver.cpp's DriverCall).
const char *const DriverCallNames[] = {"cuDeviceGet", "cuDeviceGetName", "cuDeviceTotalMem", "cuDeviceGetAttribute", "cuDevicePrimaryCtxRetain", "cuDevicePrimaryCtxRelease", "cuCtxSetCurrent", "cuMemGetInfo", "cuMemAlloc", "cuMemFree", "cuMemAllocHost", "cuMemFreeHost", "cuMemHostRegister", "cuMemHostUnregister", "cuMemcpyHtoDAsync", "cuMemcpyDtoHAsync", "cuMemcpyPeerAsync", "cuMemcpy3DAsync", "cuStreamCreate", "cuStreamDestroy", "cuStreamSynchronize", "cuModuleLoadData", "cuModuleUnload", "cuModuleGetFunction", "cuLaunchKernel", "cuPointerGetAttribute", "cuEventCreate", "cuEventDestroy", "cuEventRecord", "cuStreamWaitEvent", "cuEventSynchronize", "cuEventElapsedTime"};
static_assert(sizeof(DriverCallNames) / sizeof(DriverCallNames[0]) == Device::NumDriverCalls,
              "one name per counted entry point");

void writeStats() {
  const char *Path = std::getenv("CLUSTRIX_EMU_STATS");
  Emulator *E = Emulator::get();
  if (!Path || !*Path || !E)
    return;
  FILE *F = std::fopen(Path, "w");
  if (!F) {
    report(std::string("CLUSTRIX_EMU_STATS: cannot write '") + Path + "'");
    return;
  }
  for (const auto &D : E->Devices) {
    std::fprintf(F, "%s launches %llu to_device %llu to_host %llu peer_in %llu within %llu",
                 D->name().c_str(), static_cast<unsigned long long>(D->Launches.load()),
                 static_cast<unsigned long long>(D->BytesToDevice.load()),
                 static_cast<unsigned long long>(D->BytesToHost.load()),
                 static_cast<unsigned long long>(D->BytesPeerIn.load()),
                 static_cast<unsigned long long>(D->BytesWithin.load()));
    // Then each driver entry point called on the device at least once, with its count.
    for (unsigned C = 0; C < Device::NumDriverCalls; ++C)
      if (uint64_t N = D->DriverCalls[C].load())
        std::fprintf(F, " %s %llu", DriverCallNames[C], static_cast<unsigned long long>(N));
    std::fputc('\n', F);
  }
  std::fclose(F);
}
} // namespace

CUresult Emulator::init() {
  std::lock_guard<std::mutex> G(InitM);
  if (TheEmulator || InitResult != CUDA_ERROR_NOT_INITIALIZED)
    return InitResult;
  auto E = std::make_unique<Emulator>();
  std::string Err;
  if (!readConfig([](const char *Name) { return std::getenv(Name); }, E->Config, Err)) {
    report(Err);
    return InitResult = CUDA_ERROR_INVALID_VALUE;
  }
  for (unsigned I = 0; I < E->Config.Gpus; ++I) {
    auto D = std::make_unique<Device>(static_cast<int>(I), E->Config.Memory[I], E->Config.Sms[I],
                                      E->Config.Pageable[I]);
    if (!D->Memory.reserve(E->Config.Memory[I], Err)) {
      report("cuda" + std::to_string(I) + ": " + Err);
      return InitResult = CUDA_ERROR_OUT_OF_MEMORY;
    }
    E->Devices.push_back(std::move(D));
  }
  struct sigaction Act;
  std::memset(&Act, 0, sizeof(Act));
  Act.sa_sigaction = &onSegv;
  Act.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&Act.sa_mask);
  ::sigaction(SIGSEGV, &Act, &PreviousSegv);
  TheEmulator = E.release(); // lives as long as the process: its threads may outlive main
  if (const char *S = std::getenv("CLUSTRIX_EMU_STATS"); S && *S)
    std::atexit(writeStats);
  return InitResult = CUDA_SUCCESS;
}

Device *Emulator::deviceOwning(uintptr_t P) const {
  for (const auto &D : Devices)
    if (D->Memory.owns(P))
      return D.get();
  return nullptr;
}

void *Emulator::allocPinned(size_t Bytes) {
  size_t Size = roundUp(Bytes ? Bytes : 1, Page);
  void *P = ::mmap(nullptr, Size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (P == MAP_FAILED)
    return nullptr;
  poison(P, Size);
  std::lock_guard<std::mutex> G(PinnedM);
  Pinned[reinterpret_cast<uintptr_t>(P)] = Size;
  return P;
}

bool Emulator::freePinned(void *P) {
  size_t Size;
  {
    std::lock_guard<std::mutex> G(PinnedM);
    auto It = Pinned.find(reinterpret_cast<uintptr_t>(P));
    if (It == Pinned.end())
      return false;
    Size = It->second;
    Pinned.erase(It);
  }
  ::munmap(P, Size);
  return true;
}

bool Emulator::isPinned(const void *P, size_t N) const {
  uintptr_t A = reinterpret_cast<uintptr_t>(P);
  if (Config.AllHostLocked && !deviceOwning(A))
    return true;
  std::lock_guard<std::mutex> G(PinnedM);
  for (const std::map<uintptr_t, size_t> *M : {&Pinned, &Registered}) {
    auto It = M->upper_bound(A);
    if (It == M->begin())
      continue;
    --It;
    if (A >= It->first && A - It->first + N <= It->second)
      return true;
  }
  return false;
}

bool Emulator::overlapsLocked(uintptr_t A, size_t N) const {
  for (const std::map<uintptr_t, size_t> *M : {&Pinned, &Registered}) {
    auto It = M->lower_bound(A + N);
    if (It != M->begin() && std::prev(It)->first + std::prev(It)->second > A)
      return true;
  }
  return false;
}

bool Emulator::registerHost(void *P, size_t N) {
  uintptr_t A = reinterpret_cast<uintptr_t>(P);
  std::lock_guard<std::mutex> G(PinnedM);
  if (overlapsLocked(A, N))
    return false;
  Registered[A] = N;
  return true;
}

bool Emulator::unregisterHost(void *P) {
  std::lock_guard<std::mutex> G(PinnedM);
  return Registered.erase(reinterpret_cast<uintptr_t>(P)) == 1;
}

std::shared_ptr<Event> Emulator::createEvent(Device &D, bool Timing) {
  auto E = std::make_shared<Event>(D, Timing);
  std::lock_guard<std::mutex> G(EventsM);
  Events.emplace(E.get(), E);
  return E;
}

std::shared_ptr<Event> Emulator::findEvent(const void *Handle) const {
  std::lock_guard<std::mutex> G(EventsM);
  auto It = Events.find(Handle);
  return It == Events.end() ? nullptr : It->second;
}

bool Emulator::destroyEvent(const void *Handle) {
  std::lock_guard<std::mutex> G(EventsM);
  return Events.erase(Handle) == 1;
}

} // namespace cudaemu
} // namespace clustrix
