#!/usr/bin/env python3
"""A throwaway OpenSSH server on a loopback port, for the Remote tests.

  sshd_fixture.py start DIR SSHD   make keys, a fake nvidia-smi, DIR/clustrix.yml; start sshd
  sshd_fixture.py stop DIR         stop sshd and the watchdog

Everything lives in DIR (recreated by start). sshd runs in the foreground (-D -e) under a watchdog
process that kills it after LIFETIME seconds even when a test dies before its `stop` line; the
watchdog also holds a listening socket that never answers (the `silent` host). Works as root and as
a normal user: the user key is authorized through AuthorizedKeysFile in DIR, StrictModes is off,
and only the current user logs in. Only 127.0.0.1 is ever used. There is no SFTP subsystem:
clustrix-run copies programs over the command channel.

sshd listens on a second port whose sessions print login chatter first (the `chatter` host), as an
`echo` in a remote ~/.bashrc does. DIR/slow.yml has hosts whose connect or probe takes long, for
the Ctrl-C tests. As root, the fixture also makes sure the local user OTHER_USER exists, so that a
test can look at the process list as another user would.
"""
import getpass
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

LIFETIME = 120  # seconds; far above any test's run time
OTHER_USER = "clustrix-ps"  # an unprivileged local user, made only when running as root


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def keygen(path, comment):
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", path],
                   check=True)


def alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except OSError:
        return False


def write(path, text, mode=0o644):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, mode)


FAKE_NVIDIA_SMI = r"""#!/bin/sh
# A stand-in for nvidia-smi: FAKE_SMI_MODE picks what the "host" has.
case "${FAKE_SMI_MODE:-eight}" in
eight)
  for i in 0 1 2 3 4 5 6 7; do
    used=0; [ "$i" -ge 6 ] && used=40000   # GPUs 6 and 7 are busy
    printf '%d, NVIDIA H100 80GB HBM3, 81559, %d, 9.0, GPU-0000000%d-aaaa-bbbb-cccc-dddddddddddd\n' "$i" "$used" "$i"
  done ;;
two)
  printf '0, NVIDIA A100-SXM4-40GB, 40960, 100, 8.0, GPU-1111-0\n1, NVIDIA A100-SXM4-40GB, 40960, 100, 8.0, GPU-1111-1\n' ;;
none)
  echo "No devices were found"; exit 6 ;;
garbled)
  printf '0, NVIDIA H100 80GB HBM3, 81559, 0, 9.0, GPU-00000000-aaaa\n1, NVIDIA H100 80GB HBM3, lots, 0\n' ;;
hang)
  echo $$ > "$FAKE_SMI_PIDFILE"; sleep 300 ;;
broken)
  echo "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver." >&2; exit 9 ;;
escapes)
  # A name that would clear the screen and retitle the terminal, with a byte that is not UTF-8.
  printf '0, NVIDIA\033[2J\033]0;owned\007 H100\377, 81559, 0, 9.0, GPU-00000000-aaaa\n' ;;
binary)
  printf '\377\376\000\033[31mgarbage\200\n' ;;
esac
"""

# Login chatter: what an `echo` in a remote ~/.bashrc prints before every command.
CHATTER = """#!/bin/sh
echo "Welcome to the chatty host (from ~/.bashrc)"
echo "chatter on stderr too" >&2
exec /bin/sh -c "$SSH_ORIGINAL_COMMAND"
"""


def ensure_other_user():
    try:
        import pwd
        pwd.getpwnam(OTHER_USER)
        return
    except KeyError:
        pass
    subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin",
                    OTHER_USER], check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def start(d, sshd):
    stop(d, quiet=True)
    if os.path.isdir(d):
        shutil.rmtree(d)
    os.makedirs(d)
    d = os.path.abspath(d)
    user = getpass.getuser()
    keygen(f"{d}/host_key", "clustrix-test-host")
    keygen(f"{d}/other_host_key", "clustrix-test-other-host")
    keygen(f"{d}/user_key", "clustrix-test-user")
    keygen(f"{d}/bad_user_key", "clustrix-test-unauthorized")
    shutil.copy(f"{d}/user_key.pub", f"{d}/authorized_keys")
    os.makedirs(f"{d}/fakebin")
    write(f"{d}/fakebin/nvidia-smi", FAKE_NVIDIA_SMI, 0o755)
    write(f"{d}/chatter.sh", CHATTER, 0o755)
    # A PATH with no nvidia-smi even on a machine that has a real one.
    os.makedirs(f"{d}/barebin")
    for tool in ["mkdir", "nproc", "getconf", "cat", "sleep", "sha256sum", "chmod", "mv"]:
        found = shutil.which(tool)
        if found:
            os.symlink(found, f"{d}/barebin/{tool}")
    os.makedirs(f"{d}/remote")
    if os.geteuid() == 0:
        os.makedirs("/run/sshd", mode=0o755, exist_ok=True)  # sshd's privilege separation dir
        ensure_other_user()

    # The watchdog: holds the silent port and kills sshd after LIFETIME seconds.
    silent = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    silent.bind(("127.0.0.1", 0))
    silent.listen(16)
    silent_port = silent.getsockname()[1]
    closed_port = free_port()

    for attempt in range(5):
        port, chatter_port = free_port(), free_port()
        write(f"{d}/sshd_config", f"""Port {port}
Port {chatter_port}
ListenAddress 127.0.0.1
HostKey {d}/host_key
PidFile {d}/sshd.pid
AuthorizedKeysFile {d}/authorized_keys
StrictModes no
UsePAM no
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
AllowUsers {user}
PrintMotd no
MaxStartups 100
MaxSessions 100
LogLevel VERBOSE
Match LocalPort {chatter_port}
  ForceCommand {d}/chatter.sh
""")
        log = open(f"{d}/sshd.log", "ab")
        proc = subprocess.Popen([sshd, "-D", "-e", "-f", f"{d}/sshd_config"], stdin=subprocess.DEVNULL,
                                stdout=log, stderr=log, start_new_session=True)
        deadline = time.time() + 10
        up = False
        while time.time() < deadline and proc.poll() is None:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as c:
                    c.settimeout(2)
                    up = c.recv(4).startswith(b"SSH-")
                    break
            except OSError:
                time.sleep(0.05)
        if up:
            break
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
    else:
        sys.exit("sshd did not start; see " + f"{d}/sshd.log")

    watchdog = os.fork()
    if watchdog == 0:
        # Detach from the test's output pipes, or the test would wait for the watchdog.
        os.setsid()
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        end = time.time() + LIFETIME
        while time.time() < end and alive(proc.pid):
            time.sleep(0.2)
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            pass
        os._exit(0)
    silent.close()  # the watchdog's copy keeps listening
    write(f"{d}/pids", f"{proc.pid} {watchdog}\n")

    host_pub = open(f"{d}/host_key.pub").read().split()
    other_pub = open(f"{d}/other_host_key.pub").read().split()
    entry = f"[127.0.0.1]:{port}"
    write(f"{d}/known_hosts", f"{entry} {host_pub[0]} {host_pub[1]}\n")
    write(f"{d}/known_hosts_wrong", f"{entry} {other_pub[0]} {other_pub[1]}\n")

    common = f"""    hostname: 127.0.0.1
    port: {port}
    user: {user}
    identity_file: {d}/user_key
    known_hosts: {d}/known_hosts
    connect_timeout: 5
    command_timeout: 10
    cache_ttl: 0
    workdir: {d}/remote"""
    path = f"{d}/fakebin:/usr/local/bin:/usr/bin:/bin"

    def host(name, extra="", mode="eight", base=common):
        return f"""  - name: {name}
{base}
    env:
      PATH: "{path}"
      FAKE_SMI_MODE: {mode}
      FAKE_SMI_PIDFILE: {d}/probe.pid
{extra}"""
    hosts = [
        host("gpu8"),
        host("hidden", "", "eight").replace("      FAKE_SMI_MODE: eight",
                                            "      FAKE_SMI_MODE: eight\n      CUDA_VISIBLE_DEVICES: \"0\""),
        host("stray", "    setup:\n      - export CUDA_VISIBLE_DEVICES=3,5\n"),
        host("nogpu", "", "none"),
        host("nosmi").replace(f'PATH: "{path}"', f'PATH: "{d}/barebin"'),
        host("garbled", "", "garbled"),
        host("broken", "", "broken"),
        host("hang", "", "hang").replace("command_timeout: 10", "command_timeout: 2"),
        host("wrongkey").replace(f"{d}/known_hosts\n", f"{d}/known_hosts_wrong\n"),
        host("unknownkey").replace(f"{d}/known_hosts\n", f"{d}/known_hosts_none\n"),
        host("acceptnew").replace(f"{d}/known_hosts\n",
                                  f"{d}/known_hosts_new\n    host_key_policy: accept-new\n"),
        host("badkey").replace(f"{d}/user_key\n", f"{d}/bad_user_key\n"),
        host("closed").replace(f"port: {port}", f"port: {closed_port}")
                      .replace("connect_timeout: 5", "connect_timeout: 2"),
        host("silent").replace(f"port: {port}", f"port: {silent_port}")
                      .replace("connect_timeout: 5", "connect_timeout: 1.5"),
        host("cached", "", "two").replace("cache_ttl: 0", "cache_ttl: 600"),
        host("badsetup", "    setup:\n      - false\n"),
        host("chatter").replace(f"port: {port}", f"port: {chatter_port}"),
        host("escapes", "", "escapes"),
        host("binary", "", "binary"),
        host("secret").replace(
            "      FAKE_SMI_MODE: eight", "      FAKE_SMI_MODE: eight\n      SECRET_ENV: hunter2-env-value"),
    ]
    write(f"{d}/clustrix.yml", "# Generated by sshd_fixture.py\nhosts:\n" + "".join(hosts))
    # known_hosts names the host by port: the chatter port needs its own line.
    with open(f"{d}/known_hosts", "a") as f:
        f.write(f"[127.0.0.1]:{chatter_port} {host_pub[0]} {host_pub[1]}\n")
    slow = [
        host("slowconnect").replace(f"port: {port}", f"port: {silent_port}")
                           .replace("connect_timeout: 5", "connect_timeout: 20"),
        host("slowprobe", "", "hang").replace("command_timeout: 10", "command_timeout: 20"),
    ]
    write(f"{d}/slow.yml", "# Generated by sshd_fixture.py\nhosts:\n" + "".join(slow))
    print(port)


def stop(d, quiet=False):
    try:
        pids = [int(p) for p in open(os.path.join(d, "pids")).read().split()]
    except (OSError, ValueError):
        if not quiet:
            sys.exit("no fixture running in " + d)
        return
    sshd, watchdog = pids
    for pid, group in ((sshd, True), (watchdog, False)):
        try:
            os.killpg(pid, signal.SIGTERM) if group else os.kill(pid, signal.SIGTERM)
        except OSError:
            pass
    deadline = time.time() + 5
    for pid in (sshd, watchdog):
        while time.time() < deadline and alive(pid):
            time.sleep(0.05)
        if alive(pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
    os.unlink(os.path.join(d, "pids"))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "start":
        start(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "stop":
        stop(sys.argv[2])
    else:
        sys.exit(__doc__)
