//===- MpiLaunch.cpp - clustrix-run --hosts: one MPI job over hosts -------===//
#include "MpiLaunch.h"

#include "clustrix/remote/Devices.h"

#include <cerrno>
#include <cstdlib>
#include <csignal>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sys/wait.h>
#include <unistd.h>

namespace clustrix {

using remote::HostConfig;

bool parseHostList(const std::string &Text, std::vector<std::string> &Out, std::string &Err) {
  Out.clear();
  size_t Pos = 0;
  for (;;) {
    size_t Comma = Text.find(',', Pos);
    std::string Name = Text.substr(Pos, Comma == std::string::npos ? Comma : Comma - Pos);
    if (Name.empty()) {
      Err = "--hosts: an empty host name in '" + Text + "'";
      return false;
    }
    Out.push_back(Name);
    if (Comma == std::string::npos)
      return true;
    Pos = Comma + 1;
  }
}

namespace {

std::string quote(const std::string &S) {
  if (!S.empty() && S.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                        "0123456789_-./=:,@+%") == std::string::npos)
    return S;
  std::string Q = "'";
  for (char C : S)
    Q += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Q + "'";
}

int fail(const std::string &Message) {
  std::cerr << "clustrix-run: error: " << Message << "\n";
  return 2;
}

} // namespace

int runOverMpi(const std::vector<HostConfig> &Configured, const MpiLaunch &L, char **Environ) {
  std::vector<const HostConfig *> Hosts;
  for (const std::string &Name : L.Hosts) {
    const HostConfig *H = remote::findHost(Configured, Name);
    if (!H) {
      std::string Known;
      for (const HostConfig &C : Configured)
        Known += (Known.empty() ? "" : ", ") + C.Name;
      return fail("--hosts: no host named '" + Name + "' is configured" +
                  (Known.empty() ? std::string(" (the hosts: section is empty)")
                                 : " (known: " + Known + ")"));
    }
    for (const HostConfig *Other : Hosts)
      if (Other == H)
        return fail("--hosts: '" + Name + "' is listed twice (use --ranks-per-host)");
    Hosts.push_back(H);
  }
  // One mpirun passes one set of ssh options to every host.
  const HostConfig &First = *Hosts.front();
  for (const HostConfig *H : Hosts) {
    auto Differ = [&](const char *Key, const std::string &A, const std::string &B) {
      return fail("--hosts: " + First.Name + " and " + H->Name + " differ in " + Key + " ('" + A +
                  "', '" + B + "'); mpirun gives every host the same ssh options");
    };
    if (H->Port != First.Port)
      return Differ("port", std::to_string(First.Port), std::to_string(H->Port));
    if (H->User != First.User)
      return Differ("user", First.User, H->User);
    if (H->IdentityFile != First.IdentityFile)
      return Differ("identity_file", First.IdentityFile, H->IdentityFile);
    if (H->Env != First.Env)
      return fail("--hosts: " + First.Name + " and " + H->Name +
                  " set different env: values; one MPI job passes one environment");
  }
  for (const HostConfig *H : Hosts)
    if (!H->Setup.empty())
      std::cerr << "clustrix-run: warning: --hosts: the setup: commands of " << H->Name
                << " are not run (mpirun starts the program directly); put them in the "
                   "remote shell's startup file\n";

  std::string Program = L.Program.front();
  if (Program.find('/') != std::string::npos && Program[0] != '/') {
    while (Program.compare(0, 2, "./") == 0)
      Program = Program.substr(2);
    char Cwd[4096];
    if (::getcwd(Cwd, sizeof(Cwd)))
      Program = std::string(Cwd) + "/" + Program;
  }
  std::string HostFileText;
  for (const HostConfig *H : Hosts)
    HostFileText += H->Hostname + " slots=" + std::to_string(L.RanksPerHost) + "\n";

  const char *Mpirun = std::getenv("CLUSTRIX_MPIRUN");
  std::vector<std::string> Argv = {Mpirun && *Mpirun ? Mpirun : "mpirun"};
  std::string HostFile = "HOSTFILE";
  if (!L.DryRun) {
    const char *Tmp = std::getenv("TMPDIR");
    HostFile = std::string(Tmp && *Tmp ? Tmp : "/tmp") + "/clustrix-hosts-XXXXXX";
    int Fd = ::mkstemp(&HostFile[0]);
    if (Fd < 0)
      return fail("cannot create a host file in " + HostFile.substr(0, HostFile.rfind('/')));
    ::close(Fd);
    std::ofstream(HostFile) << HostFileText;
  }
  Argv.insert(Argv.end(), {"--hostfile", HostFile, "-np",
                           std::to_string(L.RanksPerHost * static_cast<int>(Hosts.size())),
                           "--map-by", "slot"});
  std::string Ssh = "-o BatchMode=yes";
  if (First.Port != 22)
    Ssh += " -p " + std::to_string(First.Port);
  if (!First.User.empty())
    Ssh += " -l " + First.User;
  if (!First.IdentityFile.empty())
    Ssh += " -i " + remote::expandLocalPath(First.IdentityFile);
  Argv.insert(Argv.end(), {"--mca", "plm_rsh_args", Ssh});
  for (const auto &[Name, Value] : First.Env)
    Argv.insert(Argv.end(), {"-x", Name + "=" + Value});
  for (const auto &[Name, Value] : remote::clustrixEnvironment(Environ))
    Argv.insert(Argv.end(), {"-x", Name + "=" + Value});
  Argv.push_back(Program);
  Argv.insert(Argv.end(), L.Program.begin() + 1, L.Program.end());

  if (L.DryRun) {
    std::cout << "# HOSTFILE\n" << HostFileText;
    for (size_t I = 0; I < Argv.size(); ++I)
      std::cout << (I ? " " : "") << quote(Argv[I]);
    std::cout << "\n";
    return 0;
  }
  pid_t Pid = ::fork();
  if (Pid == 0) {
    std::signal(SIGPIPE, SIG_DFL); // ignored by clustrix-run itself, not by mpirun
    std::vector<char *> A;
    for (std::string &S : Argv)
      A.push_back(&S[0]);
    A.push_back(nullptr);
    ::execvp(A[0], A.data());
    std::cerr << "clustrix-run: error: cannot start " << Argv[0] << ": " << std::strerror(errno)
              << " (install openmpi-bin, or name mpirun with CLUSTRIX_MPIRUN)\n";
    ::_exit(255);
  }
  int Status = 0;
  while (Pid > 0 && ::waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
  }
  ::unlink(HostFile.c_str());
  if (Pid < 0)
    return fail(std::string("cannot start mpirun: ") + std::strerror(errno));
  return WIFEXITED(Status) ? WEXITSTATUS(Status) : 128 + WTERMSIG(Status);
}

} // namespace clustrix
