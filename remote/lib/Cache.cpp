//===- remote/Cache.cpp - Cached probe answers ----------------------------===//
//
// SHA-256 helpers and the per-user probe cache (a 0700 directory of small files).
//
//===----------------------------------------------------------------------===//
#include "clustrix/remote/Cache.h"

#include <openssl/evp.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <memory>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace clustrix {
namespace remote {

namespace {

/// Incremental SHA-256 over OpenSSL's EVP interface.
class Sha256 {
public:
  Sha256() : Ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free) {
    EVP_DigestInit_ex(Ctx.get(), EVP_sha256(), nullptr);
  }
  void update(const void *Data, size_t Size) { EVP_DigestUpdate(Ctx.get(), Data, Size); }
  std::string hex() {
    unsigned char Digest[EVP_MAX_MD_SIZE];
    unsigned Length = 0;
    EVP_DigestFinal_ex(Ctx.get(), Digest, &Length);
    static const char Hex[] = "0123456789abcdef";
    std::string Out;
    for (unsigned I = 0; I < Length; ++I) {
      Out += Hex[Digest[I] >> 4];
      Out += Hex[Digest[I] & 15];
    }
    return Out;
  }

private:
  std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX *)> Ctx;
};

const char *const CacheMagic = "clustrix-probe-cache 1";

double nowSeconds() {
  using namespace std::chrono;
  return duration<double>(system_clock::now().time_since_epoch()).count();
}

/// Reads a length-prefixed block written by store().
bool readBlock(std::istream &In, const std::string &Tag, std::string &Out) {
  std::string Word;
  size_t Size = 0;
  if (!(In >> Word >> Size) || Word != Tag || Size > (1u << 24))
    return false;
  In.get(); // The newline after the size.
  if (static_cast<std::streamsize>(Size) > In.rdbuf()->in_avail())
    return false; // A size past the end of the file.
  Out.resize(Size);
  return static_cast<bool>(In.read(&Out[0], static_cast<std::streamsize>(Size)));
}

} // namespace

std::string sha256Hex(const std::string &Data) {
  Sha256 H;
  H.update(Data.data(), Data.size());
  return H.hex();
}

std::string sha256File(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return "";
  Sha256 H;
  char Buffer[1 << 16];
  while (In) {
    In.read(Buffer, sizeof(Buffer));
    H.update(Buffer, static_cast<size_t>(In.gcount()));
  }
  if (In.bad())
    return "";
  return H.hex();
}

std::string ProbeCache::defaultDirectory() {
  const char *Xdg = std::getenv("XDG_CACHE_HOME");
  if (Xdg && *Xdg)
    return std::string(Xdg) + "/clustrix/hosts";
  std::string Home = localHome();
  return (Home.empty() ? std::string("/nonexistent") : Home) + "/.cache/clustrix/hosts";
}

ProbeCache::ProbeCache(std::string Directory) : Directory(std::move(Directory)) {}

std::string ProbeCache::keyOf(const HostConfig &Host) {
  // Every setting that can change what the probe prints; NUL separates fields unambiguously.
  std::string S = Host.Hostname + '\0' + std::to_string(Host.Port) + '\0' + Host.User + '\0' +
                  Host.WorkDir + '\0' + Host.Probe + '\0';
  for (const auto &[Name, Value] : Host.Env)
    S += Name + '=' + Value + '\0';
  S += '\1';
  for (const std::string &C : Host.Setup)
    S += C + '\0';
  return sha256Hex(S);
}

std::string ProbeCache::fileOf(const HostConfig &Host) const {
  return Directory + "/" + Host.Name + ".probe";
}

bool ProbeCache::ensurePrivateDirectory() const {
  // Create missing parents (0700 where we create them), then insist that the directory itself is
  // ours and private: another user's (or a world-writable) cache could feed us a fake answer.
  for (size_t Slash = Directory.find('/', 1);; Slash = Directory.find('/', Slash + 1)) {
    std::string Part = Directory.substr(0, Slash);
    if (::mkdir(Part.c_str(), 0700) != 0 && errno != EEXIST)
      return false;
    if (Slash == std::string::npos)
      break;
  }
  struct stat St;
  if (::lstat(Directory.c_str(), &St) != 0 || !S_ISDIR(St.st_mode) || St.st_uid != ::geteuid())
    return false;
  if ((St.st_mode & 077) != 0 && ::chmod(Directory.c_str(), 0700) != 0)
    return false;
  return true;
}

std::optional<ProbeOutput> ProbeCache::lookup(const HostConfig &Host, double &AgeSeconds) const {
  if (Host.CacheTtl <= 0)
    return std::nullopt;
  struct stat St;
  if (::lstat(Directory.c_str(), &St) != 0 || !S_ISDIR(St.st_mode) ||
      St.st_uid != ::geteuid() || (St.st_mode & 077) != 0)
    return std::nullopt;
  std::ifstream In(fileOf(Host), std::ios::binary);
  std::stringstream Text;
  Text << In.rdbuf();
  std::optional<CacheEntry> Entry = parseCacheEntry(Text.str());
  if (!Entry || Entry->Key != keyOf(Host))
    return std::nullopt;
  AgeSeconds = nowSeconds() - Entry->Time;
  if (AgeSeconds < 0 || AgeSeconds > Host.CacheTtl)
    return std::nullopt;
  return Entry->Output;
}

std::optional<CacheEntry> parseCacheEntry(const std::string &Text) {
  std::istringstream In(Text);
  std::string Magic, Word;
  CacheEntry E;
  if (!std::getline(In, Magic) || Magic != CacheMagic)
    return std::nullopt;
  if (!(In >> Word >> E.Key) || Word != "key")
    return std::nullopt;
  if (!(In >> Word >> E.Time) || Word != "time" || !std::isfinite(E.Time))
    return std::nullopt;
  if (!(In >> Word >> E.Output.ExitStatus) || Word != "exit")
    return std::nullopt;
  if (!readBlock(In, "stdout", E.Output.Stdout) || !readBlock(In, "stderr", E.Output.Stderr))
    return std::nullopt;
  return E;
}

bool ProbeCache::store(const HostConfig &Host, const ProbeOutput &Output) const {
  if (Host.CacheTtl <= 0 || !ensurePrivateDirectory())
    return false;
  std::ostringstream S;
  S.precision(17);
  S << CacheMagic << "\nkey " << keyOf(Host) << "\ntime " << nowSeconds() << "\nexit "
    << Output.ExitStatus << "\nstdout " << Output.Stdout.size() << "\n"
    << Output.Stdout << "\nstderr " << Output.Stderr.size() << "\n"
    << Output.Stderr << "\n";
  std::string Data = S.str();
  // Write to a private temporary and rename, so readers never see half a file.
  std::string Tmp = fileOf(Host) + ".tmp." + std::to_string(::getpid());
  int Fd = ::open(Tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
  if (Fd < 0)
    return false;
  bool Ok = ::write(Fd, Data.data(), Data.size()) == static_cast<ssize_t>(Data.size());
  Ok = ::close(Fd) == 0 && Ok;
  if (!Ok || std::rename(Tmp.c_str(), fileOf(Host).c_str()) != 0) {
    ::unlink(Tmp.c_str());
    return false;
  }
  return true;
}

} // namespace remote
} // namespace clustrix
