//===- remote/Session.cpp - One SSH connection to a host ------------------===//
//
// libssh client: bounded TCP connect (our own socket, so that refused, unreachable and timeout are
// told apart), host key policy, public-key authentication, and commands that take their standard
// input from us and stream their output.
//
//===----------------------------------------------------------------------===//
#include "clustrix/remote/Session.h"

#include "clustrix/remote/Error.h"
#include "clustrix/remote/Text.h"

#include <libssh/callbacks.h>
#include <libssh/libssh.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <mutex>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <thread>
#include <unistd.h>

namespace clustrix {
namespace remote {

namespace {

using Clock = std::chrono::steady_clock;

/// Largest output kept by capture(); helper commands print a few lines.
const size_t MaxCapture = 16u << 20;
/// After a Ctrl-C, how long the command may take to exit before we close the channel (which
/// kills its process group).
const double InterruptGraceSeconds = 3.0;

std::string formatSeconds(double S) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%g", S);
  return Buf;
}

/// Milliseconds left until \p Deadline (0 when passed); a huge value for "no deadline".
int msLeft(Clock::time_point Deadline) {
  if (Deadline == Clock::time_point::max())
    return 1 << 30;
  auto Ms = std::chrono::duration_cast<std::chrono::milliseconds>(Deadline - Clock::now()).count();
  return Ms <= 0 ? 0 : static_cast<int>(std::min<long long>(Ms, 1 << 30));
}

Clock::time_point deadlineAfter(double Seconds) {
  if (Seconds <= 0)
    return Clock::time_point::max();
  return Clock::now() + std::chrono::microseconds(static_cast<long long>(Seconds * 1e6));
}

/// getaddrinfo() has no timeout of its own, so it runs on a helper thread that is abandoned (and
/// frees its own result) when the connect timeout passes first.
struct Resolution {
  std::mutex M;
  std::condition_variable Cv;
  bool Done = false, Abandoned = false;
  int Error = 0, Errno = 0;
  addrinfo *Result = nullptr;
};

addrinfo *resolve(const HostConfig &Host, Clock::time_point Deadline) {
  auto R = std::make_shared<Resolution>();
  std::string Name = Host.Hostname, Port = std::to_string(Host.Port);
  std::thread([R, Name, Port] {
    addrinfo Hints{};
    Hints.ai_family = AF_UNSPEC;
    Hints.ai_socktype = SOCK_STREAM;
    addrinfo *Result = nullptr;
    int Error = ::getaddrinfo(Name.c_str(), Port.c_str(), &Hints, &Result);
    int Errno = errno;
    std::lock_guard<std::mutex> Lock(R->M);
    if (R->Abandoned) {
      if (Error == 0)
        ::freeaddrinfo(Result);
      return;
    }
    R->Done = true;
    R->Error = Error;
    R->Errno = Errno;
    R->Result = Result;
    R->Cv.notify_all();
  }).detach();
  std::unique_lock<std::mutex> Lock(R->M);
  if (!R->Cv.wait_until(Lock, Deadline, [&] { return R->Done; })) {
    R->Abandoned = true;
    throw RemoteError(RemoteErrorKind::Timeout, Host.Name,
                      "looking up '" + Host.Hostname + "' did not finish within " +
                          formatSeconds(Host.ConnectTimeout) + " s (DNS not answering)");
  }
  if (R->Error != 0) {
    std::string Why = R->Error == EAI_SYSTEM ? std::strerror(R->Errno) : gai_strerror(R->Error);
    throw RemoteError(RemoteErrorKind::Dns, Host.Name,
                      "cannot resolve hostname '" + Host.Hostname + "': " + Why);
  }
  return R->Result;
}

/// Opens a TCP connection to the host within its connect timeout; throws RemoteError.
int connectSocket(const HostConfig &Host) {
  Clock::time_point Deadline = deadlineAfter(Host.ConnectTimeout);
  addrinfo *Addresses = resolve(Host, Deadline);
  std::unique_ptr<addrinfo, void (*)(addrinfo *)> Guard(Addresses, ::freeaddrinfo);
  std::string Where = Host.Hostname + ":" + std::to_string(Host.Port);
  int LastErrno = 0;
  bool TimedOut = false;
  for (addrinfo *A = Addresses; A; A = A->ai_next) {
    int Fd = ::socket(A->ai_family, A->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, A->ai_protocol);
    if (Fd < 0) {
      LastErrno = errno;
      continue;
    }
    int Rc = ::connect(Fd, A->ai_addr, A->ai_addrlen);
    if (Rc != 0 && errno == EINPROGRESS) {
      pollfd P{Fd, POLLOUT, 0};
      int Ready;
      do
        Ready = ::poll(&P, 1, msLeft(Deadline));
      while (Ready < 0 && errno == EINTR && msLeft(Deadline) > 0);
      if (Ready == 0) {
        TimedOut = true;
        ::close(Fd);
        break; // The time is spent; further addresses would only overrun it.
      }
      int Error = 0;
      socklen_t Len = sizeof(Error);
      ::getsockopt(Fd, SOL_SOCKET, SO_ERROR, &Error, &Len);
      Rc = Error == 0 ? 0 : -1;
      errno = Error;
    }
    if (Rc == 0) {
      // Notice a peer that vanishes without closing (cable, crash) during long runs.
      int On = 1, Idle = 15, Interval = 5, Count = 3;
      unsigned UserTimeoutMs = 30000;
      ::setsockopt(Fd, SOL_SOCKET, SO_KEEPALIVE, &On, sizeof(On));
      ::setsockopt(Fd, IPPROTO_TCP, TCP_KEEPIDLE, &Idle, sizeof(Idle));
      ::setsockopt(Fd, IPPROTO_TCP, TCP_KEEPINTVL, &Interval, sizeof(Interval));
      ::setsockopt(Fd, IPPROTO_TCP, TCP_KEEPCNT, &Count, sizeof(Count));
      ::setsockopt(Fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &UserTimeoutMs, sizeof(UserTimeoutMs));
      return Fd;
    }
    LastErrno = errno;
    ::close(Fd);
  }
  if (TimedOut)
    throw RemoteError(RemoteErrorKind::Timeout, Host.Name,
                      "no answer from " + Where + " within " +
                          formatSeconds(Host.ConnectTimeout) +
                          " s (host down, or a firewall drops the connection)");
  if (LastErrno == ECONNREFUSED)
    throw RemoteError(RemoteErrorKind::Refused, Host.Name,
                      "connection to " + Where + " refused (no SSH server on that port)");
  throw RemoteError(RemoteErrorKind::Unreachable, Host.Name,
                    "cannot reach " + Where + ": " + std::strerror(LastErrno));
}

/// Collects exit-status / exit-signal messages of one channel.
struct ExitState {
  bool Got = false;
  int Status = -1;
  std::string Signal;
};

void onExitStatus(ssh_session, ssh_channel, int Status, void *User) {
  auto *E = static_cast<ExitState *>(User);
  E->Got = true;
  E->Status = Status;
}

void onExitSignal(ssh_session, ssh_channel, const char *Signal, int, const char *, const char *,
                  void *User) {
  auto *E = static_cast<ExitState *>(User);
  E->Got = true;
  E->Status = -1;
  E->Signal = Signal ? Signal : "";
}

/// Passphrase callback for identity files: we never ask for or hold a passphrase; recording that
/// one was wanted lets us tell the user to use the agent instead.
int refusePassphrase(const char *, char *, size_t, int, int, void *User) {
  *static_cast<bool *>(User) = true;
  return -1;
}

int signalNumber(const std::string &Name) {
  static const std::pair<const char *, int> Signals[] = {
      {"HUP", SIGHUP},   {"INT", SIGINT},   {"QUIT", SIGQUIT}, {"ILL", SIGILL},
      {"ABRT", SIGABRT}, {"FPE", SIGFPE},   {"KILL", SIGKILL}, {"SEGV", SIGSEGV},
      {"PIPE", SIGPIPE}, {"ALRM", SIGALRM}, {"TERM", SIGTERM}, {"USR1", SIGUSR1},
      {"USR2", SIGUSR2}, {"BUS", SIGBUS},   {"TRAP", SIGTRAP}, {"XCPU", SIGXCPU}};
  for (const auto &[N, V] : Signals)
    if (Name == N)
      return V;
  return SIGTERM; // An unknown name still means "killed by a signal".
}

/// What the SSH agent named by $SSH_AUTH_SOCK says when asked for its keys. libssh reports an
/// agent that does not answer as the server refusing the agent's keys, which sends the user to
/// the wrong machine; asking first tells the two apart.
struct AgentState {
  bool Set = false;     ///< SSH_AUTH_SOCK is set.
  bool Answers = false; ///< The agent answered the request for its keys.
  long Keys = -1;       ///< How many keys it holds, when it answered.
  std::string Why;      ///< Why it does not answer.
};

AgentState askAgent(double TimeoutSeconds) {
  AgentState A;
  const char *Path = std::getenv("SSH_AUTH_SOCK");
  if (!Path || !*Path)
    return A;
  A.Set = true;
  sockaddr_un Addr{};
  Addr.sun_family = AF_UNIX;
  if (std::strlen(Path) >= sizeof(Addr.sun_path)) {
    A.Why = "the socket's path is too long";
    return A;
  }
  std::strcpy(Addr.sun_path, Path);
  int Fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (Fd < 0) {
    A.Why = std::strerror(errno);
    return A;
  }
  std::unique_ptr<int, void (*)(int *)> Guard(&Fd, [](int *F) { ::close(*F); });
  if (::connect(Fd, reinterpret_cast<sockaddr *>(&Addr), sizeof(Addr)) != 0) {
    A.Why = std::string("connecting to it failed: ") + std::strerror(errno);
    return A;
  }
  // SSH_AGENTC_REQUEST_IDENTITIES (11), framed by its length; the answer starts with its length,
  // SSH_AGENT_IDENTITIES_ANSWER (12) and the number of keys.
  const unsigned char Request[] = {0, 0, 0, 1, 11};
  if (::send(Fd, Request, sizeof(Request), MSG_NOSIGNAL) != static_cast<ssize_t>(sizeof(Request))) {
    A.Why = std::string("it does not take a request: ") + std::strerror(errno);
    return A;
  }
  unsigned char Reply[9];
  size_t Got = 0;
  Clock::time_point Deadline = deadlineAfter(TimeoutSeconds);
  while (Got < sizeof(Reply)) {
    pollfd P{Fd, POLLIN, 0};
    int Ready = ::poll(&P, 1, msLeft(Deadline));
    if (Ready < 0 && errno == EINTR)
      continue;
    if (Ready <= 0)
      break;
    ssize_t N = ::recv(Fd, Reply + Got, sizeof(Reply) - Got, 0);
    if (N <= 0)
      break;
    Got += static_cast<size_t>(N);
  }
  if (Got < sizeof(Reply) || Reply[4] != 12) {
    A.Why = "it did not answer a request for its keys";
    return A;
  }
  A.Answers = true;
  A.Keys = (long(Reply[5]) << 24) | (long(Reply[6]) << 16) | (long(Reply[7]) << 8) | Reply[8];
  return A;
}

} // namespace

int CommandExit::code() const {
  if (Status >= 0)
    return Status;
  if (!Signal.empty())
    return 128 + signalNumber(Signal);
  return 128 + SIGINT; // Interrupted before the host told us how it ended.
}

/// The libssh handles of one session.
class SshSession::Impl {
public:
  explicit Impl(const HostConfig &Host) : Host(Host) {}
  ~Impl() {
    if (Session) {
      ssh_disconnect(Session);
      ssh_free(Session);
    }
  }

  void connect();
  [[noreturn]] void fail(RemoteErrorKind Kind, const std::string &Message) const {
    throw RemoteError(Kind, Host.Name, Message);
  }
  std::string sshError() const { return ssh_get_error(Session); }
  /// The error of a failed blocking libssh call: a timeout when it says so, else \p Kind.
  [[noreturn]] void failSsh(RemoteErrorKind Kind, const std::string &What) const {
    std::string Error = sshError();
    if (Error.find("imeout") != std::string::npos)
      fail(RemoteErrorKind::Timeout, What + " did not finish within " +
                                         formatSeconds(Host.ConnectTimeout) + " s");
    if (!ssh_is_connected(Session))
      fail(RemoteErrorKind::ConnectionLost, What + " failed: connection lost (" + Error + ")");
    fail(Kind, What + " failed: " + Error);
  }
  void verifyHostKey();
  void authenticate();

  const HostConfig &Host;
  ssh_session Session = nullptr;
};

void SshSession::Impl::connect() {
  int Fd = connectSocket(Host);
  Session = ssh_new();
  if (!Session) {
    ::close(Fd);
    fail(RemoteErrorKind::Protocol, "cannot create an SSH session (out of memory)");
  }
  long Seconds = static_cast<long>(Host.ConnectTimeout);
  long Micros = static_cast<long>(std::lround((Host.ConnectTimeout - Seconds) * 1e6));
  int Verbosity = SSH_LOG_NOLOG, Port = Host.Port;
  int No = 0;
  std::string KnownHosts = expandLocalPath(
      Host.KnownHostsFile.empty() ? std::string("~/.ssh/known_hosts") : Host.KnownHostsFile);
  // Our own settings only: ~/.ssh/config must not silently redirect a configured host.
  ssh_options_set(Session, SSH_OPTIONS_PROCESS_CONFIG, &No);
  ssh_options_set(Session, SSH_OPTIONS_LOG_VERBOSITY, &Verbosity);
  ssh_options_set(Session, SSH_OPTIONS_HOST, Host.Hostname.c_str());
  ssh_options_set(Session, SSH_OPTIONS_PORT, &Port);
  if (!Host.User.empty())
    ssh_options_set(Session, SSH_OPTIONS_USER, Host.User.c_str());
  ssh_options_set(Session, SSH_OPTIONS_KNOWNHOSTS, KnownHosts.c_str());
  // libssh would take the default keys (%d/id_*) from the passwd entry's home; ~/ in the
  // configuration means localHome(), and so does this.
  std::string SshDir = localHome() + "/.ssh";
  ssh_options_set(Session, SSH_OPTIONS_SSH_DIR, SshDir.c_str());
  ssh_options_set(Session, SSH_OPTIONS_TIMEOUT, &Seconds);
  ssh_options_set(Session, SSH_OPTIONS_TIMEOUT_USEC, &Micros);
  socket_t Socket = Fd;
  // From here libssh owns the socket and closes it in ssh_free().
  ssh_options_set(Session, SSH_OPTIONS_FD, &Socket);
  if (ssh_connect(Session) != SSH_OK) {
    std::string Error = sshError();
    if (Error.find("Timeout") != std::string::npos)
      fail(RemoteErrorKind::Timeout, "the SSH handshake with " + Host.Hostname + ":" +
                                         std::to_string(Host.Port) + " did not finish within " +
                                         formatSeconds(Host.ConnectTimeout) +
                                         " s (is an SSH server listening there?)");
    fail(RemoteErrorKind::Protocol, "the SSH handshake failed: " + Error);
  }
  verifyHostKey();
  authenticate();
}

void SshSession::Impl::verifyHostKey() {
  ssh_key Key = nullptr;
  if (ssh_get_server_publickey(Session, &Key) != SSH_OK)
    failSsh(RemoteErrorKind::Protocol, "reading the server's host key");
  unsigned char *Hash = nullptr;
  size_t HashLen = 0;
  std::string Fingerprint = "(unknown)";
  std::string Type = ssh_key_type_to_char(ssh_key_type(Key));
  if (ssh_get_publickey_hash(Key, SSH_PUBLICKEY_HASH_SHA256, &Hash, &HashLen) == SSH_OK) {
    char *Text = ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256, Hash, HashLen);
    if (Text) {
      Fingerprint = Text;
      ssh_string_free_char(Text);
    }
    ssh_clean_pubkey_hash(&Hash);
  }
  ssh_key_free(Key);
  std::string KnownHosts = expandLocalPath(
      Host.KnownHostsFile.empty() ? std::string("~/.ssh/known_hosts") : Host.KnownHostsFile);
  std::string Entry = Host.Port == 22 ? Host.Hostname
                                      : "[" + Host.Hostname + "]:" + std::to_string(Host.Port);
  switch (ssh_session_is_known_server(Session)) {
  case SSH_KNOWN_HOSTS_OK:
    return;
  case SSH_KNOWN_HOSTS_CHANGED:
  case SSH_KNOWN_HOSTS_OTHER:
    fail(RemoteErrorKind::HostKeyChanged,
         "the server's host key (" + Type + " " + Fingerprint + ") does not match the key " +
             KnownHosts + " lists for " + Entry +
             ": refusing to connect. If the host was reinstalled, remove the old entry "
             "(ssh-keygen -R '" + Entry + "' -f " + KnownHosts + ") and connect again");
  case SSH_KNOWN_HOSTS_NOT_FOUND:
  case SSH_KNOWN_HOSTS_UNKNOWN:
    if (Host.KeyPolicy == HostKeyPolicy::AcceptNew) {
      // libssh appends to the file but does not create its directory.
      std::string Dir = KnownHosts.substr(0, KnownHosts.rfind('/'));
      if (!Dir.empty())
        ::mkdir(Dir.c_str(), 0700);
      if (ssh_session_update_known_hosts(Session) != SSH_OK)
        failSsh(RemoteErrorKind::Protocol, "recording the new host key in " + KnownHosts);
      return;
    }
    fail(RemoteErrorKind::HostKeyUnknown,
         "the server's host key (" + Type + " " + Fingerprint + ") is not in " + KnownHosts +
             " and host_key_policy is strict: refusing to connect. Check the fingerprint and "
             "add the key (ssh-keyscan -p " + std::to_string(Host.Port) + " " + Host.Hostname +
             " >> " + KnownHosts + "), or set host_key_policy: accept-new");
  case SSH_KNOWN_HOSTS_ERROR:
    break;
  }
  failSsh(RemoteErrorKind::Protocol, "checking the host key against " + KnownHosts);
}

void SshSession::Impl::authenticate() {
  std::string User = Host.User;
  if (User.empty()) {
    char *Name = nullptr;
    if (ssh_options_get(Session, SSH_OPTIONS_USER, &Name) == SSH_OK && Name) {
      User = Name;
      ssh_string_free_char(Name);
    }
  }
  int Rc;
  std::string Offered, AgentNote;
  if (!Host.IdentityFile.empty()) {
    std::string Path = expandLocalPath(Host.IdentityFile);
    Offered = "the key " + Path;
    if (::access(Path.c_str(), R_OK) != 0)
      fail(RemoteErrorKind::Identity,
           "cannot read identity_file " + Path + ": " + std::strerror(errno));
    bool WantedPassphrase = false;
    ssh_key Key = nullptr;
    if (ssh_pki_import_privkey_file(Path.c_str(), nullptr, refusePassphrase, &WantedPassphrase,
                                    &Key) != SSH_OK) {
      if (WantedPassphrase)
        fail(RemoteErrorKind::Identity,
             "identity_file " + Path +
                 " is protected by a passphrase; add it to ssh-agent (ssh-add) and set "
                 "'agent: true' instead");
      fail(RemoteErrorKind::Identity, "identity_file " + Path + " is not a private key libssh reads");
    }
    Rc = ssh_userauth_publickey(Session, nullptr, Key);
    ssh_key_free(Key);
  } else if (Host.UseAgent) {
    Offered = "the keys of the SSH agent";
    AgentState Agent = askAgent(Host.ConnectTimeout);
    if (!Agent.Set)
      fail(RemoteErrorKind::Authentication,
           "'agent: true' but no SSH agent is running here (SSH_AUTH_SOCK is not set)");
    if (!Agent.Answers)
      fail(RemoteErrorKind::Authentication,
           "'agent: true' but the SSH agent does not answer (SSH_AUTH_SOCK is set, but " +
               Agent.Why + "); start one (eval \"$(ssh-agent)\") and add your key (ssh-add)");
    if (Agent.Keys == 0)
      fail(RemoteErrorKind::Authentication,
           "'agent: true' but the SSH agent holds no keys; add yours with ssh-add");
    Rc = ssh_userauth_agent(Session, nullptr);
  } else {
    Offered = "the default keys (" + localHome() + "/.ssh/id_*)";
    AgentState Agent = askAgent(Host.ConnectTimeout);
    if (Agent.Answers)
      Offered = "the SSH agent's keys and " + Offered;
    else if (Agent.Set)
      AgentNote = "; the SSH agent does not answer (" + Agent.Why + "), so its keys were not offered";
    Rc = ssh_userauth_publickey_auto(Session, nullptr, nullptr);
  }
  switch (Rc) {
  case SSH_AUTH_SUCCESS:
    return;
  case SSH_AUTH_DENIED:
    fail(RemoteErrorKind::Authentication, "the server refused " + Offered + " for user '" +
                                              User + "' (authentication failed)" + AgentNote);
  case SSH_AUTH_PARTIAL:
    fail(RemoteErrorKind::Authentication,
         "the server wants more than a public key for user '" + User +
             "' (multi-factor authentication is not supported)");
  case SSH_AUTH_AGAIN:
    fail(RemoteErrorKind::Timeout, "authentication did not finish within " +
                                       formatSeconds(Host.ConnectTimeout) + " s");
  default:
    failSsh(RemoteErrorKind::Authentication, "authentication as '" + User + "'");
  }
}

SshSession::SshSession(const HostConfig &Host) : Host(Host), P(std::make_unique<Impl>(this->Host)) {
  P->connect();
}

SshSession::~SshSession() = default;

CommandExit SshSession::run(const RemoteCommand &Command, const CommandIO &IO,
                            double TimeoutSeconds) {
  ssh_session S = P->Session;
  std::ifstream File;
  if (!Command.InputFile.empty()) {
    File.open(Command.InputFile, std::ios::binary);
    if (!File)
      throw RemoteError(RemoteErrorKind::CommandFailed, Host.Name,
                        "cannot read " + Command.InputFile + ": " + std::strerror(errno));
  }
  std::unique_ptr<ssh_channel_struct, void (*)(ssh_channel)> Channel(ssh_channel_new(S),
                                                                     ssh_channel_free);
  if (!Channel)
    P->failSsh(RemoteErrorKind::Protocol, "opening a channel");
  ssh_channel C = Channel.get();
  if (ssh_channel_open_session(C) != SSH_OK)
    P->failSsh(RemoteErrorKind::Protocol, "opening a session channel");
  ExitState Exit;
  ssh_channel_callbacks_struct Callbacks{};
  Callbacks.userdata = &Exit;
  Callbacks.channel_exit_status_function = onExitStatus;
  Callbacks.channel_exit_signal_function = onExitSignal;
  ssh_callbacks_init(&Callbacks);
  ssh_set_channel_callbacks(C, &Callbacks);
  if (ssh_channel_request_exec(C, Command.Text.c_str()) != SSH_OK)
    P->failSsh(RemoteErrorKind::Protocol, "starting the remote command");

  // libssh stops reading the socket for a channel's reads once the remote sent EOF, but the exit
  // status and the close often come after it; an event loop on the session keeps processing
  // packets (and waits for the socket without spinning).
  std::unique_ptr<ssh_event_struct, void (*)(ssh_event)> Event(ssh_event_new(), ssh_event_free);
  if (!Event || ssh_event_add_session(Event.get(), S) != SSH_OK)
    P->fail(RemoteErrorKind::Protocol, "cannot poll the SSH session");
  struct RemoveSession {
    ssh_event E;
    ssh_session S;
    ~RemoveSession() { ssh_event_remove_session(E, S); }
  } Remover{Event.get(), S};

  // Standard input: the text, then the file, a block per turn of the loop so that output keeps
  // flowing; ssh_channel_write blocks (within the connect timeout) until the host's window has
  // room. The run's own deadline starts once everything is written.
  size_t TextSent = 0;
  bool InputDone = false;
  char Buffer[32768];
  // Returns false when the command ended (its channel closed) before it took all its input: a
  // command that fails at once (a `cd` into a missing directory) is answered by its exit status,
  // not by a write error.
  auto writeInput = [&](const char *Data, size_t Size) {
    while (Size > 0) {
      if (ssh_channel_is_closed(C))
        return false;
      int N = ssh_channel_write(C, Data, static_cast<uint32_t>(std::min<size_t>(Size, 1u << 20)));
      if (N < 0 && ssh_is_connected(S) && ssh_channel_is_closed(C))
        return false;
      if (N < 0)
        P->failSsh(RemoteErrorKind::ConnectionLost, "sending the command's input");
      if (N == 0)
        P->fail(RemoteErrorKind::Timeout, "the host stopped reading the command's input for " +
                                              formatSeconds(Host.ConnectTimeout) + " s");
      Data += N;
      Size -= static_cast<size_t>(N);
    }
    return true;
  };
  auto sendSomeInput = [&] {
    bool Open = true;
    if (TextSent < Command.Input.size()) {
      size_t N = std::min(Command.Input.size() - TextSent, sizeof(Buffer));
      Open = writeInput(Command.Input.data() + TextSent, N);
      TextSent += N;
      if (Open)
        return;
    } else if (File.is_open() && File) {
      File.read(Buffer, sizeof(Buffer));
      if (File.bad())
        throw RemoteError(RemoteErrorKind::CommandFailed, Host.Name,
                          "cannot read " + Command.InputFile + ": " + std::strerror(errno));
      if (File.gcount() > 0) {
        Open = writeInput(Buffer, static_cast<size_t>(File.gcount()));
        if (Open)
          return;
      }
    }
    if (Open && Command.EndInput)
      ssh_channel_send_eof(C);
    InputDone = true;
  };

  Clock::time_point Deadline = Clock::time_point::max();
  Clock::time_point StopDeadline = Clock::time_point::max();
  bool Stopping = false;
  for (;;) {
    if (!InputDone) {
      sendSomeInput();
      if (InputDone)
        Deadline = deadlineAfter(TimeoutSeconds);
    }
    if (InputDone && !Stopping && IO.ShouldStop && IO.ShouldStop()) {
      // One line on the channel's stdin, after the environment block, is a Ctrl-C for the
      // remote process group (see guardedCommand()).
      ssh_channel_write(C, "INT\n", 4);
      Stopping = true;
      StopDeadline = deadlineAfter(InterruptGraceSeconds);
    }
    if (Stopping && msLeft(StopDeadline) == 0) {
      // Closing the channel ends the watcher's input: it kills the whole group.
      ssh_channel_close(C);
      CommandExit Out;
      Out.Interrupted = true;
      return Out;
    }
    if (msLeft(Deadline) == 0) {
      ssh_channel_close(C);
      P->fail(RemoteErrorKind::Timeout, "the remote command did not finish within " +
                                            formatSeconds(TimeoutSeconds) + " s; stopped it");
    }
    int Out = ssh_channel_read_nonblocking(C, Buffer, sizeof(Buffer), 0);
    if (Out > 0 && IO.Stdout)
      IO.Stdout(Buffer, static_cast<size_t>(Out));
    int Err = ssh_channel_read_nonblocking(C, Buffer, sizeof(Buffer), 1);
    if (Err > 0 && IO.Stderr)
      IO.Stderr(Buffer, static_cast<size_t>(Err));
    if (Out == SSH_ERROR || Err == SSH_ERROR || !ssh_is_connected(S))
      P->fail(RemoteErrorKind::ConnectionLost,
              "the connection dropped while the remote command ran (" + P->sshError() + ")");
    if (Out > 0 || Err > 0 || !InputDone)
      continue;
    if (ssh_channel_is_closed(C) || (ssh_channel_is_eof(C) && Exit.Got))
      break;
    // Waits for the socket and handles what arrives (data into the channel's buffers, exit
    // status, close). Short waits keep Ctrl-C and the deadlines responsive.
    if (ssh_event_dopoll(Event.get(), std::min({100, msLeft(Deadline), msLeft(StopDeadline)})) ==
            SSH_ERROR &&
        !ssh_is_connected(S))
      P->fail(RemoteErrorKind::ConnectionLost,
              "the connection dropped while the remote command ran (" + P->sshError() + ")");
  }
  if (!Exit.Got)
    P->fail(RemoteErrorKind::ConnectionLost,
            "the remote command ended without an exit status (the server closed the channel)");
  ssh_channel_send_eof(C);
  ssh_channel_close(C);
  CommandExit Out;
  Out.Status = Exit.Status;
  Out.Signal = Exit.Signal;
  Out.Interrupted = Stopping;
  return Out;
}

CapturedCommand SshSession::capture(const RemoteCommand &Command, double TimeoutSeconds) {
  CapturedCommand Result;
  CommandIO IO;
  IO.Stdout = [&](const char *Data, size_t Size) {
    if (Result.Stdout.size() < MaxCapture)
      Result.Stdout.append(Data, std::min(Size, MaxCapture - Result.Stdout.size()));
  };
  IO.Stderr = [&](const char *Data, size_t Size) {
    if (Result.Stderr.size() < MaxCapture)
      Result.Stderr.append(Data, std::min(Size, MaxCapture - Result.Stderr.size()));
  };
  Result.Exit = run(Command, IO, TimeoutSeconds);
  return Result;
}

} // namespace remote
} // namespace clustrix
