#!/usr/bin/env python3
"""LULESH 2.0 (https://github.com/LLNL/LULESH), the LLNL shock-hydrodynamics proxy application,
three ways in one run: the original built serially, the original under OpenMP, and a Clustrix
conversion. The source is fetched (git clone) or taken from --source; it is never stored in this
repository.

The conversion is mechanical: in lulesh.cc every `#pragma omp parallel for ...` line becomes
`[[cluster::gpu_parallel]]` (its clauses are firstprivate copies of scalars, which Clustrix
passes by value anyway). The few loops OpenMP runs inside `#pragma omp parallel` regions (with
per-thread arrays indexed by omp_get_thread_num) are left as they are: without -fopenmp they are
serial in the Clustrix build. Loops the analysis refuses stay serial too; the script counts the
loops accepted and refused from the compiler's remarks and warnings. lulesh.h is not edited:
loops that reach Domain's private members through its accessors, in functions that may not
name them, are refused with their reason.

Each variant runs `lulesh2.0 -s SIZE -i CYCLES` REPS times, interleaved; the table gives the
median of LULESH's own time of its main loop and checks that every run ends with the serial run's final
origin energy. The Clustrix build also runs with CLUSTRIX_AUTO_GPU_PARALLEL=off (every loop kept
serial: the cost of the rewritten program against the original).

usage: bench/proxy/lulesh.py [--source DIR] [--build DIR] [--size 15] [--cycles 400] [--reps 3]
       [--workers W] [--markdown FILE]
"""
import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
URL = "https://github.com/LLNL/LULESH.git"
SOURCES = ["lulesh.cc", "lulesh-comm.cc", "lulesh-viz.cc", "lulesh-util.cc", "lulesh-init.cc"]


def sh(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        sys.exit("lulesh: %s failed:\n%s%s" % (" ".join(cmd), p.stdout, p.stderr[-4000:]))
    return p


def fetch(args, work):
    """A LULESH 2.0 source tree: --source, or a fresh clone in work/lulesh-src."""
    if args.source:
        src = os.path.abspath(args.source)
    else:
        src = os.path.join(work, "lulesh-src")
        if not os.path.exists(os.path.join(src, "lulesh.cc")):
            shutil.rmtree(src, ignore_errors=True)
            p = subprocess.run(["git", "clone", "--depth", "1", URL, src], capture_output=True,
                               text=True)
            if p.returncode != 0:
                sys.exit("lulesh: cannot clone %s (%s); pass --source DIR with a LULESH 2.0 "
                         "checkout" % (URL, p.stderr.strip().splitlines()[-1:]))
    missing = [f for f in SOURCES + ["lulesh.h", "lulesh_tuple.h"]
               if not os.path.exists(os.path.join(src, f))]
    if missing:
        sys.exit("lulesh: %s is not a LULESH 2.0 tree (no %s)" % (src, ", ".join(missing)))
    return src


def convert(text):
    """lulesh.cc with `#pragma omp parallel for ...` lines replaced; returns (text, count)."""
    pattern = re.compile(r"^([ \t]*)#pragma omp parallel for\b.*$", re.M)
    return pattern.subn(r"\1[[cluster::gpu_parallel]]", text)


def build(args, src, work):
    """Builds serial, omp and clustrix binaries; returns their paths and the loop counts."""
    out = os.path.join(work, "lulesh")
    os.makedirs(out, exist_ok=True)
    for f in SOURCES + ["lulesh.h", "lulesh_tuple.h"]:
        shutil.copy(os.path.join(src, f), out)
    clxdir = os.path.join(out, "clx")
    os.makedirs(clxdir, exist_ok=True)
    with open(os.path.join(out, "lulesh.cc")) as f:
        clx, converted = convert(f.read())
    with open(os.path.join(clxdir, "lulesh-clx.cc"), "w") as f:
        f.write(clx)
    # lulesh.h as it is: loops that reach Domain's private members through its accessors from
    # functions that may not name them are refused (design rule 7), never a broken build.
    shutil.copy(os.path.join(out, "lulesh.h"), clxdir)
    shutil.copy(os.path.join(out, "lulesh_tuple.h"), clxdir)
    flags = ["-std=c++17", "-O2", "-DUSE_MPI=0", "-w", "-I" + out]
    lib = os.path.join(args.build, "lib")
    others = [os.path.join(out, f) for f in SOURCES[1:]]
    bins = {}

    def objects(extra, tag):
        # The other files have no parallel loops, but lulesh-init.cc builds OpenMP's per-thread
        # structures only under -fopenmp: compiled once per kind of build.
        objs = []
        for f in others:
            o = os.path.join(out, os.path.basename(f) + "." + tag + ".o")
            sh([args.clangxx] + flags + extra + ["-c", f, "-o", o])
            objs.append(o)
        return objs

    objs = objects([], "plain")
    bins["serial"] = os.path.join(out, "lulesh-serial")
    sh([args.clangxx] + flags + [os.path.join(out, "lulesh.cc")] + objs + ["-o", bins["serial"]])
    bins["omp"] = os.path.join(out, "lulesh-omp")
    sh([args.clangxx] + flags + ["-fopenmp", os.path.join(out, "lulesh.cc")] +
       objects(["-fopenmp"], "omp") + ["-o", bins["omp"]])
    bins["clustrix"] = os.path.join(out, "lulesh-clustrix")
    p = sh([os.path.join(args.build, "bin", "clustrix++")] + flags[:-1] +
           ["-I" + clxdir, "-Wno-unknown-pragmas", "-c", os.path.join(clxdir, "lulesh-clx.cc"),
            "-o", os.path.join(out, "lulesh-clx.o")])
    log = p.stderr
    accepted = len(re.findall(r"remark: loop parallelized", log))
    refused = len(re.findall(r"warning: loop not parallelized", log))
    with open(os.path.join(out, "clustrix-diagnostics.txt"), "w") as f:
        f.write(log)
    sh([args.clangxx, os.path.join(out, "lulesh-clx.o")] + objs +
       ["-o", bins["clustrix"], "-L" + lib, "-Wl,-rpath," + lib, "-lclustrix_rt", "-pthread"])
    return bins, converted, accepted, refused


def run(binary, args, env_extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLUSTRIX_")}
    env.update(env_extra)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = sh([binary, "-s", str(args.size), "-i", str(args.cycles)], env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    # "Elapsed time" is printed to 10 ms; the overall grind time (us per zone and cycle) is the
    # same measurement at full precision.
    g = re.search(r"Grind time \(us/z/c\).*\(\s*(\S+) overall\)", p.stdout)
    e = re.search(r"Final Origin Energy\s*=\s*(\S+)", p.stdout)
    if not g or not e:
        sys.exit("lulesh: unexpected output of %s:\n%s" % (binary, p.stdout))
    return float(g.group(1)) * args.size ** 3 * args.cycles / 1e6, float(e.group(1)), cpu


def instructions_per_cycle(binary, args, env_extra):
    """Instructions of one cycle, counted by callgrind: the difference between a run of 10 and
    one of 60 cycles, so that set-up cancels out. None without valgrind."""
    if not shutil.which("valgrind"):
        return None
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLUSTRIX_")}
    env.update(env_extra)
    counts = []
    for cycles in (10, 60):
        p = sh(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", binary, "-s",
                str(args.size), "-i", str(cycles)], env=env)
        counts.append(int(re.search(r"Collected : (\d+)", p.stderr).group(1)))
    return (counts[1] - counts[0]) / 50.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", help="a LULESH 2.0 checkout (default: git clone %s)" % URL)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--size", type=int, default=15, help="elements per edge (default 15)")
    ap.add_argument("--cycles", type=int, default=400, help="time steps (default 400)")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--workers", type=int, default=os.cpu_count())
    ap.add_argument("--markdown", help="append the table to this file")
    args = ap.parse_args()
    args.build = os.path.abspath(args.build)
    args.clangxx = shutil.which("clang++-19")
    if not args.clangxx:
        sys.exit("lulesh: clang++-19 is needed (scripts/install-deps.sh)")
    work = os.path.join(ROOT, "bench", "results", "work")
    os.makedirs(work, exist_ok=True)
    src = fetch(args, work)
    bins, converted, accepted, refused = build(args, src, work)
    w = str(args.workers)
    variants = [
        ("serial (original, no OpenMP)", bins["serial"], {}),
        ("OpenMP (%s threads)" % w, bins["omp"], {"OMP_NUM_THREADS": w}),
        ("Clustrix (%s workers)" % w, bins["clustrix"], {"CLUSTRIX_DEVICES": "cpu:" + w}),
        ("Clustrix, every loop kept serial", bins["clustrix"],
         {"CLUSTRIX_AUTO_GPU_PARALLEL": "off"}),
    ]
    times = [[] for _ in variants]
    cpus = [[] for _ in variants]
    energies = [[] for _ in variants]
    for _ in range(args.reps):
        for i, (_, b, env) in enumerate(variants):
            t, e, c = run(b, args, env)
            times[i].append(t)
            energies[i].append(e)
            cpus[i].append(c)
    ref = energies[0][0]
    med = [statistics.median(t) for t in times]
    cpu = [statistics.median(c) for c in cpus]
    best = min(med[0], med[1])
    lines = ["## LULESH 2.0, -s %d (%d elements), %d cycles\n" % (
                 args.size, args.size ** 3, args.cycles),
             "%d `omp parallel for` loops converted; the compiler accepted %d and refused %d "
             "(refused loops run serially). Median of %d runs each, interleaved; time is "
             "LULESH's own measurement of its main loop (wall clock); CPU time, the steadier "
             "measure of the single-threaded variants on a busy machine, is the process's.\n" % (converted, accepted, refused, args.reps),
             "| variant | time | time / serial's | speed / the better of serial and OpenMP | "
             "CPU time of the process (all threads, with set-up) | CPU / serial's | "
             "final energy = serial |",
             "|---|---|---|---|---|---|---|"]
    for i, (name, _, _) in enumerate(variants):
        same = all(abs(e - ref) <= 1e-9 * abs(ref) for e in energies[i])
        lines.append("| %s | %.3f s | %.3fx | %.3fx | %.3f s | %.3fx | %s |" % (
            name, med[i], med[i] / med[0], best / med[i], cpu[i], cpu[i] / cpu[0],
            "yes" if same else "**NO**"))
    lines.append("")
    serial_ins = instructions_per_cycle(bins["serial"], args, {})
    kept_ins = instructions_per_cycle(bins["clustrix"], args,
                                      {"CLUSTRIX_AUTO_GPU_PARALLEL": "off"})
    if serial_ins and kept_ins:
        lines.append("Instructions per cycle (callgrind, exact): the original %.2f M, the Clustrix "
                     "build with every loop kept serial %.2f M (%.4fx).\n" % (
                         serial_ins / 1e6, kept_ins / 1e6, kept_ins / serial_ins))
    text = "\n".join(lines)
    print(text)
    if args.markdown:
        with open(args.markdown, "a") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
