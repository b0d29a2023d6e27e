#!/usr/bin/env python3
"""gone.py PIDFILE...: waits up to 3 s until the processes whose ids the files hold have ended
(zombies count as ended: a container's init may never reap them), then prints 'gone' or the ids
still running. The fixture's "remote" processes run on this machine, so their ids are checkable."""
import os
import sys
import time


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def wait_gone(pids, seconds=3.0):
    deadline = time.monotonic() + seconds
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [p for p in pids if alive(p)]


if __name__ == "__main__":
    left = wait_gone([int(open(f).read()) for f in sys.argv[1:]])
    print("gone" if not left else "still running: " + " ".join(map(str, left)))
