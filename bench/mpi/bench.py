#!/usr/bin/env python3
"""Benchmarks one loop over MPI ranks on this machine against the same cores as local workers.

Builds ComputeBound.cpp with clustrix++ from a build tree and runs it, in one invocation:
  - serial (one CPU lane: the runtime runs the loop itself);
  - R local workers (CLUSTRIX_DEVICES=cpu:R, no MPI);
  - R ranks under mpirun --oversubscribe, one CPU lane each (cpu0, rank1:cpu0, ...);
for a compute-bound loop (STEPS multiply-adds per element) and for the same loop with no work
(STEPS = 0, forced remote with CLUSTRIX_MPI_BANDWIDTH), whose time on the ranks is what moving
the chunks costs. Prints a markdown table of medians, the bandwidth the runtime measured between
the ranks, and every checksum compared with the serial one.

usage: bench/mpi/bench.py [--build build] [--ranks 3] [--n 200000] [--steps 1000] [--reps 3]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def clean_env(extra):
    env = dict(os.environ)
    for var in list(env):
        if var.startswith("CLUSTRIX_"):
            del env[var]
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    env.update(extra)
    return env


def run(cmd, extra):
    p = subprocess.run(cmd, env=clean_env(extra), check=True, capture_output=True, text=True)
    median, checksum, first = p.stdout.split()
    return float(median), checksum, float(first), p.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--ranks", type=int, default=3)
    ap.add_argument("--n", type=int, default=200000)
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args()
    mpirun = shutil.which("mpirun")
    if not mpirun:
        sys.exit("bench: mpirun is needed (apt install openmpi-bin)")
    tmp = tempfile.mkdtemp(prefix="clustrix-bench-mpi-")
    binary = os.path.join(tmp, "ComputeBound")
    subprocess.run([os.path.join(args.build, "bin", "clustrix++"), "-O2",
                    "--clustrix-remarks=off", os.path.join(ROOT, "bench", "mpi", "ComputeBound.cpp"),
                    "-o", binary], check=True)
    r = args.ranks
    mpi = [mpirun, "--oversubscribe", "-np", str(r), "-x", "CLUSTRIX_DEVICES", "-x",
           "CLUSTRIX_SERIAL_THRESHOLD", "-x", "CLUSTRIX_LOG", "-x", "CLUSTRIX_MPI_BANDWIDTH"]
    rows = []
    bandwidth = None
    for label, steps in [("compute-bound (%d steps)" % args.steps, args.steps),
                         ("data only (0 steps)", 0)]:
        prog = [binary, str(args.n), str(steps), str(args.reps)]
        forced = {"CLUSTRIX_SERIAL_THRESHOLD": "0"}
        serial = run(prog, dict(forced, CLUSTRIX_DEVICES="cpu:1"))
        local = run(prog, dict(forced, CLUSTRIX_DEVICES="cpu:%d" % r))
        ranks_env = dict(forced, CLUSTRIX_DEVICES="cpu:1", CLUSTRIX_LOG="debug")
        if steps == 0:
            ranks_env["CLUSTRIX_MPI_BANDWIDTH"] = "1e12"  # moving data never pays: forced
        ranks = run(mpi + prog, ranks_env)
        m = re.findall(r"rank \d+ \([^)]*\): \d+ device\(s\), ([0-9.]+) GB/s measured", ranks[3])
        if m:
            bandwidth = min(float(x) for x in m)
        where = re.findall(r"parallel on \d+ devices \(([^)]*)\)", ranks[3])
        for name, res in [("serial", serial), ("local", local), ("ranks", ranks)]:
            if res[1] != serial[1]:
                sys.exit("bench: %s checksum %s differs from serial %s" % (name, res[1], serial[1]))
        rows.append((label, serial, local, ranks, where[0] if where else "?"))
    print("Machine: %d hardware threads; %d ranks vs %d local workers; n = %d; medians of %d runs "
          "(after a first run, which on the ranks also compiles the kernel).\n" %
          (os.cpu_count(), r, r, args.n, args.reps))
    print("| loop | serial | %d local workers | %d ranks | ranks / local workers | ran on | "
          "first run on the ranks |" % (r, r))
    print("|---|---|---|---|---|---|---|")
    for label, serial, local, ranks, where in rows:
        print("| %s | %.2f ms | %.2f ms | %.2f ms | %.2fx | %s | %.0f ms |" %
              (label, serial[0], local[0], ranks[0], ranks[0] / local[0], where, ranks[2]))
    data_only = rows[1]
    moved = args.n * 16 * (r - 1) / r
    print("\nCommunication: a run moves %.1f MB to and from the other ranks (16 bytes per remote "
          "iteration); with no work it takes %.2f ms on the ranks against %.2f ms serially, so "
          "moving the chunks costs about %.2f ms per run." %
          (moved / 1e6, data_only[3][0], data_only[1][0], data_only[3][0] - data_only[1][0]))
    if bandwidth:
        print("Bandwidth the runtime measured from rank 0: %.2f GB/s (%.1f ms for those bytes)." %
              (bandwidth, moved / (bandwidth * 1e9) * 1e3))
    print("All checksums equal the serial one.")


if __name__ == "__main__":
    main()
