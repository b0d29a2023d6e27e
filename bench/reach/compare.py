#!/usr/bin/env python3
"""Converted OpenMP programs against their originals: each program that bench/reach/reach.py
converts is built twice, the OpenMP original (`clang-19`/`clang++-19 -O2 -fopenmp`) and the
conversion (`clustrix++ -O2`, same other flags), run interleaved on 2 threads (OMP_NUM_THREADS=2
against CLUSTRIX_DEVICES=cpu:2), and timed; the outputs are checked.

The conversion is reach.py's: the script runs `reach.py --work DIR --json FILE --only ...` and
builds the converted sources it leaves in DIR; the loops counted per program (converted, accepted,
refused, and each refusal's cause class) come from its JSON. A loop counts as *expert-safe* unless
its refusal is a "proven dependence" (the exact test's witness: the OpenMP original races there,
and an expert would not parallelize it as written; docs/testing.md checked each by hand).
Worksharing loops reach.py could not convert count as expert-safe and not accepted.

The converted units are compiled as reach.py analyses them: `-D_OPENMP=201511 -include omp.h`
without -fopenmp (the programs keep their OpenMP code paths, pragmas left in place are ignored);
libomp is linked (`-fopenmp` at the link only) for the omp_get_wtime-style calls that remain.

Time, per suite (the "measure" column):
  PRK          the program's own average time per iteration (its first iteration, a warm-up,
               excluded), "Avg time (s)"
  BabelStream  the sum of the five kernels' average times (its own table; first run excluded)
  PolyBench    the kernel's time (-DPOLYBENCH_TIME: the timer around the kernel call)
  Rodinia      the wall time of the process (input generation included: the same serial code in
               both builds)
  HPCCG        its own total time ("Time Summary: Total"; built with -DWALL in both builds, its
               timer otherwise sums the CPU time of all threads)
  XSBench      its own "Runtime" (the simulation, after initialization)
  NPB          the wall time of the process (class S: its own time is printed to 0.01 s)
Medians of --reps runs of each build, the two builds alternating (OpenMP first in odd
repetitions, Clustrix first in even ones). Ratio = OpenMP time / Clustrix time: at least 0.9
means the conversion runs at 0.9x of OpenMP's speed or better.

A program one of whose loops races in its OpenMP original (a proven dependence) is also built a
third way, "OpenMP without its races": the original with each racing loop's directive made
serial, as an expert would write it (`omp parallel for` removed, `omp for` in a region turned
into `omp single`, which one thread runs while the others wait at its barrier). Its output must
equal the serial program's, and the bar's ratio for such a program is taken against it: the
racing original computes another result, so its time is no yardstick. Both ratios are printed.

Outputs, per suite: PRK and BabelStream check their own results (every run); PolyBench is built
with -DPOLYBENCH_DUMP_ARRAYS and every run's dump of the live-out arrays is compared with the
dump of a serial build of the original (no -fopenmp); Rodinia's nw and streamcluster write
result files, compared with a serial build's (streamcluster's OpenMP original races: its file
changes from run to run, which the table notes); the other Rodinia programs print nothing to
compare (or seed their input from the clock). HPCCG, XSBench and NPB: stdout is compared, number
by number, with a serial build's (HPCCG: its residuals and iteration count; XSBench: its
verification checksum, which must be equal; NPB: every line but its timers and configuration),
a number under 1e-12 of the largest in the output (a residual at rounding level) taken as zero;
a difference of 1e-6 or more is bold unless the OpenMP original's is as large. Each run must
also print NPB's "Verification = SUCCESSFUL", XSBench's checksum (it exits with 1 for a
checksum that is not a default-sized run's: accepted), HPCCG's final residual.

usage: bench/reach/compare.py --rodinia DIR --prk DIR --babelstream DIR --polybench DIR
       [--hpccg DIR] [--xsbench DIR] [--npb DIR]
       [--build DIR] [--reps N] [--only NAME ...] [--quick] [--out FILE] [--work DIR]
       [--jobs N] [--no-why]
--quick: tiny sizes, one repetition, and (without --only) a few programs per suite.
For each row where every expert-safe loop is accepted but the ratio is under 0.9, the Clustrix
build runs once more with CLUSTRIX_LOG=info, and where each loop ran is summarized (--no-why
skips it).
"""
import argparse
import concurrent.futures
import datetime
import hashlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import reach  # noqa: E402  (the suites, their programs and flags)

SUITE_ORDER = ["prk", "babelstream", "polybench", "rodinia", "hpccg", "xsbench", "npb"]


def P(suite, name, **kw):
    d = {"suite": suite, "name": name, "extra_units": [], "libs": [], "defs": [],
         "args": [], "quick_args": None, "measure": None, "check": None, "quick_set": False,
         "skip": None, "ok_status": (0,)}
    d.update(kw)
    return d


PB_OK = "polybench"
# PolyBench sizes: a dataset macro, or the size macros themselves, so that the OpenMP run's
# kernel takes about 0.1-2 s on 2 threads (O(n^2) kernels stay shorter: their arrays would
# exceed memory first). Kernels whose OpenMP original does not compile are listed with why.
# correlation keeps its dataset macro: with -DN=1000 on the command line the converted unit
# does not compile (clustrix/runtime_c.h names a parameter N, which the macro replaces).
PB_SIZES = {
    "correlation": ["-DSTANDARD_DATASET"], "covariance": ["-DSTANDARD_DATASET"],
    "2mm": ["-DNI=512", "-DNJ=512", "-DNK=512", "-DNL=512"],
    "3mm": ["-DNI=512", "-DNJ=512", "-DNK=512", "-DNL=512", "-DNM=512"],
    "atax": ["-DLARGE_DATASET"], "bicg": ["-DLARGE_DATASET"], "cholesky": ["-DSTANDARD_DATASET"],
    "doitgen": ["-DSTANDARD_DATASET"], "gemm": ["-DNI=1000", "-DNJ=1000", "-DNK=1000"],
    "gemver": ["-DSTANDARD_DATASET"], "gesummv": ["-DLARGE_DATASET"], "mvt": ["-DSTANDARD_DATASET"],
    "symm": ["-DNI=400", "-DNJ=400"], "syr2k": ["-DSTANDARD_DATASET"],
    "syrk": ["-DSTANDARD_DATASET"], "trmm": ["-DSTANDARD_DATASET"],
    "durbin": ["-DSTANDARD_DATASET"], "gramschmidt": ["-DSTANDARD_DATASET"],
    "lu": ["-DSTANDARD_DATASET"], "fdtd-apml": ["-DSTANDARD_DATASET"],
}
PB_QUICK = {"gemm", "jacobi-2d-imper", "covariance", "atax"}
PB_NOT_OPENMP = ("the OpenMP original does not compile with clang-19 -fopenmp: a worksharing "
                 "'omp for' closely nested in 'omp master' (or in another 'omp for'), which "
                 "OpenMP forbids")
PB_BROKEN = {n: PB_NOT_OPENMP for n in (
    "trisolv", "dynprog", "ludcmp", "reg_detect", "adi", "fdtd-2d", "jacobi-1d-imper",
    "jacobi-2d-imper", "seidel-2d")}
PB_BROKEN["convolution-3d"] = ("the original crashes in every build, serial too: its init_array "
                               "loops test 'j < nk' in a loop over k and write past the array")

PROGRAMS = [
    P("prk", "Cxx11/nstream", args=["30", "16777216"], quick_args=["4", "100000"],
      measure="prk", check="prk", quick_set=True),
    P("prk", "Cxx11/stencil", args=["20", "3000"], quick_args=["4", "200"], measure="prk",
      check="prk"),
    P("prk", "Cxx11/transpose", args=["15", "4000"], quick_args=["4", "200"], measure="prk",
      check="prk"),
    P("prk", "C1z/nstream", args=["30", "16777216"], quick_args=["4", "100000"], measure="prk",
      check="prk", libs=["-lm"]),
    P("prk", "C1z/stencil", args=["20", "3000"], quick_args=["4", "200"], measure="prk",
      check="prk", libs=["-lm"], quick_set=True),
    P("prk", "C1z/transpose", args=["15", "4000"], quick_args=["4", "200"], measure="prk",
      check="prk", libs=["-lm"]),
    P("prk", "C1z/stencil-2d", args=["20", "3000"], quick_args=["4", "200"], measure="prk",
      check="prk", libs=["-lm"]),
    P("prk", "C1z/transpose-2d", args=["15", "4000"], quick_args=["4", "200"], measure="prk",
      check="prk", libs=["-lm"]),
    P("prk", "Cxx11/p2p-hyperplane", args=["10", "4000"], quick_args=["2", "200"],
      measure="prk", check="prk"),
    P("prk", "C1z/p2p-hyperplane", args=["10", "4000"], quick_args=["2", "200"], measure="prk",
      check="prk", libs=["-lm"]),
    P("babelstream", "omp", extra_units=["main.cpp"],
      args=["--arraysize", "16777216", "--numtimes", "15"],
      quick_args=["--arraysize", "65536", "--numtimes", "4"], measure="babelstream",
      check="babelstream", quick_set=True),
    # Rodinia: the programs whose input is in the snapshot or generated by the program itself
    # (the arguments of each program's own `run` script, sizes scaled to about a second of
    # OpenMP time on this machine, threads set to 2).
    # particlefilter writes past its objxy array (getneighbors); at smaller frames (-x 64) the
    # overrun reaches the runtime's allocation registry in the Clustrix build and it crashes.
    P("rodinia", "particlefilter", args=["-x", "128", "-y", "128", "-z", "10", "-np", "20000"],
      quick_args=["-x", "128", "-y", "128", "-z", "4", "-np", "2000"], measure="wall",
      libs=["-lm"], quick_set=True),
    P("rodinia", "nw", args=["4096", "10", "2"], quick_args=["256", "10", "2"], measure="wall",
      check=("file", "result.txt"), quick_set=True),
    P("rodinia", "backprop", extra_units=["facetrain.c", "imagenet.c", "backprop_kernel.c"],
      args=["1048576"], quick_args=["4096"], measure="wall", libs=["-lm"]),
    P("rodinia", "lavaMD", extra_units=["main.c", "util/num/num.c", "util/timer/timer.c"],
      args=["-cores", "2", "-boxes1d", "8"], quick_args=["-cores", "2", "-boxes1d", "2"],
      measure="wall", libs=["-lm"]),
    P("rodinia", "lud", extra_units=["omp/lud.c", "common/common.c"], args=["-n", "2", "-s", "2048"],
      quick_args=["-n", "2", "-s", "128"], measure="wall", libs=["-lm"]),
    P("rodinia", "pathfinder", args=["100000", "100"], quick_args=["1000", "20"],
      measure="wall"),
    P("rodinia", "srad_v2", args=["2048", "2048", "0", "127", "0", "127", "2", "0.5", "6"],
      quick_args=["128", "128", "0", "31", "0", "31", "2", "0.5", "2"], measure="wall"),
    P("rodinia", "streamcluster",
      args=["10", "20", "64", "8192", "8192", "500", "none", "output.txt", "2"],
      quick_args=["10", "20", "16", "1024", "1024", "100", "none", "output.txt", "2"],
      measure="wall", check=("file", "output.txt")),
]
# HPCCG, XSBench, NPB: the output checked is stdout, against a serial build's:
# ("stdout", KEEP, DROP, REQUIRED): the lines that match KEEP (every line when None) and not
# DROP are compared, number by number; every run of every build must print REQUIRED.
HPCCG_CHECK = ("stdout", r"Residual|residual|iterations", None, r"Final residual")
XSBENCH_CHECK = ("stdout", r"Verification checksum", None, r"Verification checksum: \d+")
# NPB prints its configuration, timers and thread count besides its results and verification
# values: those lines are not compared.
NPB_CHECK = ("stdout", None, r"Time|time|Mop/s|[Tt]hreads|Compile|Compiler|CC |CLINK|C_LIB|C_INC|"
             r"CFLAGS|RAND|Version|version|OpenMP|SMP|NPB|Benchmark Completed",
             r"Verification\s*=\s*SUCCESSFUL")
PROGRAMS += [
    # HPCCG nx ny nz: a 27-point problem of nx*ny*nz rows, at most 150 CG iterations. -DWALL:
    # its timer in wall time (its default is CPU time, all threads summed).
    P("hpccg", "HPCCG", args=["40", "40", "40"], quick_args=["20", "20", "20"], defs=["-DWALL"],
      measure="hpccg", check=HPCCG_CHECK, quick_set=True),
    # The event-based simulation with its optimized kernel (-k 1): its sampling loop is the one
    # loop Clustrix accepts; -t 2: XSBench sets its thread count itself (default: every core).
    P("xsbench", "openmp-threading",
      args=["-t", "2", "-s", "small", "-m", "event", "-k", "1", "-l", "1000000"],
      quick_args=["-t", "2", "-s", "small", "-m", "event", "-k", "1", "-l", "100000"],
      measure="xsbench", check=XSBENCH_CHECK, libs=["-lm"], quick_set=True,
      # It exits with 1 when its checksum is not the one of a default-sized run.
      ok_status=(0, 1)),
] + [
    # NPB: the class is fixed when its npbparams.hpp is generated (reach.NPB_CLASS, S); wall
    # time, as its own time is printed to 0.01 s.
    P("npb", b, extra_units=["../common/c_print_results.cpp", "../common/c_randdp.cpp",
                             "../common/c_timers.cpp", "../common/wtime.cpp"],
      measure="wall", check=NPB_CHECK, libs=["-lm"], quick_set=b in ("EP", "CG"))
    for b in ("EP", "CG", "MG", "FT", "IS", "BT", "SP", "LU")]
RODINIA_SKIPPED = {
    "b+tree": "input missing: data/b+tree/mil.txt and command.txt are not in the snapshot",
    "bfs": "input missing: data/bfs/graph1MW_6.txt",
    "cfd": "input missing: data/cfd/fvcorr.domn.*",
    "heartwall": "input missing: data/heartwall/test.avi",
    "hotspot": "input missing: data/hotspot/temp_1024, power_1024",
    "hotspot3D": "input missing: data/hotspot3D/power_512x8, temp_512x8",
    "kmeans": "input missing: data/kmeans/kdd_cup",
    "leukocyte": "input missing: data/leukocyte/testfile.avi",
    "myocyte": "input missing: data/myocyte/ (y and params files)",
    "nn": "input missing: data/nn/cane4_*.db (made by a separate generator, hurricane_gen)",
    "srad_v1": "input missing: data/srad/image.pgm",
    "mummergpu": "its driver is CUDA (mummergpu.cu): needs nvcc to build, even for the CPU run",
}
MEASURES = {"prk": "own avg/iteration", "babelstream": "own kernel sum", "polybench":
            "own kernel time", "wall": "wall", "hpccg": "own total time",
            "xsbench": "own runtime"}


def polybench_programs(root):
    out = []
    for name, folder, units, flags in reach.programs_of("polybench", root):
        skip = reach.KNOWN_BROKEN.get("polybench/" + name) or PB_BROKEN.get(name)
        inc = [f for f in flags if f.startswith("-I")][0]
        out.append(P("polybench", name, extra_units=[os.path.join(inc[2:], "polybench.c")],
                     defs=PB_SIZES.get(name, ["-DSTANDARD_DATASET"]) + ["-DPOLYBENCH_TIME"],
                     quick_defs=["-DMINI_DATASET", "-DPOLYBENCH_TIME"],
                     measure="polybench", check="polybench", libs=["-lm"],
                     quick_set=name in PB_QUICK, skip=skip))
    return out


# ---------------------------------------------------------------------------------------------

def sh(cmd, cwd=None, env=None, timeout=1800):
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, timeout=timeout)
        rc, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        rc, out, err = 124, e.stdout or b"", (e.stderr or b"") + b"\ntimed out"
    return rc, out, err, time.perf_counter() - t0


def strip_lang(flags):
    out, skip = [], False
    for f in flags:
        if skip:
            skip = False
            continue
        if f == "-x":
            skip = True
            continue
        out.append(f)
    return out


def build(prog, variant, srcdir, outdir, clxx):
    """variant: omp (original, -fopenmp), ompfix (the original with its racing loops serial,
    -fopenmp; srcdir is then the fixed copy), clx (converted, clustrix++), serial (original, no
    -fopenmp); with '-dump', built with -DPOLYBENCH_DUMP_ARRAYS. Returns (binary or None,
    log)."""
    os.makedirs(outdir, exist_ok=True)
    flags = strip_lang(prog["flags"]) + prog["defs"] + ["-O2", "-w"]
    if variant.endswith("-dump"):
        flags.append("-DPOLYBENCH_DUMP_ARRAYS")
    variant = variant.split("-")[0]
    objs, log = [], []
    cxx_link = False
    for u in prog["units"] + prog["extra_units"]:
        is_c = u.endswith(".c")
        cxx_link |= not is_c
        o = os.path.join(outdir, u.replace("/", "_").replace("..", "up") + ".o")
        if variant == "clx":
            cmd = [clxx] + reach.COMMON_FLAGS + flags + ["--clustrix-report=" + o + ".json"]
        else:
            cmd = ["clang-19" if is_c else "clang++-19"] + flags + (
                ["-fopenmp"] if variant in ("omp", "ompfix") else ["-Wno-unknown-pragmas"])
        if is_c:
            cmd = [c for c in cmd if not c.startswith("-std=c++")]
        else:
            cmd = [c for c in cmd if not re.match(r"-std=gnu(99|11)$", c) and
                   not c.startswith("-Wno-error=implicit") and c != "-Wno-error=int-conversion"]
        cmd += ["-c", u, "-o", o]
        rc, out, err, _ = sh(cmd, cwd=srcdir)
        log.append(" ".join(cmd) + "\n" + err.decode(errors="replace"))
        if rc != 0:
            return None, "\n".join(log)
        objs.append(o)
    binary = os.path.join(outdir, "prog")
    if variant == "clx":
        cmd = [clxx] + objs + ["-fopenmp"]
    else:
        # A serial build links libomp too, for the omp_* calls some programs make outside their
        # pragmas (streamcluster's omp_set_num_threads); its loops stay serial.
        cmd = ["clang++-19" if cxx_link else "clang-19"] + objs + ["-fopenmp"]
    cmd += ["-o", binary] + prog["libs"]
    rc, out, err, _ = sh(cmd, cwd=srcdir)
    log.append(" ".join(cmd) + "\n" + err.decode(errors="replace"))
    return (binary if rc == 0 else None), "\n".join(log)


def env_for(variant, extra=None):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("CLUSTRIX_") and not k.startswith("OMP_")}
    if variant in ("omp", "ompfix"):
        env["OMP_NUM_THREADS"] = "2"
    elif variant == "clx":
        env["CLUSTRIX_DEVICES"] = "cpu:2"
    env.update(extra or {})
    return env


FLOAT = r"([-+]?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)"


def measure(prog, out, wall):
    m = prog["measure"]
    text = out.decode(errors="replace")
    if m == "prk":
        r = re.search(r"Avg time \(s\):\s*" + FLOAT, text)
        return float(r.group(1)) if r else None
    if m == "babelstream":
        tot, n = 0.0, 0
        for k in ("Copy", "Mul", "Add", "Triad", "Dot"):
            r = re.search(r"^%s\s+%s\s+%s\s+%s\s+%s" % ((k,) + (FLOAT,) * 4), text, re.M)
            if r:
                tot += float(r.group(4))
                n += 1
        return tot if n == 5 else None
    if m == "polybench":
        r = re.findall(r"^\s*" + FLOAT + r"\s*$", text, re.M)
        return float(r[-1]) if r else None
    if m == "hpccg":
        r = re.search(r"^Time Summary:.*?^\s*Total\s*:\s*" + FLOAT, text, re.M | re.S)
        return float(r.group(1)) if r else None
    if m == "xsbench":
        r = re.search(r"^Runtime:\s*" + FLOAT + r"\s*seconds", text, re.M)
        return float(r.group(1)) if r else None
    return wall


def numbers(data):
    return [float(x) for x in re.findall(rb"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|nan|inf",
                                         data)]


def compare_dumps(ref, got):
    """'equal', or the largest relative difference of the numbers, or None if incomparable."""
    if ref == got:
        return "equal"
    a, b = numbers(ref), numbers(got)
    if len(a) != len(b):
        return None
    worst = 0.0
    for x, y in zip(a, b):
        if x != y:
            d = abs(x - y) / max(abs(x), abs(y), 1e-300)
            worst = max(worst, d)
    return worst


STDOUT_TOL = 1e-6


def compare_numbers(ref, got):
    """Like compare_dumps, for a program's printed results: a number whose magnitude is under
    1e-12 of the largest in ref (a residual at rounding level) is taken as zero in both."""
    if ref == got:
        return "equal"
    a, b = numbers(ref), numbers(got)
    if len(a) != len(b):
        return None
    floor = 1e-12 * max([abs(x) for x in a if x == x and abs(x) != float("inf")] or [0.0])
    worst = 0.0
    for x, y in zip(a, b):
        if x != y and max(abs(x), abs(y)) >= floor:
            worst = max(worst, abs(x - y) / max(abs(x), abs(y), 1e-300))
    return worst


def stdout_lines(prog, out):
    """The lines of a run's stdout that a ("stdout", KEEP, DROP, REQUIRED) check compares."""
    _, keep, drop, _ = prog["check"]
    return b"\n".join(l for l in out.splitlines()
                      if (keep is None or re.search(keep.encode(), l)) and
                      not (drop and re.search(drop.encode(), l)))


def run_once(prog, variant, binary, rundir, extra_env=None, err_file=None):
    """One run; with err_file, stderr goes to that file (fully buffered through stdbuf: a
    PolyBench dump is millions of fprintf calls on an unbuffered stderr) and is not kept."""
    os.makedirs(rundir, exist_ok=True)
    env = env_for(variant, extra_env)
    if err_file:
        t0 = time.perf_counter()
        with open(err_file, "wb") as ef:
            cmd = (["stdbuf", "-e", "1M"] if shutil.which("stdbuf") else []) + [binary]
            p = subprocess.run(cmd + prog["run_args"], cwd=rundir, env=env,
                               stdout=subprocess.PIPE, stderr=ef, timeout=600)
        rc, out, err, wall = p.returncode, p.stdout, b"", time.perf_counter() - t0
    else:
        rc, out, err, wall = sh([binary] + prog["run_args"], cwd=rundir, env=env, timeout=600)
    if len(err) > 1 << 26:
        err = err[:1 << 26]
    return {"rc": rc, "out": out, "err": err, "wall": wall,
            "time": measure(prog, out, wall) if rc in prog["ok_status"] else None}


def self_check(prog, r):
    """None when the run passes the program's own check, else a reason."""
    text = (r["out"] + r["err"]).decode(errors="replace")
    if r["rc"] not in prog["ok_status"]:
        return "exit status %d" % r["rc"]
    if prog["check"] == "prk" and "Solution validates" not in text:
        return "PRK: no 'Solution validates'"
    if prog["check"] == "babelstream" and re.search(r"Validation failed|error", text, re.I):
        return "BabelStream: validation failed"
    if (isinstance(prog["check"], tuple) and prog["check"][0] == "stdout" and
            not re.search(prog["check"][3], text)):
        return "no '%s' in its output" % prog["check"][3]
    if r["time"] is None:
        return "no time in the output"
    return None


def fmt_time(t):
    if t is None:
        return "-"
    if t >= 1:
        return "%.3f s" % t
    if t >= 1e-3:
        return "%.2f ms" % (t * 1e3)
    return "%.1f us" % (t * 1e6)


def loop_counts(rj):
    """(suite, program) -> expert-safe, accepted, all accepted, refusal causes."""
    by_loc = {}
    for p in rj["programs"]:
        for l in p["loops"]:
            if not l["status"].startswith("counted in"):
                by_loc[(p["suite"], l["file"], l["for_line"])] = l
    res = {}
    for p in rj["programs"]:
        safe = acc = 0
        causes = []
        for l in p["loops"]:
            if l["status"].startswith("counted in"):
                l = by_loc.get((p["suite"], l["file"], l["for_line"]), l)
            st = l["status"]
            if st == "not compiled":
                continue
            cause = l.get("cause", "")
            if st == "refused" and cause.startswith("proven dependence"):
                continue
            safe += 1
            if st == "accepted":
                acc += 1
            elif st == "refused":
                causes.append(cause)
            else:
                causes.append("not converted: " + (l.get("reason") or ""))
        locs = {}
        for l in p["loops"]:
            if l["status"].startswith("counted in"):
                l = by_loc.get((p["suite"], l["file"], l["for_line"]), l)
            if l["status"] in ("accepted", "refused"):
                locs[(os.path.normpath(l["file"]), l["for_line"])] = l["status"] == "accepted"
        res[(p["suite"], p["program"])] = {"safe": safe, "accepted": acc, "locs": locs,
                                           "all": safe > 0 and acc == safe, "causes": causes,
                                           "races": sum(1 for l in p["loops"] if l.get(
                                               "cause", "").startswith("proven dependence"))}
    return res


def plugin_decisions(prog, suite_dir, srcdir, outdir):
    """{(file, line): accepted} from the --clustrix-report files of the Clustrix build (the
    plugin that compiled it), to check against reach.py's clustrix-rewrite; None if none."""
    locs = {}
    if not os.path.isdir(outdir):
        return None
    found = False
    for f in os.listdir(outdir):
        if not f.endswith(".o.json"):
            continue
        found = True
        try:
            with open(os.path.join(outdir, f)) as h:
                recs = json.load(h).get("loops", [])
        except ValueError:
            continue
        for r in recs:
            path = os.path.relpath(os.path.realpath(os.path.join(srcdir, r.get("file", ""))),
                                   os.path.realpath(suite_dir))
            key = (os.path.normpath(path), r.get("line"))
            locs[key] = locs.get(key, True) and r.get("decision") == "accepted"
    return locs if found else None


def racing_loops(rj):
    """{suite: [(file, pragma_line, in_region, pragma)]}: the converted loops whose refusal is a
    proven dependence (their OpenMP original races), each once."""
    res = {}
    for p in rj["programs"]:
        for l in p["loops"]:
            if (l["status"] == "refused" and l.get("cause", "").startswith("proven dependence")):
                item = (l["file"], l["pragma_line"], bool(l.get("in_region")), l.get("pragma", ""))
                if item not in res.setdefault(p["suite"], []):
                    res[p["suite"]].append(item)
    return res


def fix_races(suite, root, loops, dest):
    """Copies the suite's tree to dest and makes each racing loop of the OpenMP original serial
    as an expert would: a `parallel for` directive is blanked; an `omp for` (in a parallel region,
    or orphaned in a function called from one) becomes `omp single` (its private clauses kept),
    which one thread runs while the others wait at its implicit barrier, as they waited at the
    loop's. Line numbers are kept.
    Returns the edits made, as text, for the table's notes."""
    if os.path.isdir(dest):
        shutil.rmtree(dest)
    shutil.copytree(root, dest, symlinks=True)
    done = []
    for f, line, in_region, pragma in sorted(loops):
        path = os.path.join(dest, f)
        with open(path, encoding="latin-1", newline="") as h:
            lines = h.read().split("\n")
        i = line - 1
        if i >= len(lines) or not re.match(r"\s*#\s*pragma\s+omp\b", lines[i]):
            sys.exit("compare: %s:%d of %s is not the directive reach.py named ('%s')" % (
                f, line, suite, pragma))
        j = i
        while lines[j].rstrip("\r").endswith("\\") and j + 1 < len(lines):
            j += 1
        text = " ".join(l.rstrip("\r").rstrip("\\") for l in lines[i:j + 1])
        kind = re.match(r"\s*#\s*pragma\s+omp\s+(\w+)", text).group(1)
        cr = "\r" if lines[i].endswith("\r") else ""
        if kind == "for":
            keep = re.findall(r"\b(?:first)?private\s*\([^)]*\)", text)
            new = "#pragma omp single" + "".join(" " + k for k in keep)
        elif kind == "parallel":
            new = ""
        else:
            sys.exit("compare: cannot make %s:%d serial ('%s')" % (f, line, pragma))
        lines[i:j + 1] = [new + cr] + [cr] * (j - i)
        with open(path, "w", encoding="latin-1", newline="") as h:
            h.write("\n".join(lines))
        done.append("%s:%d `%s` -> `%s`" % (f, line, text.strip(), new or "(removed)"))
    return done


VARIANT_NAMES = {"omp": "OpenMP", "clx": "Clustrix", "ompfix": "OpenMP without its races"}

LOGLINE = re.compile(r"^clustrix: (\S+?:\d+): (parallel on \d+ devices|serial)(.*)$", re.M)


def why(prog, binary, rundir):
    """Where each loop ran (CLUSTRIX_LOG=info), per site: calls, wide, serial, a reason."""
    r = run_once(prog, "clx", binary, rundir, {"CLUSTRIX_LOG": "info"})
    sites = {}
    for m in LOGLINE.finditer(r["err"].decode(errors="replace")):
        s = sites.setdefault(m.group(1), {"calls": 0, "wide": 0, "serial": 0, "reasons": {}})
        s["calls"] += 1
        if m.group(2).startswith("parallel"):
            s["wide"] += 1
            t = re.search(r"([0-9.]+) (ms|us|s)\b", m.group(3))
            if t:
                v = float(t.group(1)) * {"s": 1, "ms": 1e-3, "us": 1e-6}[t.group(2)]
                s["wide_time"] = s.get("wide_time", 0.0) + v
        else:
            s["serial"] += 1
            reason = m.group(3).lstrip(": ").strip()
            key = re.sub(r"\d+(\.\d+)?", "N", reason)   # one entry per kind, its first text
            s["reasons"].setdefault(key, [0, reason])[0] += 1
    return sites, r


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for s in reach.SUITES:
        ap.add_argument("--" + s, metavar="DIR", help="source tree of " +
                        reach.SUITES[s]["title"])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"),
                    help="Clustrix build folder (default: the repository's build/)")
    ap.add_argument("--reps", type=int, default=5, help="runs of each build (default 5)")
    ap.add_argument("--only", nargs="*", help="programs by name (suite/name or name)")
    ap.add_argument("--quick", action="store_true",
                    help="tiny sizes, one run each, a few programs per suite (a smoke test)")
    ap.add_argument("--out", help="write the markdown table to FILE")
    ap.add_argument("--work", help="work folder (default: bench/results/compare)")
    ap.add_argument("--jobs", type=int, default=2, help="parallel builds (default 2)")
    ap.add_argument("--no-why", action="store_true",
                    help="skip the CLUSTRIX_LOG=info run of rows under 0.9")
    args = ap.parse_args()
    if args.quick and args.reps == 5:
        args.reps = 1
    build_dir = os.path.abspath(args.build)
    clxx = os.path.join(build_dir, "bin", "clustrix++")
    if not os.access(clxx, os.X_OK):
        sys.exit("compare: no clustrix++ in %s/bin (--build DIR)" % build_dir)
    for tool in ("clang-19", "clang++-19"):
        if not shutil.which(tool):
            sys.exit("compare: %s is needed" % tool)
    roots = {}
    for s in reach.SUITES:
        if getattr(args, s):
            try:
                roots[s] = reach.suite_root(s, getattr(args, s))
            except SystemExit as e:
                sys.exit("compare: %s" % e)
    if not roots:
        ap.print_usage(sys.stderr)
        sys.exit("compare: name at least one suite's source folder")
    work = os.path.abspath(args.work or os.path.join(ROOT, "bench", "results", "compare"))
    os.makedirs(work, exist_ok=True)
    # Suites whose build generates files first (NPB's npbparams.hpp): the originals are built
    # from a copy in the work folder, prepared as reach.py prepares its converted copy.
    for s in list(roots):
        if reach.SUITES[s].get("prepare"):
            dst = os.path.join(work, "orig", s)
            if os.path.isdir(dst):
                shutil.rmtree(dst)
            shutil.copytree(roots[s], dst, symlinks=True)
            for problem in reach.SUITES[s]["prepare"](roots[s], dst):
                print("compare: %s: %s" % (s, problem), flush=True)
            roots[s] = dst

    # The programs.
    progs = [dict(p) for p in PROGRAMS if p["suite"] in roots]
    if "polybench" in roots:
        progs += polybench_programs(roots["polybench"])
    specs = {}
    for s in roots:
        for name, folder, units, flags in reach.programs_of(s, roots[s]):
            specs[(s, name)] = (folder, units, flags)
    sel = []
    for p in progs:
        full = p["suite"] + "/" + p["name"]
        if args.only:
            if not (full in args.only or p["name"] in args.only):
                continue
        elif args.quick and not p["quick_set"]:
            continue
        if (p["suite"], p["name"]) not in specs:
            sys.exit("compare: reach.py has no program %s" % full)
        p["folder"], p["units"], p["flags"] = specs[(p["suite"], p["name"])]
        if args.quick:
            p["run_args"] = p["quick_args"] if p["quick_args"] is not None else p["args"]
            if p.get("quick_defs"):
                p["defs"] = p["quick_defs"]
        else:
            p["run_args"] = p["args"]
        sel.append(p)
    if not sel:
        sys.exit("compare: no program selected")

    # Convert (reach.py), with the loop counts.
    rwork = os.path.join(work, "reach")
    rjson = os.path.join(work, "reach.json")
    cmd = [sys.executable, os.path.join(HERE, "reach.py"), "--build", build_dir, "--work", rwork,
           "--json", rjson, "--only"] + [p["suite"] + "/" + p["name"] for p in sel]
    for s, d in roots.items():
        cmd += ["--" + s, d]
    print("converting: %s" % " ".join(cmd), flush=True)
    rc, out, err, _ = sh(cmd)
    if not os.path.exists(rjson):
        sys.exit("compare: reach.py failed (exit %d):\n%s" % (rc, err.decode()[-3000:]))
    with open(rjson) as f:
        rj = json.load(f)
    counts = loop_counts(rj)

    # The OpenMP originals without their races, per suite that has racing loops.
    racing = racing_loops(rj)
    fixed, fix_notes = {}, []
    for suite in sorted(racing):
        if any(p["suite"] == suite and counts.get((suite, p["name"]), {}).get("races")
               for p in sel):
            fixed[suite] = os.path.join(work, "fixed", suite)
            fix_notes += fix_races(suite, roots[suite], racing[suite], fixed[suite])

    # Build: the OpenMP original, the conversion, (PolyBench) the serial original, and the
    # OpenMP original without its races where it has some.
    jobs = []
    for p in sel:
        p["bins"], p["logs"] = {}, {}
        if p["skip"]:
            continue
        tag = p["suite"] + "_" + p["name"].replace("/", "_")
        p["fix"] = bool(counts.get((p["suite"], p["name"]), {}).get("races"))
        dump = p["check"] == "polybench"
        variants = ["omp", "clx"] + (["omp-dump", "clx-dump", "serial-dump"] if dump else [])
        if isinstance(p["check"], tuple):
            variants.append("serial")  # the result file's reference
        if p["fix"]:
            variants += ["ompfix"] + (["ompfix-dump"] if dump else [])
        for v in variants:
            kind = v.split("-")[0]
            base = {"clx": os.path.join(rwork, p["suite"]),
                    "ompfix": fixed.get(p["suite"], "")}.get(kind, roots[p["suite"]])
            src = os.path.join(base, p["folder"])
            jobs.append((p, v, src, os.path.join(work, "bin", tag, v)))
    print("building %d binaries (%d at a time)" % (len(jobs), args.jobs), flush=True)
    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        futs = [(p, v, ex.submit(build, p, v, src, out, clxx)) for p, v, src, out in jobs]
        for p, v, fut in futs:
            b, log = fut.result()
            p["bins"][v] = b
            p["logs"][v] = log
            with open(os.path.join(work, "bin", p["suite"] + "_" + p["name"].replace("/", "_"),
                                   v, "build.log"), "w") as f:
                f.write(log)
    print("built in %.0f s" % (time.time() - t0), flush=True)
    for p in sel:
        p["plugin"] = plugin_decisions(p, os.path.join(rwork, p["suite"]), os.path.join(
            rwork, p["suite"], p["folder"]), os.path.join(
            work, "bin", p["suite"] + "_" + p["name"].replace("/", "_"), "clx"))

    # Run, interleaved.
    load0 = os.getloadavg()
    started = datetime.datetime.now()
    for p in sel:
        if p["skip"]:
            continue
        failed = [v for v, b in p["bins"].items() if b is None]
        if failed:
            p["skip"] = "build failed (%s): see %s" % (
                ", ".join(failed), os.path.join(work, "bin"))
            tail = [l.strip() for l in p["logs"][failed[0]].splitlines()
                    if re.search(r"(^|: )error:", l) or "undefined reference" in l][:3]
            if tail:
                p["skip"] += ": " + " | ".join(tail)
            continue
        tag = p["suite"] + "_" + p["name"].replace("/", "_")
        runs = {"omp": [], "clx": []} | ({"ompfix": []} if p["fix"] else {})
        for i in range(args.reps):
            order = ["omp", "clx"] if i % 2 == 0 else ["clx", "omp"]
            if p["fix"]:
                order.insert(1, "ompfix")
            for v in order:
                runs[v].append(run_once(p, v, p["bins"][v], os.path.join(work, "run", tag, v)))
        p["runs"] = runs
        # Checks.
        problems = []
        for v in runs:
            for r in runs[v]:
                c = self_check(p, r)
                if c:
                    problems.append("%s: %s" % (VARIANT_NAMES[v], c))
                    break
        agree = ""
        if p["check"] in ("prk", "babelstream"):
            agree = "validates" if not problems else "; ".join(problems)
        elif p["check"] == "polybench":
            dumps = {}
            for v in ("serial", "clx", "omp") + (("ompfix",) if p["fix"] else ()):
                d = os.path.join(work, "run", tag, v + "-dump")
                r = run_once(p, v, p["bins"][v + "-dump"], d, err_file=os.path.join(d, "dump"))
                if r["rc"] != 0:
                    problems.append("%s dump run: exit status %d" % (v, r["rc"]))
                dumps[v] = os.path.join(d, "dump")
            ref = open(dumps["serial"], "rb").read()
            worst = {}
            for v in ("clx", "omp") + (("ompfix",) if p["fix"] else ()):
                got = open(dumps[v], "rb").read()
                worst[v] = compare_dumps(ref, got) if ref != got else "equal"
                del got
            del ref

            def say(d, strong):
                if d == "equal" or d == 0.0:
                    return "= serial"
                if d is None:
                    return "**differs from serial**" if strong else "differs from serial"
                if d < 1e-9:
                    return "= serial within %.0e" % d
                return ("**differs from serial** (rel. %.1e)" if strong else
                        "differs from serial (rel. %.1e)") % d
            agree = say(worst["clx"], True)
            if worst["omp"] not in ("equal", 0.0):
                agree += " (OpenMP: %s)" % say(worst["omp"], False)
            if p["fix"]:
                agree += " (OpenMP without its races: %s)" % say(worst["ompfix"], True)
            if problems:
                agree += "; " + "; ".join(problems)
        elif isinstance(p["check"], tuple) and p["check"][0] == "stdout":
            # The compared lines of stdout, of every run, against the serial build's.
            r = run_once(p, "serial", p["bins"]["serial"], os.path.join(work, "run", tag, "serial"))
            c = self_check(p, r)
            if c:
                problems.append("serial: %s" % c)
            ref = stdout_lines(p, r["out"])
            worst = {}   # per build: "equal", the largest relative difference, or None
            for v in runs:
                for x in runs[v]:
                    d, w = compare_numbers(ref, stdout_lines(p, x["out"])), worst.get(v, "equal")
                    if d is None or w is None:
                        worst[v] = None
                    elif d != "equal":
                        worst[v] = max(d, w if isinstance(w, float) else 0.0)
                    else:
                        worst[v] = w

            def say(d):
                if d == "equal":
                    return "= serial"
                if d is None:
                    return "differs from serial"
                if d == 0.0:
                    return "= serial (rounding-level residuals aside)"
                return ("= serial within %.0e" if d < STDOUT_TOL else
                        "differs from serial (rel. %.1e)") % d
            dc, do = worst["clx"], worst["omp"]
            agree = ("output " + say(dc)) if ref else "no output to compare"
            # A difference of STDOUT_TOL or more is bold, unless the OpenMP original's own
            # differs by at least a tenth of it (a reduction's rounding in another order).
            if dc is None or (dc != "equal" and dc >= STDOUT_TOL and not (
                    isinstance(do, float) and dc <= 10 * do)):
                agree = "**%s**" % agree
            if do != "equal":
                agree += " (OpenMP: %s)" % say(do)
            if problems:
                agree += "; " + "; ".join(problems)
        elif isinstance(p["check"], tuple):
            # Against the serial build's file: an OpenMP original that races (streamcluster's)
            # writes a different file from run to run.
            fname = p["check"][1]
            r = run_once(p, "serial", p["bins"]["serial"], os.path.join(work, "run", tag, "serial"))
            if r["rc"] != 0:
                problems.append("serial run: exit status %d" % r["rc"])
            files = {}
            for v in ("serial", "omp", "clx"):
                f = os.path.join(work, "run", tag, v, fname)
                files[v] = open(f, "rb").read() if os.path.exists(f) else None
            if files["serial"] is None or files["clx"] is None:
                agree = "no %s" % fname
            else:
                agree = ("%s = serial" % fname if files["serial"] == files["clx"]
                         else "**%s differs from serial**" % fname)
                if files["omp"] != files["serial"]:
                    agree += " (OpenMP: %s)" % ("no %s" % fname if files["omp"] is None else
                                                "differs from serial")
            if problems:
                agree += "; " + "; ".join(problems)
        else:
            agree = "not checked" + ("; " + "; ".join(problems) if problems else "")
        p["agree"] = agree
        to = [r["time"] for r in runs["omp"] if r["time"] is not None]
        tc = [r["time"] for r in runs["clx"] if r["time"] is not None]
        p["t_omp"] = statistics.median(to) if to else None
        p["t_clx"] = statistics.median(tc) if tc else None
        p["spread"] = {v: (min(x), max(x)) for v, x in (("omp", to), ("clx", tc)) if x}
        p["ratio"] = (p["t_omp"] / p["t_clx"]) if p["t_omp"] and p["t_clx"] else None
        p["t_fix"] = p["ratio_fix"] = None
        if p["fix"]:
            tf = [r["time"] for r in runs["ompfix"] if r["time"] is not None]
            p["t_fix"] = statistics.median(tf) if tf else None
            p["ratio_fix"] = (p["t_fix"] / p["t_clx"]) if p["t_fix"] and p["t_clx"] else None
            if tf:
                p["spread"]["ompfix"] = (min(tf), max(tf))
        # The bar's ratio: against the race-free original where the original races.
        p["bar"] = p["ratio_fix"] if p["fix"] else p["ratio"]
        p["walls"] = {v: [round(r["wall"], 4) for r in rs] for v, rs in runs.items()}
        c = counts.get((p["suite"], p["name"]), {})
        print("%-28s OpenMP %-10s Clustrix %-10s ratio %-6s %s (wall %s, %s)" % (
            p["suite"] + "/" + p["name"], fmt_time(p["t_omp"]), fmt_time(p["t_clx"]),
            "%.2f" % p["ratio"] if p["ratio"] else "-", agree,
            fmt_time(statistics.median(p["walls"]["omp"])),
            fmt_time(statistics.median(p["walls"]["clx"]))), flush=True)
        if p["fix"]:
            print("%-28s OpenMP without its races %-10s ratio %s" % (
                "", fmt_time(p["t_fix"]), "%.2f" % p["ratio_fix"] if p["ratio_fix"] else "-"),
                flush=True)
        if (not args.no_why and c.get("all") and p["bar"] is not None and p["bar"] < 0.9):
            p["why"], _ = why(p, p["bins"]["clx"], os.path.join(work, "run", tag, "why"))
    load1 = os.getloadavg()

    # The table.
    lines = ["### Converted OpenMP programs against their originals (%s, %s)\n" % (
        started.strftime("%Y-%m-%d %H:%M"), "quick" if args.quick else "%d runs each" % args.reps),
        "Machine: %d hardware threads; load average %.2f at the start, %.2f at the end. "
        "OpenMP: OMP_NUM_THREADS=2; Clustrix: CLUSTRIX_DEVICES=cpu:2. Medians of %d runs of "
        "each build, interleaved. Ratio = OpenMP time / Clustrix time (at least 0.9: at "
        "0.9x of OpenMP's speed or better). Expert-safe: the converted loops, less those "
        "whose refusal is a proven dependence (a race in the original). Where the original "
        "races, the bar's ratio is the last column's: against the original with its racing "
        "loops made serial (compare.py's docstring).\n" % (
            os.cpu_count(), load0[0], load1[0], args.reps),
        "| suite | program | expert-safe loops | accepted | measure | OpenMP | Clustrix | ratio "
        "| all expert-safe accepted | output | OpenMP without its races | its ratio |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    skipped = []
    for p in sorted(sel, key=lambda p: SUITE_ORDER.index(p["suite"])):
        c = counts.get((p["suite"], p["name"]), {"safe": 0, "accepted": 0, "all": False,
                                                 "causes": [], "races": 0})
        if p["skip"]:
            skipped.append((p, c))
            continue
        allacc = "yes" if c["all"] else "no"
        if not c["all"] and c["causes"]:
            allacc += " (%s)" % "; ".join(sorted(set(c["causes"])))
        ratio = "%.2f" % p["ratio"] if p["ratio"] else "-"
        ratio_fix = "%.2f" % p["ratio_fix"] if p["ratio_fix"] else "-"
        if c["all"] and p["bar"] is not None and p["bar"] < 0.9:
            if p["fix"]:
                ratio_fix = "**%s**" % ratio_fix
            else:
                ratio = "**%s**" % ratio
        safe = "%d" % c["safe"] + (" (+%d racy)" % c["races"] if c["races"] else "")
        acc = "%d" % c["accepted"]
        plug = p.get("plugin")
        if plug is not None and c.get("locs") is not None:
            mine = {k: v for k, v in plug.items() if k in c["locs"]}
            if mine != c["locs"]:
                acc += " (the build's plugin: %d)" % sum(1 for v in mine.values() if v)
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            p["suite"], p["name"], safe, acc, MEASURES[p["measure"]],
            fmt_time(p["t_omp"]), fmt_time(p["t_clx"]), ratio, allacc, p["agree"],
            fmt_time(p["t_fix"]) if p["fix"] else "", ratio_fix if p["fix"] else ""))
    lines.append("")
    full = [p for p in sel if not p["skip"] and counts.get((p["suite"], p["name"]), {}).get("all")]
    met = [p for p in full if p["bar"] is not None and p["bar"] >= 0.9]
    lines.append("Programs with every expert-safe loop accepted: %d; at 0.9x of OpenMP or "
                 "better: %d%s.\n" % (len(full), len(met), "" if len(met) == len(full) else
                                       " (under: %s)" % ", ".join(
                                           p["suite"] + "/" + p["name"] for p in full
                                           if p not in met)))
    argl = ["%s/%s `%s`" % (p["suite"], p["name"], " ".join(p["run_args"]))
            for p in sel if not p["skip"] and p["suite"] != "polybench"]
    pb = [p for p in sel if not p["skip"] and p["suite"] == "polybench"]
    if pb:
        argl.append("PolyBench sizes: " + ", ".join(
            "%s `%s`" % (p["name"], " ".join(d for d in p["defs"] if "DATASET" in d or
                                             re.match(r"-D[A-Z]+=", d))) for p in pb))
    lines.append("Arguments: " + "; ".join(argl) + ".\n")
    spread = [p for p in sel if not p["skip"] and p.get("spread")]
    if spread and args.reps > 1:
        lines.append("Spread (fastest-slowest of the runs): " + "; ".join(
            "%s/%s OpenMP %s-%s, Clustrix %s-%s" % (
                p["suite"], p["name"], fmt_time(p["spread"].get("omp", (None,))[0]),
                fmt_time(p["spread"].get("omp", (None, None))[1]),
                fmt_time(p["spread"].get("clx", (None,))[0]),
                fmt_time(p["spread"].get("clx", (None, None))[1])) for p in spread) + "\n")
    if skipped or ("rodinia" in roots and not args.quick and not args.only):
        lines.append("Not compared:\n")
        for p, c in skipped:
            lines.append("- %s/%s (%d expert-safe loops, %d accepted): %s" % (
                p["suite"], p["name"], c["safe"], c["accepted"], p["skip"]))
        if "rodinia" in roots and not args.quick and not args.only:
            for n, why_ in sorted(RODINIA_SKIPPED.items()):
                c = counts.get(("rodinia", n))
                lines.append("- rodinia/%s: %s" % (n, why_))
        lines.append("")
    if fix_notes:
        lines.append("The racing loops made serial for \"OpenMP without its races\": " +
                     "; ".join(fix_notes) + ".\n")
    whys = [p for p in sel if p.get("why") is not None]
    if whys:
        lines.append("Where the loops of the rows under 0.9 ran (one more Clustrix run, "
                     "CLUSTRIX_LOG=info):\n")
        for p in whys:
            parts = []
            for site, s in sorted(p["why"].items()):
                d = "%s: %d calls, %d wide" % (site, s["calls"], s["wide"])
                if s.get("wide_time"):
                    d += " (%s per wide call)" % fmt_time(s["wide_time"] / s["wide"])
                if s["serial"]:
                    d += ", %d serial (%s)" % (s["serial"], "; ".join(
                        "%s x%d" % (text, n) for n, text in s["reasons"].values()))
                parts.append(d)
            lines.append("- %s/%s: %s" % (p["suite"], p["name"], "; ".join(parts) or
                                          "no log line"))
        lines.append("")
    text = "\n".join(lines)
    print()
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    with open(os.path.join(work, "compare.json"), "w") as f:
        json.dump([{k: v for k, v in p.items() if k in (
            "suite", "name", "run_args", "defs", "skip", "t_omp", "t_clx", "ratio", "agree",
            "why", "spread", "walls", "t_fix", "ratio_fix", "bar")} | {"times": {v: [r["time"] for r in rs] for v, rs in
                                           p.get("runs", {}).items()}} for p in sel], f,
                  indent=1)
    # Exit status 1 when a conversion's output differs or one of its runs failed (a crash, a
    # failed validation); the OpenMP originals' own races do not count.
    bad = [p for p in sel if not p["skip"] and ("**" in p.get("agree", "") or
                                                "Clustrix:" in p.get("agree", ""))]
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
