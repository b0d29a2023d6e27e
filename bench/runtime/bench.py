#!/usr/bin/env python3
"""Benchmarks the runtime's CPU path against serial code and OpenMP, on this machine, in one run.

Builds LoopBench.cpp with clang++-19 -O2 -fopenmp (Debian's libomp-19-dev) against the runtime
of a build tree, runs every variant of every loop in its own process with the same number of
workers (OpenMP threads = CLUSTRIX_DEVICES=cpu:W), and prints a markdown table of median times
and throughput ratios.

usage: bench/runtime/bench.py [--build build-rt] [--workers W] [--reps R]
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(binary, how, what, n, reps, workers, extra_env=None):
    env = dict(os.environ)
    for var in ["CLUSTRIX_CONFIG", "CLUSTRIX_LOG", "CLUSTRIX_FAULT", "CLUSTRIX_SERIAL_THRESHOLD",
                "CLUSTRIX_MIN_ITERS_PER_DEVICE"]:
        env.pop(var, None)
    env["OMP_NUM_THREADS"] = str(workers)
    env["CLUSTRIX_DEVICES"] = "cpu:%d" % workers
    env.update(extra_env or {})
    out = subprocess.run([binary, how, what, str(n), str(reps)], env=env, check=True,
                         capture_output=True, text=True).stdout
    return float(out.split()[1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build-rt"))
    ap.add_argument("--workers", type=int, default=os.cpu_count())
    ap.add_argument("--reps", type=int, default=9)
    args = ap.parse_args()
    cxx = shutil.which("clang++-19") or shutil.which("clang++")
    if not cxx:
        sys.exit("bench: clang++-19 is needed (apt install clang-19 libomp-19-dev)")
    lib = os.path.join(args.build, "lib")
    tmp = tempfile.mkdtemp(prefix="clustrix-bench-")
    binary = os.path.join(tmp, "LoopBench")
    subprocess.run([cxx, "-std=c++17", "-O2", "-fopenmp", "-I", os.path.join(ROOT, "runtime", "include"),
                    os.path.join(ROOT, "bench", "runtime", "LoopBench.cpp"), "-o", binary,
                    "-L", lib, "-Wl,-rpath," + lib, "-lclustrix_rt", "-pthread"], check=True)
    w = args.workers
    print("Machine: %d hardware threads, %d workers; medians of %d runs.\n" %
          (os.cpu_count(), w, args.reps))
    print("| loop | trip count | serial | OpenMP | Clustrix CPU | Clustrix / OpenMP throughput |")
    print("|---|---|---|---|---|---|")
    for what, n in [("mem", 8_000_000), ("compute", 400_000)]:
        t = {how: run(binary, how, what, n, args.reps, w) for how in ["serial", "omp", "clustrix"]}
        print("| %s-bound | %d | %.2f ms | %.2f ms | %.2f ms | %.3f |" %
              ("memory" if what == "mem" else "compute", n, t["serial"] / 1e6, t["omp"] / 1e6,
               t["clustrix"] / 1e6, t["omp"] / t["clustrix"]))
    n = 1024
    serial = run(binary, "serial", "small", n, args.reps, w)
    omp = run(binary, "omp", "small", n, args.reps, w)
    auto = run(binary, "clustrix", "small", n, args.reps, w)
    wide = run(binary, "clustrix", "small", n, args.reps, w,
               {"CLUSTRIX_SERIAL_THRESHOLD": "0", "CLUSTRIX_MIN_ITERS_PER_DEVICE": "1"})
    print("\nFixed cost of one small loop (%d iterations of the memory-bound body):\n" % n)
    print("| variant | time per loop | vs OpenMP fork-join |")
    print("|---|---|---|")
    print("| serial | %.2f us | %.2fx |" % (serial / 1e3, serial / omp))
    print("| OpenMP `parallel for` | %.2f us | 1.00x |" % (omp / 1e3))
    print("| Clustrix, runtime decides (runs it serially) | %.2f us | %.2fx |" % (auto / 1e3, auto / omp))
    print("| Clustrix, forced wide (serial_threshold 0) | %.2f us | %.2fx |" % (wide / 1e3, wide / omp))
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
