//===- CUDA/KernelCache.cpp - Compiled kernels on disk --------------------===//
#include "CUDA/KernelCache.h"

#include "CUDA/Nvrtc.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace clustrix {
namespace rt {
namespace cuda {

static const char Magic[] = "CLUSTRIX-KERNEL-1\n";

std::string defaultKernelCacheDir() {
  if (const char *X = std::getenv("XDG_CACHE_HOME"); X && *X)
    return std::string(X) + "/clustrix";
  if (const char *H = std::getenv("HOME"); H && *H)
    return std::string(H) + "/.cache/clustrix";
  return "";
}

/// mkdir -p, the last component with Mode.
static bool makeDirs(const std::string &Path, mode_t Mode) {
  for (size_t Pos = 1; Pos <= Path.size(); ++Pos) {
    if (Pos != Path.size() && Path[Pos] != '/')
      continue;
    std::string Part = Path.substr(0, Pos);
    bool Last = Pos == Path.size();
    if (::mkdir(Part.c_str(), Last ? Mode : 0755) != 0 && errno != EEXIST)
      return false;
  }
  return true;
}

bool KernelCache::open(std::string &Err) {
  if (Dir.empty()) {
    Err = "no cache directory (neither XDG_CACHE_HOME nor HOME is set)";
    return false;
  }
  if (!makeDirs(Dir, 0700)) {
    Err = "cannot create " + Dir + ": " + std::strerror(errno);
    return false;
  }
  struct stat St;
  if (::stat(Dir.c_str(), &St) != 0 || !S_ISDIR(St.st_mode)) {
    Err = Dir + " is not a directory";
    return false;
  }
  if (St.st_uid != ::geteuid()) {
    Err = Dir + " belongs to another user";
    return false;
  }
  if (St.st_mode & (S_IWGRP | S_IWOTH)) {
    Err = Dir + " is writable by other users";
    return false;
  }
  return true;
}

std::string KernelCache::key(uint64_t KernelHash, int Arch, int DriverVersion, int NvrtcVersion) {
  char Buf[96];
  std::snprintf(Buf, sizeof(Buf), "%016llx-sm%d-drv%d-nvrtc%d-%s",
                static_cast<unsigned long long>(KernelHash), Arch, DriverVersion, NvrtcVersion,
                NvrtcCodeOptions);
  return Buf;
}

bool KernelCache::load(const std::string &Key, std::vector<char> &Image) const {
  std::ifstream In(Dir + "/" + Key + ".cubin", std::ios::binary);
  if (!In)
    return false;
  std::string Header(sizeof(Magic) - 1, '\0'), StoredKey;
  if (!In.read(&Header[0], static_cast<std::streamsize>(Header.size())) || Header != Magic)
    return false;
  if (!std::getline(In, StoredKey) || StoredKey != Key)
    return false;
  uint64_t Size = 0;
  if (!In.read(reinterpret_cast<char *>(&Size), sizeof(Size)) || Size == 0 || Size > (1u << 30))
    return false;
  Image.resize(Size);
  if (!In.read(Image.data(), static_cast<std::streamsize>(Size))) {
    Image.clear();
    return false;
  }
  return In.peek() == std::char_traits<char>::eof();
}

bool KernelCache::store(const std::string &Key, const std::vector<char> &Image,
                        std::string &Err) const {
  static std::atomic<unsigned> Counter{0};
  std::string Final = Dir + "/" + Key + ".cubin";
  std::string Tmp = Final + ".tmp." + std::to_string(::getpid()) + "." +
                    std::to_string(Counter.fetch_add(1));
  int Fd = ::open(Tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (Fd < 0) {
    Err = "cannot create " + Tmp + ": " + std::strerror(errno);
    return false;
  }
  std::string Head = std::string(Magic) + Key + "\n";
  uint64_t Size = Image.size();
  std::string Data = Head + std::string(reinterpret_cast<const char *>(&Size), sizeof(Size)) +
                     std::string(Image.begin(), Image.end());
  bool Ok = ::write(Fd, Data.data(), Data.size()) == static_cast<ssize_t>(Data.size());
  Ok = ::close(Fd) == 0 && Ok;
  if (Ok)
    Ok = ::rename(Tmp.c_str(), Final.c_str()) == 0;
  if (!Ok) {
    Err = "cannot write " + Final + ": " + std::strerror(errno);
    ::unlink(Tmp.c_str());
  }
  return Ok;
}

} // namespace cuda
} // namespace rt
} // namespace clustrix
