//===- Spawn.h - Running a host compiler and reading what it wrote ---------===//
//
// Header-only: both the runtime's MPI host kernels (runtime/lib/MPI/HostKernel.cpp) and the
// emulated driver's NVRTC (cudaemu/Nvrtc.cpp, which includes runtime/lib but links nothing of
// the runtime) compile kernel text with a host compiler, and read its log and its output.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_RUNTIME_SUPPORT_SPAWN_H
#define CLUSTRIX_RUNTIME_SUPPORT_SPAWN_H

#include <cerrno>
#include <fcntl.h>
#include <fstream>
#include <spawn.h>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

extern char **environ;

namespace clustrix {
namespace support {

/// The whole of a file; empty when it cannot be read.
inline std::string readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::ostringstream S;
  S << In.rdbuf();
  return S.str();
}

/// Runs Argv (found on PATH) with its stdout and stderr into LogPath and waits for it: its exit
/// status, or -1 when it could not run or died of a signal.
inline int spawnLogged(const std::vector<std::string> &Argv, const std::string &LogPath) {
  std::vector<char *> A;
  for (const std::string &S : Argv)
    A.push_back(const_cast<char *>(S.c_str()));
  A.push_back(nullptr);
  posix_spawn_file_actions_t Fa;
  posix_spawn_file_actions_init(&Fa);
  posix_spawn_file_actions_addopen(&Fa, 1, LogPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&Fa, 1, 2);
  pid_t Pid;
  int Err = posix_spawnp(&Pid, A[0], &Fa, nullptr, A.data(), environ);
  posix_spawn_file_actions_destroy(&Fa);
  if (Err != 0)
    return -1;
  int Status = 0;
  while (::waitpid(Pid, &Status, 0) < 0)
    if (errno != EINTR)
      return -1;
  return WIFEXITED(Status) ? WEXITSTATUS(Status) : -1;
}

} // namespace support
} // namespace clustrix

#endif // CLUSTRIX_RUNTIME_SUPPORT_SPAWN_H
