#!/usr/bin/env python3
"""timed.py MAX_SECONDS EXPECTED_EXIT -- COMMAND...: runs COMMAND (its output passes through) and
fails unless it exits with EXPECTED_EXIT within MAX_SECONDS. Prints the elapsed time to stderr.
Used to check that remote failures are bounded by the configured timeouts."""
import subprocess
import sys
import time

limit, expected = float(sys.argv[1]), int(sys.argv[2])
assert sys.argv[3] == "--"
start = time.monotonic()
try:
    code = subprocess.run(sys.argv[4:], timeout=limit + 30).returncode
except subprocess.TimeoutExpired:
    sys.exit(f"timed.py: still running after {limit + 30:.1f} s")
elapsed = time.monotonic() - start
sys.stderr.write(f"timed.py: exit {code} after {elapsed:.2f} s\n")
if code != expected:
    sys.exit(f"timed.py: expected exit {expected}, got {code}")
if elapsed > limit:
    sys.exit(f"timed.py: took {elapsed:.2f} s, more than {limit} s")
