#!/usr/bin/env python3
"""psview.py DIR USER -- CLUSTRIX-RUN...: what another user of the host sees.

The values to look for are the words of $PSVIEW_VALUES (never on a command line here, or ps would
find them in ours). Runs CLUSTRIX-RUN... `secret DIR/secret.out` (remote_app.sh's mode that
writes the values it got and waits), and once the program is ready lists every process's command
line as USER with `ps -eww -o pid=,args=`, as any user of a host can. Then stops the run with
Ctrl-C. Prints 'hidden' when no value appears in that list and the program did receive every
value; otherwise the process lines that show one, or what the program got.
"""
import os
import signal
import subprocess
import sys


def main():
    d, user = sys.argv[1], sys.argv[2]
    assert sys.argv[3] == "--"
    values, cmd = os.environ["PSVIEW_VALUES"].split(), sys.argv[4:]
    out = os.path.join(d, "secret.out")
    if os.path.exists(out):
        os.unlink(out)
    p = subprocess.Popen(cmd + ["secret", out], stdout=subprocess.PIPE)
    try:
        line = p.stdout.readline()
        if line != b"ready\n":
            sys.exit(f"psview.py: expected 'ready', got {line!r}")
        ps = subprocess.run(["ps", "-eww", "-o", "pid=,args="], user=user, capture_output=True,
                            text=True, check=True).stdout
    finally:
        p.send_signal(signal.SIGINT)
        p.wait(timeout=10)
    shown = [l for l in ps.splitlines() if any(v in l for v in values)]
    got = open(out).read().split()
    if shown:
        print("visible to " + user + ":")
        for l in shown:
            print("  " + l.strip())
    elif sorted(got) != sorted(values):
        print(f"the program got {got}, not {values}")
    else:
        print("hidden")


if __name__ == "__main__":
    main()
