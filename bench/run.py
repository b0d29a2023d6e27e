#!/usr/bin/env python3
"""Clustrix benchmarks: every loop serial, through Clustrix, and under OpenMP, on this machine in
one run; the fixed cost of a small loop; the plugin's compile-time cost; and, where a CUDA GPU and
nvcc are present, Clustrix on the GPU against hand-written CUDA.

Writes bench/results/results.md (markdown tables), results.dat and speedup.png (gnuplot), and
prints the tables. Needs clang++-19 and libomp-19-dev; gnuplot (scripts/install-deps.sh installs it) draws the
plot when present.

usage: bench/run.sh [--build DIR] [--reps R] [--quick]
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "bench")

# (loop, trip-count argument, what it stands for)
LOOPS = [
    ("saxpy", 8_000_000, "memory-bound: y[i] = a*x[i] + y[i]"),
    ("dot", 8_000_000, "floating-point reduction, reduce(+: s)"),
    ("jacobi", 1024, "one 5-point sweep over 1024x1024, parallel over rows"),
    ("traces", 64, "64 products of 64x64 matrices (the matrix example's loop)"),
    ("paths", 200_000, "independent Monte-Carlo paths, transcendental-heavy"),
]
QUICK_SIZES = {"saxpy": 1_000_000, "dot": 1_000_000, "jacobi": 256, "traces": 16, "paths": 20_000}


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


def clean_env(extra=None):
    env = dict(os.environ)
    for var in list(env):
        if var.startswith("CLUSTRIX_"):
            del env[var]
    env.update(extra or {})
    return env


def run_loop(binary, how, what, n, reps, env_extra):
    """Returns (median ns, checksum, Clustrix log lines)."""
    env = clean_env(env_extra)
    env["CLUSTRIX_LOG"] = "info"
    p = subprocess.run([binary, how, what, str(n), str(reps)], env=env, check=True,
                       capture_output=True, text=True)
    m = re.search(r"median_ns (\S+) check (\S+)", p.stdout)
    log = [l for l in p.stderr.splitlines() if l.startswith("clustrix: ")]
    return float(m.group(1)), float(m.group(2)), log


def where(log):
    """'2 devices' or 'serial (reason)' from the runtime's info lines of a run."""
    if not log:
        return "-"
    last = log[-1].split(": ", 2)[-1]
    m = re.match(r"parallel on (\d+) devices \(([^)]*)\)", last)
    if m:
        return "%s devices (%s)" % (m.group(1), m.group(2))
    return last.replace("|", "/")


def fmt_time(ns):
    if ns >= 1e6:
        return "%.2f ms" % (ns / 1e6)
    if ns >= 1e3:
        return "%.2f us" % (ns / 1e3)
    return "%.0f ns" % ns


def build_cpu(args, work):
    lib = os.path.join(args.build, "lib")
    wrapper = os.path.join(args.build, "bin", "clustrix++")
    binary = os.path.join(work, "BenchLoops")
    loops = os.path.join(BENCH, "loops")
    sh([wrapper, "-O2", "--clustrix-remarks=off", "-c", os.path.join(loops, "BenchLoops.cpp"),
        "-o", os.path.join(work, "BenchLoops.o")])
    sh([args.clangxx, "-std=c++17", "-O2", "-fopenmp", "-c", os.path.join(loops, "BenchOmp.cpp"),
        "-o", os.path.join(work, "BenchOmp.o")])
    sh([args.clangxx, "-fopenmp", os.path.join(work, "BenchLoops.o"),
        os.path.join(work, "BenchOmp.o"), "-o", binary, "-L" + lib, "-Wl,-rpath," + lib,
        "-lclustrix_rt", "-pthread"])
    return binary


def cpu_tables(args, binary, out):
    w = args.workers
    base = {"CLUSTRIX_DEVICES": "cpu:%d" % w, "OMP_NUM_THREADS": str(w)}
    forced = dict(base, CLUSTRIX_SERIAL_THRESHOLD="0")
    rows, dat = [], []
    for what, n, desc in LOOPS:
        if args.quick:
            n = QUICK_SIZES[what]
        t = {}
        t["serial"], ck_serial, _ = run_loop(binary, "serial", what, n, args.reps, base)
        t["omp"], ck_omp, _ = run_loop(binary, "omp", what, n, args.reps, base)
        t["clx"], ck_clx, log = run_loop(binary, "clustrix", what, n, args.reps, base)
        ran = where(log)
        t["forced"], ck_forced, flog = (t["clx"], ck_clx, log)
        if "serial" in ran:
            t["forced"], ck_forced, flog = run_loop(binary, "clustrix", what, n, args.reps, forced)
        same = all(abs(c - ck_serial) <= 1e-12 * max(1.0, abs(ck_serial))
                   for c in (ck_omp, ck_clx, ck_forced))
        rows.append("| %s | %s | %s | %s | %s | %.2fx | %.2fx | %s | %s |" % (
            what, n, fmt_time(t["serial"]), fmt_time(t["omp"]), fmt_time(t["clx"]),
            t["serial"] / t["clx"], t["omp"] / t["clx"], ran,
            "yes" if same else "**NO**"))
        if "serial" in ran:
            rows.append("| %s, forced wide | %s | | | %s | %.2fx | %.2fx | %s | |" % (
                what, n, fmt_time(t["forced"]), t["serial"] / t["forced"],
                t["omp"] / t["forced"], where(flog)))
        dat.append((what, 1.0, t["serial"] / t["omp"], t["serial"] / t["clx"],
                    t["serial"] / t["forced"]))
    out.append("## Large loops, CPU (%d workers for both OpenMP and Clustrix)\n" % w)
    out.append("Medians of %d calls each (after one warm-up call), every variant in its own "
               "process. Speed-up is serial time / Clustrix time; Clustrix/OpenMP is OpenMP time "
               "/ Clustrix time (above 1: Clustrix faster). \"ran on\" is the runtime's own log "
               "line. \"forced wide\" repeats a loop the runtime kept serial with "
               "CLUSTRIX_SERIAL_THRESHOLD=0.\n" % args.reps)
    out.append("| loop | trip count | serial | OpenMP | Clustrix | speed-up | Clustrix/OpenMP "
               "| ran on | result = serial |")
    out.append("|---|---|---|---|---|---|---|---|---|")
    out.extend(rows)
    out.append("")
    out.append("Loops: " + "; ".join("`%s`: %s" % (w_, d) for w_, _, d in LOOPS) + ".\n")

    # Fixed cost of one small loop.
    n, reps = 1024, max(201, args.reps)
    small = {}
    small["serial"] = run_loop(binary, "serial", "saxpy", n, reps, base)[0]
    small["omp"] = run_loop(binary, "omp", "saxpy", n, reps, base)[0]
    small["auto"], _, alog = run_loop(binary, "clustrix", "saxpy", n, reps, base)
    small["wide"], _, wlog = run_loop(binary, "clustrix", "saxpy", n, reps,
                                      dict(forced, CLUSTRIX_MIN_ITERS_PER_DEVICE="1"))
    out.append("## Fixed cost of a small loop (saxpy, %d iterations, median of %d calls)\n" %
               (n, reps))
    out.append("| variant | time per loop | vs OpenMP | ran on |")
    out.append("|---|---|---|---|")
    out.append("| serial | %s | %.2fx | |" % (fmt_time(small["serial"]), small["serial"] / small["omp"]))
    out.append("| OpenMP `parallel for` | %s | 1.00x | %d threads |" % (fmt_time(small["omp"]), w))
    out.append("| Clustrix, runtime decides | %s | %.2fx | %s |" % (
        fmt_time(small["auto"]), small["auto"] / small["omp"], where(alog)))
    out.append("| Clustrix, forced wide | %s | %.2fx | %s |" % (
        fmt_time(small["wide"]), small["wide"] / small["omp"], where(wlog)))
    out.append("")
    return dat


# Fine-grained loops (bench/fine): (loop, what it stands for).
FINE = [
    ("triad", "memory-bound: a[i] = b[i] + s*c[i]"),
    ("poly", "compute-bound: a degree-24 polynomial and a division per element"),
    ("dot", "a reduction, reduce(+: s)"),
]
FINE_SIZES = [1000, 3000, 10000]
HYDRO_EDGE = 15  # 15^3 = 3,375 elements, 4,096 nodes


def build_fine(args, work):
    """The FineLoops program: bench/fine/FineKernels.cpp three times (serial, Clustrix, OpenMP)."""
    lib = os.path.join(args.build, "lib")
    wrapper = os.path.join(args.build, "bin", "clustrix++")
    fine = os.path.join(BENCH, "fine")
    kernels = os.path.join(fine, "FineKernels.cpp")
    o = lambda name: os.path.join(work, name)
    sh([args.clangxx, "-std=c++17", "-O2", "-c", kernels, "-o", o("fine-serial.o")])
    sh([wrapper, "-O2", "--clustrix-remarks=off", "-DFINE_CLUSTRIX", "-c", kernels, "-o",
        o("fine-clustrix.o")])
    sh([args.clangxx, "-std=c++17", "-O2", "-fopenmp", "-c", kernels, "-o", o("fine-omp.o")])
    sh([args.clangxx, "-std=c++17", "-O2", "-c", os.path.join(fine, "FineMain.cpp"), "-o",
        o("fine-main.o")])
    binary = o("FineLoops")
    sh([args.clangxx, "-fopenmp", o("fine-main.o"), o("fine-serial.o"), o("fine-clustrix.o"),
        o("fine-omp.o"), "-o", binary, "-L" + lib, "-Wl,-rpath," + lib, "-lclustrix_rt",
        "-pthread"])
    return binary


def fine_run(binary, how, what, n, calls, env_extra):
    """(wall ns per call, checksum, CPU ns per call) of one FineLoops process."""
    p = subprocess.run([binary, how, what, str(n), str(calls)], env=clean_env(env_extra),
                       check=True, capture_output=True, text=True)
    m = re.search(r"ns_per_call (\S+) check (\S+) cpu_ns_per_call (\S+)", p.stdout)
    return float(m.group(1)), float(m.group(2)), float(m.group(3))


def fine_instructions(binary, how, what, n, env_extra):
    """Instructions per call, counted by callgrind: the difference between two runs of
    different lengths, so that start-up and warm-up cancel out. None without valgrind."""
    if not shutil.which("valgrind"):
        return None
    few, many = (20, 220) if what == "hydro" else (100, 1100)
    counts = []
    for calls in (few, many):
        p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                            binary, how, what, str(n), str(calls)], env=clean_env(env_extra),
                           check=True, capture_output=True, text=True)
        counts.append(int(re.search(r"Collected : (\d+)", p.stderr).group(1)))
    executed = lambda c: c + c // 10 + 1
    return (counts[1] - counts[0]) / (executed(many) - executed(few))


def fine_choice(binary, what, n, env):
    """What the runtime chose for the loops of a shape, from the info log of a short run."""
    p = subprocess.run([binary, "clustrix", what, str(n), "200"],
                       env=clean_env(dict(env, CLUSTRIX_LOG="info")), check=True,
                       capture_output=True, text=True)
    last = {}
    for line in p.stderr.splitlines():
        m = re.match(r"clustrix: .*:(\d+): (serial|parallel)", line)
        if m:
            last[m.group(1)] = m.group(2)
    kinds = sorted(last.values())
    return ", ".join("%d %s" % (kinds.count(k), k) for k in sorted(set(kinds))) or "-"


def fine_tables(args, out):
    """Loops of 1k-10k iterations called many times, and the dependent loops of a hydro cycle:
    serial, OpenMP, Clustrix (deciding) and Clustrix with every loop kept serial, in one run,
    interleaved; medians of --fine-reps processes."""
    work = os.path.join(BENCH, "results", "work")
    binary = build_fine(args, work)
    w = args.workers
    base = {"CLUSTRIX_DEVICES": "cpu:%d" % w, "OMP_NUM_THREADS": str(w)}
    variants = [("serial", "serial", {}), ("omp", "omp", {}), ("clx", "clustrix", {}),
                ("kept", "clustrix", {"CLUSTRIX_AUTO_GPU_PARALLEL": "off"})]
    calls = args.fine_calls // 10 if args.quick else args.fine_calls
    cycles = args.hydro_cycles // 10 if args.quick else args.hydro_cycles
    shapes = [(what, n, calls, desc) for what, desc in FINE for n in FINE_SIZES]
    shapes.append(("hydro", HYDRO_EDGE, cycles,
                   "one cycle of seven dependent element and node loops (%d elements)" %
                   HYDRO_EDGE ** 3))
    rows = []
    for what, n, count, _ in shapes:
        t = {k: [] for k, _, _ in variants}
        cpu = {k: [] for k, _, _ in variants}
        checks = {}
        for _ in range(args.fine_reps):
            for key, how, extra in variants:
                ns, ck, cns = fine_run(binary, how, what, n, count, dict(base, **extra))
                t[key].append(ns)
                cpu[key].append(cns)
                checks.setdefault(key, ck)
        med = {k: statistics.median(v) for k, v in t.items()}
        cpu_med = {k: statistics.median(v) for k, v in cpu.items()}
        ins = None
        if not args.quick:
            i_serial = fine_instructions(binary, "serial", what, n, base)
            i_kept = fine_instructions(binary, "clustrix", what, n,
                                       dict(base, CLUSTRIX_AUTO_GPU_PARALLEL="off"))
            if i_serial and i_kept:
                ins = (i_kept - i_serial, i_kept / i_serial)
        best = min(med["serial"], med["omp"])
        ref = checks["serial"]
        tol = 1e-9 if what in ("dot", "hydro") else 0.0
        same = all(abs(c - ref) <= tol * max(1.0, abs(ref)) for c in checks.values())
        iters = "%d^3" % n if what == "hydro" else str(n)
        rows.append("| %s | %s | %d | %s | %s | %s | %.2fx | %s / %s | %.3fx | %s | %s | %s |" % (
            what, iters, count, fmt_time(med["serial"]), fmt_time(med["omp"]),
            fmt_time(med["clx"]), best / med["clx"], fmt_time(cpu_med["serial"]),
            fmt_time(cpu_med["kept"]), cpu_med["kept"] / cpu_med["serial"],
            "%+.0f (%.4fx)" % ins if ins else "-", fine_choice(binary, what, n, base),
            "yes" if same else "**NO**"))
    out.append("## Fine-grained loops (%d workers for both OpenMP and Clustrix)\n" % w)
    out.append("Time per call (per cycle for hydro): medians of %d processes per variant, the "
               "variants interleaved; each process makes the given number of calls after a "
               "tenth as many warm-up calls. **vs best** is the better of serial and OpenMP "
               "divided by Clustrix (at least 0.95 is the target). **kept serial** is the "
               "Clustrix build with CLUSTRIX_AUTO_GPU_PARALLEL=off against the original, both "
               "single-threaded, by CPU time per call (medians, the same processes; steadier "
               "than wall time on a busy machine; at most 1.02x is the target) and by "
               "instructions per call (callgrind, exact: the difference and the ratio). "
               "**chosen** is what the runtime settled on for each loop of the shape (its info "
               "log, a separate run).\n" % args.fine_reps)
    out.append("| loop | iterations | calls | serial | OpenMP | Clustrix | vs best | CPU per call: "
               "original / kept serial | kept / original | instructions per call: kept - "
               "original | chosen | result = serial |")
    out.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
    out.extend(rows)
    out.append("")
    out.append("Loops: " + "; ".join("`%s`: %s" % (w_, d) for w_, d in FINE) +
               "; `hydro`: %s.\n" % shapes[-1][3])


def interleaved_times(cmds, runs):
    """Median wall and CPU (user+sys) seconds of each command, runs interleaved A B A B ... so
    that a change in the machine's load hits every command alike."""
    wall = [[] for _ in cmds]
    cpu = [[] for _ in cmds]
    for r in range(runs + 2):
        for i, cmd in enumerate(cmds):
            before = os.times()
            t0 = time.perf_counter()
            p = subprocess.run(cmd, capture_output=True, text=True)
            t1 = time.perf_counter()
            if p.returncode != 0:
                sys.exit("bench: %s failed:\n%s" % (" ".join(cmd), p.stderr))
            after = os.times()
            if r >= 2:  # two warm-up rounds
                wall[i].append(t1 - t0)
                cpu[i].append((after.children_user - before.children_user) +
                              (after.children_system - before.children_system))
    return [statistics.median(w) for w in wall], [statistics.median(c) for c in cpu]


def instructions(cmds):
    """Instructions each command executes, counted by callgrind (all at once, in parallel): a
    deterministic measure, read beside the CPU times on a noisy machine. None without valgrind.

    The plugin's one-parse compile forks (lib/Plugin/OneParse.h), and a forked child's counts
    start from its parent's. So callgrind dumps and zeroes the counts just before the fork (the
    parent's analyseInChild), and a command's count is the sum of every part of every process
    it ran."""
    valgrind = shutil.which("valgrind")
    if not valgrind:
        return None
    dirs = [tempfile.mkdtemp(prefix="clx-cg-") for _ in cmds]
    procs = [subprocess.Popen([valgrind, "--tool=callgrind",
                               "--callgrind-out-file=" + os.path.join(d, "cg.%p"),
                               "--dump-before=*OneParse::analyseInChild(*"] + c,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
             for c, d in zip(cmds, dirs)]
    counts = []
    for p, d in zip(procs, dirs):
        err = p.communicate()[1]
        if p.returncode != 0 or "Collected" not in err:
            sys.exit("bench: callgrind failed:\n" + err)
        total = 0
        for name in os.listdir(d):
            with open(os.path.join(d, name), errors="replace") as f:
                for line in f:
                    if line.startswith("summary:"):
                        total += int(line.split()[1])
        shutil.rmtree(d)
        counts.append(total)
    return counts


def compile_table(args, work, out):
    plugin = os.path.join(args.build, "lib", "clustrix.so")
    inc = os.path.join(ROOT, "runtime", "include")
    runs = 5 if args.quick else 15
    rows = []
    # parse=twice (the plugin's parse of its own before the compile) is shown for reference.
    for tu, target, extra in [("plain.cpp", 1.03, []), ("annotated.cpp", 1.3, []),
                              ("annotated.cpp", None, ["-fplugin-arg-clustrix-parse=twice"])]:
        src = os.path.join(BENCH, "compile", tu)
        obj = os.path.join(work, tu + ".o")
        plain = [args.clangxx, "-std=c++17", "-O2", "-Wno-unknown-attributes", "-c", src, "-o", obj]
        withp = [args.clangxx, "-std=c++17", "-O2", "-fplugin=" + plugin,
                 "-fplugin-arg-clustrix-remarks=off", "-I" + inc] + extra + ["-c", src, "-o", obj]
        (wa, wb), (ca, cb) = interleaved_times([plain, withp], runs)
        ratio = cb / ca
        counts = None if args.quick else instructions([plain, withp[:-1] + [obj + ".p"]])
        ins = "%.2f G / %.2f G (%.3fx)" % (counts[0] / 1e9, counts[1] / 1e9,
                                           counts[1] / counts[0]) if counts else "-"
        goal = ("at most %.2fx: %s" % (target, "met" if ratio <= target else "**not met**")
                if target else "reference")
        rows.append("| %s | %.3f s | %.3f s | %.3fx | %.3f s / %.3f s (%.3fx) | %s | %s |"
                    % (tu + (" (%s)" % extra[0].split("-")[-1] if extra else ""), ca, cb, ratio,
                       wa, wb, wb / wa, ins, goal))
    out.append("## Compile time: clang++-19 -O2 -c, with and without the plugin\n")
    out.append("Medians of %d runs each, the two commands interleaved; CPU time (user + system "
               "of the compiler processes) is the measure, since it is far less disturbed by "
               "other load than wall time, which is shown too. Instructions (callgrind, not in "
               "--quick runs) are exact and repeatable, a check on the noise. `plain.cpp` has no "
               "annotation; `annotated.cpp` is the same code with six annotated loops.\n" % runs)
    out.append("| translation unit | clang++-19 CPU | with the plugin CPU | ratio | wall: plain / "
               "plugin | instructions: plain / plugin | target |")
    out.append("|---|---|---|---|---|---|---|")
    out.extend(rows)
    out.append("")


def gpu_tables(args, cpu_binary, work, out):
    """Clustrix on the GPU against hand-written CUDA, where both a GPU and nvcc exist."""
    nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc"
                                    if os.path.exists("/usr/local/cuda/bin/nvcc") else None)
    probe = subprocess.run([args.devices_tool, "--probe"], capture_output=True, text=True).stdout
    m = re.search(r"GPU_COUNT:(\d+)", probe)
    gpus = int(m.group(1)) if m else 0
    out.append("## GPU\n")
    if not nvcc or gpus == 0 or cpu_binary is None:
        why = "no nvcc" if not nvcc else "no CUDA GPU visible" if gpus == 0 else "no benchmark binary"
        out.append("Skipped on this machine (%s). On a machine with a CUDA GPU and nvcc, this "
                   "section compares Clustrix on the GPU with hand-written CUDA "
                   "(bench/gpu/HandWritten.cu).\n" % why)
        print("bench: GPU half skipped (%s)" % why, file=sys.stderr)
        return
    hw = os.path.join(work, "HandWritten")
    sh([nvcc, "-O2", "-std=c++17", os.path.join(BENCH, "gpu", "HandWritten.cu"), "-o", hw])
    name = re.search(r"GPU_0:([^|]*)", probe)
    bw = sh([hw, "bandwidth", str(64 << 20), str(args.reps)]).stdout.split()
    d2d, h2d = float(bw[1]), float(bw[3])
    out.append("Device: %s. Measured copy bandwidth: device-to-device %.1f GB/s, pinned "
               "host-to-device %.1f GB/s, device-to-host %s GB/s.\n" % (
                   name.group(1) if name else "GPU 0", d2d, h2d, bw[5]))
    out.append("| loop | trip count | hand-written CUDA (with copies) | its kernel | Clustrix GPU "
               "| Clustrix / hand-written | ran on | result = serial |")
    out.append("|---|---|---|---|---|---|---|---|")
    env = {"CLUSTRIX_DEVICES": "cuda"}
    for what, n, _ in LOOPS:
        if what == "traces":
            continue  # no hand-written version
        _, ck_serial, _ = run_loop(cpu_binary, "serial", what, n, 1, {})
        hw_out = sh([hw, what, str(n), str(args.reps)]).stdout.split()
        t_hw, k_hw = float(hw_out[1]), float(hw_out[5])
        t_clx, ck, log = run_loop(cpu_binary, "clustrix", what, n, args.reps, env)
        same = abs(ck - ck_serial) <= 1e-9 * max(1.0, abs(ck_serial))
        out.append("| %s | %d | %s | %s | %s | %.2fx | %s | %s |" % (
            what, n, fmt_time(t_hw), fmt_time(k_hw), fmt_time(t_clx), t_hw / t_clx, where(log),
            "yes" if same else "**NO**"))
    out.append("")


def plot(dat, work, results):
    path = os.path.join(results, "results.dat")
    with open(path, "w") as f:
        f.write("# loop serial openmp clustrix clustrix_forced  (speed-up over serial)\n")
        for row in dat:
            f.write("%s %.3f %.3f %.3f %.3f\n" % row)
    if not shutil.which("gnuplot"):
        print("bench: gnuplot not found, no plot", file=sys.stderr)
        return
    png = os.path.join(results, "speedup.png")
    script = """
set terminal pngcairo size 900,480 font ",11"
set output '%s'
set title 'Speed-up over the serial loop (CPU, this machine)'
set style data histogram
set style histogram cluster gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set ylabel 'serial time / time'
set yrange [0:*]
set grid ytics
set key top left
plot '%s' using 3:xtic(1) title 'OpenMP parallel for', '' using 4 title 'Clustrix (runtime decides)', '' using 5 title 'Clustrix (forced wide)', 1 with lines lc rgb 'black' dt 2 title 'serial'
""" % (png, path)
    subprocess.run(["gnuplot"], input=script, text=True, check=True)


def proxy_table(args, out):
    """LULESH through bench/proxy/lulesh.py; a note instead when its source cannot be had."""
    cmd = [sys.executable, os.path.join(BENCH, "proxy", "lulesh.py"), "--build", args.build,
           "--workers", str(args.workers), "--reps", str(args.fine_reps), "--cycles",
           str(args.lulesh_cycles // 10 if args.quick else args.lulesh_cycles)]
    if args.lulesh_source:
        cmd += ["--source", args.lulesh_source]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        out.append("## LULESH 2.0\n")
        out.append("Not run: %s\n" % (p.stderr.strip().splitlines() or ["failed"])[-1])
        return
    out.append(p.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"),
                    help="a configured and built Clustrix build tree (default: build)")
    ap.add_argument("--reps", type=int, default=7, help="timed calls per variant (default 7)")
    ap.add_argument("--workers", type=int, default=os.cpu_count(),
                    help="CPU workers and OpenMP threads (default: all hardware threads)")
    ap.add_argument("--quick", action="store_true", help="small sizes, for a smoke test")
    ap.add_argument("--only", default="cpu,fine,proxy,compile,gpu",
                    help="comma-separated sections to run (default: all): cpu (large loops and "
                         "the fixed cost), fine (fine-grained loops), proxy (LULESH), compile, gpu")
    ap.add_argument("--fine-calls", type=int, default=100000,
                    help="calls per process of each fine-grained loop (default 100000)")
    ap.add_argument("--hydro-cycles", type=int, default=20000,
                    help="cycles per process of the hydro sequence (default 20000)")
    ap.add_argument("--fine-reps", type=int, default=3,
                    help="processes per variant of each fine-grained shape (default 3)")
    ap.add_argument("--lulesh-source", help="a LULESH 2.0 checkout for the proxy section "
                                            "(default: bench/proxy/lulesh.py clones it)")
    ap.add_argument("--lulesh-cycles", type=int, default=1000,
                    help="LULESH time steps per run (default 1000)")
    ap.add_argument("--gpu-only", action="store_true",
                    help="only the GPU half, with a prebuilt --binary (a GPU machine without "
                         "clang; scripts/gpu-bundle.sh builds one)")
    ap.add_argument("--binary", help="with --gpu-only: the BenchLoops program")
    ap.add_argument("--devices-tool", help="clustrix-devices (default: BUILD/bin/clustrix-devices)")
    args = ap.parse_args()
    args.build = os.path.abspath(args.build)
    args.devices_tool = args.devices_tool or os.path.join(args.build, "bin", "clustrix-devices")
    results = os.path.join(BENCH, "results")
    work = os.path.join(results, "work")
    if args.gpu_only:
        if not args.binary:
            sys.exit("bench: --gpu-only needs --binary")
        os.makedirs(work, exist_ok=True)
        out = ["# Clustrix benchmark results, GPU half\n",
               "Host: %d hardware threads; %s.\n" % (os.cpu_count(), time.strftime("%Y-%m-%d %H:%M"))]
        gpu_tables(args, os.path.abspath(args.binary), work, out)
        text = "\n".join(out)
        with open(os.path.join(results, "results.md"), "w") as f:
            f.write(text)
        print(text)
        return
    args.clangxx = shutil.which("clang++-19")
    if not args.clangxx:
        sys.exit("bench: clang++-19 is needed (scripts/install-deps.sh)")
    for f in ["bin/clustrix++", "lib/clustrix.so"]:
        if not os.path.exists(os.path.join(args.build, f)):
            sys.exit("bench: %s not found; build Clustrix first (ninja -C build)" %
                     os.path.join(args.build, f))
    os.makedirs(work, exist_ok=True)

    cpu = subprocess.run(["sh", "-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"],
                         capture_output=True, text=True).stdout.strip() or "unknown CPU"
    out = ["# Clustrix benchmark results\n",
           "Machine: %s, %d hardware threads; load average %s at the start; %s.\n" % (
               cpu, os.cpu_count(), "%.2f" % os.getloadavg()[0],
               time.strftime("%Y-%m-%d %H:%M"))]
    only = set(args.only.split(","))
    binary = build_cpu(args, work) if only & {"cpu", "gpu"} else None
    dat = cpu_tables(args, binary, out) if "cpu" in only else None
    if "fine" in only:
        fine_tables(args, out)
    if "proxy" in only:
        proxy_table(args, out)
    if "compile" in only:
        compile_table(args, work, out)
    if "gpu" in only:
        gpu_tables(args, binary, work, out)
    text = "\n".join(out)
    with open(os.path.join(results, "results.md"), "w") as f:
        f.write(text)
    if dat:
        plot(dat, work, results)
    print(text)
    print("bench: wrote %s/results.md, results.dat, speedup.png" % results, file=sys.stderr)


if __name__ == "__main__":
    main()
