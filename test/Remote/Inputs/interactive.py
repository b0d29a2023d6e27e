#!/usr/bin/env python3
"""Checks of clustrix-run that need to watch it while it runs.

  interactive.py stream DIR -- CLUSTRIX-RUN...
      The remote program prints 'first', sleeps 2 s, prints 'second': 'first' must arrive at least
      1.5 s before clustrix-run ends (output is streamed, not collected), on stdout.
  interactive.py interrupt DIR -- CLUSTRIX-RUN...
      The remote program writes its pid (and a background child's) and prints 'ready'; then we send
      SIGINT to clustrix-run, which must exit with 130 within 5 s, and both remote processes must
      be gone within 3 s more.
  interactive.py caught DIR -- CLUSTRIX-RUN...
      The remote program traps SIGINT, prints 'caught' and exits with 7: we print the exit status
      and what came after 'ready'.
  interactive.py early SECONDS DIR -- CLUSTRIX-RUN...
      SIGINT SECONDS after the start, before the program starts (clustrix-run is connecting or
      probing): clustrix-run must exit with 130 within 2 s of it. Prints 'stopped early: exit N'.
"""
import os
import signal
import subprocess
import sys
import time

from gone import alive, wait_gone


def stream(cmd):
    start = time.monotonic()
    p = subprocess.Popen(cmd + ["stream"], stdout=subprocess.PIPE)
    first = p.stdout.readline()
    t_first = time.monotonic() - start
    rest = p.stdout.read()
    code = p.wait(timeout=30)
    t_end = time.monotonic() - start
    print(f"first line {first!r} after {t_first:.2f} s, end after {t_end:.2f} s, exit {code}",
          file=sys.stderr)
    if first != b"first\n" or rest != b"second\n" or code != 0:
        sys.exit("interactive.py: unexpected output or exit status")
    if t_end - t_first < 1.5:
        sys.exit("interactive.py: the first line was not streamed before the program ended")
    print("streamed")


def sigint(p, limit):
    """Sends SIGINT to p; returns its exit status and the seconds it took to end, or exits the
    script when it is still running after limit seconds."""
    start = time.monotonic()
    p.send_signal(signal.SIGINT)
    try:
        code = p.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        p.kill()
        sys.exit(f"interactive.py: clustrix-run did not stop within {limit} s of SIGINT")
    return code, time.monotonic() - start


def interrupt(d, cmd):
    pid_file, child_file = os.path.join(d, "app.pid"), os.path.join(d, "child.pid")
    for f in (pid_file, child_file):
        if os.path.exists(f):
            os.unlink(f)
    p = subprocess.Popen(cmd + ["wait", pid_file, child_file], stdout=subprocess.PIPE)
    line = p.stdout.readline()
    if line != b"ready\n":
        p.kill()
        sys.exit(f"interactive.py: expected 'ready', got {line!r}")
    app, child = int(open(pid_file).read()), int(open(child_file).read())
    code, took = sigint(p, 5)
    wait_gone([app, child])
    print(f"exit {code} after {took:.2f} s; remote program alive: {alive(app)}, "
          f"its child alive: {alive(child)}", file=sys.stderr)
    if code != 130 or alive(app) or alive(child):
        sys.exit("interactive.py: Ctrl-C did not stop the remote program")
    print("interrupted")


def caught(cmd):
    """Ctrl-C while a program runs that catches SIGINT: clustrix-run passes its status through."""
    p = subprocess.Popen(cmd + ["catch"], stdout=subprocess.PIPE)
    line = p.stdout.readline()
    if line != b"ready\n":
        p.kill()
        sys.exit(f"interactive.py: expected 'ready', got {line!r}")
    code, took = sigint(p, 5)
    rest = p.stdout.read()
    print(f"exit {code}; then printed {rest!r}")


def early(delay, cmd):
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    time.sleep(delay)
    if p.poll() is not None:
        sys.exit(f"interactive.py: clustrix-run ended (exit {p.returncode}) before the SIGINT")
    code, took = sigint(p, 10)
    print(f"exit {code} {took:.2f} s after SIGINT", file=sys.stderr)
    if took > 2:
        sys.exit(f"interactive.py: clustrix-run took {took:.2f} s to stop")
    print(f"stopped early: exit {code}")


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "early":
        assert sys.argv[4] == "--"
        early(float(sys.argv[2]), sys.argv[5:])
        sys.exit(0)
    d = sys.argv[2]
    assert sys.argv[3] == "--"
    if mode == "stream":
        stream(sys.argv[4:])
    elif mode == "interrupt":
        interrupt(d, sys.argv[4:])
    elif mode == "caught":
        caught(sys.argv[4:])
    else:
        sys.exit(__doc__)
